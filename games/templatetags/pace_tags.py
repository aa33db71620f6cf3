"""A table's pace on the pages: `{% table_pace table %}` (lobby, home, table, game page)."""

from __future__ import annotations

import datetime

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from club import i18n
from games import paces
from games.models import Table
from games.services import pace

register = template.Library()


@register.inclusion_tag("games/_pace.html", takes_context=True)
def table_pace(context: template.Context, table: Table, deadlines: bool = True) -> dict:
    """The pace, and at a turn-based table each member's time to move and who is away.

    The reader's own time to move is said to them ("You have ..."), the others'
    in the third person. Times are written in the reader's time zone when the
    page knows it (club.i18n), else in UTC for static/js/local-time.js to convert;
    away days are days of the club's calendar ("away until 8 Dec"), with no hour.
    """
    info = (
        pace.page_lines(table)
        if deadlines
        else {
            "turn_based": paces.is_turn_based(table.pace),
            "label": paces.label(table.pace),
            "deadlines": [],
            "away": [],
        }
    )
    request = context.get("request")
    user = context.get("user")
    viewer = getattr(getattr(user, "player", None), "pk", None) if user is not None else None
    zone = getattr(request, "viewer_time_zone", None)
    now = timezone.now()
    info["deadlines"] = [
        {
            "seat": seat,
            "mine": viewer is not None and seat.player_id == viewer,
            "at": local_time(at, zone),
            "left": paces.time_left(at - now),
        }
        for seat, at in info["deadlines"]
    ]
    info["away"] = [
        {
            "seat": seat,
            "mine": viewer is not None and seat.player_id == viewer,
            "until": away_day(until),
        }
        for seat, until in info["away"]
    ]
    info["table"] = table
    return info


def away_day(back: datetime.datetime) -> SafeString:
    """The last day away of a member back at `back` (a midnight of the club's calendar)."""
    last = timezone.localtime(back - datetime.timedelta(microseconds=1)).date()
    return format_html('<time datetime="{}">{}</time>', last.isoformat(), i18n.day_month(last))


@register.simple_tag
def local_time(moment: datetime.datetime, zone: datetime.tzinfo | None = None) -> SafeString:
    """A <time> in the reader's zone; without one, UTC that their browser rewrites."""
    if zone is not None:
        return format_html(
            '<time datetime="{}">{}</time>',
            moment.isoformat(),
            i18n.day_month_year_time(moment, zone),
        )
    utc = moment.astimezone(datetime.UTC)
    return format_html(
        '<time datetime="{}" data-local>{} UTC</time>',
        moment.isoformat(),
        utc.strftime("%Y-%m-%d %H:%M"),
    )
