"""Benchmark: a move's transaction with its table's write in the writes' pipeline, or after it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python tests/bench/bench_move_writes.py [--rounds 6] [--moves 400]

On PostgreSQL a move's writes (its rows, the game's and the table's) go to the
server in one pipeline (games.services.common.pipelined, games/services/moves.py).
This times, in one process and alternating, a move-shaped transaction (the
move's locked read, a row inserted, the game's and the table's rows updated)
with the table's update inside the pipeline and after it, as it was before
(docs/PERFORMANCE.md, issue 44): wall time and this process's CPU a transaction.
Elsewhere (SQLite) the pipeline changes nothing and both shapes are the same.
Builds a throwaway database on that server and drops it afterwards.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.common import django_on_a_throwaway_database, started_tables  # noqa: E402

TABLE_FIELDS = ("version", "status", "updated", "turn_started", "turn_deadline")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--tables", type=int, default=10)
    args = parser.parse_args()

    drop = django_on_a_throwaway_database()
    from django.db import connection, transaction
    from django.utils import timezone

    from games.models import Move
    from games.services.common import insert_rows, locked_table_game_seats, pipelined, save_fields

    try:
        tables = started_tables(args.tables)
        numbers = iter(range(1000, 10**9))

        def move(table_id: int, table_in_pipeline: bool) -> None:
            with transaction.atomic():
                table, game, _seats = locked_table_game_seats(table_id)
                rows = [(game.pk, next(numbers), 0, "x", False, timezone.now())]
                game.version += 1
                table.version += 1
                with pipelined():
                    insert_rows(Move, ["game", "number", "seat", "move", "auto", "created"], rows)
                    save_fields(game, "state", "version")
                    if table_in_pipeline:
                        save_fields(table, *TABLE_FIELDS)
                if not table_in_pipeline:
                    save_fields(table, *TABLE_FIELDS)

        figures: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for round_number in range(args.rounds):
            order = (False, True) if round_number % 2 == 0 else (True, False)
            for inside in order:
                wall, cpu = time.perf_counter(), time.process_time()
                for i in range(args.moves):
                    move(tables[i % len(tables)], inside)
                figures[inside].append(
                    (
                        (time.perf_counter() - wall) / args.moves * 1000,
                        (time.process_time() - cpu) / args.moves * 1000,
                    )
                )
        print(f"{connection.vendor}, {args.moves} transactions a run, {args.rounds} rounds")
        for inside, label in ((True, "table's write in the pipeline"), (False, "after it")):
            walls = ", ".join(f"{w:.2f}" for w, _c in figures[inside])
            cpus = ", ".join(f"{c:.2f}" for _w, c in figures[inside])
            print(f"  {label:<30} wall ms: {walls}; CPU ms: {cpus}")
    finally:
        drop()


if __name__ == "__main__":
    main()
