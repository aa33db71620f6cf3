"""One move, in one transaction, all or nothing."""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import registry
from games.i18n import lazy_format, rule_message
from games.models import Game, Move, Seat, Table
from games.services import kept, pace
from games.services.clock import changed
from games.services.common import (
    Broadcast,
    ServiceError,
    commit_in_pipeline,
    game_state,
    insert_rows,
    leave_pipeline,
    locked_table_game_seats,
    pipelined,
    remember_state,
    save_fields,
)
from games.services.results import record_results


@transaction.atomic
def play_move(player_id: int, table_id: int, move: str, version: int) -> Broadcast:
    """Apply one member's move, with the automatic passes it causes, all or nothing."""
    # One pipeline from the lock to the commit (rows.pipelined): two round trips a move.
    with pipelined():
        table, game, seats = locked_table_game_seats(table_id)
        if table.status == Table.Status.OPEN or game is None:
            raise ServiceError("not_started", _("The game at this table has not started yet."))
        seat = game.players.index(player_id) if player_id in game.players else None
        if seat is None:
            raise ServiceError("not_seated", _("Only the players seated at this table can move."))
        mine = seats[seat]
        if mine.resigned_at is not None:
            raise ServiceError(
                "resigned", _("You left this game; the house plays your seat to the end.")
            )
        pace.refuse_if_kept(table, mine)
        if mine.handed_over:
            # Playing is acting: the member takes the seat back from the house.
            mine.handed_over = False
            save_fields(mine, "handed_over")
        if mine.missed:
            mine.missed = 0  # a move of their own: the missed moves in a row start again
            save_fields(mine, "missed")
        broadcast = apply_move(table, game, seat, move, version, auto=False, seats=seats, last=True)
    kept.keep(table, game, seats)  # reads what the seal answered: no statement
    return broadcast


def apply_move(
    table: Table,
    game: Game,
    seat: int,
    move: str,
    version: int,
    auto: bool,
    seats: list[Seat] | None = None,
    last: bool = False,
) -> Broadcast:
    """Apply a seat's move at a locked table (a member's, or the house's with auto=True).

    `last`: the caller writes nothing more in its transaction, so on PostgreSQL the
    transaction's commit may ride in the move's last round trip."""
    if table.status != Table.Status.PLAYING:
        raise ServiceError("game_over", _("This game is over."))
    engine = registry.engine(game.game)
    state = game_state(engine, game)
    if version != table.version and not _same_simultaneous_phase(game, version, table.version):
        raise ServiceError(
            "stale_version",
            _("The table moved on since you saw it; here is the current state."),
            version=table.version,
        )
    if not engine.is_move(move):
        code, message = engine.not_a_move
        raise ServiceError(code, lazy_format(message, move=repr(move[:16])))
    before = engine.actors(state)
    if seat not in before:
        raise ServiceError("not_your_turn", _("It is not your turn."))
    try:
        state, actions = engine.apply(state, seat, move)
    except engine.IllegalMove as exc:
        # The engine's own words, by message id, in the reader's language.
        raise ServiceError("illegal_move", rule_message(exc)) from None

    first = game.version + 1
    events = [
        {"n": first + i, "seat": acting_seat, "move": action, "auto": auto and i == 0}
        for i, (acting_seat, action) in enumerate(actions)
    ]
    now = timezone.now()
    rows = [(game.pk, e["n"], e["seat"], e["move"], e["auto"], now) for e in events]
    game.state = engine.to_json(state)
    remember_state(engine, game, state)
    game.version += len(events)
    fields = ["state", "version"]
    since = game.simultaneous_since
    game.simultaneous_since = (since or table.version + 1) if engine.simultaneous(state) else None
    if game.simultaneous_since != since:
        fields.append("simultaneous_since")
    finished = state.over
    if finished:
        game.result = engine.resign_result(engine.result(state), game.resigned)
        game.finished = timezone.now()
        fields += ["result", "finished"]
        table.status = Table.Status.FINISHED
    # Whom the turn passed to: seats that could not act before, and the mover again
    # when the turn went round (others moved after it: passes the rules made).
    after = set(engine.actors(state))
    turn_to = after - set(before)
    others_acted = any(acting != seat for acting, _action in actions)
    if others_acted:
        turn_to.add(seat)
    # The mover acts again and nobody else acted: the engine says this seat's turn
    # goes on (a draw, then where to put the card), so it is one move on the clock.
    continues = seat in after and not others_acted
    described = partial(
        changed,
        table,
        game,
        lobby=finished,
        events=events,
        state=state,
        seats=seats,
        turn_to=turn_to,
        turn_goes_on=continues,
    )
    # The move's rows, the game's and (in `changed`) the table's, and the check of the
    # rows to keep: one round trip on PostgreSQL. `changed` only reads (a read waits for what was sent before it);
    # a game's end saves through the ORM, which needs each write's row count back,
    # so it comes after the pipeline.
    with pipelined():
        insert_rows(Move, ["game", "number", "seat", "move", "auto", "created"], rows)
        save_fields(game, *fields)
        if not finished:
            broadcast = described()
            kept.seal()  # the move's last statement: its kept rows' check
            if last:
                commit_in_pipeline()
            return broadcast
    leave_pipeline()  # a game's end saves through the ORM
    record_results(table, game, seats)
    return described()


def _same_simultaneous_phase(game: Game, version: int, current: int) -> bool:
    """A move made against an older version of a phase everyone plays at once still counts.

    The engine still judges it: a double click is refused because the seat no
    longer has that move (a card already turned up, a seat already ready).
    """
    since = game.simultaneous_since
    return since is not None and since <= version < current
