"""A crash loses nothing: SIGKILL the daphne process mid-game, start it again, play on.

A real daphne process on its own database (SQLite by default, a fresh
PostgreSQL database when DATABASE_URL points at PostgreSQL), real websocket
clients with real session cookies. Every acknowledged move must survive the
kill; a move in flight when the process dies is either wholly there or wholly
absent; the finished game equals a replay of its Move log.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from tests.support.server import DaphneServer, SiteDatabase
from tests.support.tables import (
    TIMEOUT,
    TableClient,
    close_all,
    open_all,
    replay_check,
    started_table,
)

pytestmark = [pytest.mark.server, pytest.mark.timeout(180)]


async def play_one(clients: list[TableClient], latest: list[dict], rng: random.Random):
    """The seat to move plays a random legal card; every seat gets the next version."""
    mover = latest[0]["view"]["to_move"]
    version = latest[0]["version"]
    card = rng.choice(latest[mover]["view"]["legal"])
    await clients[mover].play(card, version)
    frames = [await c.state() for c in clients]
    for frame in frames:
        assert frame["version"] == version + 1
        assert frame["events"] == frames[0]["events"]
        assert frame["events"][0]["move"] == card
    return frames


async def expect_dropped(client: TableClient) -> None:
    with pytest.raises(ConnectionClosed):
        while True:  # anything still buffered, then the close
            await client.receive()


def check_same_table(before: list[dict], after: list[dict], log: list[dict]) -> None:
    for seat, (old, new) in enumerate(zip(before, after, strict=True)):
        assert new["version"] == old["version"]
        assert new["view"] == old["view"], f"seat {seat} sees another position"
        assert new["table"] == old["table"]
        assert new["log"] == log


async def scenario(server: DaphneServer, database: SiteDatabase, setup: dict) -> None:
    rng = random.Random(7)
    table_id = setup["table"]
    sessions = [p["session"] for p in setup["players"]]
    clients = [TableClient(server, table_id, s) for s in sessions]
    latest = await open_all(clients)
    assert [f["table"]["you"] for f in latest] == [0, 1, 2]
    assert latest[0]["table"]["status"] == "playing"
    log = list(latest[0]["log"])
    for _ in range(8):
        latest = await play_one(clients, latest, rng)
        log += latest[0]["events"]

    # 1. Crash right after an acknowledged move: nothing may be lost.
    await asyncio.to_thread(server.kill)
    for client in clients:
        await expect_dropped(client)
    await asyncio.to_thread(server.start)
    clients = [TableClient(server, table_id, s) for s in sessions]
    reconnected = await open_all(clients)
    check_same_table(latest, reconnected, log)
    latest = reconnected

    for _ in range(4):
        latest = await play_one(clients, latest, rng)
        log += latest[0]["events"]

    # 2. Crash with a move in flight: it is either all there or not there at all.
    mover = latest[0]["view"]["to_move"]
    in_flight = rng.choice(latest[mover]["view"]["legal"])
    await clients[mover].play(in_flight, latest[0]["version"])
    await asyncio.sleep(rng.uniform(0, 0.03))  # sometimes before the commit, sometimes after
    await asyncio.to_thread(server.kill)
    await close_all(clients)
    await asyncio.to_thread(server.start)
    clients = [TableClient(server, table_id, s) for s in sessions]
    reconnected = await open_all(clients)
    version = reconnected[0]["version"]
    assert version in (latest[0]["version"], latest[0]["version"] + 1)
    if version == latest[0]["version"]:
        check_same_table(latest, reconnected, log)
    else:
        applied = reconnected[0]["log"][len(log) :]
        assert reconnected[0]["log"][: len(log)] == log
        first = applied[0]
        assert (first["n"], first["seat"], first["move"]) == (len(log) + 1, mover, in_flight)
        assert all(e["move"] == "pass" for e in applied[1:])
        log += applied
    assert all(f["version"] == version and f["log"] == log for f in reconnected)
    latest = reconnected

    # 3. Play to the end on the restarted server.
    while latest[0]["table"]["status"] == "playing":
        latest = await play_one(clients, latest, rng)
        log += latest[0]["events"]
    results = [f["view"]["result"] for f in latest]
    assert all(r == results[0] for r in results)
    await close_all(clients)

    stored = await asyncio.to_thread(replay_check, database, table_id)
    assert stored["status"] == "finished"
    assert stored["log"] == log
    assert stored["version"] == len(log)
    assert stored["replayed_state"] == stored["state"]
    public = {k: v for k, v in results[0].items() if k != "hands"}
    assert stored["replayed"] == stored["stored"] == public


async def test_sigkill_and_restart_loses_no_move(database: SiteDatabase, tmp_path: Path):
    server = DaphneServer(database, tmp_path)
    await asyncio.to_thread(server.start)
    try:
        setup = await asyncio.to_thread(started_table, database, 3, "Keft")
        await asyncio.wait_for(scenario(server, database, setup), timeout=TIMEOUT * 5)
    finally:
        await asyncio.to_thread(server.stop)
