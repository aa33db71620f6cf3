"""Who is at a table: one Presence row per open connection of a seated member.

A row is only as good as its last refresh: the process serving the socket
vouches for it while the socket's handler is alive (games/runner.py), and a
row nobody vouched for within the stale time expires, making its seat away.
A table deleted under its sockets is not an error: there is nothing to track.
"""

from __future__ import annotations

import datetime
import os
import socket
import uuid
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from games import registry
from games.models import Presence, Seat, Table
from games.services.clock import earliest_deadline
from games.services.common import (
    ServiceError,
    current_game,
    locked_table,
)

# Which process holds a presence row: a crashed process's rows go stale.
SERVER_ID = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


def seat_connected(table_id: int, player_id: int, channel: str) -> None:
    """A seated member opened a connection: they are here (and take their seat back)."""
    if not Seat.objects.filter(table_id=table_id, player_id=player_id, is_bot=False).exists():
        return  # a watcher: nothing to track (and no lock taken for them)
    with transaction.atomic():
        # Locked like a move, so the deadline below cannot race a move.
        table = _table_or_none(table_id)
        if table is None:
            return  # deleted since the seat was looked up
        # Read again under the table's lock: the member may have left meanwhile
        # (on PostgreSQL, a presence row for a deleted seat fails at commit).
        seat = Seat.objects.filter(table_id=table_id, player_id=player_id, is_bot=False).first()
        if seat is None:
            return
        Presence.objects.update_or_create(
            channel=channel, defaults={"seat": seat, "server": SERVER_ID, "seen": timezone.now()}
        )
        if seat.away_since is not None:
            seat.away_since = None
            seat.save(update_fields=["away_since"])
            _reschedule(table, seat)


def away_unless_here(table_id: int) -> None:
    """The table's seated members with no connection open are away from now on: for a table
    the club seated them at without their asking (a club night's), which some may never
    open. As for a member who left, the house plays their turns once AWAY_GRACE_SECONDS
    have passed, until they open the table (`seat_connected`)."""
    with transaction.atomic():
        table = _table_or_none(table_id)
        if table is None:
            return
        now = timezone.now()
        # In a few statements whatever the table's size: a club night deals its tables
        # one after another while other tables play, each holding the write lock.
        gone = list(
            table.seats.filter(is_bot=False, away_since__isnull=True, presences__isnull=True)
        )
        if not gone:
            return
        Seat.objects.filter(pk__in=[seat.pk for seat in gone]).update(away_since=now)
        for seat in gone:
            seat.away_since = now
        _reschedule(table, *gone)


def seat_disconnected(table_id: int, channel: str) -> None:
    """A connection closed: its seat is away if it was the member's last one."""
    if not Presence.objects.filter(channel=channel).exists():
        return  # a watcher, or already expired, or its table was deleted
    with transaction.atomic():
        table = _table_or_none(table_id)
        if table is None:
            return  # the table was deleted while its sockets closed
        # Read under the table's lock, so a concurrent delete cannot fall between.
        presence = Presence.objects.filter(channel=channel).select_related("seat").first()
        if presence is not None and Presence.objects.filter(pk=presence.pk).delete()[0]:
            _mark_away_if_gone(table, presence.seat, timezone.now())


def refresh_presence(stale_after: datetime.timedelta, channels: Iterable[str] | None = None) -> int:
    """Vouch for this process's live connections; expire rows nobody vouched for.

    `channels`: the sockets whose handler is alive in this process (the
    runner passes them); only their rows are refreshed, so a handler that
    died without closing stops being vouched for. None vouches for every row
    of this process (for callers without a registry). Returns how many rows
    expired.
    """
    now = timezone.now()
    mine = Presence.objects.filter(server=SERVER_ID)
    if channels is None:
        mine.update(seen=now)
    else:
        live = list(channels)
        for start in range(0, len(live), 500):  # under SQLite's bound-parameter limit
            mine.filter(channel__in=live[start : start + 500]).update(seen=now)
    expired = 0
    for presence in Presence.objects.filter(seen__lt=now - stale_after).select_related("seat"):
        with transaction.atomic():
            table = _table_or_none(presence.seat.table_id)
            if table is None:
                continue  # deleted meanwhile, its rows with it
            if Presence.objects.filter(pk=presence.pk).delete()[0]:
                _mark_away_if_gone(table, presence.seat, presence.seen)
                expired += 1
    return expired


def _table_or_none(table_id: int) -> Table | None:
    """The table, locked; None if it was deleted."""
    try:
        return locked_table(table_id)
    except ServiceError as exc:
        if exc.code == "not_found":
            return None
        raise


def _mark_away_if_gone(table: Table, seat: Seat, since: datetime.datetime) -> None:
    seat.refresh_from_db(fields=["away_since"])
    if seat.away_since is None and not seat.presences.exists():
        seat.away_since = since
        seat.save(update_fields=["away_since"])
        _reschedule(table, seat)


def _reschedule(table: Table, *changed: Seat) -> None:
    """These seats' presence changed: move the deadline if one of them may act now."""
    game = current_game(table)
    if table.status != Table.Status.PLAYING or game is None or table.turn_started is None:
        return
    engine = registry.engine(game.game)
    actors = engine.actors(engine.from_json(game.state))
    if any(seat.position in actors for seat in changed):
        seats = {s.position: s for s in table.seats.all()}
        seats.update((seat.position, seat) for seat in changed)
        table.turn_deadline = earliest_deadline(table, [seats[a] for a in actors])
        table.save(update_fields=["turn_deadline"])
