"""Benchmark: one socket flooding `sync` frames, and another table's move latency.

    .venv/bin/python tests/bench/bench_flood.py [--rounds 3] [--moves 30] [--no-limit]

Starts a real daphne process (tests/support/server.py) on a throwaway
database (SQLite file, or a fresh PostgreSQL database when DATABASE_URL
points at one), with two members at table A and two at table B (Devyatka,
two seats; fresh B tables as games end). It then alternates, `--rounds`
times, two conditions of `--moves` moves each at table B:

* quiet: nothing else happens on the server;
* flood: one socket at table A sends `{"type": "sync"}` as fast as it can
  (reconnecting when the server closes it for flooding, as a determined
  client would), while a reader drains whatever the server answers. The
  flooding client is a process of its own at the lowest CPU priority
  (nice 19): on this 2-core machine it stands for a client on another
  machine, and it must not slow table B's clients, which share no event
  loop or CPU priority with it, so what is measured is the server.

A move's round trip: from sending `play` at table B to the moment both
seats there have the new version. The conditions alternate within one run
because the machine's speed drifts 10-30% over minutes. `--no-limit` runs
the server with the rate limit effectively off (a burst of 10^9), to show
what the limit buys. All traffic goes to 127.0.0.1; every loop is bounded
in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from tests.bench.common import machine  # noqa: E402
from tests.support.server import DaphneServer, SiteDatabase  # noqa: E402
from tests.support.tables import run_django  # noqa: E402

TIMEOUT = 30.0
FLOOD_MAX_FRAMES = 200_000  # per flood period, whatever the machine's speed
FLOOD_MAX_RECONNECTS = 200


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def setup(database: SiteDatabase, b_tables: int) -> dict:
    return run_django(
        database,
        "from games import synthetic\n"
        f"players = synthetic.make_players(synthetic.new_prefix('bench'), {2 + 2 * b_tables})\n"
        "a = synthetic.started_table(players[:2])\n"
        f"bs = [synthetic.started_table(players[2 + 2 * i : 4 + 2 * i]) for i in range({b_tables})]\n"
        "emit({'a': a, 'a_sessions': [p.session_key for p in players[:2]],\n"
        "      'b': [[t, players[2 + 2 * i].session_key, players[3 + 2 * i].session_key]\n"
        "            for i, t in enumerate(bs)]})\n",
    )


async def open_socket(server: DaphneServer, table_id: int, session: str):
    ws = await connect(
        f"{server.ws_url}/ws/tables/{table_id}/",
        origin=server.url,
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=TIMEOUT,
        max_size=None,
    )
    first = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    assert first["type"] == "state", first
    return ws, first


class TableB:
    """Two members at a fresh table; play() makes one move and times its round trip."""

    def __init__(self, server: DaphneServer, tables: list[list]) -> None:
        self.server = server
        self.tables = list(tables)
        self.sockets: list = []
        self.latest: list[dict] = []

    async def next_table(self) -> None:
        for ws in self.sockets:
            await ws.close()
        table_id, *sessions = self.tables.pop(0)
        opened = [await open_socket(self.server, table_id, s) for s in sessions]
        self.sockets = [ws for ws, _ in opened]
        self.latest = [frame for _, frame in opened]

    async def play(self) -> float:
        if not self.sockets or self.latest[0]["table"]["status"] != "playing":
            await self.next_table()
        version = self.latest[0]["version"]
        mover = self.latest[0]["view"]["to_move"]
        card = self.latest[mover]["view"]["legal"][0]
        start = time.perf_counter()
        await self.sockets[mover].send(
            json.dumps({"type": "play", "card": card, "version": version})
        )
        for seat, ws in enumerate(self.sockets):
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                if frame["type"] == "state" and frame["version"] > version:
                    self.latest[seat] = frame
                    break
                assert frame["type"] != "error", frame
        return time.perf_counter() - start

    async def close(self) -> None:
        for ws in self.sockets:
            await ws.close()


class Flood:
    """One client at table A sending `sync` as fast as it can, until stopped."""

    def __init__(self, server: DaphneServer, table_id: int, session: str) -> None:
        self.server, self.table_id, self.session = server, table_id, session
        self.sent = self.answered = self.refused = self.closes = 0
        self.stop = asyncio.Event()

    async def run(self) -> None:
        frame = json.dumps({"type": "sync"})
        reconnects = 0
        while not self.stop.is_set() and reconnects < FLOOD_MAX_RECONNECTS:
            ws, _ = await open_socket(self.server, self.table_id, self.session)
            reader = asyncio.ensure_future(self._drain(ws))
            try:
                while not self.stop.is_set() and self.sent < FLOOD_MAX_FRAMES:
                    await ws.send(frame)
                    self.sent += 1
                    if self.sent % 50 == 0:
                        await asyncio.sleep(0)  # let the reader and the stop flag in
                if self.sent >= FLOOD_MAX_FRAMES:
                    await self.stop.wait()
            except ConnectionClosed:
                self.closes += 1
            finally:
                reader.cancel()
                with contextlib.suppress(BaseException):
                    await reader
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(ws.close(), 5)
            reconnects += 1

    async def _drain(self, ws) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in ws:
                self.answered += 1
                if '"rate_limited"' in message:
                    self.refused += 1


async def measure(server: DaphneServer, layout: dict, rounds: int, moves: int) -> dict:
    table_b = TableB(server, layout["b"])
    results: dict[str, list[float]] = {"quiet": [], "flood": []}
    floods: list[dict] = []
    try:
        for _ in range(3):  # warm-up: first requests, first queries
            await table_b.play()
        for _ in range(rounds):
            for condition in ("quiet", "flood"):
                flood = None
                if condition == "flood":
                    flood = start_flood_process(server, layout["a"], layout["a_sessions"][0])
                    await asyncio.sleep(1.0)  # the flood is under way
                for _ in range(moves):
                    results[condition].append(await table_b.play())
                if flood is not None:
                    floods.append(await stop_flood_process(flood))
                    await asyncio.sleep(0.5)  # let the server drain before the quiet round
    finally:
        await table_b.close()
    return {
        "results": results,
        **{key: sum(f[key] for f in floods) for key in ("sent", "answered", "refused", "closes")},
    }


def start_flood_process(server: DaphneServer, table_id: int, session: str):
    """The flooding client, in a process of its own at the lowest CPU priority."""
    return subprocess.Popen(
        [sys.executable, __file__, "--flood-worker", server.url, str(table_id), session],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        preexec_fn=lambda: os.nice(19),
        text=True,
    )


async def stop_flood_process(process) -> dict:
    """Tell the flooding process to stop (close its stdin); its counts come back as JSON."""
    out, _ = await asyncio.to_thread(process.communicate, None, TIMEOUT)
    return json.loads(out.strip().splitlines()[-1])


async def flood_worker(url: str, table_id: int, session: str) -> None:
    """The child process: flood until the parent closes our stdin, then print the counts."""

    class Server:  # the parts of DaphneServer that open_socket uses
        pass

    server = Server()
    server.url = url
    server.ws_url = url.replace("http", "ws", 1)
    flood = Flood(server, table_id, session)
    task = asyncio.ensure_future(flood.run())
    await asyncio.to_thread(sys.stdin.read)  # EOF: the parent says stop
    flood.stop.set()
    await asyncio.wait_for(task, TIMEOUT)
    counts = {"sent": flood.sent, "answered": flood.answered, "refused": flood.refused}
    print(json.dumps({**counts, "closes": flood.closes}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--no-limit", action="store_true", help="rate limit off (burst 10^9)")
    parser.add_argument("--flood-worker", nargs=3, metavar=("URL", "TABLE", "SESSION"))
    args = parser.parse_args()
    if args.flood_worker:
        url, table_id, session = args.flood_worker
        asyncio.run(flood_worker(url, int(table_id), session))
        return
    # About 36 moves a game: enough fresh B tables for every move of the run.
    b_tables = (args.rounds * 2 * args.moves + 3) // 15 + 2

    with tempfile.TemporaryDirectory() as tmp:
        database = SiteDatabase(Path(tmp))
        database.create()
        env = {"WS_RATE_BURST": str(10**9)} if args.no_limit else {}
        server = DaphneServer(database, Path(tmp), env=env)
        server.start()
        try:
            layout = setup(database, b_tables)
            out = asyncio.run(measure(server, layout, args.rounds, args.moves))
        finally:
            server.stop()
            database.drop()

    info = machine()
    print(f"{info['cpu']}, {info['nproc']} CPUs, {info['python']}")
    limit = "off (--no-limit)" if args.no_limit else "on (defaults)"
    print(
        f"rate limit {limit}; {args.rounds} rounds x {args.moves} moves per condition, "
        "alternating quiet / flood"
    )
    quiet, flood = out["results"]["quiet"], out["results"]["flood"]
    for name, values in (("quiet", quiet), ("flood", flood)):
        ms = [v * 1000 for v in values]
        print(
            f"  table B move round trip, {name:<5}: p50 {percentile(ms, 0.5):6.1f} ms, "
            f"p95 {percentile(ms, 0.95):6.1f} ms, mean {statistics.fmean(ms):6.1f} ms "
            f"({len(ms)} moves)"
        )
    ratio50 = percentile(flood, 0.5) / percentile(quiet, 0.5)
    ratio95 = percentile(flood, 0.95) / percentile(quiet, 0.95)
    print(f"  flood / quiet: p50 x{ratio50:.2f}, p95 x{ratio95:.2f}")
    print(
        f"  flood socket: {out['sent']} frames sent, {out['answered']} answered "
        f"({out['refused']} rate_limited), closed by the server {out['closes']} times"
    )


if __name__ == "__main__":
    main()
