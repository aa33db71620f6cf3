"""Presence heals itself: a dead handler or a silently dropped connection makes its seat away.

In process: Channels' WebsocketCommunicator on the real application, the
handler killed without `disconnect()` ever running, then one heartbeat of
the house runner (games.runner.heartbeat) and one pass of it
(games.runner.run_once). Over the network: a real daphne process with short
websocket ping settings, a member's socket going through a TCP proxy that
at some point stops forwarding in both directions without closing anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone
from websockets.asyncio.client import connect as ws_connect

from games import runner, services
from games.engine import devyatka
from games.models import Move, Presence, Seat, Table, Variant
from tests.integration.test_table_ws import connect, started_table
from tests.support.server import DaphneServer, SiteDatabase
from tests.support.tables import TIMEOUT, run_django

UNTIMED = "Devyatka, no clock"


def untimed_table():
    Variant.objects.get_or_create(name=UNTIMED, defaults={"turn_seconds": None})
    table, users = started_table(("Anna", "Boris"), UNTIMED)
    game = services.current_game(table)
    mover = devyatka.from_json(game.state).to_move
    by_player = {u.player.pk: u for u in users}
    return table, by_player[game.players[mover]], by_player[game.players[1 - mover]], mover


def table_row(table_id: int) -> Table:
    return Table.objects.get(pk=table_id)


def seat_rows(table_id: int) -> dict[int, Seat]:
    return {s.position: s for s in Seat.objects.filter(table_id=table_id)}


def presence_channels() -> set[str]:
    return set(Presence.objects.values_list("channel", flat=True))


async def presence_recorded(count: int) -> None:
    """Wait until `count` sockets have recorded their presence.

    A socket records it just after sending its first state, on PostgreSQL in a
    database thread of its own (games/db.py), so the first frame can come first.
    """
    for _ in range(250):
        if len(await database_sync_to_async(presence_channels)()) == count:
            return
        await asyncio.sleep(0.02)
    assert len(await database_sync_to_async(presence_channels)()) == count


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
async def test_a_killed_handler_expires_its_seat_goes_away_and_the_house_plays(settings):
    settings.BOT_DELAY_SECONDS = 0
    settings.AWAY_GRACE_SECONDS = 0
    settings.PRESENCE_STALE_SECONDS = 0  # anything not vouched for in this pass is stale
    table, mover_user, other_user, mover = await database_sync_to_async(untimed_table)()
    ws_mover = await connect(table.pk, mover_user)
    ws_other = await connect(table.pk, other_user)
    await ws_mover.receive_json_from()
    first = await ws_other.receive_json_from()
    assert first["view"]["to_move"] == mover
    await presence_recorded(2)
    assert (await database_sync_to_async(table_row)(table.pk)).turn_deadline is None

    # Kill the mover's handler: no close, no disconnect(); its row stays behind.
    ws_mover.future.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await ws_mover.future
    assert len(await database_sync_to_async(presence_channels)()) == 2
    assert len(runner.live_channels()) == 1

    # One heartbeat: the live socket is vouched for, the dead one expires.
    assert await runner.heartbeat() == 1
    seats = await database_sync_to_async(seat_rows)(table.pk)
    assert seats[mover].away_since is not None
    assert seats[1 - mover].away_since is None
    assert len(await database_sync_to_async(presence_channels)()) == 1
    deadline = (await database_sync_to_async(table_row)(table.pk)).turn_deadline
    assert deadline is not None and deadline <= timezone.now()

    # The house plays the away seat's turn, like any away member's.
    assert await runner.run_once() >= 1
    move = await database_sync_to_async(Move.objects.order_by("number").first)()
    assert (move.seat, move.auto) == (mover, True)
    update = await ws_other.receive_json_from()
    assert update["events"][0]["seat"] == mover and update["events"][0]["auto"] is True
    assert update["table"]["seats"][mover]["away"] is True
    await ws_other.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
async def test_live_sockets_survive_heartbeats(settings):
    settings.PRESENCE_STALE_SECONDS = 0
    table, mover_user, other_user, mover = await database_sync_to_async(untimed_table)()
    sockets = [await connect(table.pk, u) for u in (mover_user, other_user)]
    for ws in sockets:
        await ws.receive_json_from()
    await presence_recorded(2)
    for _ in range(3):
        assert await runner.heartbeat() == 0
    assert len(await database_sync_to_async(presence_channels)()) == 2
    seats = await database_sync_to_async(seat_rows)(table.pk)
    assert all(s.away_since is None for s in seats.values())
    for ws in sockets:
        await ws.disconnect()
    assert runner.live_channels() == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
async def test_sockets_closing_after_their_table_was_deleted_is_not_an_error(caplog):
    table, mover_user, other_user, _ = await database_sync_to_async(untimed_table)()
    sockets = [await connect(table.pk, u) for u in (mover_user, other_user)]
    for ws in sockets:
        await ws.receive_json_from()
    await presence_recorded(2)
    await database_sync_to_async(lambda: Table.objects.filter(pk=table.pk).delete())()
    with caplog.at_level(logging.WARNING):
        for ws in sockets:
            await ws.disconnect()
        # Straight to the service, as if the row had been read before the delete.
        await database_sync_to_async(services.seat_disconnected)(table.pk, "gone")
        await database_sync_to_async(services.seat_connected)(table.pk, 1, "gone")
        assert await runner.heartbeat() == 0
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert runner.live_channels() == []


# -- a silently dropped connection, on a real server ----------------------------


class SilentDropProxy:
    """A TCP proxy that can stop forwarding in both directions without closing anything."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.frozen = asyncio.Event()
        self.writers: list[asyncio.StreamWriter] = []
        self.tasks: list[asyncio.Task] = []

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self.writers += [writer, up_writer]
        self.tasks += [
            asyncio.ensure_future(self._pipe(reader, up_writer)),
            asyncio.ensure_future(self._pipe(up_reader, writer)),
        ]

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        frozen = asyncio.ensure_future(self.frozen.wait())
        try:
            while True:
                read = asyncio.ensure_future(reader.read(65536))
                await asyncio.wait({read, frozen}, return_when=asyncio.FIRST_COMPLETED)
                if frozen.done():
                    read.cancel()
                    return  # stop reading and writing; keep both sockets open
                data = read.result()
                if not data:
                    writer.close()
                    return
                writer.write(data)
                await writer.drain()
        finally:
            frozen.cancel()

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for writer in self.writers:
            writer.close()
        self.server.close()
        await self.server.wait_closed()


PING_INTERVAL = 1
PING_TIMEOUT = 2


async def open_socket(url: str, origin: str, session: str):
    ws = await ws_connect(
        url,
        origin=origin,
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=TIMEOUT,
        ping_interval=None,  # only the server pings
        max_size=None,
    )
    first = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    assert first["type"] == "state", first
    return ws, first


async def wait_until_away(ws, seat: int, within: float) -> float:
    """Ask for the state twice a second until `seat` shows as away; seconds it took."""
    start = time.monotonic()
    while time.monotonic() - start < within:
        await ws.send(json.dumps({"type": "sync"}))
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            if frame["type"] == "state" and "log" in frame:
                break  # the answer to this sync
        if frame["table"]["seats"][seat]["away"]:
            return time.monotonic() - start
        await asyncio.sleep(0.5)
    raise AssertionError(f"seat {seat} was not away within {within} s")


@pytest.mark.server
@pytest.mark.timeout(180)
async def test_a_silently_dropped_connection_makes_its_seat_away(
    database: SiteDatabase, tmp_path: Path
):
    server = DaphneServer(
        database,
        tmp_path,
        args=("--ping-interval", str(PING_INTERVAL), "--ping-timeout", str(PING_TIMEOUT)),
        env={"AWAY_GRACE_SECONDS": "600"},  # away, but no house move to race the check
    )
    await asyncio.to_thread(server.start)
    proxy = SilentDropProxy(server.port)
    sockets = []
    try:
        setup = await asyncio.to_thread(
            run_django,
            database,
            "from tools import synthetic\n"
            "players = synthetic.make_players(synthetic.new_prefix('test'), 2)\n"
            "table = synthetic.started_table(players, 'Devyatka')\n"
            "emit({'table': table, 'players': [p.as_dict() for p in players]})\n",
        )
        table_id = setup["table"]
        dropped_session, watcher_session = (p["session"] for p in setup["players"])
        proxy_port = await proxy.start()
        path = f"/ws/tables/{table_id}/"
        # The browser's origin is the address it connected to: the proxy's
        # (websocket origins are checked exactly, scheme, host and port).
        dropped, first = await open_socket(
            f"ws://127.0.0.1:{proxy_port}{path}", f"http://127.0.0.1:{proxy_port}", dropped_session
        )
        watcher, _ = await open_socket(server.ws_url + path, server.url, watcher_session)
        sockets = [dropped, watcher]
        assert [s["away"] for s in first["table"]["seats"]] == [False, False]
        # Healthy through a few ping rounds: pongs come back through the proxy.
        await asyncio.sleep(3 * PING_INTERVAL + 2)
        await watcher.send(json.dumps({"type": "sync"}))
        frame = json.loads(await asyncio.wait_for(watcher.recv(), TIMEOUT))
        assert frame["table"]["seats"][0]["away"] is False

        proxy.frozen.set()  # the network goes silent; nothing is closed
        # Bound (docs/PROTOCOL.md): ping interval + 2 s check + ping timeout, here
        # about 5 s; allow far more so a loaded machine does not fail the test.
        await wait_until_away(watcher, 0, within=90)
    finally:
        for ws in sockets:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 5)
        await proxy.close()
        await asyncio.to_thread(server.stop)
    assert "Traceback" not in server.log_path.read_text()
