"""Each play keeps its outcome's comparison key; the standings are computed from those keys.

The key is written in the transaction that writes the game's results (games.hooks
-> duplicate.standings.record_keys), so a play has one exactly when its result
exists, whether the member, a timeout or the house at closing finished the game.
"""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps

from club.models import GameResult
from duplicate import standings as duplicate_standings
from duplicate.models import Play
from duplicate.services import close_round
from games import registry
from tests.support.duplicate import finish, make_series, open_round, start
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]

FIRST, LAST = (lambda legal: legal[0]), (lambda legal: legal[-1])


def key_from_result(play: Play) -> list:
    """The key worked out from the play's result row, as the standings did before."""
    result = GameResult.objects.get(game_id=play.game_id, seat=play.seat)
    variant = play.board.round.series.variant
    outcome = {**result.detail, "place": result.place, "lost": result.lost, "score": result.score}
    return list(registry.engine(variant.game).duplicate_key(variant.options)(outcome))


def percents_from_travellers(series, round_) -> dict[str, tuple[int, float]]:
    """Each entrant's boards and average percentage, from the travellers' matchpoints."""
    sums: dict[str, list[float]] = {}
    for board in round_.board_set.all():
        for entry in duplicate_standings.traveller(series, board.pk):
            sums.setdefault(entry.name, []).append(entry.percent)
    return {name: (len(p), round(sum(p) / len(p), 9)) for name, p in sums.items()}


@pytest.mark.parametrize("variant", ["Devyatka", "Keft", "Golf"])
def test_a_finished_board_keeps_its_outcome_key_and_an_unfinished_one_none(variant):
    series = make_series(variant, seats=3)
    round_ = open_round(series, boards=2)
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    for number in (1, 2):
        finish(start(anna, round_, number), FIRST)
        finish(start(boris, round_, number), LAST)
    waiting = start(vera, round_, 1)
    assert waiting.outcome_key is None
    for play in Play.objects.filter(outcome_key__isnull=False):
        assert play.outcome_key == key_from_result(play)
    assert Play.objects.filter(outcome_key__isnull=False).count() == 4
    assert duplicate_standings.standings(series) == []  # nothing counts while the round is open
    # Closing counts the finished boards as they were, and Vera's as the house played it out.
    close_round(round_.pk)
    rows = {r.name: r for r in duplicate_standings.standings(series)}
    assert set(rows) == {"Anna", "Boris", "Vera"}
    assert rows["Vera"].games == 1
    expected = percents_from_travellers(series, round_)
    assert {n: (r.games, round(r.percent, 9)) for n, r in rows.items()} == expected


def test_boards_the_house_plays_out_at_closing_get_their_keys_too():
    series = make_series("Devyatka", seats=3)
    round_ = open_round(series, boards=1)
    anna, boris = member("Anna"), member("Boris")
    finish(start(anna, round_), FIRST)
    unfinished = start(boris, round_)
    close_round(round_.pk)
    unfinished.refresh_from_db()
    assert unfinished.outcome_key == key_from_result(unfinished)
    rows = duplicate_standings.standings(series)
    assert sorted(r.name for r in rows) == ["Anna", "Boris"]
    assert sum(r.percent for r in rows) == pytest.approx(100.0)


def test_the_migration_fills_the_keys_of_plays_finished_before_it():
    series = make_series("Keft", seats=3)
    round_ = open_round(series, boards=2)
    anna, boris = member("Anna"), member("Boris")
    for number in (1, 2):
        finish(start(anna, round_, number), FIRST)
    finish(start(boris, round_, 1), LAST)
    start(boris, round_, 2)
    close_round(round_.pk)  # the standings count a round once it has closed
    stored = dict(Play.objects.values_list("pk", "outcome_key"))
    before = [(r.name, r.games, r.percent) for r in duplicate_standings.standings(series)]
    assert before
    Play.objects.update(outcome_key=None)  # as the plays were before the migration
    assert duplicate_standings.standings(series) == []
    migration = import_module("duplicate.migrations.0002_play_outcome_key")
    migration.fill_keys(apps, None)
    assert dict(Play.objects.values_list("pk", "outcome_key")) == stored
    after = [(r.name, r.games, r.percent) for r in duplicate_standings.standings(series)]
    assert after == before


def test_a_member_who_leaves_a_board_has_it_played_on_by_the_house_and_counted(settings):
    """Leaving is resigning, as at any table: the house plays the seat to the end, and the
    board counts as played (issue 24, "Fair to leavers and to the clock")."""
    from games import services
    from games.models import Table
    from tests.integration.test_consent import play_to_the_end

    settings.BOT_DELAY_SECONDS = 0
    series = make_series("Devyatka", seats=3)
    round_ = open_round(series, boards=1)
    anna, boris = member("Anna"), member("Boris")
    finish(start(anna, round_), FIRST)
    leaver = start(boris, round_)
    services.leave_table(boris, leaver.table_id)
    game = play_to_the_end(Table.objects.get(pk=leaver.table_id))
    assert game.resigned == [leaver.seat]
    leaver.refresh_from_db()
    assert leaver.outcome_key == key_from_result(leaver)
    close_round(round_.pk)  # the standings count a round once it has closed
    rows = {r.name: r for r in duplicate_standings.standings(series)}
    assert rows["Boris"].games == 1
