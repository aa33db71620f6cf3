"""Every change at a table: bump the version, restart the turn clock, describe the change."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import paces, registry
from games.models import Game, Seat, Table
from games.services import pace
from games.services.common import (
    Broadcast,
    save_fields,
    table_seats,
)
from games.services.snapshots import snapshot


def changed(
    table: Table,
    game: Game | None,
    lobby: bool,
    events: list[dict] | None = None,
    state: Any = None,
    seats: list[Seat] | None = None,
    turn_to: set[int] | None = None,
    started: bool = False,
    turn_goes_on: bool = False,
) -> Broadcast:
    """Every change at a table ends here: bump the version, restart the clock, describe it.

    `turn_to`: the seats the turn just passed to (a move); `started`: a new deal.
    Members among them are told (games.hooks events, delivered on commit).
    `turn_goes_on`: the mover acts again and nobody else acted (one turn made of
    several actions): at a turn-based table its clock keeps running from the
    turn's start, so "a move" is the whole turn, as the member reads the pace.
    """
    seats = table_seats(table) if seats is None else seats
    keep = turn_goes_on and paces.is_turn_based(table.pace)
    actors = _schedule(table, game, seats, state, keep_start=keep)
    if game is not None and table.status == Table.Status.PLAYING:
        if started:
            pace.emit_started(table, game, seats)
            turn_to = set(actors)
        if turn_to:
            pace.emit_turns(table, game, seats, sorted(turn_to & set(actors)), table.turn_deadline)
    table.version += 1
    table.updated = timezone.now()
    save_fields(table, "version", "status", "updated", "turn_started", "turn_deadline")
    data = snapshot(table, game, seats, state=state)
    data["events"] = events or []
    return Broadcast(table.pk, data, lobby=lobby, events=events or [])


def _schedule(
    table: Table,
    game: Game | None,
    seats: list[Seat],
    state: Any = None,
    keep_start: bool = False,
) -> list[int]:
    """Start the clock on the seat to move: when will the house play for it? Its actors.

    `keep_start`: the same turn goes on, its clock is not started again.
    """
    kept = table.turn_started if keep_start else None
    table.turn_started = table.turn_deadline = None
    if table.status != Table.Status.PLAYING or game is None:
        return []
    engine = registry.engine(game.game)
    if state is None:
        state = engine.from_json(game.state)
    actors = engine.actors(state)
    if not actors:
        return []
    table.turn_started = kept or timezone.now()
    table.turn_deadline = earliest_deadline(table, [seats[seat] for seat in actors])
    return list(actors)


def earliest_deadline(table: Table, actors: list[Seat]) -> datetime.datetime | None:
    """When the house plays for the first of the seats that may act now, if ever.

    Usually one seat (the one to move); in a phase everyone plays at once (a reveal
    phase) the clock covers every seat that has not acted yet.
    """
    away = None
    if paces.is_turn_based(table.pace) and table.turn_started is not None:
        # One query for every member who may act (their declared away days).
        away = pace.absences(
            [s.player_id for s in actors if pace.is_member_turn(s)], table.turn_started, table
        )
    deadlines = [
        d
        for seat in actors
        if (d := seat_deadline(table, seat, None if away is None else away.get(seat.player_id, [])))
        is not None
    ]
    return min(deadlines, default=None)


def seat_deadline(
    table: Table, seat: Seat, away: list[pace.Interval] | None = None
) -> datetime.datetime | None:
    """When the house plays for this seat on the current turn (None: it waits for the member).

    At a turn-based table a member's time is the pace, stopped while they are away
    (`away`: their away stretches, read when not given); whether they are connected
    does not matter there.
    """
    started = table.turn_started
    bot_delay = datetime.timedelta(seconds=settings.BOT_DELAY_SECONDS)
    if seat.is_bot or seat.handed_over or seat.resigned_at is not None:
        return started + bot_delay
    if paces.is_turn_based(table.pace):
        return pace.member_deadline(table, seat, away)
    candidates = []
    if table.variant.turn_seconds:
        candidates.append(started + datetime.timedelta(seconds=table.variant.turn_seconds))
    if seat.away_since is not None:
        grace = datetime.timedelta(seconds=settings.AWAY_GRACE_SECONDS)
        candidates.append(max(started + bot_delay, seat.away_since + grace))
    return min(candidates) if candidates else None
