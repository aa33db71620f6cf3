"""Results: one GameResult per seat, written with the game's last move."""

from __future__ import annotations

from club.models import GameResult, Player
from club.standings import half_points
from games import hooks, registry
from games.models import Game, Seat, Table
from games.services.rows import insert_instances


def record_results(table: Table, game: Game, seats: list[Seat] | None = None) -> None:
    """One GameResult per seat, in the transaction that finishes the game; the results'
    listeners (games.hooks.results_released: the ratings) in it too.

    `seats`: the table's seats with their members, when the caller holds them (which
    of the players are house bots is read from them instead of asked again).
    """
    result = game.result
    places = result["places"]
    engine = registry.engine(game.game)
    resigned = set(game.resigned)
    rows = [
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
    ]
    insert_instances(rows)
    if not hooks.deal_withheld(table):
        # A withheld game (a duplicate board of an open round) is released when its
        # round closes (rate_games): its rating change would tell how the board went.
        hooks.results_released(game.game, game.options, rows)
    hooks.game_finished(table, game.pk, rows)
    if not hooks.has_listeners():
        return
    if seats is not None:
        bots = {s.player_id for s in seats if s.player.is_bot}
    else:
        bots = set(Player.objects.bots().filter(pk__in=game.players).values_list("pk", flat=True))
    hooks.emit(
        hooks.Event(
            "game_finished",
            tuple(p for p in game.players if p not in bots),
            table_id=table.pk,
            game_id=game.pk,
            data={
                "pace": table.pace,
                "private": table.private,
                "series_id": table.series_id,
                "players": list(game.players),
                "places": list(places),
                "resigned": sorted(resigned),
            },
        )
    )


def rate_games(game_ids: list[int]) -> int:
    """Release these finished games' results now, in the order given (the order they
    finished), each as if it had been released when it finished. How many.

    For the games a rule withheld until now (games.hooks.deal_withheld): the duplicate
    app calls it in the transaction that closes a round. A game released twice is told
    twice: the results' listeners leave alone a game they already counted (the ratings:
    a rated one).
    """
    results: dict[int, list[GameResult]] = {}
    for row in GameResult.objects.filter(game_id__in=game_ids).select_related("game"):
        results.setdefault(row.game_id, []).append(row)
    count = 0
    for game_id in game_ids:
        rows = sorted(results.get(game_id, ()), key=lambda row: row.seat)
        if rows:
            hooks.results_released(rows[0].game.game, rows[0].game.options, rows)
            count += 1
    return count
