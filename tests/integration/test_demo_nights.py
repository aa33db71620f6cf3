"""The demo club has one finished club night with its standings and one upcoming night
with sign-up open (issue 43), built by `demo_data` through the same services as a real
night; run again, it adds nothing, and the same seeds seat and deal the same night."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client

from club.models import Player
from events import demo as events_demo
from events.models import Entry, Event, RoundTable
from events.standings import standings
from games.models import Table

pytestmark = pytest.mark.django_db


def build() -> None:
    call_command("demo_data", "--games", "0", stdout=io.StringIO())


def test_the_demo_club_has_a_finished_and_an_upcoming_night():
    build()
    past = Event.objects.get(slug=events_demo.PAST)
    upcoming = Event.objects.get(slug=events_demo.UPCOMING)
    assert past.status == Event.Status.FINISHED
    assert upcoming.status == Event.Status.SCHEDULED and upcoming.signup_open()
    tables = list(RoundTable.objects.filter(round__event=past).order_by("round__number", "number"))
    # Five members at tables of three: two tables a round, one house bot among them.
    assert len(tables) == 4
    assert all(t.table.status == Table.Status.FINISHED for t in tables)
    assert [sum(len(t.bots) for t in tables if t.round.number == n) for n in (1, 2)] == [1, 1]
    rows = standings(past)
    assert len(rows) == 5 and rows[0].rank == 1
    assert all(r.row.games == 2 for r in rows)
    seating = [t.players for t in tables]
    counts = (Event.objects.count(), RoundTable.objects.count(), Entry.objects.count())
    build()
    assert (Event.objects.count(), RoundTable.objects.count(), Entry.objects.count()) == counts

    anna = Client()
    anna.force_login(Player.objects.get(display_name="Anna").user)
    home = anna.get("/").content.decode()
    assert upcoming.get_absolute_url() in home
    page = anna.get(past.get_absolute_url()).content.decode()
    assert 'data-testid="event-standings"' in page and 'data-testid="event-replay"' in page
    # Anna played the past night: there is nothing left to withdraw from.
    assert Entry.objects.filter(event=past, player__display_name="Anna").exists()
    assert 'data-testid="event-withdraw"' not in page
    page = anna.get(upcoming.get_absolute_url()).content.decode()
    assert 'data-testid="event-withdraw"' in page  # Anna is signed up
    # Same seeds, same night: built again from nothing, the same seats.
    Event.objects.all().delete()
    build()
    again = RoundTable.objects.filter(round__event__slug=events_demo.PAST).order_by(
        "round__number", "number"
    )
    names = dict(Player.objects.values_list("pk", "display_name"))
    assert [[names[p] for p in t.players] for t in again] == [
        [names[p] for p in players] for players in seating
    ]
