"""A duplicate series' standings and its boards' travellers.

One query reads every scored outcome of the series (the entrants' own seats;
bots' seats are not scored), the pure functions of club.standings turn them
into matchpoints, percentages and ranks.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import F

from club.models import GameResult, Player
from club.standings import (
    DuplicateRow,
    duplicate_key,
    matchpoint_percent,
    matchpoints,
    rank_rows,
)
from duplicate.models import DuplicateSeries
from games import registry

# The one place that knows which GameResult columns make a seat's outcome
# (registry.Engine.duplicate_key reads these names).
OUTCOME_FIELDS = ("place", "lost", "out_position", "cards_left", "card_points", "passes", "score")


def outcomes(**filters) -> list[tuple[int, int, int, int, dict]]:
    """(board id, seat, player id, game id, outcome) of every finished play matching `filters`
    (lookups on the Play, e.g. board__round__series=...), at the entrant's own seat."""
    prefix = "game__duplicate_play__"
    rows = (
        GameResult.objects.filter(**{prefix + k: v for k, v in filters.items()})
        .filter(seat=F(prefix + "seat"))
        .values_list(prefix + "board_id", "seat", "player_id", "game_id", *OUTCOME_FIELDS)
        .order_by()
    )
    return [
        (board, seat, player, game, dict(zip(OUTCOME_FIELDS, figures, strict=True)))
        for board, seat, player, game, *figures in rows
    ]


@dataclass
class Entry:
    """One entrant's result on one board: what the traveller shows."""

    board_id: int
    seat: int
    player_id: int
    game_id: int
    outcome: dict
    matchpoints: int = 0
    entrants: int = 1
    name: str = ""
    text: str = ""

    @property
    def percent(self) -> float:
        return matchpoint_percent(self.matchpoints, self.entrants)

    @property
    def percent_text(self) -> str:
        return f"{self.percent:.1f}"

    @property
    def top(self) -> int:
        return 2 * (self.entrants - 1)


def score(entries: list[Entry], options: dict, game: str) -> list[Entry]:
    """Matchpoints for entries, compared within each (board, seat)."""
    key = registry.engine(game).duplicate_key(options)
    groups: dict[tuple[int, int], list[Entry]] = defaultdict(list)
    for entry in entries:
        groups[entry.board_id, entry.seat].append(entry)
    for group in groups.values():
        points = matchpoints([key(e.outcome) for e in group])
        for entry, mp in zip(group, points, strict=True):
            entry.matchpoints, entry.entrants = mp, len(group)
    return entries


def scored_entries(series: DuplicateSeries, **filters) -> list[Entry]:
    variant = series.variant
    entries = [Entry(*row) for row in outcomes(board__round__series=series, **filters)]
    return score(entries, variant.options(), variant.game)


def standings(series: DuplicateSeries) -> list[DuplicateRow]:
    """Every entrant's average matchpoint percentage over the boards they played, ranked."""
    rows: dict[int, DuplicateRow] = {}
    for entry in scored_entries(series):
        row = rows.get(entry.player_id)
        if row is None:
            row = rows[entry.player_id] = DuplicateRow(entry.player_id, "")
        row.games += 1
        row.percent_sum += entry.percent
    names = dict(Player.objects.filter(pk__in=list(rows)).values_list("pk", "display_name"))
    for row in rows.values():
        row.name = names.get(row.player_id, "?")
    return rank_rows(list(rows.values()), duplicate_key, series.min_boards)


def traveller(series: DuplicateSeries, board_id: int) -> list[Entry]:
    """Every finished result of one board, best first, with names and a few words each."""
    entries = scored_entries(series, board_id=board_id)
    options = series.variant.options()
    engine = registry.engine(series.variant.game)
    names = dict(
        Player.objects.filter(pk__in=[e.player_id for e in entries]).values_list(
            "pk", "display_name"
        )
    )
    for entry in entries:
        entry.name = names.get(entry.player_id, "?")
        entry.text = engine.outcome_text(options, entry.outcome)
    return sorted(entries, key=lambda e: (e.seat, -e.matchpoints, e.name))
