"""Benchmark: what a move would save by keeping its rows in the process, checked by a stamp.

    .venv/bin/python tests/bench/bench_kept_rows.py [--rounds 2] [--moves 3000]

Issue 44's remaining gap is the move's database work (docs/PERFORMANCE.md, "Thread
by thread"). One way to close it keeps the rows a move reads (table, variant,
series, game, seats, members) in the serving process and checks them with one
small statement against a per-table stamp that database triggers bump on every
write to those rows. Nothing of that is built; this measures its two prices on a
throwaway SQLite database of 50 started tables, in one process, alternating (CPU
time, p50 a call, each inside a transaction as a move's):

* the move's joined read today (`locked_table_game_seats`) against a read of the
  table's stamp alone (a column this script adds to its own database);
* the game's update (`save_fields(game, "state", "version")`) without and with an
  AFTER UPDATE trigger that bumps the table's stamp.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.common import (  # noqa: E402
    django_on_a_throwaway_database,
    machine,
    started_tables,
)

TRIGGER = (
    "CREATE TRIGGER bench_stamp_game AFTER UPDATE ON games_game BEGIN "
    "UPDATE games_table SET stamp = stamp + 1 WHERE id = NEW.table_id; END"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--moves", type=int, default=3000)
    args = parser.parse_args()
    os.environ.pop("DATABASE_URL", None)  # SQLite: the triggers' SQL is SQLite's
    drop = django_on_a_throwaway_database()
    from django.db import connection, transaction

    from games.models import Table
    from games.services.common import current_game, locked_table_game_seats, save_fields

    try:
        tables = started_tables(50, "kept")
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE games_table ADD COLUMN stamp integer NOT NULL DEFAULT 0")
        games = {pk: current_game(Table.objects.get(pk=pk)) for pk in tables}

        def read_stamp(pk: int) -> None:
            with connection.cursor() as cursor:
                cursor.execute("SELECT stamp FROM games_table WHERE id = %s", [pk])
                cursor.fetchone()

        def update_game(pk: int) -> None:
            game = games[pk]
            game.version += 1
            save_fields(game, "state", "version")

        def p50_us(call) -> float:
            spent = []
            for i in range(args.moves):
                pk = tables[i % len(tables)]
                with transaction.atomic():
                    start = time.process_time()
                    call(pk)
                    spent.append(time.process_time() - start)
            return statistics.median(spent) * 1e6

        def trigger(on: bool) -> None:
            with connection.cursor() as cursor:
                cursor.execute("DROP TRIGGER IF EXISTS bench_stamp_game")
                if on:
                    cursor.execute(TRIGGER)

        print(machine())
        for round_ in range(args.rounds):
            read, stamp = p50_us(locked_table_game_seats), p50_us(read_stamp)
            trigger(False)
            plain = p50_us(update_game)
            trigger(True)
            triggered = p50_us(update_game)
            trigger(False)
            print(
                f"round {round_ + 1}: the joined read {read:.0f} µs, the stamp's read {stamp:.0f} µs;"
                f" the game's update {plain:.0f} µs, with the trigger {triggered:.0f} µs",
                flush=True,
            )
    finally:
        drop()


if __name__ == "__main__":
    main()
