"""Whose turn it is, for pages that list tables (the lobby marks the reader's own)."""

from __future__ import annotations

from collections.abc import Iterable

from games import registry
from games.models import Game, Table


def waiting_on(player_id: int, tables: Iterable[Table]) -> set[int]:
    """The ids of `tables` (their seats prefetched) in play where `player_id` may move now.

    One query for the latest game of each table the member sits at (a rematch deals a
    new game at the same table: the latest is the one being played).
    """
    mine = [
        table
        for table in tables
        if table.status == Table.Status.PLAYING
        and any(
            s.player_id == player_id and not s.is_bot and not s.resigned_at
            for s in table.seats.all()
        )
    ]
    if not mine:
        return set()
    latest: dict[int, Game] = {}
    for game in (
        Game.objects.filter(table__in=mine)
        .order_by("table_id", "number")
        .only("table_id", "number", "game", "state", "players")
    ):
        latest[game.table_id] = game  # in ascending numbers: the last one stays
    waiting = set()
    for table_id, game in latest.items():
        if player_id not in game.players:
            continue
        engine = registry.engine(game.game)
        if game.players.index(player_id) in engine.actors(engine.from_json(game.state)):
            waiting.add(table_id)
    return waiting
