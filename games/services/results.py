"""Results: one GameResult per seat, written with the game's last move."""

from __future__ import annotations

from club.models import GameResult
from club.standings import half_points
from games.models import Game, Table


def _record_results(table: Table, game: Game) -> None:
    """One GameResult per seat, in the transaction that finishes the game."""
    result = game.result
    places = result["places"]
    out = result["out"]
    GameResult.objects.bulk_create(
        GameResult(
            game=game,
            series_id=table.series_id,
            player_id=player_id,
            seat=seat,
            players=len(places),
            place=places[seat],
            cards_left=result["cards_left"][seat],
            card_points=result["points"][seat],
            passes=result["passes"][seat],
            out_position=out.index(seat) + 1 if seat in out else None,
            lost=result.get("loser") == seat,
            half_points=half_points(places[seat], places),
            finished=game.finished,
        )
        for seat, player_id in enumerate(game.players)
    )
