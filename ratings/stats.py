"""What the pages show: a player's ratings and figures per family, the leaderboard, the chart."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Avg, Count, Q, QuerySet

from club.models import GameResult, Player
from games import registry
from games.models import Game
from ratings.models import Rating, RatingChange, display

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 100, 6
CHART_POINTS = 200
LAST_GAMES = 10


@dataclass
class FamilyLine:
    family: str
    label: str
    rating: Rating
    games: int = 0
    win_rate: float | None = None
    average_place: float | None = None
    loss_rate: float | None = None
    chart: dict = field(default_factory=dict)


def chart(values: list[int]) -> dict:
    """An SVG polyline for the displayed rating over games (server-side, no script)."""
    if len(values) < 2:
        return {}
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (CHART_WIDTH - 2 * CHART_PAD) / (len(values) - 1)
    inner = CHART_HEIGHT - 2 * CHART_PAD
    points = " ".join(
        f"{CHART_PAD + i * step:.1f},{CHART_PAD + inner * (high - v) / span:.1f}"
        for i, v in enumerate(values)
    )
    return {
        "points": points,
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "low": low,
        "high": high,
        "first": values[0],
        "last": values[-1],
        "count": len(values),
    }


def player_lines(player: Player) -> list[FamilyLine]:
    """The player's rating per family they have played, with games, win rate and places."""
    ratings = {r.family: r for r in Rating.objects.filter(player=player)}
    figures = {
        row["rating_change__family"]: row
        for row in GameResult.objects.filter(player=player, rating_change__isnull=False)
        .values("rating_change__family")
        .annotate(
            n=Count("id"),
            wins=Count("id", filter=Q(place=1)),
            losses=Count("id", filter=Q(lost=True)),
            average=Avg("place"),
        )
    }
    lines = []
    for family, label in registry.rating_families():
        rating = ratings.get(family)
        if rating is None:
            continue
        row = figures.get(family, {})
        n = row.get("n", 0)
        line = FamilyLine(family, label, rating, games=n)
        if n:
            if registry.single_loser_family(family):
                line.loss_rate = row["losses"] / n
            else:
                line.win_rate = row["wins"] / n
                line.average_place = row["average"]
        history = list(
            RatingChange.objects.filter(result__player=player, family=family, rated=True)
            .order_by("-result__finished", "-result__game_id")
            .values_list("ordinal_before", "ordinal_after")[:CHART_POINTS]
        )[::-1]
        if history:
            line.chart = chart([display(history[0][0])] + [display(a) for _, a in history])
        lines.append(line)
    return lines


def last_games(player: Player, viewer: Player | None) -> QuerySet[RatingChange]:
    """The player's last rated games the viewer may see, newest first."""
    return (
        RatingChange.objects.filter(
            result__player=player, result__game__in=Game.objects.visible_to(viewer)
        )
        .select_related("result__game__table__variant")
        .order_by("-result__finished", "-result__game_id")[:LAST_GAMES]
    )


def leaderboard(family: str, min_games: int, bots: bool = False) -> QuerySet[Rating]:
    players = Player.objects.bots() if bots else Player.objects.members()
    return (
        Rating.objects.filter(family=family, player__in=players)
        .filter(games__gte=0 if bots else min_games)
        .filter(games__gt=0)
        .select_related("player")
        .order_by("-ordinal", "player_id")
    )


def attach_ratings(rows: list, game_key: str, options: dict) -> None:
    """Give each standings row (club.standings.Row) its player's rating in the series' game."""
    family = registry.engine(game_key).family(options)
    found = {
        r.player_id: r
        for r in Rating.objects.filter(family=family, player_id__in=[row.player_id for row in rows])
    }
    for row in rows:
        row.rating = found.get(row.player_id)


def attach_seat_ratings(tables: Iterable[Any]) -> None:
    """Give each seat of these tables (seats prefetched) `.rating`: its player's Rating in
    the table's game family, or None before their first rated game. One query in all."""
    tables = list(tables)
    wanted: dict[str, set[int]] = {}
    for table in tables:
        table.rating_family = registry.engine(table.variant.game).family(table.variant.options)
        wanted.setdefault(table.rating_family, set()).update(s.player_id for s in table.seats.all())
    if not wanted:
        return
    query = Q()
    for family, players in wanted.items():
        query |= Q(family=family, player_id__in=players)
    found = {(r.family, r.player_id): r for r in Rating.objects.filter(query)}
    for table in tables:
        for seat in table.seats.all():
            seat.rating = found.get((table.rating_family, seat.player_id))
