"""Benchmark: what keeping a table's rows between moves costs and saves (games.services.kept).

    .venv/bin/python tests/bench/bench_kept_rows.py [--rounds 2] [--moves 3000]

A move takes the rows the table's last move left (table, variant, series, game,
seats, members) instead of reading them, when the table's stamp says nothing
wrote them since; SQLite triggers renew the stamp on every write to those rows
(migration games 0016). This prices the parts on a throwaway SQLite database of 50
started tables, in one process, alternating (CPU time, p50 a call, each inside a
transaction as a move's):

* the move's rows read (`locked_table_game_seats` with nothing kept), against the
  same call taking rows kept by the call before it (one read of the stamp);
* what the move then spends to keep them (`kept.keep`: the count of changed rows
  checked, the stamp read again);
* the game's update (`save_fields(game, "state", "version")`) with the stamp's
  trigger on games_game and without it.
"""

from __future__ import annotations

import argparse
import importlib
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

GAME_TRIGGER = "games_stamp_game_update"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--moves", type=int, default=3000)
    args = parser.parse_args()
    os.environ.pop("DATABASE_URL", None)  # rows are kept on SQLite only
    drop = django_on_a_throwaway_database()
    from django.db import connection, transaction

    from games.models import Table
    from games.services import kept
    from games.services.common import current_game, locked_table_game_seats, save_fields

    migration = importlib.import_module("games.migrations.0016_kept_rows_stamp")
    try:
        tables = started_tables(50, "kept")
        games = {pk: current_game(Table.objects.get(pk=pk)) for pk in tables}

        def read(pk: int) -> tuple[float, float]:
            start = time.process_time()
            locked_table_game_seats(pk)
            return time.process_time() - start, 0.0

        def take_and_keep(pk: int) -> tuple[float, float]:
            start = time.process_time()
            rows = locked_table_game_seats(pk)
            middle = time.process_time()
            kept.keep(*rows)
            return middle - start, time.process_time() - middle

        def update_game(pk: int) -> tuple[float, float]:
            game = games[pk]
            game.version += 1
            start = time.process_time()
            save_fields(game, "state", "version")
            return time.process_time() - start, 0.0

        def p50_us(call) -> tuple[float, float]:
            first, second = [], []
            for i in range(args.moves):
                with transaction.atomic():
                    a, b = call(tables[i % len(tables)])
                first.append(a)
                second.append(b)
            return statistics.median(first) * 1e6, statistics.median(second) * 1e6

        def game_trigger(on: bool) -> None:
            with connection.cursor() as cursor:
                cursor.execute(f"DROP TRIGGER IF EXISTS {GAME_TRIGGER}")
                if on:
                    cursor.execute(
                        f"CREATE TRIGGER {GAME_TRIGGER} {migration.TRIGGERS[GAME_TRIGGER]}"
                    )

        print(machine())
        for round_ in range(args.rounds):
            kept.forget()
            joined, _ = p50_us(read)
            taken, keeping = p50_us(take_and_keep)
            game_trigger(False)
            plain, _ = p50_us(update_game)
            game_trigger(True)
            triggered, _ = p50_us(update_game)
            print(
                f"round {round_ + 1}: the rows read {joined:.0f} µs, taken as kept {taken:.0f} µs,"
                f" keeping them {keeping:.0f} µs; the game's update {plain:.0f} µs,"
                f" with the stamp's trigger {triggered:.0f} µs",
                flush=True,
            )
    finally:
        drop()


if __name__ == "__main__":
    main()
