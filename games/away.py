"""Away days: a member declares an absence; the clocks of their turn-based tables stop.

An absence covers whole days, from its first day at 00:00 to the day after its
last at 00:00, in the club's time zone (TIME_ZONE). A member may declare up to
AWAY_DAYS_PER_YEAR days in each calendar year, from today on, without overlaps.
Every day an absence touches counts, also the day one under way is withdrawn on
(it then ends at that moment): the days counted always cover the time the clocks
stood still, so declaring and withdrawing cannot stop a clock for free.
The deadline of a turn at a turn-based table is computed from the turn's start,
the pace and the away stretches it overlaps (games.services.pace), so declaring
or withdrawing an absence only recomputes the deadlines of the member's running
turn-based tables (and tells their sockets, so the other players see "away
until"). When an absence ends, the house runner's duty `tell_returns` tells
those tables' sockets once (the deadlines already counted the return); one
that ended while no process ran is told at the first pass after the start.
Live tables are not touched.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Player
from games import paces, registry
from games.i18n import lazy_format
from games.models import Absence, Seat, Table
from games.services import Broadcast, ServiceError, current_game, snapshot
from games.services.clock import earliest_deadline
from games.services.common import locked_table, save_fields, table_seats
from games.services.pace import lock_player

# How far ahead an absence may be declared.
HORIZON_DAYS = 366
_ONE_DAY = datetime.timedelta(days=1)
_TICK = datetime.timedelta(microseconds=1)


def _midnight(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time()))


def first_day(absence: Absence) -> datetime.date:
    return timezone.localtime(absence.starts).date()


def last_day(absence: Absence) -> datetime.date:
    """The last day the absence touches. A declared absence ends at a midnight (the day
    after its last); one withdrawn while under way ends at that moment, and the day it
    was withdrawn on counts: the clocks stood still during part of it (issue 42)."""
    return timezone.localtime(absence.ends - _TICK).date()


def days_in_year(player: Player, year: int) -> int:
    """Away days the member declared that fall in calendar year `year`."""
    begins, ends = datetime.date(year, 1, 1), datetime.date(year, 12, 31)
    used = 0
    for absence in Absence.objects.filter(
        player=player, ends__gt=_midnight(begins), starts__lt=_midnight(ends + _ONE_DAY)
    ):
        first, last = max(first_day(absence), begins), min(last_day(absence), ends)
        used += max(0, (last - first).days + 1)
    return used


def upcoming(player: Player) -> list[Absence]:
    """The member's absences not over yet, soonest first."""
    return list(Absence.objects.filter(player=player, ends__gt=timezone.now()).order_by("starts"))


def declare(
    player: Player, first: datetime.date, last: datetime.date
) -> tuple[Absence, list[Broadcast]]:
    """Declare days away (both dates included); ServiceError says what is wrong."""
    today = timezone.localdate()
    if last < first:
        raise ServiceError("bad_dates", _("The last day away cannot be before the first."))
    if first < today:
        raise ServiceError("bad_dates", _("Away days start today or later."))
    if first > today + datetime.timedelta(days=HORIZON_DAYS):
        raise ServiceError("bad_dates", _("Away days can be declared up to a year ahead."))
    with transaction.atomic():
        lock_player(player.pk)  # two forms sent at once are counted one after the other
        starts, ends = _midnight(first), _midnight(last + _ONE_DAY)
        if Absence.objects.filter(player=player, starts__lt=ends, ends__gt=starts).exists():
            raise ServiceError("overlap", _("These days overlap days away you already declared."))
        allowed = settings.AWAY_DAYS_PER_YEAR
        for year in range(first.year, last.year + 1):
            span_first = max(first, datetime.date(year, 1, 1))
            span_last = min(last, datetime.date(year, 12, 31))
            asked = (span_last - span_first).days + 1
            used = days_in_year(player, year)
            if used + asked > allowed:
                raise ServiceError(
                    "too_many_days",
                    lazy_format(
                        _(
                            "A member may be away %(allowed)d days a year; in %(year)d you "
                            "have %(left)d left."
                        ),
                        allowed=allowed,
                        year=year,
                        left=max(0, allowed - used),
                    ),
                )
        absence = Absence.objects.create(player=player, starts=starts, ends=ends)
    return absence, retime_tables(player.pk)


def withdraw(player: Player, absence_id: int) -> list[Broadcast]:
    """Withdraw an absence: one not begun goes; one under way ends now (the time already
    away stays away: no deadline jumps into the past, and every day it touched stays
    counted against AWAY_DAYS_PER_YEAR)."""
    with transaction.atomic():
        lock_player(player.pk)
        absence = Absence.objects.filter(player=player, pk=absence_id).first()
        now = timezone.now()
        if absence is None or absence.ends <= now:
            raise ServiceError("not_found", _("There are no such days away."))
        if absence.starts < now:
            # The days it touched stay counted (`last_day`), as the time stays credited.
            absence.ends = now
            absence.told_back = True  # the tables are told here and now
            absence.save(update_fields=["ends", "told_back"])
        else:
            absence.delete()
    return retime_tables(player.pk)


def tell_returns() -> list[Broadcast]:
    """House duty: members whose away days ended are back; tell their tables, once.

    One query finds them; each absence is claimed by a conditional update, so two
    processes running the duty at once tell each table once.
    """
    now = timezone.now()
    ended = list(
        Absence.objects.filter(told_back=False, ends__lte=now).values_list("pk", "player_id")
    )
    updates: list[Broadcast] = []
    for absence_id, player_id in ended:
        if Absence.objects.filter(pk=absence_id, told_back=False).update(told_back=True):
            updates += retime_tables(player_id)
    return updates


def retime_tables(player_id: int) -> list[Broadcast]:
    """The member's away days changed: recompute the deadlines at their turn-based tables."""
    table_ids = list(
        Seat.objects.filter(player_id=player_id, is_bot=False)
        .exclude(table__pace=paces.LIVE)
        .filter(table__status__in=[Table.Status.OPEN, Table.Status.PLAYING])
        .values_list("table_id", flat=True)
    )
    return [update for table_id in table_ids if (update := _retime(table_id)) is not None]


@transaction.atomic
def _retime(table_id: int) -> Broadcast | None:
    """A new deadline for the table's current turn (its start unchanged), told to its sockets."""
    try:
        table = locked_table(table_id)
    except ServiceError:
        return None  # deleted meanwhile
    seats = table_seats(table)
    game = None
    if table.status == Table.Status.PLAYING:
        game = current_game(table)
        if game is not None and table.turn_started is not None:
            engine = registry.engine(game.game)
            actors = engine.actors(engine.from_json(game.state))
            table.turn_deadline = (
                earliest_deadline(table, [seats[a] for a in actors]) if actors else None
            )
    elif table.status != Table.Status.OPEN:
        return None
    table.version += 1
    save_fields(table, "version", "turn_deadline")
    data = snapshot(table, game, seats)
    data["events"] = []
    return Broadcast(table.pk, data, lobby=False)
