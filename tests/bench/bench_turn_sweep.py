"""Benchmark: the house runner's sweep of turn-based tables (1,000 members x 30 tables each).

    .venv/bin/python tests/bench/bench_turn_sweep.py [--members 1000] [--tables-each 30]
        [--due 0.01] [--repeat 20]

Builds a throwaway database (a temporary SQLite file, or a fresh database on the
PostgreSQL server when DATABASE_URL points at one) holding `members` members,
each seated at `tables-each` running two-member turn-based Devyatka tables (so
members x tables-each / 2 tables, each with a dealt game), a tenth of the
members with declared away days, and a share `due` of the tables whose member's
time has run out. Then it times, on this thread with the runner's own services:

- finding the due tables (`services.due_tables`, what every runner pass does
  first): CPU time and database queries (the target: one query, whatever the
  number of tables);
- one whole pass of the runner over the due tables it finds (the house plays
  each one's overdue move: `automatic_turn`, `choose_automatic_move`,
  `play_automatic`), CPU time and queries, in all and per table.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_standings import setup_database  # noqa: E402
from tests.bench.common import machine  # noqa: E402


def fill(members: int, tables_each: int, due: float, rng: random.Random) -> int:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from club.models import Player
    from games import registry
    from games.models import Absence, Game, Seat, Table, Variant

    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"bench{i}", email=f"bench{i}@example.com") for i in range(members)
    )
    Player.objects.bulk_create(
        Player(user=u, display_name=f"Bench player {i}") for i, u in enumerate(users)
    )
    people = list(Player.objects.members().order_by("pk"))
    variant = Variant.objects.get(name="Devyatka")
    engine = registry.engine(variant.game)
    now = timezone.now()
    rounds = tables_each // 2
    # Table r*members + i seats member i and member i+r+1: each member at 2 x rounds tables.
    pairs = [(i, (i + r + 1) % members) for r in range(rounds) for i in range(members)]
    # Each turn started a day (the pace) before its deadline: past for a share `due`.
    deadlines = [
        now
        + (
            -datetime.timedelta(minutes=rng.randint(1, 600))
            if rng.random() < due
            else datetime.timedelta(minutes=rng.randint(1, 24 * 60 - 1))
        )
        for _pair in pairs
    ]
    tables = Table.objects.bulk_create(
        Table(
            variant=variant,
            created_by=people[a],
            seat_count=2,
            status=Table.Status.PLAYING,
            pace="1d",
            turn_started=deadline - datetime.timedelta(days=1),
            turn_deadline=deadline,
            version=1,
        )
        for (a, _b), deadline in zip(pairs, deadlines, strict=True)
    )
    Seat.objects.bulk_create(
        Seat(table=table, position=position, player=people[who])
        for table, pair in zip(tables, pairs, strict=True)
        for position, who in enumerate(pair)
    )
    options = engine.options(variant.options)
    seeds = [rng.getrandbits(62) for _table in tables]
    Game.objects.bulk_create(
        Game(
            table=table,
            number=1,
            game=variant.game,
            options=variant.options,
            players=[people[a].pk, people[b].pk],
            seed=seed,
            state=engine.to_json(engine.deal(2, seed, options)),
        )
        for table, (a, b), seed in zip(tables, pairs, seeds, strict=True)
    )
    Absence.objects.bulk_create(
        Absence(
            player=person,
            starts=now + datetime.timedelta(days=rng.randint(1, 20)),
            ends=now + datetime.timedelta(days=rng.randint(22, 30)),
        )
        for person in people[: members // 10]
    )
    return len(tables)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=1000)
    parser.add_argument("--tables-each", type=int, default=30)
    parser.add_argument("--due", type=float, default=0.01, help="share of tables due now")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--keep", action="store_true", help="keep the database (SQLite file)")
    args = parser.parse_args()

    url, drop = setup_database()
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    os.environ.setdefault("BOT_SEARCH_BUDGET_MS", "50")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games import services
    from games.models import Table

    try:
        call_command("migrate", verbosity=0)
        started = time.perf_counter()
        count = fill(args.members, args.tables_each, args.due, random.Random(37))
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE games_table")
        due_now = Table.objects.filter(turn_deadline__lte=timezone.now()).count()
        print(
            f"{args.members} members x {args.tables_each} turn-based tables each: {count} "
            f"tables, {due_now} due; filled in {time.perf_counter() - started:.1f} s "
            f"({connection.vendor}); {machine()}"
        )

        cpu, wall = [], []
        for _ in range(args.repeat):
            c0, w0 = time.process_time(), time.perf_counter()
            with CaptureQueriesContext(connection) as finding:
                found = services.due_tables()
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
        print(
            f"finding the due tables: {len(finding.captured_queries)} query, "
            f"{len(found)} tables (the runner's batch); CPU {statistics.median(cpu):.2f} ms, "
            f"wall {statistics.median(wall):.2f} ms (median of {args.repeat})"
        )

        # The whole sweep, as the runner does it: a batch of due tables (one query), each
        # one's overdue move, and at once the next batch, until none is due.
        c0, w0 = time.process_time(), time.perf_counter()
        played = batches = 0
        with CaptureQueriesContext(connection) as sweep:
            while table_ids := services.due_tables():
                batches += 1
                for table_id in table_ids:
                    turn = services.automatic_turn(table_id)
                    if turn is None:
                        continue
                    move = services.choose_automatic_move(turn)
                    if services.play_automatic(turn, move) is not None:
                        played += 1
        cpu_ms = (time.process_time() - c0) * 1000
        wall_ms = (time.perf_counter() - w0) * 1000
        queries = len(sweep.captured_queries)
        print(
            f"one whole sweep: {played} overdue moves played by the house in {batches} "
            f"batches ({batches + 1} queries found them, one a batch and the last empty); "
            f"CPU {cpu_ms:.0f} ms, wall {wall_ms:.0f} ms, {queries} queries in all "
            f"({(queries - batches - 1) / max(1, played):.1f} queries and "
            f"{cpu_ms / max(1, played):.1f} ms CPU per table played, the house's "
            "heuristic bot choosing the move included)"
        )
    finally:
        if args.keep:
            print(f"kept {url}")
        else:
            drop()


if __name__ == "__main__":
    main()
