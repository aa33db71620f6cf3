"""Results: one GameResult per seat, written with the game's last move."""

from __future__ import annotations

from club.models import GameResult
from club.standings import half_points
from games import hooks, registry
from games.models import Game, Table
from ratings.services import record_game


def record_results(table: Table, game: Game) -> None:
    """One GameResult per seat and their rating changes, in the transaction that finishes the game."""
    result = game.result
    places = result["places"]
    engine = registry.engine(game.game)
    resigned = set(game.resigned)
    rows = GameResult.objects.bulk_create(
        GameResult(
            game=game,
            series_id=table.series_id,
            player_id=player_id,
            seat=seat,
            players=len(places),
            place=places[seat],
            half_points=half_points(places[seat], places),
            finished=game.finished,
            resigned=seat in resigned,
            **engine.result_fields(result, seat),
        )
        for seat, player_id in enumerate(game.players)
    )
    record_game(game.game, game.options, rows)
    hooks.game_finished(table, game.pk, rows)
