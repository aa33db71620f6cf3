"""Recurring club nights: an RFC 5545 RRULE read in the club's time zone (python-dateutil).

The rule runs over local wall-clock times (naive, in `settings.TIME_ZONE`), and
each occurrence is made aware only at the end, so "every Friday at 20:00" stays
at 20:00 across a daylight-saving change instead of drifting by an hour.
No Django models here: the duty and the admin's validation both call these.
"""

from __future__ import annotations

import datetime
import zoneinfo

from dateutil import rrule

# Sub-daily rules would make a night every few minutes: refused.
ALLOWED_FREQS = {rrule.DAILY, rrule.WEEKLY, rrule.MONTHLY, rrule.YEARLY}


class RecurrenceError(ValueError):
    """A rule that cannot be used; the message says why, for the admin."""


def _local(moment: datetime.datetime, zone: str) -> datetime.datetime:
    """`moment` as naive wall-clock time in `zone`."""
    return moment.astimezone(zoneinfo.ZoneInfo(zone)).replace(tzinfo=None)


def parse(text: str, start: datetime.datetime, zone: str) -> rrule.rrule:
    """The rule of `text` (an RRULE, with or without the "RRULE:" prefix), starting at `start`.

    RecurrenceError for a rule that does not parse, runs more often than daily,
    or names its own DTSTART (the event's start is the rule's start).
    """
    body = text.strip()
    if body.upper().startswith("RRULE:"):
        body = body[6:]
    if not body:
        raise RecurrenceError("empty")
    if "DTSTART" in body.upper() or "\n" in body:
        raise RecurrenceError("one RRULE line only; the event's start is its first night")
    try:
        rule = rrule.rrulestr(body, dtstart=_local(start, zone))
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise RecurrenceError(str(exc) or type(exc).__name__) from None
    if not isinstance(rule, rrule.rrule):
        raise RecurrenceError("one RRULE line only")
    if rule._freq not in ALLOWED_FREQS:  # noqa: SLF001 - dateutil keeps it there
        raise RecurrenceError("at most one night a day (FREQ=DAILY, WEEKLY, MONTHLY or YEARLY)")
    return rule


def next_after(
    text: str, first: datetime.datetime, after: datetime.datetime, zone: str
) -> datetime.datetime | None:
    """The first night of the rule (starting at `first`) strictly after `after`, aware; None
    when the rule has ended (COUNT or UNTIL)."""
    rule = parse(text, first, zone)
    local = rule.after(_local(after, zone), inc=False)
    if local is None:
        return None
    tz = zoneinfo.ZoneInfo(zone)
    # A wall-clock time that does not exist (the hour skipped in spring) moves forward
    # with fold=0's offset, which is what a member's calendar does too.
    return local.replace(tzinfo=tz).astimezone(datetime.UTC)
