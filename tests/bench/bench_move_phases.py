"""Where a move's time goes, by database and channel layer, in one run.

The load tool (`python -m tools.loadtest`, 100 x 4 by default) against one
`python -m club.server` serving the site with a move's phases timed
(`tests/bench/phases_app.py`), on each of SQLite or PostgreSQL with the
in-memory layer or Redis, alternating (A B C D D C B A for two rounds).
Prints, per configuration and round, server CPU a move and the load tool's
latencies; then, over all rounds, each phase's p50 / p90 / p99 and each SQL
statement's count, p50 and mean a move (docs/PERFORMANCE.md, "Where a
PostgreSQL move's time goes").

    .venv/bin/python tests/bench/bench_move_phases.py [--rounds 2] [--duration 20]
        [--configs sqlite-memory,sqlite-redis,postgres-memory,postgres-redis]

PostgreSQL runs get a fresh database on `--postgres-url` (dropped afterwards),
Redis runs the layer at `--redis-url` (flushed first).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_stack_floor import PYTHON, _free_port, _server, _stop  # noqa: E402
from tests.bench.common import machine  # noqa: E402

PHASES = [
    ("frame read, to the database thread", "start", "db_start"),
    ("the database work (play_move, commit included)", "db_start", "db_end"),
    ("back on the event loop", "db_end", "announce"),
    ("the mover's own frame and publish", "announce", "end"),
]


def _environment(
    args: argparse.Namespace, config: str, port: int
) -> tuple[dict, Callable[[], None]]:
    database, layer = config.split("-")
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    name = f"phases_{port}"
    if database == "sqlite":
        db = Path(tempfile.gettempdir()) / f"{name}.sqlite3"
        env["DATABASE_URL"] = f"sqlite:///{db}"

        def drop() -> None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{db}{suffix}").unlink(missing_ok=True)

    else:
        server = args.postgres_url.rstrip("/")
        psql = ["psql", "-q", "-d", f"{server}/postgres", "-c"]
        subprocess.run([*psql, f"CREATE DATABASE {name}"], check=True)
        env["DATABASE_URL"] = f"{server}/{name}"

        def drop() -> None:
            subprocess.run([*psql, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=False)

    if layer == "redis":
        subprocess.run(
            ["redis-cli", "-u", args.redis_url, "flushdb"], check=True, capture_output=True
        )
        env["REDIS_URL"] = args.redis_url
    return env, drop


def _run(args: argparse.Namespace, config: str) -> tuple[dict, list[dict]]:
    port = _free_port()
    env, drop = _environment(args, config, port)
    phases = Path(tempfile.gettempdir()) / f"phases-{port}.json"
    report = Path(tempfile.gettempdir()) / f"phases-report-{port}.json"
    env["BENCH_PHASES"] = str(phases)
    try:
        subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        proc = _server(ROOT, port, "tests.bench.phases_app:application", env)
        try:
            subprocess.run(
                [PYTHON, "-m", "tools.loadtest", "--url", f"http://127.0.0.1:{port}"]
                + ["--tables", str(args.tables), "--seats", str(args.seats)]
                + ["--think", str(args.think), "--duration", str(args.duration)]
                + ["--server-pid", str(proc.pid), "--probe-interval", "0"]
                + ["--again", "socket", "--json", str(report)],
                cwd=ROOT,
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )
        finally:
            _stop(proc)
        figures = json.loads(report.read_text())
        moves = json.loads(phases.read_text())
    finally:
        drop()
        report.unlink(missing_ok=True)
        phases.unlink(missing_ok=True)
    # The first quarter's moves are the tables' start; the steady state is the rest.
    return figures, moves[len(moves) // 4 :]


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--configs", default="sqlite-memory,sqlite-redis,postgres-memory,postgres-redis"
    )
    parser.add_argument("--postgres-url", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    args = parser.parse_args()
    configs = args.configs.split(",")
    print(json.dumps(machine()))
    print(f"{args.tables} x {args.seats}, think {args.think} s, {args.duration:g} s a run")
    kept: dict[str, list[dict]] = defaultdict(list)
    for round_number in range(args.rounds):
        # A B C D, then D C B A: each configuration as early as late on average.
        for config in configs if round_number % 2 == 0 else configs[::-1]:
            figures, moves = _run(args, config)
            kept[config] += moves
            latency = figures["latency_ms"]
            print(
                f"  round {round_number + 1} {config}: {figures['server_cpu_ms_per_move']} ms CPU"
                f" a move, p50 {latency['p50']} ms, p95 {latency['p95']} ms,"
                f" p99 {latency['p99']} ms, errors {figures['error_count']}",
                flush=True,
            )
    for config in configs:
        moves = kept[config]
        print(f"{config} ({len(moves)} moves timed): p50 / p90 / p99, ms")
        for label, start, end in PHASES:
            values = [(m[end] - m[start]) * 1000 for m in moves]
            print(
                f"  {label}: {_q(values, 0.5):.2f} / {_q(values, 0.9):.2f} / {_q(values, 0.99):.2f}"
            )
        by_statement: dict[str, list[float]] = defaultdict(list)
        for move in moves:
            for words, seconds in move["statements"]:
                by_statement[words].append(seconds * 1000)
        for words, values in sorted(by_statement.items(), key=lambda item: -sum(item[1])):
            print(
                f"    {words}: {len(values) / len(moves):.2f} a move, p50 {_q(values, 0.5):.2f},"
                f" mean {sum(values) / len(moves):.2f} ms a move"
            )


if __name__ == "__main__":
    main()
