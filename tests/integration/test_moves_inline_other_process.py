"""On SQLite, a move behind another process's write lock waits on the database thread.

games.db.on_database_inline runs a table socket's move on the event loop itself. When
another process (a `manage.py` command, a backup) holds SQLite's write lock, the move
is refused before it begins and handed to the database thread, which waits in
SQLite's busy handler while the loop serves everyone else. A real daphne process on
a SQLite file, and a second process holding the lock: the move is not made while the
lock is held, the server still answers another socket meanwhile, and the move lands
once, as soon as the lock is released.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import pytest

from tests.support.server import DaphneServer, SiteDatabase
from tests.support.tables import TIMEOUT, TableClient, close_all, open_all, started_table

pytestmark = [pytest.mark.server, pytest.mark.timeout(120)]

# Another program in a write transaction on the site's file until it reads a line:
# Python's own sqlite3, as any other process would hold the lock.
HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
db.execute("BEGIN IMMEDIATE")
db.execute("UPDATE games_table SET updated = updated")
print("held", flush=True)
sys.stdin.readline()
db.execute("COMMIT")
"""


async def test_a_move_behind_another_process_waits_off_the_loop_and_lands_once(
    database: SiteDatabase, tmp_path: Path
):
    if database.sqlite_path is None:
        pytest.skip("moves run on the event loop on SQLite only")
    server = DaphneServer(database, tmp_path).start()
    clients: list[TableClient] = []
    holder = None
    try:
        setup = await asyncio.to_thread(started_table, database, 3, "Keft", 0, 11)
        clients = [TableClient(server, setup["table"], p["session"]) for p in setup["players"]]
        latest = await open_all(clients)
        mover = latest[0]["view"]["to_move"]
        other = clients[(mover + 1) % len(clients)]
        version = latest[0]["version"]
        card = latest[mover]["view"]["legal"][0]

        holder = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            HOLDER,
            str(database.sqlite_path),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert await asyncio.wait_for(holder.stdout.readline(), TIMEOUT) == b"held\n"
        await clients[mover].play(card, version)

        # While the move waits for the lock, the server's loop answers another socket.
        await asyncio.sleep(0.3)
        asked = time.monotonic()
        await other.ws.send(json.dumps({"type": "ping"}))
        assert (await other.receive())["type"] == "pong"
        assert time.monotonic() - asked < 2.0, "the event loop waited for the lock"
        # ...and the move has not been made: nobody was sent a new version.
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(clients[mover].ws.recv(), 0.3)

        holder.stdin.write(b"\n")
        await holder.stdin.drain()
        assert await asyncio.wait_for(holder.wait(), TIMEOUT) == 0

        # Made once the lock is free: every seat gets the next version, once.
        frames = [await client.state() for client in clients]
        assert {frame["version"] for frame in frames} == {version + 1}
        first = frames[0]["events"][0]
        assert (first["seat"], first["move"], first["auto"]) == (mover, card, False)
        await clients[mover].ws.send(json.dumps({"type": "ping"}))
        assert (await clients[mover].receive())["type"] == "pong"  # no second copy of it
    finally:
        if holder is not None and holder.returncode is None:
            holder.kill()
            await holder.wait()
        await close_all(clients)
        await asyncio.to_thread(server.stop)
