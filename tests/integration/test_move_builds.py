"""A move's rows are built as the ORM builds them, and its game state parsed once (issue 44).

The hot path builds its model instances without Model.__init__ and keeps the
engine state it last parsed or made for each game; neither may change what a
move sees.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.models import Player
from games import registry, services
from games.models import Game, Seat, Table, Variant
from games.services.common import (
    current_game,
    game_state,
    locked_table_game_seats,
    remember_state,
)
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]


def _values(instance) -> list:
    return [getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields]


def _started_table() -> Table:
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2)
    services.join_table(boris, table.pk)
    return Table.objects.get(pk=table.pk)


def _legal(engine, state) -> list[str]:
    seat = engine.actors(state)[0]
    return engine.view(state, seat)["legal"]


def test_the_move_read_builds_every_row_as_the_orm_does():
    table_id = _started_table().pk
    table, game, seats = locked_table_game_seats(table_id)

    orm_table = Table.objects.select_related("variant").get(pk=table_id)
    assert _values(table) == _values(orm_table)
    assert _values(game) == _values(Game.objects.filter(table_id=table_id).latest("number"))
    orm_seats = list(Seat.objects.filter(table_id=table_id).order_by("position"))
    assert [_values(s) for s in seats] == [_values(s) for s in orm_seats]
    for built in (table, game, *seats):
        assert built._state.adding is False
        assert built._state.db == "default"
    with CaptureQueriesContext(connection) as queries:  # the related rows came with the read
        variant, players = _values(table.variant), [_values(s.player) for s in seats]
    assert len(queries) == 0
    assert variant == _values(orm_table.variant)
    assert players == [_values(Player.objects.get(pk=s.player_id)) for s in orm_seats]


def test_a_built_row_saves_and_refreshes_as_an_orm_row():
    table_id = _started_table().pk
    _table, _game, seats = locked_table_game_seats(table_id)
    seats[1].missed = 2
    seats[1].save(update_fields=["missed"])  # an UPDATE, not an INSERT: it came from the database
    assert Seat.objects.get(pk=seats[1].pk).missed == 2
    seats[1].refresh_from_db()
    assert seats[1].missed == 2


def test_the_state_a_move_made_is_not_parsed_again():
    table = _started_table()
    game = current_game(table)
    engine = registry.engine(game.game)
    state = engine.from_json(game.state)
    move = random.Random(5).choice(_legal(engine, state))
    services.play_move(game.players[engine.actors(state)[0]], table.pk, move, table.version)

    played = current_game(table)  # the JSON read back, a new object
    first = game_state(engine, played)
    assert first == engine.from_json(played.state)
    assert game_state(engine, current_game(table)) is first  # same JSON: the same state


def test_a_state_written_elsewhere_is_parsed_from_what_was_read():
    table = _started_table()
    game = current_game(table)
    engine = registry.engine(game.game)
    state = engine.from_json(game.state)
    remember_state(engine, game, state)
    # Another process (or a rolled-back move) left a different state under the same game.
    after, _actions = engine.apply(state, engine.actors(state)[0], _legal(engine, state)[0])
    game.state = engine.to_json(after)
    assert game_state(engine, game) == after
    # The holder changes its JSON in place: what it now says is what counts.
    remember_state(engine, game, after)
    game.state.clear()
    game.state.update(engine.to_json(state))
    assert game_state(engine, game) == state


def test_a_moves_frames_use_the_state_it_made(monkeypatch):
    """The move's own state reaches its projections: the event loop parses nothing."""
    table = _started_table()
    game = current_game(table)
    engine = registry.engine(game.game)
    state = engine.from_json(game.state)
    move = random.Random(7).choice(_legal(engine, state))
    update = services.play_move(
        game.players[engine.actors(state)[0]], table.pk, move, table.version
    )

    def no_parsing(data):
        raise AssertionError("the projection parsed the state again")

    parsing_refused = dataclasses.replace(engine, from_json=no_parsing)
    with monkeypatch.context() as patched:
        patched.setattr(registry, "engine", lambda key: parsing_refused)
        frames = [services.project(update.snapshot, player) for player in game.players]
    # The same frames as from the JSON the move wrote (a reconnecting client's path).
    parsed = {**update.snapshot, "stamp": None}
    assert frames == [services.project(parsed, player) for player in game.players]
    assert frames[0]["view"]["hand"] != frames[1]["view"]["hand"]


def test_a_row_read_again_is_built_anew_from_what_was_read():
    """The converted values of a row read before are used again only for the very same
    row, and a JSON column is never shared between two builds."""
    table = _started_table()
    _table, game, seats = locked_table_game_seats(table.pk)
    _table, again, seats_again = locked_table_game_seats(table.pk)
    assert _values(again) == _values(game)
    assert again.players is not game.players  # JSON: each holder its own
    game.players.append(999)
    assert 999 not in locked_table_game_seats(table.pk)[1].players
    assert [_values(s) for s in seats_again] == [_values(s) for s in seats]

    Seat.objects.filter(pk=seats[0].pk).update(missed=4)
    Player.objects.filter(pk=seats[1].player_id).update(display_name="Boris Again")
    _table, _game, changed = locked_table_game_seats(table.pk)
    assert changed[0].missed == 4
    assert changed[1].player.display_name == "Boris Again"
    assert changed[0].player.display_name == seats[0].player.display_name
