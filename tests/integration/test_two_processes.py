"""Two daphne processes, one PostgreSQL database, one Redis: one live table across both.

Seats 0 and 2 (and a watcher) talk to one process, seats 1 and 3 to the other.
Each seat plays as soon as its own socket says it is its turn, without waiting
for the others, so updates from both processes interleave. Every connection
must see every version, in order, without a gap, with the same events, and
the same final result; the stored game equals a replay of its Move log.

Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/club_ci \\
     REDIS_URL=redis://127.0.0.1:6379/5 .venv/bin/python -m pytest tests/integration/test_two_processes.py
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.server import DaphneServer, SiteDatabase
from tests.support.tables import (
    TIMEOUT,
    TableClient,
    close_all,
    open_all,
    replay_check,
    started_table,
)

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.server,
    pytest.mark.timeout(180),
]


@pytest.fixture
def servers(database: SiteDatabase, tmp_path: Path) -> Iterator[list[DaphneServer]]:
    started: list[DaphneServer] = []
    try:
        for _ in range(2):
            started.append(DaphneServer(database, tmp_path).start())
        yield started
    finally:
        for server in started:
            server.stop()


async def follow(
    client: TableClient, seat: int | None, first: dict, rng: random.Random
) -> list[dict]:
    """Every frame this connection gets until the game ends; plays its own turns at once."""
    frames = [first]
    while frames[-1]["table"]["status"] == "playing":
        latest = frames[-1]
        if seat is not None and latest["view"]["to_move"] == seat:
            await client.play(rng.choice(latest["view"]["legal"]), latest["version"])
        frame = await client.receive()
        assert frame["type"] == "state", frame  # an error frame would mean a lost update
        frames.append(frame)
    await client.close()
    return frames


async def test_players_on_two_processes_share_one_game(
    database: SiteDatabase, servers: list[DaphneServer]
):
    setup = await asyncio.to_thread(started_table, database, 4, "Devyatka", 1)
    table_id = setup["table"]
    seated = [
        TableClient(servers[seat % 2], table_id, p["session"])
        for seat, p in enumerate(setup["players"])
    ]
    watcher = TableClient(servers[0], table_id, setup["watchers"][0]["session"])
    clients = [*seated, watcher]
    seats: list[int | None] = [0, 1, 2, 3, None]
    try:
        # Everyone connects before anyone plays, so nobody starts mid-game.
        firsts = await open_all(clients)
        runs = [
            follow(c, s, f, random.Random(s or 9))
            for c, s, f in zip(clients, seats, firsts, strict=True)
        ]
        histories = await asyncio.wait_for(asyncio.gather(*runs), timeout=TIMEOUT * 4)
    finally:
        await close_all(clients)

    start = histories[0][0]
    for seat, history in zip(seats, histories, strict=True):
        assert history[0]["log"] == [], "connected before the first move"
        assert history[0]["version"] == start["version"]
        versions = [f["version"] for f in history]
        assert versions == list(range(start["version"], start["version"] + len(history))), (
            f"seat {seat}: versions missing or out of order"
        )
        assert history[-1]["table"]["status"] == "finished"
        assert history[-1]["table"]["you"] == seat
    reference = histories[0]
    for history in histories[1:]:
        assert len(history) == len(reference)
        assert [f["events"] for f in history[1:]] == [f["events"] for f in reference[1:]]
        assert history[-1]["view"]["result"] == reference[-1]["view"]["result"]

    log = [e for frame in reference[1:] for e in frame["events"]]
    assert [e["n"] for e in log] == list(range(1, len(log) + 1))
    stored = await asyncio.to_thread(replay_check, database, table_id)
    assert stored["status"] == "finished"
    assert stored["log"] == log
    assert stored["replayed_state"] == stored["state"]
    public = {k: v for k, v in reference[-1]["view"]["result"].items() if k != "hands"}
    assert stored["replayed"] == stored["stored"] == public
