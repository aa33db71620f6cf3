"""The statements a game's start and end run for the notifications and the nights.

`notifications.services.told_members`, `unread_counts` and
`events.running.night_table_of` are written out in SQL because they run at every
game's start and end on the moves' database thread (docs/PERFORMANCE.md, "A
game's end"). These tests hold them to what the ORM queries they replaced said,
on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from club import leaving
from club.models import Player
from events import running
from events import services as event_services
from events.models import Entry, RoundTable
from games import hooks, services
from notifications import kinds
from notifications import services as notify
from notifications.models import Notification, Preference
from tests.integration.test_events_running import START, night
from tests.support.members import member

pytestmark = pytest.mark.django_db


def defaults(kind: kinds.Kind) -> dict[str, bool]:
    return {kinds.SITE: True, kinds.MAIL: kind.mail_default, kinds.PUSH: kind.push_default}


def test_told_members_leaves_out_bots_closed_accounts_and_strangers_to_the_club():
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    bot = Player.objects.bots().first()
    leaving.close_account(vera)
    kind = kinds.get("game_finished")

    with CaptureQueriesContext(connection) as queries:
        told = notify.told_members([anna.pk, boris.pk, vera.pk, bot.pk, 10**9], kind)

    assert sorted(told) == sorted([anna.pk, boris.pk])
    assert told[anna.pk] == told[boris.pk] == defaults(kind)
    assert len(queries) == 1


def test_told_members_takes_each_members_stored_choices_over_the_kinds_defaults():
    anna, boris = member("Anna"), member("Boris")
    kind = kinds.get("game_finished")
    Preference.objects.create(player=anna, kind=kind.key, channel=kinds.SITE, enabled=False)
    Preference.objects.create(player=anna, kind=kind.key, channel=kinds.MAIL, enabled=True)
    # Another kind's choice changes nothing here.
    Preference.objects.create(player=boris, kind="turn", channel=kinds.SITE, enabled=False)

    told = notify.told_members([anna.pk, boris.pk, anna.pk], kind)

    assert told[anna.pk] == {**defaults(kind), kinds.SITE: False, kinds.MAIL: True}
    assert told[boris.pk] == defaults(kind)
    assert notify.told_members([], kind) == {}


def test_a_game_end_tells_each_member_as_they_chose():
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    kind = kinds.get("game_finished")
    for who in (boris, vera):
        Preference.objects.create(player=who, kind=kind.key, channel=kinds.SITE, enabled=False)
    Preference.objects.create(player=boris, kind=kind.key, channel=kinds.PUSH, enabled=True)
    members = (anna.pk, boris.pk, vera.pk)
    event = hooks.Event("game_finished", members, table_id=7, game_id=9, data={})

    told = notify.record(event, kind)

    assert told == [anna.pk]  # only Anna's bell changes
    shown = Notification.objects.get(player=anna)
    assert shown.site and shown.read_at is None and shown.game_id == 9
    # Boris's row is kept for his push, counted as read at once; Vera wants none.
    hidden = Notification.objects.get(player=boris)
    assert not hidden.site and hidden.read_at is not None
    assert not Notification.objects.filter(player=vera).exists()


def test_unread_counts_count_each_members_unread_site_notifications_only():
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    now = timezone.now()
    Notification.objects.bulk_create(
        [
            Notification(player=anna, kind="invited"),
            Notification(player=anna, kind="invited"),
            Notification(player=anna, kind="invited", read_at=now),
            Notification(player=anna, kind="invited", site=False),
            Notification(player=boris, kind="invited", read_at=now),
        ]
    )

    counts = notify.unread_counts([anna.pk, boris.pk, vera.pk, anna.pk])

    assert counts == {anna.pk: 2, boris.pk: 0, vera.pk: 0}
    assert counts[anna.pk] == notify.unread_count(anna)
    assert notify.unread_counts([]) == {}


def test_night_table_of_names_a_nights_table_and_no_other():
    with time_machine.travel(START - datetime.timedelta(hours=1), tick=False) as clock:
        event = night(pace="live", rounds=1, min_seats=4, max_seats=4)
        people = [member(f"Live{i}") for i in range(4)]
        for person in people:
            event_services.sign_up(person, event.pk)
        Entry.objects.filter(event=event).update(online=True)
        clock.move_to(START)
        running.nights_duty()
    round_table = RoundTable.objects.get(round__event=event)
    other, _ = services.create_table(member("Anna"), event.variant, 2)

    assert running.night_table_of(round_table.table_id) == (round_table.pk, event.pk)
    assert running.night_table_of(other.pk) is None
    assert running.night_table_of(10**9) is None
