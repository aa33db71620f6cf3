"""Rating rules, without a database: ranks, ties, Keft, a bot in several seats."""

from __future__ import annotations

import pytest

from games import registry
from ratings.models import DEFAULT_MU, DEFAULT_SIGMA, display
from ratings.services import Seat, ranks, rate


def test_places_are_ranks_and_ties_share_one():
    seats = [Seat(1, 1, False), Seat(2, 2, False), Seat(3, 2, False), Seat(4, 4, False)]
    assert ranks(seats) == [1, 2, 2, 4]
    changes = rate(seats, {})
    after = [c.after for c in changes]
    assert after[1] == after[2]  # tied, equal before: equal after
    assert after[0][0] > after[1][0] > after[3][0]
    assert all(c.rated for c in changes)


def test_keft_ranks_the_loser_last_and_the_others_tied():
    seats = [Seat(1, 1, False), Seat(2, 2, False), Seat(3, 3, True)]
    assert ranks(seats) == [1, 1, 2]
    after = [c.after for c in rate(seats, {})]
    assert after[0] == after[1]
    assert after[2][0] < DEFAULT_MU < after[0][0]


def test_a_bot_in_several_seats_is_not_rated_and_the_others_are():
    bot = 9
    seats = [Seat(1, 1, False), Seat(bot, 2, False), Seat(bot, 3, False)]
    changes = rate(seats, {bot: (30.0, 2.0)})
    assert [c.rated for c in changes] == [True, False, False]
    assert changes[1].after == changes[1].before == (30.0, 2.0)
    # Beating two seats of a strong bot raises the member a lot.
    assert changes[0].after[0] > DEFAULT_MU + 2


def test_a_game_of_one_seat_rates_nobody():
    (change,) = rate([Seat(1, 1, False)], {})
    assert not change.rated and change.after == (DEFAULT_MU, DEFAULT_SIGMA)


def test_rating_is_deterministic():
    seats = [Seat(1, 2, False), Seat(2, 1, False), Seat(3, 3, False)]
    before = {1: (27.1, 5.3), 2: (22.2, 7.7)}
    assert rate(seats, before) == rate(seats, before)


def test_new_players_show_1500_and_the_number_follows_the_ordinal():
    assert display(0.0) == 1500
    assert display(10.0) == 1900
    assert display(-2.5) == 1400


@pytest.mark.parametrize(
    ("game", "options", "family"),
    [
        ("devyatka", {"keft": False, "pass_rule": False}, "devyatka"),
        ("devyatka", {"keft": False, "pass_rule": True}, "devyatka"),
        ("devyatka", {"keft": True, "pass_rule": False}, "keft"),
        ("golf", {"rounds": 9, "column_rule": "pair"}, "golf"),
    ],
)
def test_the_registry_names_each_games_rating_family(game, options, family):
    assert registry.engine(game).family(options) == family
    assert family in dict(registry.rating_families())
