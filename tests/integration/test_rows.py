"""The written-out inserts and reads a game's end and a deal use (games.services.rows).

`insert_instances` and `read_rows` replace `bulk_create` and `filter()` on the
moves' database thread (docs/PERFORMANCE.md, "A game's end"). These tests hold
them to what the ORM gave, on SQLite and on PostgreSQL: ids in the rows' order,
creation times set, values converted back as the ORM converts them.
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from club.models import GameResult
from games.models import Game, Variant
from games.services.rows import insert_instances, read_rows
from ratings import services as ratings
from ratings.models import Rating
from tests.support.finished import play_game
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]


def finished_game(players: list) -> Game:
    return play_game(Variant.objects.get(name="Devyatka"), players, seed=7)


def test_insert_instances_sets_each_rows_id_in_order_in_one_statement():
    anna, boris = member("Anna"), member("Boris")
    game = finished_game([anna, boris])
    # The game's last move wrote its results this way: one a seat, each its member's.
    results = GameResult.objects.filter(game=game).order_by("pk")
    assert [(r.seat, r.player_id) for r in results] == [(0, anna.pk), (1, boris.pk)]
    extra = [
        Game(
            table=game.table,
            number=game.number + n,
            game=game.game,
            options={"n": n},
            players=game.players,
            seed=n,
            state={"deal": n},
        )
        for n in (1, 2, 3)
    ]

    with CaptureQueriesContext(connection) as queries:
        insert_instances(extra)

    assert len([q for q in queries if q["sql"].startswith("INSERT")]) == 1
    for made in extra:
        assert not made._state.adding
        stored = Game.objects.get(pk=made.pk)
        # Each id names the row made from that instance, JSON and all.
        assert (stored.number, stored.options, stored.state, stored.seed) == (
            made.number,
            made.options,
            made.state,
            made.seed,
        )
        # The creation time is set as the ORM's insert sets it (auto_now_add).
        assert made.started is not None and stored.started == made.started


def test_read_rows_builds_what_the_orm_builds_and_locks_in_a_transaction():
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    finished_game([anna, boris, vera])
    ids = sorted([anna.pk, boris.pk, vera.pk])
    where = "r.player_id IN (%s, %s, %s) ORDER BY r.player_id"

    with transaction.atomic():
        rows = read_rows(Rating, where, ids, lock=True)

    expected = list(Rating.objects.filter(player_id__in=ids).order_by("player_id"))
    assert [r.pk for r in rows] == [r.pk for r in expected]
    for got, want in zip(rows, expected, strict=True):
        assert (got.player_id, got.family, got.mu, got.sigma, got.games, got.updated) == (
            want.player_id,
            want.family,
            want.mu,
            want.sigma,
            want.games,
            want.updated,
        )
    assert read_rows(Rating, "r.player_id = %s", [10**9]) == []


def test_a_game_released_twice_is_rated_once():
    anna, boris = member("Anna"), member("Boris")
    game = finished_game([anna, boris])
    results = list(GameResult.objects.filter(game=game).order_by("seat"))
    before = {r.player_id: (r.mu, r.games) for r in Rating.objects.filter(player__in=[anna, boris])}

    ratings.record_game(game.game, game.options, results)

    after = {r.player_id: (r.mu, r.games) for r in Rating.objects.filter(player__in=[anna, boris])}
    assert after == before
    assert all(games == 1 for _mu, games in after.values())
