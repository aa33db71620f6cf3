"""Finished games rebuilt from their deal and move log: replay steps and the game record.

Nothing per move is stored but the move itself (games.models.Move). A replay
deals again from the game's seed and options and applies the logged moves
through the engine, so every step's state is the engine's own; a record that
no longer replays (a changed engine, an edited row) is refused, never guessed.
Moves the rules made by themselves (passes) are logged after the
move that caused them: applying that move makes them again, so they belong to
its step.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from club.bots import bot_fields
from club.models import Player
from games import hooks, registry
from games.i18n import lazy_format
from games.models import Game
from games.services.common import ServiceError

# Bumped only for a change that outside readers of the record must notice.
RECORD_FORMAT = "card-club-game-record"
RECORD_VERSION = 1


def finished_game(game_id: int, player: Player | None, invite: str | None = None) -> Game:
    """A finished game the viewer may see (Game.objects.visible_to), else a ServiceError.

    Games at private tables answer like missing ones ("not_found"), so ids
    reveal nothing; a game still being played has no replay yet.
    """
    visible = Game.objects.visible_to(player, invite).select_related("table__variant")
    game = visible.filter(pk=game_id).first()
    if game is None:
        raise ServiceError("not_found", _("There is no such game."))
    if game.result is None:
        raise ServiceError(
            "not_finished", _("This game has not finished: its replay opens when it ends.")
        )
    return game


def _players(game: Game) -> list[dict]:
    players = {p.pk: p for p in Player.objects.filter(pk__in=game.players)}
    seats = []
    for seat, pk in enumerate(game.players):
        player = players.get(pk)
        seats.append(
            {
                "seat": seat,
                "player": pk,
                "name": player.display_name if player else "?",
                "bot": bool(player and player.bot_level),
                **(bot_fields(player.display_name, player.bot_level) if player else {}),
            }
        )
    return seats


def _rebuild(game: Game) -> tuple[registry.Engine, list[tuple[dict, Any]]]:
    """The engine and, per step, (the step without its view, the state after it).

    Step 0 is the deal. Each later step is one move a seat chose, with the
    automatic actions it caused (``caused``: their Move rows).
    """
    engine = registry.engine(game.game)
    rows = list(game.moves.order_by("number").values_list("number", "seat", "move", "auto"))
    try:
        state = engine.deal(len(game.players), game.seed, engine.options(game.options))
    except (TypeError, ValueError) as exc:
        raise _unreplayable(f"the deal failed ({exc})") from None
    steps: list[tuple[dict, Any]] = [
        ({"step": 0, "n": None, "seat": None, "move": None, "auto": False}, state)
    ]
    i = 0
    while i < len(rows):
        number, seat, move, auto = rows[i]
        try:
            state, actions = engine.apply(state, seat, move)
        except engine.IllegalMove as exc:
            raise _unreplayable(f"move {number} ({move}) is refused: {exc}") from None
        caused = rows[i + 1 : i + len(actions)]
        if [(s, m) for _, s, m, _ in caused] != [tuple(a) for a in actions[1:]]:
            raise _unreplayable(f"the moves after move {number} are not the ones it causes")
        step = {"step": len(steps), "n": number, "seat": seat, "move": move, "auto": auto}
        if caused:
            step["caused"] = [{"n": n, "seat": s, "move": m} for n, s, m, _ in caused]
        steps.append((step, state))
        i += len(actions)
    if engine.to_json(state) != game.state:
        raise _unreplayable("the moves do not lead to the stored end of the game")
    return engine, steps


def _unreplayable(why: str) -> ServiceError:
    return ServiceError(
        "unreplayable",
        lazy_format(_("This game's record cannot be replayed: %(why)s."), why=why),
    )


def _result(engine: registry.Engine, game: Game, state: Any) -> dict:
    """The engine's result of the end state under the recorded one (with resignations)."""
    view = engine.view(state, None)
    return {**(view.get("result") or {}), **game.result}


def replay(game: Game) -> dict:
    """Every step of a finished game with a full-information view (hidden cards included).

    Only for finished games (see `finished_game`): while a game runs, views
    come from `project()` and hide what the seats may not see.
    """
    engine, steps = _rebuild(game)
    full_view = engine.replay_view or (lambda state: engine.view(state, None))
    return {
        "game": engine.key,
        "id": game.pk,
        "variant": game.table.variant.name,
        "options": game.options,
        "players": _players(game),
        "result": _result(engine, game, steps[-1][1]),
        "steps": [{**step, "view": full_view(state)} for step, state in steps],
    }


def record(game: Game) -> dict:
    """The game record: everything needed to deal and play the game again (docs/PROTOCOL.md)."""
    engine, steps = _rebuild(game)
    forced = {c["n"] for step, _ in steps for c in step.get("caused", [])}
    rows = game.moves.order_by("number").values_list("number", "seat", "move", "auto")
    first = steps[0][1]
    table = game.table
    seed, deal = game.seed, engine.to_json(first)
    if hooks.deal_withheld(table):
        # A duplicate board while its round is open: the seed deals the whole game (later
        # rounds, the stock), more than the game showed; it stays secret until then.
        seed = None
        if "seed" in deal:
            deal = {**deal, "seed": None}
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "id": game.pk,
        "game": engine.key,
        "variant": table.variant.name,
        "options": game.options,
        "table": table.pk,
        "number": game.number,
        "series": table.series.name if table.series_id else None,
        "started": game.started.isoformat(),
        "finished": game.finished.isoformat() if game.finished else None,
        "players": _players(game),
        "seed": seed,
        "deal": deal,
        "moves": [
            {"n": n, "seat": seat, "move": move, "auto": auto, "forced": n in forced}
            for n, seat, move, auto in rows
        ],
        "resigned": list(game.resigned),
        "result": game.result,
    }


def seat_record(game: Game, seat: int) -> dict:
    """A game as one seat saw it (a member's data export, club.export): the deal and the
    last state through the engine's `view` for that seat (the one projection: no other
    seat's hidden cards, except what the rules turn up at the end), and the moves.

    Unlike `record`, no seed and no whole deal: they would show every hand. Works for a
    running game too (its last state is the current one).
    """
    engine, steps = _rebuild(game)
    end = steps[-1][1]
    moves = [
        {"n": n, "seat": mover, "move": move, "auto": auto}
        for n, mover, move, auto in game.moves.order_by("number").values_list(
            "number", "seat", "move", "auto"
        )
    ]
    # A move this seat may not see yet (a card picked face down while others still
    # choose: registry.Engine.hidden_moves) is shown as None, as the table shows it.
    hidden = engine.hidden_entries(end, seat, [m["seat"] for m in moves])
    moves = [{**m, "move": None} if i in hidden else m for i, m in enumerate(moves)]
    return {
        "id": game.pk,
        "game": engine.key,
        "variant": game.table.variant.name,
        "options": game.options,
        "table": game.table_id,
        "number": game.number,
        "series": game.table.series.name if game.table.series_id else None,
        "started": game.started.isoformat(),
        "finished": game.finished.isoformat() if game.finished else None,
        "seat": seat,
        "players": _players(game),
        "moves": moves,
        "start": engine.view(steps[0][1], seat),
        "end": engine.view(end, seat),
        "resigned": list(game.resigned),
        "result": game.result,
    }
