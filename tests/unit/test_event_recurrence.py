"""Recurring club nights (events/recurrence.py): an RRULE read in the club's time zone keeps
its wall-clock hour across a daylight-saving change, and a broken rule is refused."""

from __future__ import annotations

import datetime
import zoneinfo

import pytest

from events.recurrence import RecurrenceError, next_after, parse

BERLIN = "Europe/Berlin"
TZ = zoneinfo.ZoneInfo(BERLIN)


def local(*args) -> datetime.datetime:
    return datetime.datetime(*args, tzinfo=TZ)


def test_every_friday_at_20_stays_at_20_across_the_spring_change() -> None:
    first = local(2026, 3, 20, 20, 0)  # CET, UTC+1
    following = next_after("FREQ=WEEKLY;BYDAY=FR", first, first, BERLIN)
    # Clocks went forward on Sunday 29 March: the next Friday is CEST, UTC+2.
    assert following.astimezone(TZ) == local(2026, 3, 27, 20, 0)
    after = next_after("FREQ=WEEKLY;BYDAY=FR", first, following, BERLIN)
    assert after.astimezone(TZ).hour == 20
    assert after - following == datetime.timedelta(days=7, hours=-1)
    assert after.utcoffset() == datetime.timedelta(0)  # returned in UTC


def test_and_across_the_autumn_change() -> None:
    first = local(2026, 10, 23, 20, 0)  # CEST
    following = next_after("RRULE:FREQ=WEEKLY;BYDAY=FR", first, first, BERLIN)
    assert following.astimezone(TZ) == local(2026, 10, 30, 20, 0)  # CET
    assert following - first == datetime.timedelta(days=7, hours=1)


def test_a_rule_that_ends() -> None:
    first = local(2026, 1, 2, 20, 0)
    second = next_after("FREQ=WEEKLY;COUNT=2", first, first, BERLIN)
    assert next_after("FREQ=WEEKLY;COUNT=2", first, second, BERLIN) is None


@pytest.mark.parametrize(
    "text",
    [
        "",
        "FREQ=FORTNIGHTLY",
        "FREQ=MINUTELY",
        "FREQ=HOURLY",
        "BYDAY=XX;FREQ=WEEKLY",
        "DTSTART:20260101T000000\nRRULE:FREQ=WEEKLY",
        "FREQ=WEEKLY;INTERVAL=zero",
    ],
)
def test_broken_rules_are_refused(text: str) -> None:
    with pytest.raises(RecurrenceError):
        parse(text, local(2026, 1, 2, 20, 0), BERLIN)
