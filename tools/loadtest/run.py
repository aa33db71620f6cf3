"""Load test for live tables: many tables playing at once against running daphne processes.

    python -m tools.loadtest --url http://127.0.0.1:8000 --tables 100 --seats 4 \\
        --think 1.0 --duration 30

Run it with the same DATABASE_URL as the server(s). It makes synthetic players
(named ``load-<run>-<n>``, unusable passwords) with real sessions and started
tables through `games.services`, directly in that database; opens one websocket
per seat (Origin header + session cookie, like a browser); then every table
plays random legal cards (from `view.legal`), one about every `--think`
seconds (uniformly 50%-150% of it), until `--duration` ends. A finished game is
dealt again through the real "play again" form post. At the end it deletes
everything it made (unless `--keep`).

Latency of a move: from sending the `play` frame to the moment EVERY seat at
that table has received the new version. Errors: error frames, dropped
connections, gaps in the versions a seat receives, and moves not seen by every
seat within `--timeout`. `--think 0` saturates: each table moves again as soon
as every seat has the previous update; moves/s is then the most the server
sustains. Several `--url`s spread each table's seats over several servers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import statistics
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from urllib.parse import urlparse

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection

from tools import synthetic
from tools.loadtest import probe as loadprobe
from tools.loadtest.measure import best_window, cpu_percent, cpu_sample, percentile


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, one per move
    move_times: list[float] = field(default_factory=list)  # when each move completed
    events: int = 0  # moves including automatic passes
    deals: int = 0  # games finished and dealt again
    deal_latencies: list[float] = field(default_factory=list)  # all accepts -> new deal seen
    again_latencies: list[float] = field(default_factory=list)  # one "play again" post
    errors: Counter = field(default_factory=Counter)
    # For outages (tests/bench/bench_outage.py): when each mover had its own
    # answer, and when each table's move reached every seat (table id, time).
    acks: list[float] = field(default_factory=list)
    completions: list[tuple[int, float]] = field(default_factory=list)


@dataclass
class Seat:
    index: int
    url: str
    session: str
    ws: object = None
    latest: dict | None = None
    version: int = -1
    # Set when a new version arrives (the socket rematch waits on its own answer).
    news: asyncio.Event = field(default_factory=asyncio.Event)


class LoadTable:
    """One table: its seats' sockets, and the loop that plays its moves."""

    def __init__(self, run: LoadRun, table_id: int, seats: list[Seat], rng: random.Random):
        self.run = run
        self.table_id = table_id
        self.seats = seats
        self.rng = rng
        self.target = -1  # the version we are waiting for every seat to reach
        self.arrived: dict[int, float] = {}  # seat -> when it got the target version
        self.done: asyncio.Future | None = None
        self.broken = False
        self.mover: Seat | None = None  # who sent the move in flight, and what
        self.message = ""
        self.acked = False
        self.max_seen = -1  # the newest version any seat of this table received

    # -- connections ---------------------------------------------------------

    async def connect(self, limit: asyncio.Semaphore) -> None:
        from websockets.asyncio.client import connect

        for seat in self.seats:
            async with limit:
                host = urlparse(seat.url)
                ws_url = f"{'wss' if host.scheme == 'https' else 'ws'}://{host.netloc}"
                seat.ws = await connect(
                    f"{ws_url}/ws/tables/{self.table_id}/",
                    origin=seat.url,
                    additional_headers={"Cookie": f"sessionid={seat.session}"},
                    open_timeout=self.run.timeout,
                    max_size=None,
                )
                first = json.loads(await asyncio.wait_for(seat.ws.recv(), self.run.timeout))
                if first.get("type") != "state":
                    raise CommandError(f"table {self.table_id}: first frame {first}")
                seat.latest, seat.version = first, first["version"]

    async def read(self, seat: Seat) -> None:
        from websockets.exceptions import ConnectionClosed

        stats = self.run.stats
        try:
            async for text in seat.ws:
                now = time.perf_counter()
                frame = json.loads(text)
                if frame.get("type") != "state":
                    stats.errors[f"error frame: {frame.get('code')}"] += 1
                    self._refused(seat, frame)
                    continue
                version = frame["version"]
                self.max_seen = max(self.max_seen, version)
                if seat is self.mover and version >= self.target and not self.acked:
                    self.acked = True
                    stats.acks.append(now)
                if version > seat.version + 1 and "log" not in frame:
                    stats.errors["missing versions"] += version - seat.version - 1
                if version <= seat.version and "log" not in frame:
                    stats.errors["old or repeated version"] += 1
                    continue
                seat.latest, seat.version = frame, version
                seat.news.set()
                if version >= self.target and self.done and seat.index not in self.arrived:
                    self.arrived[seat.index] = now
                    if len(self.arrived) == len(self.seats) and not self.done.done():
                        self.done.set_result(max(self.arrived.values()))
                        stats.completions.append((self.table_id, now))
        except ConnectionClosed:
            pass
        if not self.run.stopping:
            stats.errors["disconnected"] += 1
            self.broken = True
            if self.done and not self.done.done():
                self.done.set_exception(ConnectionError("disconnected"))

    async def close(self) -> None:
        await asyncio.gather(*(s.ws.close() for s in self.seats if s.ws), return_exceptions=True)

    def _refused(self, seat: Seat, frame: dict) -> None:
        """`unavailable` (the database is away): send the same move again when told."""
        if frame.get("code") != "unavailable" or seat is not self.mover or self.done is None:
            return
        message = self.message
        asyncio.get_running_loop().call_later(
            float(frame.get("retry_after", 1)),
            lambda: asyncio.ensure_future(seat.ws.send(message)),
        )

    # -- playing -------------------------------------------------------------

    async def _until_everyone_has(self, version: int, send) -> float:
        """Run `send`, then wait until every seat has `version`; the seconds it took."""
        self.target = version
        self.arrived = {}
        self.done = asyncio.get_running_loop().create_future()
        for seat in self.seats:  # already there (cannot happen for a new version)
            if seat.version >= version:
                self.arrived[seat.index] = time.perf_counter()
        start = time.perf_counter()
        await send()
        try:
            finished = await asyncio.wait_for(self.done, self.run.timeout)
        finally:
            self.done = None
        return finished - start

    async def play(self) -> None:
        run, stats = self.run, self.run.stats
        readers = [asyncio.create_task(self.read(s)) for s in self.seats]
        if run.think > 0:
            await asyncio.sleep(self.rng.uniform(0, run.think))  # tables out of step
        while not run.stopping and not self.broken:
            head = self.seats[0].latest
            try:
                if head["table"]["status"] == "finished":
                    # Each member's accept is one change; the last one also deals.
                    seconds = await self._until_everyone_has(
                        head["version"] + len(self.seats), self._again
                    )
                    if not run.stopping:
                        stats.deals += 1
                        stats.deal_latencies.append(seconds)
                    continue
                # Any seat with legal moves may act (several at once while every seat plays).
                movers = [s for s in self.seats if s.latest["view"]["legal"]]
                mover = self.rng.choice(movers)
                move = self.rng.choice(mover.latest["view"]["legal"])
                message = json.dumps({"type": "play", "move": move, "version": head["version"]})
                self.mover, self.message, self.acked = mover, message, False
                sent_at = time.perf_counter()
                seconds = await self._until_everyone_has(
                    head["version"] + 1, partial(mover.ws.send, message)
                )
                if sent_at < run.ends:
                    stats.latencies.append(seconds)
                    stats.move_times.append(sent_at + seconds)
                    stats.events += len(self.seats[0].latest.get("events", []))
            except TimeoutError:
                stats.errors["update not seen by every seat in time"] += 1
                await self._resync()
            except ConnectionError:
                break
            except Exception as exc:  # noqa: BLE001 - a load tool reports and goes on
                stats.errors[f"{type(exc).__name__}: {exc}"[:80]] += 1
                self.broken = True
                break
            if run.think > 0 and not run.stopping:
                await asyncio.sleep(self.rng.uniform(0.5 * run.think, 1.5 * run.think))
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)

    async def _resync(self) -> None:
        for seat in self.seats:
            await seat.ws.send(json.dumps({"type": "sync"}))
        await asyncio.sleep(1.0)
        versions = {s.version for s in self.seats}
        if len(versions) != 1:
            self.broken = True

    async def _again(self) -> None:
        # A rematch starts once every member at the table has accepted it.
        if self.run.again_via == "socket":
            # The table page's way while its socket is open: one `again` frame each,
            # one member after the other, each once every seat has seen the last
            # accept. (A member's own answer comes straight from its socket and may
            # overtake another's accept on the way to it: the tool would count
            # a skipped version, which the protocol allows but the tool does not.)
            start = self.seats[0].latest["version"]
            for n, seat in enumerate(self.seats, 1):
                await seat.ws.send('{"type": "again"}')
                with contextlib.suppress(TimeoutError):  # refused: the caller times out
                    async with asyncio.timeout(self.run.timeout):
                        for other in self.seats:
                            while other.version < start + n:
                                other.news.clear()
                                await other.news.wait()
            return
        for seat in self.seats:
            # Not asyncio.to_thread: its default pool has cores + 4 threads, so
            # when many tables finish at once their posts would queue in this
            # tool (seconds) before the server ever saw them.
            status, seconds = await asyncio.get_running_loop().run_in_executor(
                self.run.http_threads, loadprobe.post_again, seat.url, self.table_id, seat.session
            )
            if status != 302:
                self.run.stats.errors[f"play again: HTTP {status}"] += 1
            else:
                self.run.stats.again_latencies.append(seconds)


class LoadRun:
    def __init__(self, options: dict, layout: list[dict]) -> None:
        self.think = options["think"]
        self.again_via = options["again"]
        self.duration = options["duration"]
        self.timeout = options["timeout"]
        self.stats = Stats()
        self.stopping = False
        self.ends = float("inf")
        rng = random.Random(options["seed"])
        urls = options["url"]
        self.tables = []
        for t, table in enumerate(layout):
            seats = [
                Seat(i, urls[(t * len(table["players"]) + i) % len(urls)], p["session"])
                for i, p in enumerate(table["players"])
            ]
            self.tables.append(LoadTable(self, table["table"], seats, random.Random(rng.random())))
        self.connect_limit = options["connect_concurrency"]
        self.server_pids = options["server_pid"]
        # One thread per table for the "play again" posts (blocking http.client).
        self.http_threads = ThreadPoolExecutor(max_workers=min(256, len(layout)))
        probe = options.get("probe")
        self.prober = loadprobe.Prober(urls[0], probe, options["probe_interval"]) if probe else None

    async def go(self) -> dict:
        limit = asyncio.Semaphore(self.connect_limit)
        started = time.perf_counter()
        await asyncio.gather(*(t.connect(limit) for t in self.tables))
        connected = time.perf_counter() - started
        cpu_start = cpu_sample(self.server_pids)
        began = cpu_start["wall"]
        self.ends = began + self.duration
        players = [asyncio.create_task(t.play()) for t in self.tables]
        if self.prober is not None:
            players.append(asyncio.create_task(self.prober.run(self.ends)))
        await asyncio.sleep(self.duration)
        cpu_end = cpu_sample(self.server_pids)
        self.stopping = True
        # Let moves in flight land (they are not counted: sent before the end, though).
        await asyncio.wait(players, timeout=self.timeout + 5)
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        await asyncio.gather(*(t.close() for t in self.tables))
        self.http_threads.shutdown(wait=False)
        return {
            "connect_seconds": connected,
            "began": began,
            "cpu_start": cpu_start,
            "cpu_end": cpu_end,
        }


def _ms(values: list[float], fraction: float) -> float | None:
    return round(percentile(values, fraction) * 1000, 1) if values else None


def _http_report(run: LoadRun, stats: Stats) -> dict:
    """Latency of each kind of HTTP request made during the run, p50/p99 in ms."""
    kinds = {"again": stats.again_latencies}
    failures: dict[str, int] = {}
    if run.prober is not None:
        kinds.update(run.prober.latencies)
        failures = dict(run.prober.failures)
    report = {
        kind: {"n": len(values), "p50": _ms(values, 0.5), "p99": _ms(values, 0.99)}
        for kind, values in kinds.items()
        if values
    }
    report["failures"] = failures
    return report


def lost_versions(run: LoadRun) -> int:
    """Versions some seat received that the database does not have (must be 0)."""
    from games.models import Table

    # The database may have restarted during the run (tests/bench/bench_outage.py):
    # a fresh connection, not the one set up before play.
    connection.close()
    stored = dict(
        Table.objects.filter(pk__in=[t.table_id for t in run.tables]).values_list("pk", "version")
    )
    return sum(max(0, t.max_seen - stored.get(t.table_id, -1)) for t in run.tables)


class Command(BaseCommand):
    help = "Play many live tables at once against running servers and report latency."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--url",
            action="append",
            help="Base URL of a running server (repeat for several processes; "
            "default http://127.0.0.1:8000).",
        )
        parser.add_argument("--tables", type=int, default=100)
        parser.add_argument("--seats", type=int, default=4)
        parser.add_argument(
            "--think",
            type=float,
            default=1.0,
            help="Seconds between a table's moves, randomised ±50%%; 0 saturates.",
        )
        parser.add_argument("--duration", type=float, default=30.0, help="Seconds of play.")
        parser.add_argument("--variant", default=synthetic.DEFAULT_VARIANT)
        parser.add_argument("--timeout", type=float, default=15.0)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--connect-concurrency", type=int, default=25)
        parser.add_argument(
            "--server-pid",
            type=int,
            action="append",
            default=[],
            help="Report this server process's CPU use over the run (repeatable).",
        )
        parser.add_argument(
            "--probe-interval",
            type=float,
            default=1.0,
            help="Seconds between the HTTP prober's rounds (a page view, then join, leave, "
            "add and remove a house bot at a table of its own); 0: no prober.",
        )
        parser.add_argument(
            "--again",
            choices=["post", "socket"],
            default="post",
            help="How members accept a rematch: the /again/ form post (default, as without "
            "JavaScript) or the table socket's `again` frame (as the table page does).",
        )
        parser.add_argument("--json", help="Also write the figures to this file.")
        parser.add_argument("--keep", action="store_true", help="Keep the synthetic data.")

    def handle(self, *args, **options) -> None:
        options["url"] = [u.rstrip("/") for u in options["url"] or ["http://127.0.0.1:8000"]]
        if options["tables"] < 1 or options["seats"] < 2 or options["duration"] <= 0:
            raise CommandError("Need at least one table, two seats and a positive duration.")
        prefix = synthetic.new_prefix("load")
        self.stdout.write(
            f"Setting up {options['tables']} tables x {options['seats']} seats as {prefix}-…"
        )
        sessions: list[str] = []
        try:
            layout = self._setup(prefix, options, sessions)
            if options["probe_interval"] > 0:
                options["probe"] = loadprobe.make_probe(prefix)
            run = LoadRun(options, layout)
            info = asyncio.run(run.go())
            info["lost_versions"] = lost_versions(run)
        finally:
            if options["keep"]:
                self.stdout.write(f"Kept the synthetic data ({prefix}-…).")
            else:
                self._remove(prefix, sessions)
        report = self._report(run, options, info)
        if options["json"]:
            with open(options["json"], "w") as out:
                json.dump(report, out, indent=2)

    def _remove(self, prefix: str, sessions: list[str]) -> None:
        """Delete the synthetic data; the servers may still be handling the disconnects."""
        time.sleep(1.0)
        for attempt in range(5):
            try:
                removed = synthetic.remove(prefix, sessions)
            except DatabaseError as exc:  # e.g. a deadlock with a disconnect being handled
                connection.close()  # or a connection the database dropped: start afresh
                if attempt == 4:
                    self.stderr.write(f"Could not remove {prefix}-…: {exc}; run again with care.")
                    return
                time.sleep(1.0 + attempt)
            else:
                self.stdout.write(f"Removed {removed} synthetic players and their tables.")
                return

    def _setup(self, prefix: str, options: dict, sessions: list[str]) -> list[dict]:
        layout = []
        seats = options["seats"]
        for t in range(options["tables"]):
            players = synthetic.make_players(prefix, seats, start=t * seats)
            sessions += [p.session_key for p in players]
            table = synthetic.started_table(players, options["variant"])
            layout.append({"table": table, "players": [p.as_dict() for p in players]})
        return layout

    def _report(self, run: LoadRun, options: dict, info: dict) -> dict:
        stats = run.stats
        cpu = cpu_percent(info["cpu_start"], info["cpu_end"])
        ms = [s * 1000 for s in stats.latencies]
        end = info["began"] + options["duration"]
        report = {
            "urls": options["url"],
            "tables": options["tables"],
            "seats": options["seats"],
            "think": options["think"],
            "duration": options["duration"],
            "connect_seconds": round(info["connect_seconds"], 2),
            "moves": len(ms),
            "moves_per_second": round(len(ms) / options["duration"], 1),
            "best_5s_moves_per_second": round(best_window(stats.move_times, info["began"], end), 1),
            "events_per_second": round(stats.events / options["duration"], 1),
            "deals": stats.deals,
            "again_via": options["again"],
            "latency_ms": {
                "p50": round(percentile(ms, 0.50), 1),
                "p95": round(percentile(ms, 0.95), 1),
                "p99": round(percentile(ms, 0.99), 1),
                "max": round(max(ms), 1) if ms else None,
                "mean": round(statistics.fmean(ms), 1) if ms else None,
            },
            "deal_latency_ms_p50": _ms(stats.deal_latencies, 0.5),
            "deal_latency_ms_p99": _ms(stats.deal_latencies, 0.99),
            "http_ms": _http_report(run, stats),
            "errors": dict(stats.errors),
            "error_count": sum(stats.errors.values()),
            "broken_tables": sum(1 for t in run.tables if t.broken),
            "cpu_percent_of_one_core": cpu,
            # All server processes together: CPU milliseconds spent per move.
            "server_cpu_ms_per_move": round(
                10 * sum(cpu["servers"].values()) / len(ms) * (options["duration"]), 2
            )
            if ms and cpu["servers"]
            else None,
            "cores": os.cpu_count(),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "lost_versions": info["lost_versions"],
            # Monotonic clock (the same for every process here): for outage benchmarks.
            "began": info["began"],
            "acks": stats.acks,
            "completions": stats.completions,
            # Each counted move: [when every seat had it (the clock above), its latency in
            # ms], for benchmarks that compare stretches of one run (bench_backup.py).
            "moves_timed": [
                [round(at, 4), round(seconds * 1000, 2)]
                for at, seconds in zip(stats.move_times, stats.latencies, strict=True)
            ],
        }
        lat = report["latency_ms"]
        self.stdout.write(
            f"\n{report['tables']} tables x {report['seats']} seats, think {report['think']} s, "
            f"{report['duration']:g} s against {', '.join(report['urls'])}\n"
            f"  connected {report['tables'] * report['seats']} sockets in "
            f"{report['connect_seconds']} s\n"
            f"  moves: {report['moves']} ({report['moves_per_second']}/s, best 5 s window "
            f"{report['best_5s_moves_per_second']}/s; {report['events_per_second']} events/s "
            f"with automatic passes), games dealt again: {report['deals']}\n"
            f"  latency send -> every seat has it: p50 {lat['p50']} ms, p95 {lat['p95']} ms, "
            f"p99 {lat['p99']} ms, max {lat['max']} ms\n"
            f"  rematch by {report['again_via']} (every member's accept -> new deal seen): p50 "
            f"{report['deal_latency_ms_p50']} ms, p99 {report['deal_latency_ms_p99']} ms\n"
            f"  HTTP under load, p50/p99 ms: "
            + ", ".join(
                f"{kind} {v['p50']}/{v['p99']} (n={v['n']})"
                for kind, v in report["http_ms"].items()
                if kind != "failures"
            )
            + "\n"
            f"  errors: {report['error_count']} {report['errors'] or ''} "
            f"broken tables: {report['broken_tables']}\n"
            f"  server CPU per move: {report['server_cpu_ms_per_move']} ms\n"
            f"  CPU while playing (100% = one core): servers {cpu['servers'] or 'n/a'} "
            f"(busiest threads {cpu['server_threads'] or 'n/a'}), "
            f"load tool {cpu['load_tool']}, whole machine {cpu['machine']} "
            f"of {report['cores']}00; load average {report['load_average']}"
        )
        return report
