"""Benchmark: ratings. The update a finishing move pays, the leaderboard, the rebuild.

    .venv/bin/python tests/bench/bench_ratings.py [--games 100000] [--players 10000]

Builds a throwaway database (a temporary SQLite file, or a fresh PostgreSQL
database when DATABASE_URL points at one: see bench_standings), fills `--games`
finished games of 4 seats among `--players` members (placement Devyatka, Keft and
Golf at random, ties included) as GameResult rows, then times:

* ``rebuild_ratings`` over all of them (issue 14: <= 120 s for 100,000 games);
* the leaderboard page for each family, server time through Django's test client
  (<= 100 ms with 10,000 rated players);
* ``ratings.services.record_game`` for `--updates` more games, one at a time, each
  in its own transaction as in ``games.services.results`` (<= 5 ms).
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

from tests.bench.bench_standings import setup_database, timed  # noqa: E402
from tests.bench.common import machine  # noqa: E402

SEATS = 4


def places(rng: random.Random, n: int) -> list[int]:
    scores = [rng.randint(0, n) for _ in range(n)]
    return [1 + sum(1 for other in scores if other < mine) for mine in scores]


def fill(games: int, players: int, rng: random.Random) -> list:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from club.models import GameResult, Player
    from club.standings import half_points
    from games.models import Game, Table, Variant

    User = get_user_model()
    users = User.objects.bulk_create(
        (User(username=f"bench{i}", email=f"bench{i}@example.com") for i in range(players)),
        batch_size=2000,
    )
    Player.objects.bulk_create(
        (Player(user=u, display_name=f"Bench player {i}") for i, u in enumerate(users)),
        batch_size=2000,
    )
    people = list(Player.objects.members())
    variants = list(Variant.objects.all())
    start = timezone.now() - timezone.timedelta(minutes=games + 10)
    chunk = 5000
    for first in range(0, games, chunk):
        count = min(chunk, games - first)
        picked = [rng.choice(variants) for _ in range(count)]
        tables = Table.objects.bulk_create(
            Table(
                variant=v,
                created_by=people[0],
                seat_count=SEATS,
                status=Table.Status.FINISHED,
            )
            for v in picked
        )
        seatings = [rng.sample(people, SEATS) for _ in range(count)]
        game_rows = Game.objects.bulk_create(
            Game(
                table=t,
                game=v.game,
                options=v.options,
                players=[p.pk for p in s],
                seed=first + i,
                state={},
                finished=start + timezone.timedelta(minutes=first + i),
            )
            for i, (t, v, s) in enumerate(zip(tables, picked, seatings, strict=True))
        )
        results = []
        for game, variant, seating in zip(game_rows, picked, seatings, strict=True):
            if variant.single_loser:
                loser = rng.randrange(SEATS)
                ranked = [SEATS if s == loser else 1 for s in range(SEATS)]
            else:
                ranked = places(rng, SEATS)
            for seat, player in enumerate(seating):
                results.append(
                    GameResult(
                        game=game,
                        player=player,
                        seat=seat,
                        players=SEATS,
                        place=ranked[seat],
                        lost=bool(variant.single_loser and ranked[seat] == SEATS),
                        half_points=half_points(ranked[seat], ranked),
                        finished=game.finished,
                    )
                )
        GameResult.objects.bulk_create(results, batch_size=5000)
    return people


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--updates", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()

    url, drop = setup_database()
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse
    from django.utils import timezone

    from club.models import GameResult
    from club.standings import half_points
    from games import registry
    from games.models import Game, Table, Variant
    from ratings.models import Rating
    from ratings.services import rebuild, record_game

    setup_test_environment()
    print(machine())
    try:
        call_command("migrate", verbosity=0)
        rng = random.Random(14)
        started = time.perf_counter()
        people = fill(args.games, args.players, rng)
        print(
            f"filled {args.games} games x {SEATS} seats among {args.players} players "
            f"in {time.perf_counter() - started:.1f}s ({connection.vendor})"
        )
        started = time.perf_counter()
        rated = rebuild()
        took = time.perf_counter() - started
        print(f"rebuild_ratings: {rated} games in {took:.1f} s ({rated / took:.0f} games/s)")
        started = time.perf_counter()
        rebuild()  # again: now in the order of the stored rating changes
        print(f"rebuild_ratings again (rated order): {time.perf_counter() - started:.1f} s")

        client = Client()
        for family, _label in registry.rating_families():
            path = reverse("ratings_family", args=[family])
            assert client.get(path).status_code == 200
            median, worst = timed(lambda p=path: client.get(p), args.repeat)
            ranked = Rating.objects.filter(family=family).count()
            print(
                f"leaderboard {family:8}: {ranked} rated players; page {median:.1f} ms "
                f"(max {worst:.1f})"
            )

        variants = list(Variant.objects.all())
        samples = []
        for number in range(args.updates):
            variant = rng.choice(variants)
            seating = rng.sample(people, SEATS)
            ranked = places(rng, SEATS)
            with transaction.atomic():
                table = Table.objects.create(
                    variant=variant,
                    created_by=seating[0],
                    seat_count=SEATS,
                    status=Table.Status.FINISHED,
                )
                game = Game.objects.create(
                    table=table,
                    game=variant.game,
                    options=variant.options,
                    players=[p.pk for p in seating],
                    seed=number,
                    state={},
                    finished=timezone.now(),
                )
                rows = GameResult.objects.bulk_create(
                    GameResult(
                        game=game,
                        player=p,
                        seat=s,
                        players=SEATS,
                        place=ranked[s],
                        half_points=half_points(ranked[s], ranked),
                        finished=game.finished,
                    )
                    for s, p in enumerate(seating)
                )
                start = time.perf_counter()
                record_game(game.game, game.options, rows)
                samples.append((time.perf_counter() - start) * 1000)
        samples.sort()
        print(
            f"record_game per finished game ({args.updates} games, 4 seats): median "
            f"{statistics.median(samples):.2f} ms, p95 {samples[int(len(samples) * 0.95)]:.2f} ms, "
            f"max {samples[-1]:.2f} ms"
        )
    finally:
        drop()


if __name__ == "__main__":
    main()
