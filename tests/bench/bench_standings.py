"""Benchmark: standings of a house series with 10,000 games among 100 players.

    .venv/bin/python tests/bench/bench_standings.py [--games 10000] [--players 100]

Builds a throwaway database (a temporary SQLite file, or a fresh database on
the PostgreSQL server when DATABASE_URL points at one), fills a loss series
and a placement series, then times the standings computation and the whole
series page (server time through Django's test client) and counts queries.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def setup_database() -> tuple[str, callable]:
    base = os.environ.get("DATABASE_URL", "")
    if base.startswith(("postgres://", "postgresql://")):
        import psycopg

        name = f"club_bench_{uuid.uuid4().hex[:8]}"
        parsed = urlparse(base)
        admin = urlunparse(parsed._replace(path="/postgres"))
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

        def drop() -> None:
            from django.db import connections

            connections.close_all()
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        return urlunparse(parsed._replace(path=f"/{name}")), drop
    folder = tempfile.mkdtemp(prefix="club-bench-")
    return f"sqlite:///{folder}/bench.sqlite3", lambda: shutil.rmtree(folder)


def fill(games: int, players: int, seats: int, rng: random.Random):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from club.models import GameResult, Player, Series
    from club.standings import half_points
    from games.models import Game, Table, Variant

    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"bench{i}", email=f"bench{i}@example.com") for i in range(players)
    )
    Player.objects.bulk_create(
        Player(user=u, display_name=f"Bench player {i}") for i, u in enumerate(users)
    )
    people = list(Player.objects.members())
    made = []
    for variant_name in ("Keft", "Devyatka"):
        variant = Variant.objects.get(name=variant_name)
        series = Series.objects.create(
            name=f"Bench {variant_name}", slug=f"bench-{variant_name.lower()}", variant=variant
        )
        tables = Table.objects.bulk_create(
            Table(
                variant=variant,
                series=series,
                created_by=people[0],
                seat_count=seats,
                status=Table.Status.FINISHED,
            )
            for _ in range(games)
        )
        now = timezone.now()
        game_rows = []
        seatings = []
        for index, table in enumerate(tables):
            seating = rng.sample(people, seats)
            seatings.append(seating)
            game_rows.append(
                Game(
                    table=table,
                    game="devyatka",
                    options=variant.options,
                    players=[p.pk for p in seating],
                    seed=index,
                    state={},
                    finished=now - timezone.timedelta(minutes=games - index),
                )
            )
        game_rows = Game.objects.bulk_create(game_rows, batch_size=2000)
        results = []
        for game, seating in zip(game_rows, seatings, strict=True):
            places = sorted(rng.choice([1, 2, 2, 3, 4]) for _ in range(seats))
            places[0] = 1
            loser = rng.randrange(seats)
            for seat, player in enumerate(seating):
                figures = {
                    "cards_left": 0 if places[seat] == 1 else rng.randint(1, 9),
                    "card_points": rng.randint(0, 60),
                    "passes": rng.randint(0, 5),
                    "out_position": None if seat == loser else 1,
                }
                results.append(
                    GameResult(
                        game=game,
                        series=series,
                        player=player,
                        seat=seat,
                        players=seats,
                        place=places[seat],
                        detail=figures,
                        lost=seat == loser,
                        half_points=half_points(places[seat], places),
                        finished=game.finished,
                    )
                )
        GameResult.objects.bulk_create(results, batch_size=5000)
        made.append(series)
    return made


def timed(function, repeat: int) -> tuple[float, float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), max(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--keep", action="store_true", help="keep the database (SQLite file)")
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

    from club.standings import standings

    setup_test_environment()
    try:
        call_command("migrate", verbosity=0)
        started = time.perf_counter()
        all_series = fill(args.games, args.players, args.seats, random.Random(7))
        if connection.vendor == "postgresql":
            # What autovacuum does soon after a bulk load: statistics and the
            # visibility map that lets the covering index answer on its own.
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE club_gameresult")
        print(
            f"filled {len(all_series)} series x {args.games} games x {args.seats} seats "
            f"among {args.players} players in {time.perf_counter() - started:.1f}s "
            f"({connection.vendor})"
        )
        client = Client()
        for series in all_series:
            url_path = series.get_absolute_url()
            rows = standings(series)
            median, worst = timed(lambda s=series: standings(s), args.repeat)
            assert client.get(url_path).status_code == 200
            page_median, page_worst = timed(lambda u=url_path: client.get(u), args.repeat)
            print(
                f"{series.scoring:9} series: {len(rows)} rows; standings {median:.1f} ms "
                f"(max {worst:.1f}); page {page_median:.1f} ms (max {page_worst:.1f})"
            )
    finally:
        if args.keep:
            print(f"kept {url}")
        else:
            drop()


if __name__ == "__main__":
    main()
