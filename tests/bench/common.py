"""Shared by the benchmark scripts: what machine the figures were taken on, and a
throwaway database with started tables for those that play moves."""

from __future__ import annotations

import os
import platform
from collections.abc import Callable
from pathlib import Path


def machine() -> dict:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": model,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }


def django_on_a_throwaway_database() -> Callable[[], None]:
    """Django set up and migrated on a fresh database; returns what drops it.

    The database is a new one on DATABASE_URL's PostgreSQL server, or else a
    temporary SQLite file (`bench_standings.setup_database`).
    """
    from tests.bench.bench_standings import setup_database

    url, drop = setup_database()
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench")
    import django

    django.setup()
    from django.core.management import call_command

    try:
        call_command("migrate", verbosity=0)
    except BaseException:
        drop()
        raise
    return drop


def started_tables(count: int, prefix: str = "bench") -> list[int]:
    """`count` started four-seat tables of synthetic members (tools.synthetic), their ids."""
    from tools import synthetic

    players = synthetic.make_players(synthetic.new_prefix(prefix), 4 * count)
    return [synthetic.started_table(players[4 * t : 4 * t + 4]) for t in range(count)]
