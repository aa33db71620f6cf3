"""Club night pages: the list, a night (sign-up, tables, standings), its calendar file."""

from __future__ import annotations

import icalendar
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from club.models import Player
from events import services
from events.models import Entry, Event, RoundTable
from events.standings import standings
from games.models import Game
from games.services import ServiceError


def event_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "events/event_list.html",
        {
            "upcoming": Event.objects.shown().select_related("variant")[:20],
            "past": Event.objects.past().select_related("variant")[:20],
        },
    )


def _context(request: HttpRequest, event: Event) -> dict:
    viewer = request.user.player if request.user.is_authenticated else None
    entry = Entry.objects.filter(event=event, player=viewer).first() if viewer else None
    rounds = []
    for current in event.round_set.order_by("number"):
        tables = []
        for round_table in RoundTable.objects.filter(round=current).select_related("table"):
            names = dict(
                Player.objects.filter(pk__in=round_table.players).values_list("pk", "display_name")
            )
            tables.append(
                {
                    "number": round_table.number,
                    "table": round_table.table,
                    "players": [names.get(p, "") for p in round_table.players],
                    "mine": viewer is not None and viewer.pk in round_table.members,
                    "games": list(
                        Game.objects.filter(table=round_table.table, finished__isnull=False)
                        .order_by("number")
                        .only("pk", "number")
                    ),
                }
            )
        rounds.append({"round": current, "tables": tables})
    return {
        "event": event,
        "entry": entry,
        "signed_up": Entry.objects.filter(event=event)
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("player"),
        "rounds": rounds,
        "rows": standings(event),
        "tie_breaks": event.tie_break_list(),
        "signup_open": event.signup_open(),
    }


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("variant"), slug=slug)
    return render(request, "events/event_detail.html", _context(request, event))


def event_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings and tables alone: what the page fetches when the socket says so."""
    event = get_object_or_404(Event.objects.select_related("variant"), slug=slug)
    return render(request, "events/_live.html", _context(request, event))


@login_required
@require_POST
def sign_up(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    try:
        services.sign_up(request.user.player, event.pk)
    except ServiceError as exc:
        messages.error(request, str(exc.message))
    else:
        messages.success(request, gettext("You are signed up for %(event)s.") % {"event": event})
    return redirect(event.get_absolute_url())


@login_required
@require_POST
def withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    try:
        services.withdraw(request.user.player, event.pk)
    except ServiceError as exc:
        messages.error(request, str(exc.message))
    else:
        messages.success(request, gettext("You have withdrawn from %(event)s.") % {"event": event})
    return redirect(event.get_absolute_url())


def event_ics(request: HttpRequest, slug: str) -> HttpResponse:
    """The night as an RFC 5545 calendar file (icalendar)."""
    event = get_object_or_404(Event, slug=slug)
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Card Club//club nights//EN")
    calendar.add("version", "2.0")
    item = icalendar.Event()
    item.add("uid", f"event-{event.pk}@{request.get_host()}")
    item.add("dtstamp", timezone.now())
    item.add("dtstart", event.starts)
    item.add("summary", str(event))
    item.add("url", request.build_absolute_uri(event.get_absolute_url()))
    if event.description:
        item.add("description", event.description)
    calendar.add_component(item)
    response = HttpResponse(calendar.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.ics"'
    return response
