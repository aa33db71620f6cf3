"""How long `manage.py demo_data` takes on an empty, migrated database (and run again).

Each round migrates a fresh database (a SQLite file, or a new PostgreSQL
database on the server DATABASE_URL names), then times `demo_data` in its own
process twice: the first run builds the club, the second must find nothing to
do. Wall time and the command's CPU time (user + system, from the child's
rusage: what a busy machine does not inflate). `--tree` runs another checkout's
code (e.g. a worktree of main) in the same run, alternating round by round, so
a change is compared with its baseline under the same load.

    .venv/bin/python tests/bench/bench_demo_data.py [--rounds 3] [--games 36] [--tree PATH ...]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parents[2]


def _database() -> tuple[str, callable]:
    """A fresh database's URL and how to drop it."""
    base = os.environ.get("DATABASE_URL", "")
    name = f"club_demo_bench_{uuid.uuid4().hex[:8]}"
    if not base.startswith(("postgres://", "postgresql://")):
        path = Path(tempfile.mkdtemp(prefix="club-demo-bench-")) / f"{name}.sqlite3"
        return f"sqlite:///{path}", lambda: path.unlink(missing_ok=True)
    import psycopg

    parsed = urlparse(base)
    admin = urlunparse(parsed._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return urlunparse(parsed._replace(path=f"/{name}")), drop


def _manage(tree: Path, url: str, *args: str) -> tuple[float, float]:
    """Run manage.py in `tree`; its wall and CPU seconds."""
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "club.settings"}
    env["DJANGO_DEBUG"] = "0"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(
        [sys.executable, "manage.py", *args], cwd=tree, env=env, check=True, capture_output=True
    )
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=None, help="demo_data --games N")
    parser.add_argument("--tree", action="append", type=Path, help="other checkouts to compare")
    args = parser.parse_args()
    trees = [ROOT, *(args.tree or [])]
    extra = ["--games", str(args.games)] if args.games is not None else []
    database = (
        "PostgreSQL" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "SQLite"
    )
    print(f"demo_data on {database}, load average {os.getloadavg()[0]:.1f}")
    results: dict[Path, list[tuple[float, float, float]]] = {tree: [] for tree in trees}
    for round_ in range(args.rounds):
        for tree in trees if round_ % 2 == 0 else reversed(trees):
            url, drop = _database()
            try:
                _manage(tree, url, "migrate", "--noinput", "-v0")
                wall, cpu = _manage(tree, url, "demo_data", *extra)
                again, _ = _manage(tree, url, "demo_data", *extra)
            finally:
                drop()
            results[tree].append((wall, cpu, again))
            print(
                f"  round {round_ + 1} {tree}: {wall:5.1f} s wall, {cpu:5.1f} s CPU; "
                f"second run {again:4.1f} s; load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
    for tree, rows in results.items():
        walls, cpus, agains = zip(*rows, strict=True)
        print(
            f"{tree}: median {statistics.median(walls):.1f} s wall "
            f"({min(walls):.1f}-{max(walls):.1f}), {statistics.median(cpus):.1f} s CPU, "
            f"second run {statistics.median(agains):.1f} s"
        )


if __name__ == "__main__":
    main()
