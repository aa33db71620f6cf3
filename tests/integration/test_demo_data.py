"""The demo club: `demo_data` run twice on an empty club builds it once, and it is all real."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core.management import call_command
from django.test import Client

from club import demo
from club.management.commands import demo_data
from club.models import GameResult, Player, Series
from club.standings import standings
from games import registry
from games.models import Game, Move, Seat, Table, Variant
from ratings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db


def _counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Player, Variant, Series, Table, Seat, Game, Move, GameResult, RatingChange)
    }


def _replayed(game: Game):
    """Deal the game again from its seed and apply its move log, checking every logged action.

    An action the engine makes by itself (a Devyatka pass) must be the next entry of the log.
    """
    engine = registry.engine(game.game)
    state = engine.deal(len(game.players), game.seed, engine.options(game.options))
    log = list(game.moves.order_by("number").values_list("number", "seat", "move"))
    expected = game.moves.count()
    assert [n for n, _, _ in log] == list(range(log[0][0], log[0][0] + expected))
    index = 0
    while index < len(log):
        _, seat, move = log[index]
        state, actions = engine.apply(state, seat, move)
        assert [(s, m) for _, s, m in log[index : index + len(actions)]] == actions
        index += len(actions)
    return engine, state


def test_demo_data_twice_builds_one_club_whose_records_match_the_move_logs():
    out = io.StringIO()
    call_command("demo_data", stdout=out)
    first = _counts()
    call_command("demo_data", stdout=out)
    assert _counts() == first, "the second run added something"

    series = {s.slug: s for s in Series.objects.select_related("variant")}
    assert {slug: s.scoring for slug, s in series.items()} == {
        "winter-nines": Series.Scoring.PLACEMENT,
        "keft-cup": Series.Scoring.LOSS,
        "golf-ladder": Series.Scoring.PLACEMENT,
    }
    assert series["winter-nines"].variant.options["pass_rule"]
    assert series["golf-ladder"].variant.game == "golf"
    finished = list(Game.objects.filter(finished__isnull=False).select_related("table"))
    # The series' games (the duplicate series' boards are played at tables of no series).
    in_series = [game for game in finished if game.table.series_id]
    assert len(in_series) == sum(
        max(1, round(demo.DEFAULT_GAMES * spec.share)) for spec in demo.SERIES
    )
    assert 24 <= len(in_series) <= 48  # "a few dozen"

    for game in finished:
        engine, state = _replayed(game)
        assert engine.to_json(state) == game.state
        assert state.over
        assert game.result == engine.resign_result(engine.result(state), game.resigned)
        rows = list(GameResult.objects.filter(game=game).order_by("seat"))
        assert [r.player_id for r in rows] == game.players
        assert [r.place for r in rows] == game.result["places"]
        assert all(r.series_id == game.table.series_id for r in rows)
        assert RatingChange.objects.filter(result__game=game).count() == len(rows)
        assert game.started <= game.finished
        # Backdated with its moves: each move between the game's start and end.
        times = game.moves.values_list("created", flat=True)
        assert all(game.started <= t <= game.finished for t in times)

    # Every rating counts exactly its player's rated results in that family.
    for rating in Rating.objects.all():
        rated = RatingChange.objects.filter(
            result__player=rating.player, family=rating.family, rated=True
        ).count()
        assert rating.games == rated, rating

    # Standings are made of these results, one row per player with their games.
    for s in series.values():
        rows = standings(s)
        assert rows and rows[0].rank == 1
        for row in rows:
            assert row.games == GameResult.objects.filter(series=s, player_id=row.player_id).count()
        if s.is_loss:
            for row in rows:
                lost = GameResult.objects.filter(series=s, player_id=row.player_id, lost=True)
                assert row.losses == lost.count()

    # The live tables: one open per series with a house bot; Anna to move; an invitation.
    anna, boris = (Player.objects.get(display_name=n) for n in ("Anna", "Boris"))
    for s in series.values():
        waiting = Table.objects.listed().open().filter(series=s)
        assert waiting.count() == 1
        assert waiting.get().seats.filter(is_bot=True).count() == 1
    mine = Table.objects.playing().filter(created_by=anna).get()
    game = Game.objects.get(table=mine)
    engine = registry.engine(game.game)
    to_move = engine.actors(engine.from_json(game.state))
    assert game.players[to_move[0]] == anna.pk
    shared = Table.objects.playing().filter(created_by=boris).get()
    game = Game.objects.get(table=shared)
    assert game.players[engine.actors(engine.from_json(game.state))[0]] == boris.pk
    # A turn-based table (two days a move) where it is Anna's turn (issue 37).
    turn_based = Table.objects.playing().get(pace="2d")
    game = Game.objects.get(table=turn_based)
    assert game.players[engine.actors(engine.from_json(game.state))[0]] == anna.pk
    assert turn_based.turn_deadline > turn_based.turn_started + datetime.timedelta(days=1)
    private = Table.objects.open().filter(private=True).get()
    assert set(private.seats.values_list("player__display_name", flat=True)) == {"Anna", "Boris"}

    # The README's demo accounts sign in with the README's passwords (hashed once, shared).
    for email, password in [
        (demo_data.ADMIN_EMAIL, demo_data.ADMIN_PASSWORD),
        ("anna@example.com", demo_data.PLAYER_PASSWORD),
        ("elena@example.com", demo_data.PLAYER_PASSWORD),
    ]:
        assert Client().login(username=email, password=password), email
    assert not Client().login(username="anna@example.com", password=demo_data.ADMIN_PASSWORD)


def test_more_games_adds_only_the_missing_ones_with_the_same_deals():
    out = io.StringIO()
    call_command("demo_data", "--games", "5", stdout=out)
    seeds = set(Game.objects.filter(table__series__isnull=False).values_list("seed", flat=True))
    call_command("demo_data", "--games", "10", stdout=out)
    more = set(Game.objects.filter(table__series__isnull=False).values_list("seed", flat=True))
    assert seeds < more
    assert Game.objects.filter(table__series__isnull=False, finished__isnull=False).count() == 10
