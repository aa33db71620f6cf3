"""Around a club night's dates: members' presence as a live night nears, the reminders
before it starts, and the next night of a recurring chain (the parts of the house's duty,
events.running `nights_duty`, that touch no table).
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from events import recurrence
from events.models import Entry, Event
from games import hooks

# The next night of a recurring chain is made this long before its sign-up opens.
RECURRENCE_AHEAD = datetime.timedelta(days=1)


# A member's page counts as "present" for the nights starting within this long.
PRESENCE_AHEAD = datetime.timedelta(hours=1)


def on_lobby_socket(player_id: int, channel: str, opened: bool) -> None:
    """games.hooks socket listener: a member's page opened or closed a socket.

    Every page of a signed-in member opens one, so this reads first and writes only for a
    member entered in a night running or about to start (no write lock taken otherwise)."""
    now = timezone.now()
    entries = Entry.objects.filter(player_id=player_id).filter(
        Q(event__status=Event.Status.RUNNING)
        | Q(event__status=Event.Status.SCHEDULED, event__starts__lte=now + PRESENCE_AHEAD)
    )
    if entries.exists():
        Entry.objects.filter(pk__in=list(entries.values_list("pk", flat=True))).update(
            online=opened, seen=now
        )


# Reminders this process has sent (the notifications' keys make another process's harmless).
_reminded: set[tuple[str, int, int]] = set()
SOON = datetime.timedelta(minutes=10)
TOMORROW = datetime.timedelta(hours=24)


def remind(now: datetime.datetime) -> int:
    """Tell the members signed up: a live night starts in 10 minutes, a turn-based one
    tomorrow (games.hooks events; the notifications app words, batches and mails them)."""
    told = 0
    for event in Event.objects.filter(
        status=Event.Status.SCHEDULED, starts__gt=now, starts__lte=now + TOMORROW
    ):
        kind = "event_tomorrow" if event.turn_based else "event_soon"
        if not event.turn_based and event.starts > now + SOON:
            continue
        takers = Entry.objects.filter(event=event).exclude(status=Entry.Status.WITHDRAWN)
        # Each member once (a member who signs up after the first reminder is told too).
        new = [
            p
            for p in takers.values_list("player_id", flat=True)
            if (kind, event.pk, p) not in _reminded
        ]
        if not new:
            continue
        _reminded.update((kind, event.pk, p) for p in new)
        hooks.emit(
            hooks.Event(
                kind,
                tuple(new),
                data={
                    "event": str(event.name),
                    "path": event.get_absolute_url(),
                    "key": f"{kind}:{event.pk}",
                },
            )
        )
        told += 1
    return told


def make_recurrences(now: datetime.datetime) -> int:
    """The next night of every recurring chain, made once its sign-up is near. How many."""
    made = 0
    for first in Event.objects.filter(recurs_from__isnull=True).exclude(recurrence=""):
        latest = (
            (Event.objects.filter(pk=first.pk) | Event.objects.filter(recurs_from=first))
            .order_by("-starts")
            .first()
        )
        try:
            following = recurrence.next_after(
                first.recurrence, first.starts, latest.starts, settings.TIME_ZONE
            )
        except recurrence.RecurrenceError:
            continue
        if following is None:
            continue
        lead = first.starts - first.signup_opens
        if following - lead > now + RECURRENCE_AHEAD:
            continue
        make_next(first, following)
        made += 1
    return made


def make_next(first: Event, starts: datetime.datetime) -> Event:
    """The night of `first`'s chain starting at `starts`, its windows at the same distances."""
    local = timezone.localtime(starts)
    return Event.objects.create(
        name=first.name,
        slug=f"{first.slug}-{local:%Y%m%d}"[:100],
        variant=first.variant,
        pace=first.pace,
        rounds=first.rounds,
        games_per_round=first.games_per_round,
        min_seats=first.min_seats,
        max_seats=first.max_seats,
        capacity=first.capacity,
        signup_opens=starts - (first.starts - first.signup_opens),
        signup_closes=starts - (first.starts - first.signup_closes),
        starts=starts,
        round_hours=first.round_hours,
        scoring=first.scoring,
        tie_breaks=first.tie_breaks,
        series=first.series,
        away_allowed=first.away_allowed,
        grouping=first.grouping,
        bot_level=first.bot_level,
        recurs_from=first,
        description=first.description,
    )
