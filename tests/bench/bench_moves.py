"""Benchmark: the server's work for one move, without the network.

    .venv/bin/python tests/bench/bench_moves.py [--tables 50] [--moves 2000]

Builds a throwaway database (temporary SQLite file, or a fresh PostgreSQL
database when DATABASE_URL points at one), starts ``--tables`` 4-seat tables
through the services, then plays ``--moves`` random legal moves round-robin
over the tables and times, per move:

* ``play_move``: the transaction that checks and applies the move
  (`games.services.play_move`), with its SQL statement count;
* ``project x4``: turning the broadcast into the four seats' `state`
  messages (`games.services.project`), what the consumers do on the event
  loop before sending.

Times are CPU time of this process (`time.process_time`), so another job on
the machine changes them little; SQLite work is in-process and included.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.common import django_on_a_throwaway_database, started_tables  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=2000)
    args = parser.parse_args()

    drop = django_on_a_throwaway_database()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from club.models import Player
    from games import services
    from games.engine import devyatka
    from games.models import Table

    try:
        tables = started_tables(args.tables)
        rng = random.Random(1)
        move_ms: list[float] = []
        project_ms: list[float] = []
        statements: list[int] = []
        done = 0
        while done < args.moves:
            for table_id in tables:
                table = Table.objects.get(pk=table_id)
                game = services.current_game(table)
                if table.status != Table.Status.PLAYING:
                    for player_id in game.players:  # each member accepts the rematch
                        services.play_again(Player.objects.get(pk=player_id), table_id)
                    continue
                state = devyatka.from_json(game.state)
                card = rng.choice(devyatka.legal_moves(state))
                player = game.players[state.to_move]
                if done < 20:  # count statements on a few moves; logging them costs time
                    with CaptureQueriesContext(connection) as queries:
                        services.play_move(player, table_id, card, table.version)
                    statements.append(len(queries))
                    done += 1
                    continue
                start = time.process_time()
                update = services.play_move(player, table_id, card, table.version)
                middle = time.process_time()
                for seat_player in game.players:
                    services.project(update.snapshot, seat_player)
                end = time.process_time()
                move_ms.append((middle - start) * 1000)
                project_ms.append((end - middle) * 1000)
                done += 1
        print(f"{connection.vendor}, {args.tables} tables x 4 seats, {done} moves")
        for name, values in (("play_move", move_ms), ("project x4", project_ms)):
            print(
                f"  {name:<11} CPU per move: mean {statistics.fmean(values):.2f} ms, "
                f"p50 {percentile(values, 0.5):.2f} ms, p95 {percentile(values, 0.95):.2f} ms"
            )
        print(f"  SQL statements per move (incl. BEGIN/COMMIT where logged): {max(statements)}")
    finally:
        drop()


if __name__ == "__main__":
    main()
