"""The demo club's nights (`manage.py demo_data`, through EventsConfig): one finished night
with its standings, played out card by card by the members and house bots through the same
services as a real night, and one upcoming night with sign-up open (Anna and Boris in).

The games are dealt from fixed seeds and the members' cards chosen with `club.demo.play`
(handed over by the command: this app may not import the site's demo), so every machine
gets the same night. Run again, it adds nothing.
"""

from __future__ import annotations

import datetime
import random
import zlib
from types import ModuleType

from django.test.utils import override_settings
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from club.models import Player
from events import running
from events.models import Entry, Event, RoundTable
from games import services
from games.models import Seat, Table, Variant

PAST = "demo-club-night"
UPCOMING = "friday-club-night"
PAST_NAME = "Thursday Club Night"
UPCOMING_NAME = "Friday Club Night"
DESCRIPTION = "Two rounds, new tablemates each round; house bots fill the empty seats."
# Stored in English and shown in the reader's language (Event.__str__): these markers put
# them in the catalogs (locale/README.md).
SHOWN_TRANSLATED = [
    pgettext_lazy("event name", "Thursday Club Night"),
    pgettext_lazy("event name", "Friday Club Night"),
]
PLAYERS = ["Anna", "Boris", "Vera", "Grigori", "Dmitri"]


def _seed(*parts: object) -> int:
    return zlib.crc32(":".join(map(str, parts)).encode())


def build(people: list[Player], demo: ModuleType) -> int:
    """Make what is missing of the demo's nights; returns the games played now."""
    variant = Variant.objects.get(name=demo.PASS_RULE_VARIANT["name"])
    played = 0
    if not Event.objects.filter(slug=PAST).exists():
        played = _past_night(variant, people, demo)
    if not Event.objects.filter(slug=UPCOMING).exists():
        _upcoming_night(variant, people)
    return played


def _night(slug: str, name: str, variant: Variant, starts: datetime.datetime) -> Event:
    return Event.objects.create(
        slug=slug,
        name=name,
        variant=variant,
        pace="live",
        rounds=2,
        min_seats=3,
        max_seats=3,
        signup_opens=starts - datetime.timedelta(days=3),
        signup_closes=starts + datetime.timedelta(minutes=30),
        starts=starts,
        description=DESCRIPTION,
    )


def _past_night(variant: Variant, people: list[Player], demo: ModuleType) -> int:
    """Five members and a house bot, two rounds played out, three days ago."""
    by_name = {p.display_name: p for p in people}
    now = timezone.now()
    event = _night(PAST, PAST_NAME, variant, now)
    for name in PLAYERS:
        Entry.objects.create(event=event, player=by_name[name], online=True, seen=now)
    played = 0
    with override_settings(BOT_DELAY_SECONDS=0), services.seeded_deals(_seed("night", PAST)):
        running.publish(running.start(event.pk))
        for number in (1, 2):
            round_tables = list(RoundTable.objects.filter(round__event=event, round__number=number))
            for round_table in round_tables:
                if round_table.table.status == Table.Status.PLAYING:
                    # The demo's members sit at their tables (the house would otherwise
                    # play their seats, away from the deal until they open the table).
                    Seat.objects.filter(table_id=round_table.table_id, is_bot=False).update(
                        away_since=None
                    )
                    demo.play(
                        round_table.table_id,
                        random.Random(_seed("night", number, round_table.number)),
                    )
                    played += 1
            # What the game-end hook does once each game commits (inside a caller's
            # transaction it has not run yet); a second time changes nothing.
            for round_table in round_tables:
                running.publish(running.table_finished(round_table.pk))
    # Into the past: the night was three days ago.
    shift = datetime.timedelta(days=3)
    Event.objects.filter(pk=event.pk).update(
        starts=now - shift,
        signup_opens=now - shift - datetime.timedelta(days=3),
        signup_closes=now - shift + datetime.timedelta(minutes=30),
    )
    Entry.objects.filter(event=event).update(online=False)
    return played


def _upcoming_night(variant: Variant, people: list[Player]) -> None:
    by_name = {p.display_name: p for p in people}
    starts = (timezone.localtime() + datetime.timedelta(days=2)).replace(
        hour=20, minute=0, second=0, microsecond=0
    )
    event = _night(UPCOMING, UPCOMING_NAME, variant, starts)
    for name in ("Anna", "Boris"):
        Entry.objects.create(event=event, player=by_name[name])
