"""The least a move can cost on this stack, beside what a real move costs.

Issue 26 asked for half the server CPU per move of 09ce0b5. This benchmark
measures how much of a move is the serving stack itself (daphne, Channels'
consumer and dispatch loop, the channel layer, a text frame to each seat)
with no game, no projection and no table rows: `tests/bench/floor_app.py`,
served by `python -m club.server` like the site, played by a client in a
process of its own at the load tool's shape (tables x seats, one move per
`--think` seconds per table, each move's frame to every seat). Then, in the
same run and alternating, the load tool (`python -m tools.loadtest`) against the real site of this
checkout and of each `--tree` (the same command the issue's figures come
from). Server CPU per move is the server process's CPU time over the playing
window divided by the moves made.

    .venv/bin/python tests/bench/bench_stack_floor.py [--rounds 2] [--duration 30]
        [--tree /path/to/old/checkout ...]

Floors: `none` (no database at all), `hop` (one call on the database
thread running `SELECT 1`, as every move makes one such call), `write`
(one committed INSERT on the database thread: issue 44's floor, "one SQLite
write and one group broadcast per move") and `design` (the least a game's
move costs under DESIGN.md: the engine's check and step, a compare-and-swap
of the state on its version and the move's rows in one transaction, each seat
its own view; `tests/bench/floor_app.py`). `--floors` picks them.

`--think 0` saturates (each table moves again as soon as every seat has the
last frame); the figures then to read are moves/s over the whole run and p95.

`--processes 2` (with `--postgres`) adds a run of the site on two server
processes sharing the database and Redis, the load tool spreading the tables
over them.

`--without APPS` adds a run of the site with those apps' hooks taken out
(`tests/bench/site_app.py`, games.hooks `forget`), e.g. `--without
notifications --without ratings --without notifications,ratings,events,chat`:
what each app's hooks cost a move, measured in the same run.

`--postgres` runs everything on PostgreSQL + Redis instead of the embedded
default: a fresh database per run on the server at `--postgres-url`
(default postgres://postgres@127.0.0.1:5432, dropped afterwards) and the
Redis layer at `--redis-url` (default redis://127.0.0.1:6379/9, flushed).
`--both` runs every run on each of the two, alternating within each round, and
adds issue 44's PostgreSQL ratios: the site on PostgreSQL + Redis against the
embedded site of the same round (CPU a move, p99), with `--processes N`
the N processes' p99 against it, and with `--floors design` what the 1.3x CPU
target leaves a PostgreSQL move over the design's least move there.

    .venv/bin/python tests/bench/bench_stack_floor.py --both --floors write,design \
        --processes 2 --rounds 2 --duration 20
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.common import machine  # noqa: E402

PYTHON = sys.executable


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _cpu_seconds(pid: int, tid: int | None = None) -> float:
    """A process's CPU seconds, or (tid) one of its threads' (the main thread's: tid = pid)."""
    path = f"/proc/{pid}/task/{tid}/stat" if tid else f"/proc/{pid}/stat"
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"server on port {port} did not start")


def _server(tree: Path, port: int, app: str, env: dict) -> subprocess.Popen:
    entry = ["-m", "club.server"] if (tree / "club" / "server.py").exists() else ["-m", "daphne"]
    proc = subprocess.Popen(
        [PYTHON, *entry, "-b", "127.0.0.1", "-p", str(port), app],
        cwd=tree,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _wait_for_port(port, proc)
    return proc


def _environment(args: argparse.Namespace, name: str) -> tuple[dict, Callable[[], None]]:
    """The server's environment for one run, and what removes its database afterwards."""
    env = {**os.environ}
    if not args.postgres:
        env.pop("REDIS_URL", None)
        db = Path(tempfile.gettempdir()) / f"{name}.sqlite3"
        env["DATABASE_URL"] = f"sqlite:///{db}"

        def drop() -> None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{db}{suffix}").unlink(missing_ok=True)

        return env, drop
    server = args.postgres_url.rstrip("/")
    psql = ["psql", "-q", "-d", f"{server}/postgres", "-c"]
    subprocess.run([*psql, f"CREATE DATABASE {name}"], check=True)
    subprocess.run(["redis-cli", "-u", args.redis_url, "flushdb"], check=True, capture_output=True)
    env["DATABASE_URL"] = f"{server}/{name}"
    env["REDIS_URL"] = args.redis_url

    def drop() -> None:
        subprocess.run([*psql, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=False)

    return env, drop


def _stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# -- the floor: the client ---------------------------------------------------


async def _play_floor(
    port: int, tables: int, seats: int, think: float, duration: float, design: bool = False
) -> dict:
    """One move per table every ~think s; a move counts once every seat has its frame.

    `design`: the design floor's sockets are seats (each sent its view on connect); the
    mover is the seat whose view lists legal moves, and it plays one of them.
    """
    from websockets.asyncio.client import connect

    rng = random.Random(1)
    socks = []
    views: dict[object, dict] = {}
    for table in range(tables):
        row = []
        for seat in range(seats):
            url = f"ws://127.0.0.1:{port}/ws/floor/{table}/" + (f"{seat}/" if design else "")
            ws = await connect(url, max_size=None)
            if design:
                views[ws] = json.loads(await ws.recv())
            row.append(ws)
        socks.append(row)
    latencies: list[float] = []
    began = time.monotonic()
    stop = began + duration

    async def table_loop(row: list) -> None:
        version = views[row[0]]["version"] if design else 0
        await asyncio.sleep(rng.uniform(0, think))
        while time.monotonic() < stop:
            move = "x"
            mover = rng.choice(row)
            if design:
                mover = next(ws for ws in row if views[ws]["view"]["legal"])
                move = rng.choice(views[mover]["view"]["legal"])
            sent = time.perf_counter()
            await mover.send(json.dumps({"type": "play", "move": move, "version": version}))
            version += 1
            for ws in row:
                while True:
                    frame = json.loads(await ws.recv())
                    if frame.get("type") == "error":
                        raise RuntimeError(frame["message"])
                    if frame["version"] >= version:
                        views[ws] = frame
                        break
            latencies.append(time.perf_counter() - sent)
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))

    await asyncio.gather(*(table_loop(row) for row in socks))
    played = time.monotonic() - began
    for row in socks:
        for ws in row:
            await ws.close()
    return {"moves": len(latencies), "latencies": latencies, "seconds": played}


def _client_main(args: argparse.Namespace) -> None:
    result = asyncio.run(
        _play_floor(
            args.port, args.tables, args.seats, args.think, args.duration, args.floor == "design"
        )
    )
    json.dump(result, sys.stdout)


def _floor_run(args: argparse.Namespace, database: str) -> dict:
    port = _free_port()
    env, drop = _environment(args, f"floor_{port}")
    env.update({"FLOOR_DATABASE": database, "BOT_RUNNER": "0"})
    proc = _server(ROOT, port, "tests.bench.floor_app:application", env)
    try:
        client = subprocess.Popen(
            [
                PYTHON,
                __file__,
                "--client",
                "--port",
                str(port),
                "--tables",
                str(args.tables),
                "--seats",
                str(args.seats),
                "--think",
                str(args.think),
                "--duration",
                str(args.duration),
                "--floor",
                database,
            ],
            stdout=subprocess.PIPE,
        )
        # The window: after the sockets are open (a second a hundred), to the end.
        time.sleep(min(10.0, 2.0 + args.tables * args.seats / 200))
        cpu0, loop0, t0 = _cpu_seconds(proc.pid), _cpu_seconds(proc.pid, proc.pid), time.monotonic()
        out, _ = client.communicate()
        cpu1, loop1, t1 = _cpu_seconds(proc.pid), _cpu_seconds(proc.pid, proc.pid), time.monotonic()
    finally:
        _stop(proc)
        drop()
    result = json.loads(out)
    # Moves made inside the window, by the client's steady rate.
    moves = result["moves"] * (t1 - t0) / result["seconds"]
    lat = sorted(result["latencies"])
    return {
        "cpu_per_move_ms": 1000 * (cpu1 - cpu0) / max(1.0, moves),
        "loop_per_move_ms": 1000 * (loop1 - loop0) / max(1.0, moves),
        "moves_per_s": result["moves"] / result["seconds"],
        "p50_ms": 1000 * _quantile(lat, 0.50),
        "p95_ms": 1000 * _quantile(lat, 0.95),
        "p99_ms": 1000 * _quantile(lat, 0.99),
    }


def _quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


# -- the real site: python -m tools.loadtest ----------------------------------


def _real_run(args: argparse.Namespace, tree: Path, without: str = "", processes: int = 1) -> dict:
    port = _free_port()
    env, drop = _environment(args, f"floor_site_{port}")
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=tree, env=env, check=True)
    app = "club.asgi:application"
    if without:
        env["BENCH_WITHOUT"] = without
        app = "tests.bench.site_app:application"
    ports = [port] + [_free_port() for _ in range(processes - 1)]
    procs = [_server(tree, p, app, env) for p in ports]
    report = Path(tempfile.gettempdir()) / f"floor-real-{port}.json"
    again = ["--again", "socket"] if _has_socket_again(tree) else []
    # Each process serves its share of the tables (the load tool spreads them over the
    # URLs); its CPU is counted with the others'.
    urls = [arg for p in ports for arg in ("--url", f"http://127.0.0.1:{p}")]
    pids = [arg for proc in procs for arg in ("--server-pid", str(proc.pid))]
    try:
        subprocess.run(
            [
                PYTHON,
                *_loadtest(tree),
                *urls,
                "--tables",
                str(args.tables),
                "--seats",
                str(args.seats),
                "--think",
                str(args.think),
                "--duration",
                str(args.duration),
                *pids,
                "--probe-interval",
                "0",
                *again,
                "--json",
                str(report),
            ],
            cwd=tree,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    finally:
        for proc in procs:
            _stop(proc)
        drop()
    figures = json.loads(report.read_text())
    report.unlink()
    loops = figures["cpu_percent_of_one_core"].get("server_loop", {})
    moves = max(1, figures["moves"])
    return {
        "cpu_per_move_ms": figures["server_cpu_ms_per_move"],
        # Older trees' load tools do not report the event loop apart.
        "loop_per_move_ms": 10 * sum(loops.values()) * args.duration / moves if loops else None,
        "moves_per_s": figures["moves_per_second"],
        "p50_ms": figures["latency_ms"]["p50"],
        "p95_ms": figures["latency_ms"]["p95"],
        "p99_ms": figures["latency_ms"]["p99"],
    }


def _loadtest(tree: Path) -> list[str]:
    """That checkout's load tool: `-m tools.loadtest`, or an older tree's `manage.py loadtest`."""
    if (tree / "tools" / "loadtest").is_dir():
        return ["-m", "tools.loadtest"]
    return ["manage.py", "loadtest"]


def _has_socket_again(tree: Path) -> bool:
    """Whether that checkout's table socket takes `again` (else its rematches are posts)."""
    return '"again": self._handle_again' in (tree / "games" / "consumers.py").read_text()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--tree", action="append", default=[], help="another checkout to run")
    parser.add_argument(
        "--floors",
        default="none,hop,write",
        help="which floors to run (none, hop, write, design)",
    )
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        help="also run the site with these apps' hooks taken out (comma list; repeatable)",
    )
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL + Redis")
    parser.add_argument(
        "--both",
        action="store_true",
        help="each run on the embedded default and on PostgreSQL + Redis, alternating",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="also run the site on this many server processes (PostgreSQL + Redis only)",
    )
    parser.add_argument("--postgres-url", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--floor", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.processes > 1 and not (args.postgres or args.both):
        parser.error("--processes needs --postgres or --both: the in-memory layer is one process's")
    if args.client:
        _client_main(args)
        return
    floors = {
        "none": "floor: no database",
        "hop": "floor: one database call",
        "write": "floor: one write",
        "design": "floor: the design's least move",
    }
    each = []
    for postgres in (False, True) if args.both else (args.postgres,):
        # Each database's runs get the arguments with its choice in them.
        on = argparse.Namespace(**{**vars(args), "postgres": postgres})
        label = (PG if postgres else EMBEDDED) if args.both else ""
        each.append(_runs(on, label, floors))
    # With --both, the two databases' runs take turns (each floor, then the site).
    runs = [run for pair in itertools.zip_longest(*each) for run in pair if run is not None]
    print(json.dumps(machine()))
    if args.both:
        print("each run on the embedded default and on PostgreSQL + Redis")
    else:
        print(
            "PostgreSQL + Redis" if args.postgres else "embedded default (SQLite, in-memory layer)"
        )
    print(f"{args.tables} x {args.seats}, think {args.think} s, {args.duration:g} s a run")
    results: dict[str, list[dict]] = {name: [] for name, _ in runs}
    for round_ in range(args.rounds):
        order = runs if round_ % 2 == 0 else runs[::-1]
        for name, run in order:
            figures = run()
            results[name].append(figures)
            loop = figures["loop_per_move_ms"]
            split = (
                f" (event loop {loop:.2f}, other threads {figures['cpu_per_move_ms'] - loop:.2f})"
                if loop is not None
                else ""
            )
            print(
                f"  round {round_ + 1} {name}: {figures['cpu_per_move_ms']:.2f} ms CPU a move{split}, "
                f"{figures['moves_per_s']:.1f} moves/s, p50 {figures['p50_ms']:.1f} ms, "
                f"p95 {figures['p95_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms",
                flush=True,
            )
    print("medians (and each round's ratio to the write floor of that round):")
    for name, figures in results.items():
        keys = ["cpu_per_move_ms", "moves_per_s", "p95_ms", "p99_ms"]
        if all(f["loop_per_move_ms"] is not None for f in figures):
            keys.insert(1, "loop_per_move_ms")
        line = "  ".join(f"{key} {statistics.median(f[key] for f in figures):.2f}" for key in keys)
        prefix = PG if name.startswith(PG) else EMBEDDED if name.startswith(EMBEDDED) else ""
        base = results.get(prefix + floors["write"])
        if base and name != prefix + floors["write"]:
            ratios = [
                f"{f['cpu_per_move_ms'] / b['cpu_per_move_ms']:.2f}x cpu, "
                f"{f['moves_per_s'] / b['moves_per_s']:.0%} moves/s, "
                f"{f['p95_ms'] / b['p95_ms']:.1f}x p95, {f['p99_ms'] / b['p99_ms']:.1f}x p99"
                for f, b in zip(figures, base, strict=False)
            ]
            line += "  [" + "; ".join(ratios) + "]"
        print(f"  {name}: {line}")
    if args.both:
        _postgres_ratios(results, args.processes)


EMBEDDED = "embedded: "
PG = "PostgreSQL + Redis: "


def _runs(args: argparse.Namespace, label: str, floors: dict) -> list:
    """(name, run) for each floor asked for, the site and its variants, on args' database."""
    runs = [
        (label + floors[kind], lambda kind=kind: _floor_run(args, kind))
        for kind in args.floors.split(",")
        if kind in floors
    ]
    runs.append((label + "site", lambda: _real_run(args, ROOT)))
    if args.processes > 1 and args.postgres:
        runs.append(
            (
                f"{label}site, {args.processes} processes",
                lambda: _real_run(args, ROOT, processes=args.processes),
            )
        )
    runs += [
        (f"{label}site without {apps}", lambda apps=apps: _real_run(args, ROOT, apps))
        for apps in args.without
    ]
    runs += [
        (f"{label}site: {tree}", lambda tree=tree: _real_run(args, Path(tree)))
        for tree in args.tree
    ]
    return runs


def _postgres_ratios(results: dict[str, list[dict]], processes: int) -> None:
    """Issue 44's PostgreSQL targets, each round against the embedded site of that round."""
    embedded = results[EMBEDDED + "site"]
    compared = [(PG + "site", "CPU a move (target 1.3x) and p99 (target 2x)")]
    if processes > 1:
        compared.append((f"{PG}site, {processes} processes", "p99 (target 1.5x)"))
    print("PostgreSQL + Redis against the embedded site (each round):")
    for name, targets in compared:
        ratios = [
            f"{f['cpu_per_move_ms'] / e['cpu_per_move_ms']:.2f}x cpu, "
            f"{f['p99_ms'] / e['p99_ms']:.1f}x p99"
            for f, e in zip(results[name], embedded, strict=False)
        ]
        print(f"  {name}: " + "; ".join(ratios) + f"  ({targets})")
    least = PG + "floor: the design's least move"
    if least in results:
        # What the CPU target leaves a PostgreSQL move over the design's least move
        # there (docs/PERFORMANCE.md, issue 44): at or below 0, no site can meet it.
        room = [
            f"{f['cpu_per_move_ms'] / e['cpu_per_move_ms']:.2f}x cpu, "
            f"{1.3 * e['cpu_per_move_ms'] - f['cpu_per_move_ms']:+.2f} ms a move left by 1.3x"
            for f, e in zip(results[least], embedded, strict=False)
        ]
        print(f"  {least}: " + "; ".join(room))


if __name__ == "__main__":
    main()
