"""Random finished games written straight as GameResult rows and rated as they finish.

For the ratings tests and benchmark: the same rows `games.services.results` writes,
without playing the cards, so hundreds of games take a second.
"""

from __future__ import annotations

import datetime
import random

from django.db import transaction

from club.models import GameResult, Player, Series
from club.standings import half_points
from games.models import Game, Table, Variant
from ratings.services import record_game

BASE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def _places(rng: random.Random, n: int) -> list[int]:
    """Competition places with random ties (1, 2, 2, 4)."""
    scores = [rng.randint(0, n) for _ in range(n)]
    return [1 + sum(1 for other in scores if other < mine) for mine in scores]


def random_game(
    rng: random.Random,
    number: int,
    players: list[Player],
    bots: list[Player],
    variants: dict[str, Variant],
    rate: bool = True,
    finished: datetime.datetime | None = None,
    series: Series | None = None,
) -> Game:
    """One random finished game: placement Devyatka, Keft or Golf, members and bots.

    A bot may take several seats of one game, as the house does when its roster runs out.
    """
    name = rng.choice(list(variants))
    variant = variants[name]
    n = rng.randint(2, 5) if bots else rng.randint(2, max(2, min(5, len(players))))
    seated = rng.sample(players, k=min(n, len(players)))
    while len(seated) < n or (bots and rng.random() < 0.3 and len(seated) < 6):
        seated.append(rng.choice(bots) if bots else rng.choice(players))
    if bots and len(seated) < 5 and rng.random() < 0.1:
        bot = rng.choice(bots)
        seated += [bot, bot]
    rng.shuffle(seated)
    n = len(seated)
    if variant.single_loser:
        loser = rng.randrange(n)
        places = [n if seat == loser else 1 for seat in range(n)]
    else:
        places = _places(rng, n)
    finished = finished or BASE + datetime.timedelta(minutes=number)
    with transaction.atomic():
        table = Table.objects.create(
            variant=variant,
            series=series,
            created_by=seated[0],
            seat_count=n,
            status=Table.Status.FINISHED,
        )
        game = Game.objects.create(
            table=table,
            game=variant.game,
            options=variant.options,
            players=[p.pk for p in seated],
            seed=number,
            state={},
            result={"places": places},
            finished=finished,
        )
        rows = GameResult.objects.bulk_create(
            GameResult(
                game=game,
                series=series,
                player=player,
                seat=seat,
                players=n,
                place=places[seat],
                lost=bool(variant.single_loser and places[seat] == n),
                score=rng.randint(0, 90) if variant.game == "golf" else None,
                half_points=half_points(places[seat], places),
                finished=finished,
            )
            for seat, player in enumerate(seated)
        )
        if rate:
            record_game(game.game, game.options, rows)
    return game


def variants_by_name() -> dict[str, Variant]:
    return {v.name: v for v in Variant.objects.all()}
