"""The serving stack with no game in it, for tests/bench/bench_stack_floor.py.

A websocket per seat at `/ws/floor/<table>/`, through the same parts a table
socket crosses on every move: daphne (`python -m club.server`), Channels'
consumer and dispatch loop, the club's channel layer, and (with
FLOOR_DATABASE=hop) one call on the database thread, or (FLOOR_DATABASE=write)
one committed write there: a row inserted in a transaction of its own, as the
issue 44 floor ("one SQLite write and one group broadcast per move"), or
(FLOOR_DATABASE=design) the least move docs' DESIGN asks for (below). A `play` frame is parsed,
answered to its sender at once and sent to the table's group; every socket of
the group then sends its own copy of a state-sized text frame. No rules, no
projection, no reads or writes of tables: what is left is the least any move
costs on this stack.

FLOOR_DATABASE=design is the least a *game's* move can cost under the design
(DESIGN.md, "Live tables": each move one transaction that checks the move with
the engine, saves the new state and a Move row by a compare-and-swap on the
version, then tells the group; each connection a view built for its seat):
the first registered game's engine dealt per table, its state kept in this
process (the swap on the version is what makes that safe), the move checked
and applied by the engine, one UPDATE of the state where the version is
still the one read, one INSERT of the move's rows, one commit; each socket
then sends its own seat's `engine.view` (hand, rows, legal moves) padded to
the same frame size. No seats, names, clock, hooks, results or table rows:
what the site does beyond this is the product's, not the design's.
"""

from __future__ import annotations

import json
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
django.setup()

from channels.db import database_sync_to_async  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.urls import path  # noqa: E402

from games import registry  # noqa: E402

FRAME_BYTES = int(os.environ.get("FLOOR_FRAME_BYTES", "1300"))
DATABASE = os.environ.get("FLOOR_DATABASE", "none")  # none | hop | write | design


_PAD = "x" * max(0, FRAME_BYTES - 48)


def _state_frame(version: int) -> str:
    """A text frame of about FRAME_BYTES, as a state frame is (padding in one field)."""
    return f'{{"type": "state", "version": {version}, "pad": "{_PAD}"}}'


def _touch_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


touch_database = database_sync_to_async(_touch_database)


def _write_move(table: str, version: int) -> None:
    # The site's own backend and transaction (BEGIN IMMEDIATE and its writers'
    # queue on SQLite), as every move's transaction is.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO floor_move (tbl, version, move) VALUES (%s, %s, %s)",
            [table, version, "x"],
        )


write_move = database_sync_to_async(_write_move)

if DATABASE in ("write", "design"):
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE IF NOT EXISTS floor_move (tbl varchar(16), version integer, "
            "move varchar(16))"
        )
        cursor.execute(
            "CREATE TABLE IF NOT EXISTS floor_game (tbl varchar(16) PRIMARY KEY, "
            "version integer, state text)"
        )
    connection.close()


# -- FLOOR_DATABASE=design -----------------------------------------------------

ENGINE = registry.engine(registry.first_game())
# Each table's game as this process last committed it: {"state", "version"}.
_games: dict[str, dict] = {}


class StaleVersion(Exception):
    """The swap found another version: the state kept here is not the database's."""


def _deal(table: str, version: int) -> dict:
    state = ENGINE.deal(4, f"{table}-{version}", ENGINE.options({}))
    return {"state": state, "version": version}


def _open_game(table: str) -> dict:
    game = _games.get(table)
    if game is None:
        game = _deal(table, 0)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO floor_game (tbl, version, state) VALUES (%s, %s, %s)",
                [table, 0, json.dumps(ENGINE.to_json(game["state"]))],
            )
        _games[table] = game
    return game


open_game = database_sync_to_async(_open_game)


def _design_move(table: str, seat: int, move: str, version: int) -> dict:
    game = _games[table]
    if version != game["version"]:
        raise StaleVersion(table)
    state, actions = ENGINE.apply(game["state"], seat, move)
    new = game["version"] + 1
    after = _deal(table, new) if state.over else {"state": state, "version": new}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE floor_game SET version = %s, state = %s WHERE tbl = %s AND version = %s",
            [new, json.dumps(ENGINE.to_json(after["state"])), table, version],
        )
        if cursor.rowcount != 1:
            raise StaleVersion(table)
        cursor.executemany(
            "INSERT INTO floor_move (tbl, version, move) VALUES (%s, %s, %s)",
            [[table, new, action] for _seat, action in actions],
        )
    _games[table] = after
    return after


design_move = database_sync_to_async(_design_move)


def _view_frame(game: dict, seat: int) -> str:
    """The seat's own view as a state frame, padded to FRAME_BYTES as the others are."""
    view = json.dumps(ENGINE.view(game["state"], seat))
    pad = "x" * max(0, FRAME_BYTES - 48 - len(view))
    return f'{{"type": "state", "version": {game["version"]}, "view": {view}, "pad": "{pad}"}}'


class FloorConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.group = f"floor-{kwargs['table']}"
        self.seat = kwargs.get("seat", 0)
        self.version = 0
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        if DATABASE == "design":
            game = await open_game(self.group)
            self.version = game["version"]
            await self.send(text_data=_view_frame(game, self.seat))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        content = json.loads(text_data or "{}")
        if DATABASE == "design":
            await self._design(content)
            return
        version = int(content.get("version", 0)) + 1
        if DATABASE == "hop":
            await touch_database()
        elif DATABASE == "write":
            await write_move(self.group, version)
        # As a real move: the mover's answer at once, then the table's group
        # (the mover's own socket drops the copy by version).
        await self.table_update({"version": version})
        await self.channel_layer.group_send(
            self.group, {"type": "table.update", "version": version}
        )

    async def _design(self, content: dict) -> None:
        try:
            game = await design_move(
                self.group, self.seat, str(content["move"]), int(content["version"])
            )
        except (StaleVersion, ENGINE.IllegalMove) as exc:
            await self.send(text_data=json.dumps({"type": "error", "message": str(exc)}))
            return
        await self.table_update({"version": game["version"]})
        await self.channel_layer.group_send(
            self.group, {"type": "table.update", "version": game["version"]}
        )

    async def table_update(self, event: dict) -> None:
        if event["version"] <= self.version:
            return
        self.version = event["version"]
        if DATABASE == "design":
            game = _games[self.group]
            if game["version"] == self.version:  # else a newer update follows
                await self.send(text_data=_view_frame(game, self.seat))
            return
        await self.send(text_data=_state_frame(self.version))


application = ProtocolTypeRouter(
    {
        "websocket": URLRouter(
            [
                path("ws/floor/<int:table>/", FloorConsumer.as_asgi()),
                path("ws/floor/<int:table>/<int:seat>/", FloorConsumer.as_asgi()),
            ]
        )
    }
)
