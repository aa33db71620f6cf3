"""The caps and cooldowns hold across two server processes sharing Redis (games/limits.py).

Two real servers (`python -m club.server`) on PostgreSQL + Redis: one
member's table sockets count together whichever process holds them, and a
flood closed by one process refuses the member's next handshake at the other.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.support.server import DaphneServer, SiteDatabase
from tests.support.tables import TIMEOUT, started_table

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.server, pytest.mark.timeout(240)]

LIMITS = {
    "BOT_RUNNER": "0",
    "WS_TABLE_SOCKETS_PER_ACCOUNT": "2",
    "WS_RATE_BURST": "2",
    "WS_RATE_PER_SECOND": "0.5",
    "WS_FLOOD_CLOSE_AFTER": "5",
}


@pytest.fixture
def servers(database: SiteDatabase, tmp_path: Path) -> Iterator[list[DaphneServer]]:
    started = []
    try:
        for _ in range(2):
            started.append(DaphneServer(database, tmp_path, env=LIMITS).start())
        yield started
    finally:
        for server in started:
            server.stop()


async def open_table(server: DaphneServer, table_id: int, session: str):
    ws = await connect(
        f"{server.ws_url}/ws/tables/{table_id}/",
        origin=server.url,
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=TIMEOUT,
    )
    return ws, json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))


def test_one_accounts_sockets_count_across_processes(servers, database):
    table = started_table(database, seats=2, variant="Keft")
    session = table["players"][0]["session"]

    async def scenario():
        first, frame = await open_table(servers[0], table["table"], session)
        assert frame["type"] == "state"
        second, frame = await open_table(servers[1], table["table"], session)
        assert frame["type"] == "state"
        refused = []
        for server in servers:
            ws, frame = await open_table(server, table["table"], session)
            refused.append(frame.get("code"))
            await ws.wait_closed()
            refused.append(ws.close_code)
        await first.close()
        # The first process frees its slot once the socket's end reaches it (its
        # disconnect handler, then Redis): on a busy machine that took more than the
        # 0.2 s this test once waited, so it tries again until the slot is free.
        deadline = time.monotonic() + TIMEOUT
        while True:
            again, frame = await open_table(servers[1], table["table"], session)
            if frame["type"] == "state" or time.monotonic() > deadline:
                break
            assert frame.get("code") == "too_many_sockets", frame
            await again.wait_closed()
            await asyncio.sleep(0.2)
        await again.close()
        await second.close()
        return refused, frame["type"]

    refused, after = asyncio.run(scenario())
    assert refused == ["too_many_sockets", 4409, "too_many_sockets", 4409]
    assert after == "state"


def test_a_flood_closed_by_one_process_is_refused_by_the_other(servers, database):
    table = started_table(database, seats=2, variant="Keft")
    session = table["players"][0]["session"]

    async def scenario():
        ws, _ = await open_table(servers[0], table["table"], session)
        codes = []
        for _ in range(50):
            await ws.send(json.dumps({"type": "sync"}))
            codes.append(json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT)).get("code"))
            if codes[-1] == "flooding":
                break
        await ws.wait_closed()
        try:
            await open_table(servers[1], table["table"], session)
        except InvalidStatus as exc:
            return codes[-1], ws.close_code, exc.response.status_code
        return codes[-1], ws.close_code, 101

    assert asyncio.run(scenario()) == ("flooding", 4429, 403)
