"""The house plays due turns: bots, timed-out turns and absent members."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import registry
from games.models import Game, Table
from games.services import kept, pace
from games.services.clock import seat_deadline
from games.services.common import (
    Broadcast,
    current_game,
    locked_table,
    locked_table_game_seats,
    pipelined,
    table_seats,
)
from games.services.moves import apply_move


def due_tables(limit: int = 20) -> list[int]:
    """Tables whose current turn the house should play now."""
    return list(
        Table.objects.filter(status=Table.Status.PLAYING, turn_deadline__lte=timezone.now())
        .order_by("turn_deadline")
        .values_list("pk", flat=True)[:limit]
    )


@dataclass
class AutoTurn:
    """Everything a house bot may know when it plays a turn: one seat's view + history."""

    table_id: int
    version: int
    seat: int
    level: str
    game: str
    view: dict
    history: list[tuple[int, str]]
    seed: int


def automatic_turn(table_id: int) -> AutoTurn | None:
    table = Table.objects.select_related("variant").filter(pk=table_id).first()
    now = timezone.now()
    if table is None or table.status != Table.Status.PLAYING:
        return None
    if table.turn_deadline is None or table.turn_deadline > now:
        return None
    game = current_game(table)
    engine = registry.engine(game.game)
    state = engine.from_json(game.state)
    seats = {s.position: s for s in table.seats.select_related("player")}
    # The first seat that may act and whose own time is up (usually the one to move).
    due = [
        a
        for a in engine.actors(state)
        if (d := seat_deadline(table, seats[a])) is not None and d <= now
    ]
    if not due:
        return None
    seat = seats[due[0]]
    level = seat.player.bot_level if seat.is_bot else settings.HOUSE_STAND_IN_LEVEL
    history = list(game.moves.order_by("number").values_list("seat", "move"))
    return AutoTurn(
        table_id=table.pk,
        version=table.version,
        seat=seat.position,
        level=level,
        game=game.game,
        view=engine.view(state, seat.position),
        history=public_history(engine, state, seat.position, history),
        seed=(game.seed + table.version) % (2**31),
    )


def public_history(engine: registry.Engine, state: Any, seat: int, history: list) -> list:
    """A game's (seat, move) pairs as `seat` may know them (hidden moves as None)."""
    hidden = engine.hidden_entries(state, seat, [mover for mover, _ in history])
    if not hidden:
        return history
    return [
        (mover, None) if i in hidden else (mover, move) for i, (mover, move) in enumerate(history)
    ]


def choose_automatic_move(turn: AutoTurn) -> str:
    """Pure computation, no database: run it off the database thread."""
    engine = registry.engine(turn.game)
    return engine.choose_move(
        turn.level, turn.view, turn.history, turn.seed, settings.BOT_SEARCH_BUDGET_MS
    )


@transaction.atomic
def play_automatic(turn: AutoTurn, move: str) -> Broadcast | None:
    """Play the house's move unless the table moved on (the lock decides between processes)."""
    # One pipeline from the lock to the commit, as a member's move (games.services.moves).
    with pipelined():
        table, game, seats = locked_table_game_seats(turn.table_id)
        if table.version != turn.version or table.status != Table.Status.PLAYING:
            return None  # the player, or another server process, moved first
        if table.turn_deadline is None or table.turn_deadline > timezone.now():
            return None  # the player came back in the meantime
        # A member's time ran out at a turn-based table: one more missed turn in a row,
        # unless the house already played an earlier action of this same turn.
        same_turn = _house_began_turn(game, turn.seat)
        pace.missed_move(table, seats[turn.seat], game, same_turn=same_turn)
        broadcast = apply_move(
            table, game, turn.seat, move, turn.version, auto=True, seats=seats, last=True
        )
    kept.keep(table, game, seats)  # reads what the seal answered: no statement
    return broadcast


def _house_began_turn(game: Game, seat: int) -> bool:
    """The house played the game's last action, for this seat: the turn it is in.

    The turn stays with a seat only while nobody else acts (`changed`'s
    `turn_goes_on`), so the last recorded action tells whether this seat is
    still in a turn the house already began (and counted as missed).
    """
    last = game.moves.order_by("-number").values_list("seat", "auto").first()
    return last is not None and last == (seat, True)


@transaction.atomic
def play_out(table_id: int) -> Broadcast | None:
    """The house plays every remaining turn of a table's game now, from where it stopped.

    For an event that ends at a fixed time (a duplicate round closing): each
    bot seat plays at its own level, each member's seat at the stand-in level,
    exactly as the runner would, only without waiting. None if nothing was left.
    """
    table = locked_table(table_id)
    if table.status != Table.Status.PLAYING:
        return None
    game = current_game(table)
    engine = registry.engine(game.game)
    seats = table_seats(table)
    history = list(game.moves.order_by("number").values_list("seat", "move"))
    update = None
    while table.status == Table.Status.PLAYING:
        state = engine.from_json(game.state)
        seat = seats[engine.actors(state)[0]]
        level = seat.player.bot_level if seat.is_bot else settings.HOUSE_STAND_IN_LEVEL
        move = engine.choose_move(
            level,
            engine.view(state, seat.position),
            public_history(engine, state, seat.position, history),
            (game.seed + table.version) % (2**31),
            settings.BOT_SEARCH_BUDGET_MS,
        )
        update = apply_move(table, game, seat.position, move, table.version, auto=True, seats=seats)
        history.extend((e["seat"], e["move"]) for e in update.events)
    return update
