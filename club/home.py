"""What the home page shows: a member's own club at a glance, or the club's front for a stranger."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import ngettext

from club.bots import shown_name
from club.models import GameResult, Player, Series
from club.standings import Row, standings
from games import registry
from games.models import Game, Presence, Table, Variant
from ratings.models import Rating, RatingChange, display

LAST_GAMES = 5
TREND_GAMES = 5


@dataclass
class MyTable:
    table: Table
    your_turn: bool
    # Who the table waits for, in words ("Boris", "2 more players", "the house").
    waiting_for: str
    seats: list[str]


def my_tables(player: Player) -> list[MyTable]:
    """The member's live tables (waiting or playing), those where it is their turn first."""
    tables = list(
        Table.objects.filter(
            Q(status=Table.Status.OPEN) | Q(status=Table.Status.PLAYING),
            seats__player=player,
            seats__is_bot=False,
            seats__resigned_at__isnull=True,
        )
        .with_seats()
        .select_related("series")
        .order_by("-updated")
        .distinct()
    )
    # In ascending numbers, so each table keeps its latest game (a rematch is dealt at
    # the same table; the first, finished game has nobody to move).
    games = {
        g.table_id: g
        for g in Game.objects.filter(table__in=[t for t in tables if t.status == "playing"])
        .order_by("table_id", "number")
        .only("table_id", "number", "game", "state", "players")
    }
    rows = []
    for table in tables:
        seats = list(table.seats.all())
        names = [shown_name(s.player.display_name, s.player.bot_level) for s in seats]
        game = games.get(table.pk)
        if game is None:
            missing = table.seat_count - len(seats)
            waiting = ngettext("%(count)d more player", "%(count)d more players", missing)
            rows.append(MyTable(table, False, waiting % {"count": missing}, names))
            continue
        engine = registry.engine(game.game)
        actors = engine.actors(engine.from_json(game.state))
        mine = game.players.index(player.pk) if player.pk in game.players else None
        by_position = {s.position: s for s in seats}
        waiting = [
            shown_name(by_position[a].player.display_name, by_position[a].player.bot_level)
            for a in actors
            if a in by_position
        ]
        rows.append(MyTable(table, mine in actors, ", ".join(waiting), names))
    rows.sort(key=lambda row: not row.your_turn)  # stable: newest first within each
    return rows


def invitations(player: Player) -> list[Table]:
    """Private tables the member is at that still wait for players: share their invite link."""
    return list(
        Table.objects.open()
        .filter(private=True)
        .filter(Q(created_by=player) | Q(seats__player=player, seats__is_bot=False))
        .distinct()
        .with_seats()
    )


@dataclass
class SeriesLine:
    series: Series
    row: Row | None
    to_minimum: int


def my_series(player: Player) -> list[SeriesLine]:
    """Running series the member plays in, with rank and games still needed to be ranked."""
    lines = []
    for series in Series.objects.active().filter(results__player=player).distinct():
        row = next((r for r in standings(series) if r.player_id == player.pk), None)
        games = row.games if row else 0
        lines.append(SeriesLine(series, row, max(0, series.min_games - games)))
    return lines


@dataclass
class RatingLine:
    family: str
    label: str
    rating: Rating
    # Displayed rating points won or lost over the last TREND_GAMES rated games.
    trend: int
    points: list[int] = field(default_factory=list)


def my_ratings(player: Player) -> list[RatingLine]:
    labels = dict(registry.rating_families())
    lines = []
    for rating in Rating.objects.filter(player=player).order_by("family"):
        changes = list(
            RatingChange.objects.filter(result__player=player, family=rating.family, rated=True)
            .order_by("-result__finished", "-result__game_id")
            .values_list("ordinal_before", "ordinal_after")[:TREND_GAMES]
        )[::-1]
        points = [display(a) for _, a in changes]
        trend = points[-1] - display(changes[0][0]) if changes else 0
        label = labels.get(rating.family, rating.family)
        lines.append(RatingLine(rating.family, label, rating, trend, points))
    return lines


def last_games(player: Player) -> list[GameResult]:
    return list(
        GameResult.objects.filter(player=player)
        .select_related("game__table__variant", "series")
        .order_by("-finished", "-game_id")[:LAST_GAMES]
    )


def quick_variants() -> list[Variant]:
    """One variant a game for the quick-game buttons: the one named like the game, or the first."""
    chosen: dict[str, Variant] = {}
    for variant in Variant.objects.active().order_by("pk"):
        current = chosen.get(variant.game)
        # Variants are named in the club's source language: compare with the
        # game's label untranslated, whatever the reader's language.
        with translation.override(None):
            label = str(registry.engine(variant.game).label)
        if current is None or (variant.name == label and current.name != label):
            chosen[variant.game] = variant
    return [chosen[key] for key, _ in registry.game_choices() if key in chosen]


@dataclass
class ClubNumbers:
    tables_playing: int
    members_online: int
    games_this_week: int


def club_numbers() -> ClubNumbers:
    week = timezone.now() - datetime.timedelta(days=7)
    stale = timezone.now() - datetime.timedelta(seconds=settings.PRESENCE_STALE_SECONDS)
    return ClubNumbers(
        tables_playing=Table.objects.playing().count(),
        members_online=Presence.objects.filter(seen__gte=stale)
        .values("seat__player")
        .distinct()
        .count(),
        games_this_week=Game.objects.filter(finished__gte=week, result__isnull=False).count(),
    )


def series_leaders() -> list[tuple[Series, list[Row]]]:
    """Each running series with its leaders (everyone ranked first)."""
    leaders = []
    for series in Series.objects.active().select_related("variant"):
        rows = [r for r in standings(series) if r.rank == 1]
        leaders.append((series, rows))
    return leaders
