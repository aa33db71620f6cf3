"""A table's pace on the pages: `{% table_pace table %}` (lobby, home, table, game page)."""

from __future__ import annotations

import datetime

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games import paces
from games.models import Table
from games.services import pace

register = template.Library()


@register.inclusion_tag("games/_pace.html")
def table_pace(table: Table, deadlines: bool = True) -> dict:
    """The pace, and at a turn-based table each member's time to move and who is away.

    Times are written in UTC and shown in the viewer's own time zone and language by
    static/js/local-time.js; the time left is worked out here, in the page's language.
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
    now = timezone.now()
    info["deadlines"] = [
        {"seat": seat, "at": local_time(at), "left": paces.time_left(at - now)}
        for seat, at in info["deadlines"]
    ]
    info["away"] = [{"seat": seat, "until": local_time(until)} for seat, until in info["away"]]
    info["table"] = table
    return info


@register.simple_tag
def local_time(moment) -> SafeString:
    """A <time> the viewer's browser writes in their own time zone (UTC without script)."""
    utc = moment.astimezone(datetime.UTC)
    return format_html(
        '<time datetime="{}" data-local>{} UTC</time>',
        moment.isoformat(),
        utc.strftime("%Y-%m-%d %H:%M"),
    )
