"""Who is at a table: one Presence row per open connection of a seated member."""

from __future__ import annotations

import datetime
import os
import socket
import uuid

from django.db import transaction
from django.utils import timezone

from games import registry
from games.models import Presence, Seat, Table
from games.services.clock import _deadline
from games.services.common import (
    _locked_table,
    current_game,
)

# Which process holds a presence row: a crashed process's rows go stale.
SERVER_ID = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


def seat_connected(table_id: int, player_id: int, channel: str) -> None:
    """A seated member opened a connection: they are here (and take their seat back)."""
    seat = Seat.objects.filter(table_id=table_id, player_id=player_id, is_bot=False).first()
    if seat is None:
        return  # a watcher: nothing to track
    with transaction.atomic():
        # Locked like a move, so the deadline below cannot race a move.
        table = _locked_table(table_id)
        Presence.objects.update_or_create(
            channel=channel, defaults={"seat": seat, "server": SERVER_ID, "seen": timezone.now()}
        )
        if seat.away_since is not None:
            seat.away_since = None
            seat.save(update_fields=["away_since"])
            _reschedule(table, seat)


def seat_disconnected(table_id: int, channel: str) -> None:
    presence = Presence.objects.filter(channel=channel).select_related("seat").first()
    if presence is None:
        return
    with transaction.atomic():
        table = _locked_table(table_id)
        if Presence.objects.filter(pk=presence.pk).delete()[0]:
            _mark_away_if_gone(table, presence.seat, timezone.now())


def refresh_presence(stale_after: datetime.timedelta) -> int:
    """Vouch for this process's connections; expire rows no live process vouches for."""
    now = timezone.now()
    Presence.objects.filter(server=SERVER_ID).update(seen=now)
    expired = 0
    for presence in Presence.objects.filter(seen__lt=now - stale_after).select_related("seat"):
        with transaction.atomic():
            table = _locked_table(presence.seat.table_id)
            if Presence.objects.filter(pk=presence.pk).delete()[0]:
                _mark_away_if_gone(table, presence.seat, presence.seen)
                expired += 1
    return expired


def _mark_away_if_gone(table: Table, seat: Seat, since: datetime.datetime) -> None:
    seat.refresh_from_db(fields=["away_since"])
    if seat.away_since is None and not seat.presences.exists():
        seat.away_since = since
        seat.save(update_fields=["away_since"])
        _reschedule(table, seat)


def _reschedule(table: Table, seat: Seat) -> None:
    """The seat's presence changed: move the deadline if it is that seat's turn."""
    game = current_game(table)
    if table.status != Table.Status.PLAYING or game is None or table.turn_started is None:
        return
    state = registry.engine(game.game).from_json(game.state)
    if state.to_move == seat.position:
        table.turn_deadline = _deadline(table, seat)
        table.save(update_fields=["turn_deadline"])
