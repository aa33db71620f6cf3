"""What a game's end costs the server, with each app's hooks on and off, in one run.

    .venv/bin/python tests/bench/bench_game_end.py [--tables 30] [--games 60] [--rounds 2]
        [--without notifications --without ratings --without events ...]

In a saturated load test the moves a second fall for a second or two each time the
tables' games end together (docs/PERFORMANCE.md, "A game's end"): a game's last
move records the results (and what listens to them: ratings), the after-commit
listeners run (notifications, the club nights), and the rematch deals a new game
(and tells the members again). This plays whole games at `--tables` four-member
Devyatka tables of a throwaway database, as the server runs them: each move and
each rematch answer through `games.db.on_database` on a running event loop, and
each update published to the channel layer.

Blocks of `--games` games alternate between the site as it is and the site
without each `--without` app's hooks (games.hooks `forget`, registered again
after the block by the app's own `ready()`), in the order A B C, then C B A.
Printed per block and as medians: this process's CPU time (the loop and the
database thread) for an ordinary move, a game's last move, a rematch answer and
the answer that deals, and all of it over the moves made (each game's end and
rematch spread over its moves).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.common import (  # noqa: E402
    django_on_a_throwaway_database,
    machine,
    started_tables,
)

KINDS = ("move", "last move", "rematch answer", "dealing answer")


async def play_games(tables: list[int], games: int, rng: random.Random) -> dict[str, list[float]]:
    """Play `games` whole games over the tables (each started), rematches included."""
    from club.models import Player
    from games import broadcast, services
    from games.db import on_database
    from games.engine import devyatka
    from games.models import Table

    spent: dict[str, list[float]] = defaultdict(list)
    play, again = on_database(services.play_move), on_database(services.play_again)

    async def timed(kind: str, call, *args):
        start = time.process_time()
        update = await call(*args)
        if update is not None:
            await broadcast.publish([update])
        spent[kind].append((time.process_time() - start) * 1000)
        return update

    finished = 0
    while finished < games:
        for table_id in tables:
            table = await on_database(Table.objects.get)(pk=table_id)
            game = await on_database(services.current_game)(table)
            if table.status != Table.Status.PLAYING:
                members = await on_database(lambda ids: list(Player.objects.filter(pk__in=ids)))(
                    game.players
                )
                for i, member in enumerate(members):
                    kind = "dealing answer" if i == len(members) - 1 else "rematch answer"
                    await timed(kind, again, member, table_id)
                finished += 1
                continue
            state = devyatka.from_json(game.state)
            card = rng.choice(devyatka.legal_moves(state))
            kind = "last move" if devyatka.play(state, card).to_move is None else "move"
            await timed(kind, play, game.players[state.to_move], table_id, card, table.version)
    return spent


def per_move(spent: dict[str, list[float]]) -> float:
    """Everything (moves, ends, rematches) over the moves made: a game's end spread out."""
    moves = max(1, len(spent["move"]) + len(spent["last move"]))
    return sum(sum(values) for values in spent.values()) / moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--games", type=int, default=60, help="games a block")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--without", action="append", default=[], metavar="APPS")
    args = parser.parse_args()
    withouts = args.without or ["notifications", "ratings", "events"]

    drop = django_on_a_throwaway_database()
    from django.apps import apps
    from django.db import connection

    from games import hooks

    try:
        tables = started_tables(args.tables)
        rng = random.Random(1)
        asyncio.run(play_games(tables, args.tables, rng))  # warm up: every table once
        configs = ["the site"] + [f"without {names}" for names in withouts]
        results: dict[str, list[dict[str, list[float]]]] = defaultdict(list)
        print(machine())
        print(f"{connection.vendor}: {args.tables} tables x 4 members, {args.games} games a block")
        for round_number in range(args.rounds):
            order = configs if round_number % 2 == 0 else configs[::-1]
            for config in order:
                names = config.removeprefix("without ").split(",") if config != "the site" else []
                for name in names:
                    hooks.forget(name.strip())
                try:
                    spent = asyncio.run(play_games(tables, args.games, rng))
                finally:
                    for name in names:  # the app registers its hooks again
                        apps.get_app_config(name.strip()).ready()
                results[config].append(spent)
                figures = ", ".join(
                    f"{kind} {statistics.fmean(spent[kind]):.2f}" for kind in KINDS if spent[kind]
                )
                print(
                    f"  round {round_number + 1} {config}: CPU ms, mean: {figures}; "
                    f"all of it a move {per_move(spent):.2f}"
                )
        print("medians over the rounds (CPU ms; all of it a move: ends and rematches spread out):")
        for config in configs:
            blocks = results[config]
            figures = ", ".join(
                f"{kind} {statistics.median(statistics.fmean(b[kind]) for b in blocks):.2f}"
                for kind in KINDS
            )
            print(
                f"  {config}: {figures}; all of it a move "
                f"{statistics.median(per_move(b) for b in blocks):.2f}"
            )
    finally:
        drop()


if __name__ == "__main__":
    main()
