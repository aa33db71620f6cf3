"""Ratings: written with the result, rebuilt to the same floats, shown on the pages."""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import call_command
from django.db.models import Count

from club.models import GameResult, Player
from games import services
from games.models import Game, Table, Variant
from ratings.models import Rating, RatingChange
from ratings.services import rebuild
from tests.support.finished import finished_game
from tests.support.members import member
from tests.support.rated import random_game, variants_by_name

pytestmark = pytest.mark.django_db


def snapshot() -> tuple[list, list]:
    ratings = sorted(
        Rating.objects.values_list(
            "player_id", "family", "mu", "sigma", "ordinal", "games", "last_change", "updated"
        )
    )
    changes = sorted(
        RatingChange.objects.values_list(
            "result_id",
            "family",
            "rated",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "ordinal_before",
            "ordinal_after",
        )
    )
    return ratings, changes


def test_finishing_a_keft_game_rates_every_seat_in_the_same_transaction():
    game, players = finished_game(Variant.objects.get(name="Keft"), ["Anna", "Boris", "Vera"], 7)
    results = list(GameResult.objects.filter(game=game).select_related("rating_change"))
    assert len(results) == 3
    loser = next(r for r in results if r.lost)
    for result in results:
        change = result.rating_change
        assert change.family == "keft" and change.rated
        assert change.display_before == 1500
        rating = Rating.objects.get(player_id=result.player_id, family="keft")
        assert (rating.mu, rating.sigma, rating.games) == (change.mu_after, change.sigma_after, 1)
        assert rating.provisional
    assert (
        loser.rating_change.mu_after < 25 < results[0 if loser.seat else 1].rating_change.mu_after
    )
    winners = [r.rating_change.mu_after for r in results if not r.lost]
    assert winners[0] == winners[1]  # the others are tied


def test_placement_devyatka_is_rated_in_its_own_family():
    game, _ = finished_game(Variant.objects.get(name="Devyatka"), ["Anna", "Boris"], 3)
    assert set(Rating.objects.values_list("family", flat=True)) == {"devyatka"}
    first = GameResult.objects.get(game=game, place=1)
    assert first.rating_change.ordinal_after > first.rating_change.ordinal_before


def test_a_game_that_is_never_finished_is_not_rated():
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2)
    services.join_table(boris, table.pk)
    table.refresh_from_db()
    table.status = Table.Status.ABORTED
    table.save()
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_rebuild_gives_exactly_the_incremental_ratings_over_300_random_games():
    rng = random.Random(14)
    players = [member(f"Player {i}") for i in range(12)]
    bots = list(Player.objects.bots())
    assert bots
    variants = variants_by_name()
    for number in range(300):
        random_game(rng, number, players, bots, variants)
    incremental = snapshot()
    # The mix the test means to cover: ties, Keft, bots, a bot in several seats.
    assert GameResult.objects.filter(lost=True).exists()
    assert RatingChange.objects.filter(rated=False).exists()
    assert Rating.objects.filter(player__in=bots, games__gt=0).exists()
    assert {"devyatka", "keft", "golf"} <= set(Rating.objects.values_list("family", flat=True))
    tied = GameResult.objects.filter(place=2).values("game").annotate(n=Count("id"))
    assert tied.filter(n__gt=1).exists()
    assert rebuild() == 300
    assert snapshot() == incremental
    call_command("rebuild_ratings", stdout=io.StringIO())
    assert snapshot() == incremental


def test_one_member_against_bots_moves_the_members_rating():
    rng = random.Random(2)
    anna = member("Anna")
    bots = list(Player.objects.bots()[:3])
    game = random_game(rng, 1, [anna], bots, {"Devyatka": Variant.objects.get(name="Devyatka")})
    assert RatingChange.objects.filter(result__game=game, result__player=anna, rated=True).exists()


def test_a_deleted_members_history_goes_and_the_others_stay():
    game, (anna, boris, vera) = finished_game(
        Variant.objects.get(name="Keft"), ["Anna", "Boris", "Vera"], 7
    )
    # Vera did not open the table: deleting her keeps the game and the others' rows.
    kept = RatingChange.objects.filter(result__player=boris).get()
    vera.user.delete()
    assert not Rating.objects.filter(player_id=vera.pk).exists()
    assert RatingChange.objects.filter(result__player=boris).get() == kept
    assert Game.objects.filter(pk=game.pk).exists()


def test_a_resigned_player_is_rated_as_the_result_places_them(settings):
    from tests.integration.test_consent import play_to_the_end, seated_table

    settings.BOT_DELAY_SECONDS = 0
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    table = seated_table([anna, boris, vera])
    services.leave_table(vera, table.pk)
    game = play_to_the_end(table)
    vera_result = GameResult.objects.get(game=game, player=vera)
    assert vera_result.place == 3
    change = vera_result.rating_change
    assert change.rated and change.mu_after < change.mu_before
    assert (
        min(RatingChange.objects.filter(result__game=game).values_list("mu_after", flat=True))
        == change.mu_after
    )


def test_rebuild_follows_the_order_games_were_rated_not_the_order_they_finished():
    """Two tables sharing a player finish at once; the later one takes the locks first."""
    import datetime

    from ratings.services import record_game

    rng = random.Random(4)
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    devyatka = {"Devyatka": Variant.objects.get(name="Devyatka")}
    early = datetime.datetime(2026, 3, 1, 12, 0, 0, 1, tzinfo=datetime.UTC)
    late = early + datetime.timedelta(microseconds=5)
    second = random_game(rng, 1, [anna, boris], [], devyatka, rate=False, finished=early)
    random_game(rng, 2, [anna, vera], [], devyatka, finished=late)  # rated first
    record_game(second.game, second.options, list(GameResult.objects.filter(game=second)))
    incremental = snapshot()
    assert RatingChange.objects.filter(result__player=anna, rated=True).count() == 2
    rebuild()
    assert snapshot() == incremental
