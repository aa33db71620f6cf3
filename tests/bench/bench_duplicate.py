"""Benchmark: standings of a duplicate series with 500 entrants x 12 boards (target < 200 ms).

    .venv/bin/python tests/bench/bench_duplicate.py [--entrants 500] [--boards 12] [--seats 4]

Builds a throwaway database (a temporary SQLite file, or a fresh database on
the PostgreSQL server when DATABASE_URL points at one) and fills one
Devyatka and one Golf duplicate series: every entrant has played every board
at a table of `seats` (the other seats house bots, their results written too,
as a real game writes them). The same result rows also count in a house
series, so the house standings of that many games (the baseline: the code the
club already had) are timed on the same data, alternating with the duplicate
standings, on the same machine at the same moment.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_standings import setup_database  # noqa: E402


def result_figures(figures: dict) -> dict:
    """GameResult keyword arguments for a seat's figures: the shared columns and `detail`."""
    from games.registry import RESULT_COLUMNS

    columns = {k: v for k, v in figures.items() if k in RESULT_COLUMNS}
    return {**columns, "detail": {k: v for k, v in figures.items() if k not in RESULT_COLUMNS}}


def fill(entrants: int, boards: int, seats: int, rng: random.Random):
    import datetime

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from club.models import GameResult, Player, Series
    from club.standings import half_points
    from duplicate.models import Board, DuplicateSeries, Play, Round
    from games import registry
    from games.models import Game, Table, Variant

    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"bench{i}", email=f"bench{i}@example.com") for i in range(entrants)
    )
    Player.objects.bulk_create(
        Player(user=u, display_name=f"Bench player {i}") for i, u in enumerate(users)
    )
    people = list(Player.objects.members())
    bots = list(Player.objects.bots().filter(bot_level="heuristic").order_by("pk"))[: seats - 1]
    now = timezone.now()
    made = []
    for variant_name in ("Devyatka", "Golf"):
        variant = Variant.objects.get(name=variant_name)
        dup = DuplicateSeries.objects.create(
            name=f"Bench {variant_name}",
            slug=f"bench-{variant_name.lower()}",
            variant=variant,
            seats=seats,
            min_boards=boards // 2,
        )
        house = Series.objects.create(
            name=f"House {variant_name}", slug=f"house-{variant_name.lower()}", variant=variant
        )
        round_ = Round.objects.create(
            series=dup,
            number=1,
            starts=now - datetime.timedelta(days=1),
            ends=now + datetime.timedelta(days=1),
            boards=boards,
        )
        board_rows = list(Board.objects.filter(round=round_).order_by("number"))
        pairs = [(b, p) for b in board_rows for p in people]
        tables = Table.objects.bulk_create(
            (
                Table(
                    variant=variant,
                    created_by=p,
                    seat_count=seats,
                    private=True,
                    status=Table.Status.FINISHED,
                )
                for b, p in pairs
            ),
            batch_size=2000,
        )
        seatings = []
        games = []
        for index, ((board, person), table) in enumerate(zip(pairs, tables, strict=True)):
            seat = board.seat_for(seats)
            seating = list(bots)
            seating.insert(seat, person)
            seatings.append(seating)
            games.append(
                Game(
                    table=table,
                    game=variant.game,
                    options=variant.options,
                    players=[p.pk for p in seating],
                    seed=board.seed,
                    state={},
                    result={},
                    finished=now - datetime.timedelta(seconds=len(pairs) - index),
                )
            )
        games = Game.objects.bulk_create(games, batch_size=2000)
        results = []
        golf = variant.game == "golf"
        for game, seating in zip(games, seatings, strict=True):
            if golf:
                scores = [rng.randint(5, 60) for _ in range(seats)]
                places = [1 + sum(o < s for o in scores) for s in scores]
            else:
                places = [1] + [rng.choice([2, 3, 3, 4]) for _ in range(seats - 1)]
                rng.shuffle(places)
            for seat, player in enumerate(seating):
                figures = (
                    {"score": scores[seat]}
                    if golf
                    else {
                        "cards_left": 0 if places[seat] == 1 else rng.randint(1, 9),
                        "card_points": rng.randint(0, 60),
                        "passes": rng.randint(0, 5),
                        "out_position": 1 if places[seat] == 1 else None,
                    }
                )
                results.append(
                    GameResult(
                        game=game,
                        series=house,
                        player=player,
                        seat=seat,
                        players=seats,
                        place=places[seat],
                        half_points=half_points(places[seat], places),
                        finished=game.finished,
                        **result_figures(figures),
                    )
                )
        GameResult.objects.bulk_create(results, batch_size=5000)
        # As a finished game leaves them (duplicate.standings.record_keys): the key
        # of the entrant's own outcome on their play.
        key = registry.engine(variant.game).duplicate_key(variant.options)
        own = {(r.game_id, r.seat): r for r in results}
        plays = []
        for (board, person), table, game in zip(pairs, tables, games, strict=True):
            seat = board.seat_for(seats)
            result = own[game.pk, seat]
            outcome = {**result.detail, "place": result.place, "lost": result.lost}
            outcome["score"] = result.score
            plays.append(
                Play(
                    board=board,
                    player=person,
                    seat=seat,
                    table=table,
                    game=game,
                    outcome_key=list(key(outcome)),
                )
            )
        Play.objects.bulk_create(plays, batch_size=2000)
        made.append((dup, house))
    return made


def standings_from_results(series):
    """The duplicate standings as they were before the keys were kept on the plays:
    the result rows joined to the plays, each outcome's key worked out on every call."""
    from collections import defaultdict

    from duplicate.standings import outcomes, rank_groups
    from games import registry

    variant = series.variant
    key = registry.engine(variant.game).duplicate_key(variant.options)
    groups = defaultdict(list)
    for board_id, seat, player_id, _, outcome in outcomes(series.pk):
        groups[board_id, seat].append((player_id, key(outcome)))
    return rank_groups(groups.values(), series.min_boards)


def figures(rows) -> list[tuple]:
    return [(r.player_id, r.rank, r.games, round(r.percent, 9)) for r in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=500)
    parser.add_argument("--boards", type=int, default=12)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()

    url, drop = setup_database()
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from club.standings import standings as house_standings
    from duplicate.standings import standings

    setup_test_environment()
    try:
        call_command("migrate", verbosity=0)
        started = time.perf_counter()
        made = fill(args.entrants, args.boards, args.seats, random.Random(7))
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE")
        print(
            f"filled 2 duplicate series x {args.entrants} entrants x {args.boards} boards "
            f"({args.seats} seats) in {time.perf_counter() - started:.1f}s ({connection.vendor})"
        )
        client = Client()
        for dup, house in made:
            rows = standings(dup)
            assert len(rows) == args.entrants
            assert figures(rows) == figures(standings_from_results(dup)), "numbers changed"
            assert client.get(dup.get_absolute_url()).status_code == 200
            samples: dict[str, list[float]] = {
                "from results": [],
                "dup": [],
                "house": [],
                "page": [],
            }
            jobs = {
                "from results": lambda d=dup: standings_from_results(d),
                "dup": lambda d=dup: standings(d),
                "house": lambda h=house: house_standings(h),
                "page": lambda d=dup: client.get(d.get_absolute_url()),
            }
            for _ in range(args.repeat):  # alternating, so both see the same machine
                for name, job in jobs.items():
                    begin = time.perf_counter()
                    job()
                    samples[name].append((time.perf_counter() - begin) * 1000)
            text = "; ".join(
                f"{name} {statistics.median(s):.1f} ms (max {max(s):.1f})"
                for name, s in samples.items()
            )
            print(f"{dup.variant.name:9}: {len(rows)} rows; {text}")
    finally:
        drop()


if __name__ == "__main__":
    main()
