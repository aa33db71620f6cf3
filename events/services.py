"""Members' own steps: sign up for a night (on time or late) and withdraw (and come back).

Each refusal is a ServiceError with a message for the member, and changes nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Player
from events.models import Entry, Event
from games.services import ServiceError


def _event(event_id: int) -> Event:
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise ServiceError("not_found", _("There is no such club night."))
    return event


@transaction.atomic
def sign_up(player: Player, event_id: int) -> Entry:
    """Sign up, or come back after withdrawing; late once the night has started."""
    if player.is_bot:
        raise ServiceError("forbidden", _("House bots do not sign up for club nights."))
    event = _event(event_id)
    now = timezone.now()
    if event.status == Event.Status.CANCELLED:
        raise ServiceError("cancelled", _("This club night was cancelled."))
    if event.status == Event.Status.FINISHED:
        raise ServiceError("finished", _("This club night is over."))
    entry = Entry.objects.filter(event=event, player=player).first()
    if entry is not None and entry.status != Entry.Status.WITHDRAWN:
        raise ServiceError("already", _("You are already signed up for this club night."))
    if now < event.signup_opens:
        raise ServiceError("not_open", _("Sign-up for this club night has not opened yet."))
    if now >= event.signup_closes:
        raise ServiceError("closed", _("Sign-up for this club night has closed."))
    late = event.status == Event.Status.RUNNING
    played = event.round_set.filter(finished__isnull=False).count()
    # A member who withdrew may come back at any time; a newcomer until half the rounds
    # have been played.
    if late and entry is None and played * 2 >= event.rounds:
        raise ServiceError(
            "too_late", _("Half the rounds have been played: it is too late to join.")
        )
    taking_part = Entry.objects.filter(event=event).exclude(status=Entry.Status.WITHDRAWN)
    if event.capacity and entry is None and taking_part.count() >= event.capacity:
        raise ServiceError("full", _("This club night is full."))
    status = Entry.Status.LATE if late else Entry.Status.SIGNED_UP
    if entry is None:
        return Entry.objects.create(event=event, player=player, status=status, seen=now)
    entry.status = status
    entry.seen = now
    entry.save(update_fields=["status", "seen"])
    return entry


@transaction.atomic
def withdraw(player: Player, event_id: int) -> Entry:
    """Withdraw: not seated in later rounds (a game already dealt is played as any other)."""
    event = _event(event_id)
    if event.over:
        raise ServiceError(
            "finished", _("This club night is over: there is nothing to withdraw from.")
        )
    entry = Entry.objects.filter(event=event, player=player).first()
    if entry is None or entry.status == Entry.Status.WITHDRAWN:
        raise ServiceError("not_entered", _("You are not signed up for this club night."))
    entry.status = Entry.Status.WITHDRAWN
    entry.save(update_fields=["status"])
    return entry
