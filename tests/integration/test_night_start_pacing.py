"""A club night's round is dealt table by table without holding up the club's other tables:
between two tables the dealing pauses with no transaction open (so the SQLite write lock
and the interpreter are free for the moves it kept waiting), and a member who has not
opened their new table is away from the deal, in a handful of statements, with the house's
deadline set for the seat to move (docs/PERFORMANCE.md, club nights)."""

from __future__ import annotations

import datetime
import threading
import time

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events import running
from events import services as event_services
from events.models import Entry, Event, RoundTable
from games.models import Seat, Table, Variant
from tests.support.members import member

START = datetime.datetime(2026, 3, 2, 18, 0, tzinfo=datetime.UTC)


def live_night(members: int) -> Event:
    event = Event(
        name="Paced night",
        slug="paced-night",
        variant=Variant.objects.get(name="Devyatka"),
        pace="live",
        rounds=2,
        min_seats=3,
        max_seats=3,
        signup_opens=START - datetime.timedelta(days=2),
        signup_closes=START,
        starts=START,
    )
    event.full_clean()
    event.save()
    for i in range(members):
        event_services.sign_up(member(f"Paced{i}"), event.pk)
    Entry.objects.filter(event=event).update(online=True)
    return event


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
def test_a_round_is_dealt_with_pauses_outside_any_transaction(monkeypatch) -> None:
    with time_machine.travel(START - datetime.timedelta(hours=1), tick=False) as clock:
        event = live_night(12)
        clock.move_to(START)
        pauses: list[tuple[float, bool, int]] = []
        dealer, real_sleep = threading.get_ident(), time.sleep

        def pause(seconds: float) -> None:
            if threading.get_ident() != dealer:
                # `time.sleep` is patched for the whole process: another thread's
                # sleep (the SQLite checkpointer's) is not the dealing's pause.
                real_sleep(seconds)
                return
            dealt = RoundTable.objects.filter(round__event=event).count()
            pauses.append((seconds, connection.in_atomic_block, dealt))

        monkeypatch.setattr(running.time, "sleep", pause)
        running.nights_duty()
    assert RoundTable.objects.filter(round__event=event).count() == 4
    # A pause after each table's deal but the last, its own transaction committed before it.
    assert [dealt for _s, _open, dealt in pauses] == [1, 2, 3]
    assert not any(in_transaction for _s, in_transaction, _d in pauses)
    assert all(0 <= seconds <= running.DEAL_PAUSE_MAX_SECONDS for seconds, _o, _d in pauses)


@pytest.mark.django_db
@pytest.mark.usefixtures("default_variants")
def test_members_who_never_opened_their_table_are_away_from_the_deal(settings) -> None:
    settings.AWAY_GRACE_SECONDS = 60
    with time_machine.travel(START - datetime.timedelta(hours=1), tick=False) as clock:
        event = live_night(3)
        clock.move_to(START)
        running.nights_duty()
        (round_table,) = RoundTable.objects.filter(round__event=event)
        table = Table.objects.get(pk=round_table.table_id)
        seats = Seat.objects.filter(table=table)
        assert not seats.filter(is_bot=False, away_since__isnull=True).exists()
        # The seat to move is away: the house plays it once the grace has passed.
        assert table.turn_deadline == START + datetime.timedelta(seconds=60)
        # Marking a table's seats away costs the same few statements at any table size.
        seats.update(away_since=None)
        from games import services

        with CaptureQueriesContext(connection) as queries:
            services.away_unless_here(table.pk)
        assert seats.filter(away_since__isnull=True).count() == 0
        assert len(queries) <= 8, [q["sql"] for q in queries]
