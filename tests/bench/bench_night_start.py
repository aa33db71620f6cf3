"""Benchmark: a 100-member live club night's start, seating plus dealing every table.

    .venv/bin/python tests/bench/bench_night_start.py [--members 100] [--min 4] [--max 5]

Builds a throwaway database (a temporary SQLite file, or a fresh database on the
PostgreSQL server when DATABASE_URL points at one), signs `members` members up for a
live night with their pages open, and times `events.running.start` from the call to
its return: the seating (events/seating.py), one table and its first deal per table
through games.services.deal_fixed_table (each table's first frame is ready to publish
at that point), the night's rows. Then round 2 (`seat_next`: the house plays round 1
out first, timed apart) to show a later round with tablemates to avoid. Target: the
night seated and dealt within 10 s.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_standings import setup_database  # noqa: E402
from tests.bench.common import machine  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--members", type=int, default=100)
    parser.add_argument("--min", type=int, default=4)
    parser.add_argument("--max", type=int, default=5)
    args = parser.parse_args()
    url, drop = setup_database()
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    os.environ["NOTIFY_ENABLED"] = "1"
    import django

    django.setup()
    from django.core.management import call_command

    try:
        call_command("migrate", verbosity=0)
        run(args)
    finally:
        drop()


def run(args) -> None:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from club.models import Player
    from events import running
    from events.models import Entry, Event, RoundTable
    from games.models import Variant

    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"night{i}", email=f"night{i}@example.com") for i in range(args.members)
    )
    Player.objects.bulk_create(
        Player(user=u, display_name=f"Night member {i}") for i, u in enumerate(users)
    )
    now = timezone.now()
    event = Event.objects.create(
        name="Bench night",
        slug="bench-night",
        variant=Variant.objects.get(name="Devyatka"),
        pace="live",
        rounds=3,
        min_seats=args.min,
        max_seats=args.max,
        signup_opens=now - datetime.timedelta(days=1),
        signup_closes=now + datetime.timedelta(hours=1),
        starts=now,
    )
    Entry.objects.bulk_create(
        Entry(event=event, player=p, online=True, seen=now) for p in Player.objects.members()
    )
    print(machine())
    started = time.perf_counter()
    running.start(event.pk)
    seated = time.perf_counter() - started
    tables = RoundTable.objects.filter(round__event=event, round__number=1).count()
    print(
        f"round 1: {args.members} members at {tables} tables seated and dealt in {seated:.2f} s "
        "(each table's first frame published as it is dealt)"
    )
    started = time.perf_counter()
    running.play_out_round(event.pk)
    played = time.perf_counter() - started
    started = time.perf_counter()
    running.seat_next(event.pk)
    second = time.perf_counter() - started
    dealt = RoundTable.objects.filter(round__event=event, round__number=2).count()
    met, _dealt = running.history(event)
    repeats = sum(count - 1 for count in met.values() if count > 1)
    print(
        f"round 1 played out by the house in {played:.1f} s; round 2 seated and dealt in "
        f"{second:.2f} s ({dealt} tables), repeated pairs: {repeats}"
    )


if __name__ == "__main__":
    main()
