"""Benchmark: a 100-member live club night's start over real sockets, and the moves at other
tables meanwhile (issue 43).

    .venv/bin/python tests/bench/bench_night_start_sockets.py [--members 100] [--starts 3]

Starts the club's server (`python -m club.server`, the embedded SQLite default unless
DATABASE_URL points at a PostgreSQL server; the house runner's duty every second,
HOUSE_DUTY_SECONDS=1) on a fresh migrated database, and in this process:

* `--tables` ordinary live tables of four members, each seat a websocket client playing a
  random legal card about every `--think` seconds (tools/loadtest's clients: a move's
  latency runs from its `play` frame to every seat holding the new version);
* `--starts` live nights of `--members` members each (present: their pages open),
  tables of 4 to 5. Quiet stretches of `--quiet` seconds alternate with the nights'
  starts: a night's start time is set to "now", the server's duty starts it (seating, then
  each table dealt in its own transaction), and this process, polling the database every
  50 ms for the night's new tables, opens a socket to each (as its seat 0 member) and
  notes when its first frame arrives. A start's figure runs from its start time to the
  last table's first frame (the 50 ms polling included).

Printed: each start's figures, and the other tables' move latency (p50, p99) while a
night was starting and during the quiet stretches around, from the same run.
Target: seated and dealt within 10 s; other tables within noise.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.common import machine  # noqa: E402
from tests.support.server import DaphneServer, SiteDatabase  # noqa: E402


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=100)
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--think", type=float, default=0.3)
    parser.add_argument("--quiet", type=float, default=8.0)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="night-start-"))
    database = SiteDatabase(tmp)
    database.create()
    server = DaphneServer(
        database, tmp, env={"HOUSE_DUTY_SECONDS": "1", "NOTIFY_ENABLED": "1"}
    ).start()
    os.environ.update(database.env())
    import django

    django.setup()
    try:
        report = asyncio.run(run(args, server))
    finally:
        server.stop()
        database.drop()
    print(json.dumps(report, indent=2))


async def run(args, server: DaphneServer) -> dict:
    from asgiref.sync import sync_to_async

    from tools import synthetic
    from tools.loadtest.run import LoadRun

    layout, nights = await sync_to_async(setup)(args)
    total = args.quiet + args.starts * (12.0 + args.quiet)
    options = {
        "think": args.think,
        "again": "socket",
        "duration": total,
        "timeout": 15.0,
        "seed": 1,
        "url": [server.url],
        "connect_concurrency": 25,
        "server_pid": [server.process.pid],
        "probe": None,
        "probe_interval": 0,
    }
    load = LoadRun(options, layout)
    playing = asyncio.create_task(load.go())
    windows, starts = [], []
    await asyncio.sleep(args.quiet + 2)  # connected, and a quiet stretch first
    for event_id, sessions in nights:
        began, wall = time.perf_counter(), time.time()
        await sync_to_async(start_now)(event_id)
        figures = await watch_start(server, event_id, sessions, began)
        figures["from_start_time_s"] = round(figures["last_first_frame"] - began, 2)
        windows.append((began, figures.pop("last_first_frame")))
        figures["start_time"] = wall
        starts.append(figures)
        await asyncio.sleep(args.quiet)
    info = await playing
    del info, synthetic
    during, quiet = [], []
    for done, seconds in zip(load.stats.move_times, load.stats.latencies, strict=True):
        sent = done - seconds
        (during if any(a <= sent <= b for a, b in windows) else quiet).append(seconds * 1000)
    return {
        "machine": machine(),
        "members": args.members,
        "other_tables": args.tables,
        "starts": starts,
        "moves_during_starts": {
            "n": len(during),
            "p50_ms": round(percentile(during, 0.5) or 0, 1),
            "p99_ms": round(percentile(during, 0.99) or 0, 1),
        },
        "moves_quiet": {
            "n": len(quiet),
            "p50_ms": round(percentile(quiet, 0.5) or 0, 1),
            "p99_ms": round(percentile(quiet, 0.99) or 0, 1),
        },
        "errors": dict(load.stats.errors),
    }


def setup(args) -> tuple[list[dict], list[tuple[int, dict]]]:
    from django.utils import timezone

    from events.models import Entry, Event
    from games.models import Variant
    from tools import synthetic

    prefix = synthetic.new_prefix("bench")
    layout = []
    for t in range(args.tables):
        players = synthetic.make_players(prefix, 4, start=t * 4)
        table = synthetic.started_table(players)
        layout.append({"table": table, "players": [p.as_dict() for p in players]})
    nights = []
    later = timezone.now() + datetime.timedelta(days=1)
    for n in range(args.starts):
        people = synthetic.make_players(f"{prefix}n{n}", args.members)
        event = Event.objects.create(
            name=f"Bench night {n}",
            slug=f"bench-night-{n}",
            variant=Variant.objects.get(name=synthetic.DEFAULT_VARIANT),
            pace="live",
            rounds=3,
            min_seats=4,
            max_seats=5,
            signup_opens=timezone.now() - datetime.timedelta(days=1),
            signup_closes=later,
            starts=later,
        )
        Entry.objects.bulk_create(
            Entry(event=event, player_id=p.player_id, online=True) for p in people
        )
        nights.append((event.pk, {p.player_id: p.session_key for p in people}))
    return layout, nights


def start_now(event_id: int) -> None:
    from django.utils import timezone

    from events.models import Entry, Event

    now = timezone.now()
    Entry.objects.filter(event_id=event_id).update(online=True, seen=now)
    Event.objects.filter(pk=event_id).update(starts=now)


def new_tables(event_id: int, known: set[int]) -> tuple[list[tuple[int, int]], int | None]:
    """The night's round-1 tables not seen yet (table id, seat 0's player), and how many the
    round has (None: not seated yet)."""
    from events.models import Round, RoundTable

    plan = Round.objects.filter(event_id=event_id, number=1).values_list("plan", flat=True)
    count = len(plan[0]) if plan else None
    rows = RoundTable.objects.filter(round__event_id=event_id, round__number=1).exclude(
        table_id__in=known
    )
    return [(t.table_id, t.players[0]) for t in rows], count


async def watch_start(server: DaphneServer, event_id: int, sessions: dict, began: float) -> dict:
    """Poll for the night's tables; open a socket to each and time its first frame."""
    from asgiref.sync import sync_to_async
    from websockets.asyncio.client import connect

    first_frames: dict[int, float] = {}
    sockets = []
    known: set[int] = set()
    count = None

    async def first_frame(table_id: int, player_id: int) -> None:
        ws = await connect(
            f"{server.ws_url}/ws/tables/{table_id}/",
            origin=server.url,
            additional_headers={"Cookie": f"sessionid={sessions[player_id]}"},
            max_size=None,
        )
        sockets.append(ws)
        frame = json.loads(await ws.recv())
        if frame.get("type") == "state":
            first_frames[table_id] = time.perf_counter()

    waiting = []
    deadline = began + 60
    while time.perf_counter() < deadline:
        found, count = await sync_to_async(new_tables)(event_id, known)
        for table_id, player_id in found:
            known.add(table_id)
            waiting.append(asyncio.create_task(first_frame(table_id, player_id)))
        if count is not None and len(known) >= count:
            break
        await asyncio.sleep(0.05)
    await asyncio.gather(*waiting, return_exceptions=True)
    for ws in sockets:
        await ws.close()
    return {
        "tables": count,
        "first_frames": len(first_frames),
        "last_first_frame": max(first_frames.values(), default=time.perf_counter()),
    }


if __name__ == "__main__":
    main()
