"""The serving stack with no game in it, for tests/bench/bench_stack_floor.py.

A websocket per seat at `/ws/floor/<table>/`, through the same parts a table
socket crosses on every move: daphne (`python -m club.server`), Channels'
consumer and dispatch loop, the club's channel layer, and (with
FLOOR_DATABASE=hop) one call on the database thread, or (FLOOR_DATABASE=write)
one committed write there: a row inserted in a transaction of its own, as the
issue 44 floor ("one SQLite write and one group broadcast per move"). A `play` frame is parsed,
answered to its sender at once and sent to the table's group; every socket of
the group then sends its own copy of a state-sized text frame. No rules, no
projection, no reads or writes of tables: what is left is the least any move
costs on this stack.
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

FRAME_BYTES = int(os.environ.get("FLOOR_FRAME_BYTES", "1300"))
DATABASE = os.environ.get("FLOOR_DATABASE", "none")  # none | hop | write


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

if DATABASE == "write":
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE IF NOT EXISTS floor_move (tbl varchar(16), version integer, "
            "move varchar(16))"
        )
    connection.close()


class FloorConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = f"floor-{self.scope['url_route']['kwargs']['table']}"
        self.version = 0
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        content = json.loads(text_data or "{}")
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

    async def table_update(self, event: dict) -> None:
        if event["version"] <= self.version:
            return
        self.version = event["version"]
        await self.send(text_data=_state_frame(self.version))


application = ProtocolTypeRouter(
    {"websocket": URLRouter([path("ws/floor/<int:table>/", FloorConsumer.as_asgi())])}
)
