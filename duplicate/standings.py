"""A duplicate series' standings and its boards' travellers.

When a board's game finishes, the entrant's outcome is turned into the game's
comparison key and kept on the play row (`record_keys`, called through
games.hooks). The standings then read one small query of those keys (the
entrants' own seats; bots' seats are not scored), and the pure functions of
club.standings turn them into matchpoints, percentages and ranks. A traveller
reads the results themselves, for their words.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import connection

from club.models import GameResult, Player
from club.standings import (
    DuplicateRow,
    duplicate_key,
    matchpoint_percent,
    matchpoints,
    rank_rows,
)
from duplicate.models import Board, DuplicateSeries, Play, Round
from duplicate.withheld import withheld_rounds
from games import registry

# The one place that knows which GameResult columns make a seat's outcome: the
# columns every game's result has, and the game's own figures (GameResult.detail,
# declared by its registry entry). Engine.duplicate_key reads the outcome's names.
OUTCOME_COLUMNS = ("place", "lost", "score", "detail")


def _json(value):
    """A JSON column read by a raw cursor: the text (SQLite, psycopg) or already decoded."""
    return json.loads(value) if isinstance(value, str) else value


def _outcome(place: int, lost: bool, score: int | None, detail: dict | str | None) -> dict:
    return {**(_json(detail) or {}), "place": place, "lost": bool(lost), "score": score}


def record_keys(game_id: int, results: list[GameResult]) -> int:
    """Keep each entrant's comparison key on their play of this finished game; how many.

    Called in the transaction that writes the game's results, so a play has its
    key exactly when its result exists (nothing for a game that is not a board).
    """
    plays = list(
        Play.objects.filter(game_id=game_id).select_related("board__round__series__variant")
    )
    if not plays:
        return 0
    variant = plays[0].board.round.series.variant
    key = registry.engine(variant.game).duplicate_key(variant.options)
    by_seat = {r.seat: r for r in results}
    for play in plays:
        result = by_seat[play.seat]
        play.outcome_key = list(
            key(_outcome(result.place, result.lost, result.score, result.detail))
        )
        play.save(update_fields=["outcome_key"])
    return len(plays)


def scored_keys(series_id: int) -> list[tuple[int, int, int, list]]:
    """(board id, seat, player id, comparison key) of every finished play of a series'
    rounds that are public (duplicate.withheld: an open round adds nothing yet).

    One query over the plays alone (the round and board joins pick the series'
    dozen boards): no result rows, no JSON objects to merge per play.
    """
    play, board, round_ = Play._meta.db_table, Board._meta.db_table, Round._meta.db_table
    withheld, withheld_params = withheld_rounds().order_by().values("pk").query.sql_with_params()
    sql = f"""
        SELECT p.board_id, p.seat, p.player_id, p.outcome_key
        FROM {play} AS p
        JOIN {board} AS b ON b.id = p.board_id
        JOIN {round_} AS r ON r.id = b.round_id
        WHERE r.series_id = %s AND p.outcome_key IS NOT NULL AND r.id NOT IN ({withheld})
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [series_id, *withheld_params])
        rows = cursor.fetchall()
    keys = [row[3] for row in rows]
    if keys and isinstance(keys[0], str):
        # The JSON text of every key parsed in one call: one json.loads a row
        # cost as much as the query itself.
        keys = json.loads("[" + ",".join(keys) + "]")
    return [(*row[:3], key) for row, key in zip(rows, keys, strict=True)]


def outcomes(series_id: int, board_id: int | None = None) -> list[tuple]:
    """(board id, seat, player id, game id, outcome) of every finished play of a series (or of
    one board), at the entrant's own seat: the bots' seats are not scored.

    One query straight from the plays to their results through the (game, seat) unique
    index: the ORM's version joined the games too and cost twice as much on 6,000 plays.
    """
    play, board, round_ = Play._meta.db_table, Board._meta.db_table, Round._meta.db_table
    result = GameResult._meta.db_table
    columns = ", ".join(f"g.{name}" for name in OUTCOME_COLUMNS)
    sql = f"""
        SELECT p.board_id, p.seat, p.player_id, p.game_id, {columns}
        FROM {play} AS p
        JOIN {board} AS b ON b.id = p.board_id
        JOIN {round_} AS r ON r.id = b.round_id
        JOIN {result} AS g ON g.game_id = p.game_id AND g.seat = p.seat
        WHERE r.series_id = %s
    """
    params = [series_id]
    if board_id is not None:
        sql += " AND p.board_id = %s"
        params.append(board_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return [(*row[:4], _outcome(*row[4:])) for row in rows]


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


def standings(series: DuplicateSeries) -> list[DuplicateRow]:
    """Every entrant's average matchpoint percentage over the boards they played, ranked:
    the boards of closed rounds only (duplicate.withheld), for every viewer and the CSV.

    Straight from the stored keys to the sums (no Entry per play): this runs on
    every series page, over every play of the series.
    """
    groups: dict[tuple[int, int], list[tuple[int, list]]] = defaultdict(list)
    for board_id, seat, player_id, key in scored_keys(series.pk):
        groups[board_id, seat].append((player_id, key))
    return rank_groups(groups.values(), series.min_boards)


def rank_groups(groups: Iterable[list[tuple[int, Any]]], min_boards: int) -> list[DuplicateRow]:
    """Standings from (player, comparison key) groups, one group per board and seat."""
    rows: dict[int, DuplicateRow] = {}
    for group in groups:
        entrants = len(group)
        points = matchpoints([k for _, k in group])
        for (player_id, _), mp in zip(group, points, strict=True):
            row = rows.get(player_id)
            if row is None:
                row = rows[player_id] = DuplicateRow(player_id, "")
            row.games += 1
            row.percent_sum += matchpoint_percent(mp, entrants)
    names = dict(Player.objects.filter(pk__in=list(rows)).values_list("pk", "display_name"))
    for row in rows.values():
        row.name = names.get(row.player_id, "?")
    return rank_rows(list(rows.values()), duplicate_key, min_boards)


def traveller(series: DuplicateSeries, board_id: int) -> list[Entry]:
    """Every finished result of one board, best first, with names and a few words each."""
    options = series.variant.options
    entries = [Entry(*row) for row in outcomes(series.pk, board_id)]
    score(entries, options, series.variant.game)
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
