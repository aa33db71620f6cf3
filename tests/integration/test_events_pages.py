"""Club night pages: sign-up and withdrawal in one click with a message, bad input refused
with a clear message and nothing changed, the .ics file (RFC 5545), the nights on home and
in the lobby, the standings with their order written out, the admin's actions (start now
with bots filling the gap, seat the next round, cancel with members told), the night's
socket frame when a table ends, and reminders through notifications."""

from __future__ import annotations

import asyncio
import datetime

import icalendar
import pytest
import time_machine
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.asgi import application
from events import running, upcoming
from events.models import Entry, Event, RoundTable
from games import services
from games.models import Table, Variant
from notifications.models import Notification
from tests.support.members import member

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("default_variants")]


@pytest.fixture(autouse=True)
def _no_reminders_remembered():
    """The duty remembers whom it reminded (per process); ids repeat between tests."""
    upcoming._reminded.clear()  # noqa: SLF001 - a test resetting the process's memory
    yield


def night(**extra) -> Event:
    now = timezone.now().replace(microsecond=0)
    fields = {
        "name": "Friday night",
        "slug": f"friday-{Event.objects.count()}",
        "variant": Variant.objects.get(name="Devyatka"),
        "pace": "live",
        "rounds": 2,
        "min_seats": 4,
        "max_seats": 4,
        "signup_opens": now - datetime.timedelta(days=1),
        "signup_closes": now + datetime.timedelta(hours=2),
        "starts": now + datetime.timedelta(hours=1),
    }
    fields.update(extra)
    event = Event(**fields)
    event.full_clean()
    event.save()
    return event


def client_for(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_sign_up_and_withdraw_in_one_click_with_messages() -> None:
    event = night()
    anna = member("Anna")
    client = client_for(anna)
    page = client.get(event.get_absolute_url())
    assert 'data-testid="event-sign-up"' in page.content.decode()
    response = client.post(reverse("event_sign_up", args=[event.slug]), follow=True)
    assert "You are signed up for Friday night." in response.content.decode()
    assert 'data-testid="event-withdraw"' in response.content.decode()
    again = client.post(reverse("event_sign_up", args=[event.slug]), follow=True)
    assert "You are already signed up for this club night." in again.content.decode()
    assert Entry.objects.filter(event=event).count() == 1
    response = client.post(reverse("event_withdraw", args=[event.slug]), follow=True)
    assert "You have withdrawn from Friday night." in response.content.decode()
    assert Entry.objects.get(event=event).status == Entry.Status.WITHDRAWN
    # The same in Russian: the refusal is translated.
    anna.language = "ru"
    anna.save()
    Event.objects.filter(pk=event.pk).update(status=Event.Status.CANCELLED)
    response = client.post(reverse("event_sign_up", args=[event.slug]), follow=True)
    assert "Этот клубный вечер отменён." in response.content.decode()
    assert Entry.objects.get(event=event).status == Entry.Status.WITHDRAWN


def test_sign_up_needs_a_member_and_a_post() -> None:
    event = night()
    response = Client().post(reverse("event_sign_up", args=[event.slug]))
    assert response.status_code == 302 and "login" in response["Location"]
    anna = member("Anna")
    assert client_for(anna).get(reverse("event_sign_up", args=[event.slug])).status_code == 405
    assert not Entry.objects.exists()


def test_calendar_file_is_rfc_5545() -> None:
    event = night()
    response = Client().get(reverse("event_ics", args=[event.slug]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(response.content)
    (item,) = calendar.walk("VEVENT")
    assert item.decoded("dtstart") == event.starts
    assert str(item["summary"]) == "Friday night"
    assert str(item["uid"]).startswith(f"event-{event.pk}@")
    assert calendar["version"] == "2.0"


def test_home_and_lobby_show_upcoming_nights() -> None:
    event = night()
    anna = member("Anna")
    for page in (reverse("home"), reverse("lobby"), reverse("event_list")):
        html = client_for(anna).get(page).content.decode()
        assert event.get_absolute_url() in html, page
    html = Client().get(reverse("home")).content.decode()
    assert event.get_absolute_url() in html


def test_admin_start_now_seats_with_bots_and_cancel_tells_members() -> None:
    from django.contrib.auth import get_user_model

    event = night()
    people = [member(f"M{i}") for i in range(6)]
    for person in people:
        client_for(person).post(reverse("event_sign_up", args=[event.slug]))
    Entry.objects.filter(event=event).update(online=True)
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    staff = Client()
    staff.force_login(admin)
    url = reverse("admin:events_event_changelist")
    staff.post(url, {"action": "start_now", "_selected_action": [event.pk]})
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    tables = list(RoundTable.objects.filter(round__event=event))
    # Six members at tables of four: two tables, a house bot at each.
    assert sorted(len(t.members) for t in tables) == [3, 3]
    assert all(t.table.status == Table.Status.PLAYING and not t.table.private for t in tables)
    assert Notification.objects.filter(kind="event_table_ready").count() == 6
    page = client_for(people[0]).get(event.get_absolute_url()).content.decode()
    assert "Play" in page and "Watch" in page
    staff.post(url, {"action": "seat_next_now", "_selected_action": [event.pk]})
    assert RoundTable.objects.filter(round__event=event, round__number=2).count() == 2
    assert all(
        t.table.status == Table.Status.FINISHED
        for t in RoundTable.objects.filter(round__event=event, round__number=1)
    )
    staff.post(url, {"action": "cancel", "_selected_action": [event.pk]})
    event.refresh_from_db()
    assert event.status == Event.Status.CANCELLED
    assert Notification.objects.filter(kind="event_cancelled").count() == 6
    assert all(
        t.table.status == Table.Status.ABORTED
        for t in RoundTable.objects.filter(round__event=event, round__number=2)
    )


def test_standings_write_out_the_order_and_statuses() -> None:
    event = night(rounds=1)
    people = [member(f"S{i}") for i in range(4)]
    for person in people:
        client_for(person).post(reverse("event_sign_up", args=[event.slug]))
    # The fourth signed up long ago and has no page open: absent at the start.
    Entry.objects.filter(event=event).update(seen=timezone.now() - datetime.timedelta(hours=1))
    Entry.objects.filter(event=event, player__in=people[:3]).update(online=True)
    running.publish(running.start(event.pk))
    html = Client().get(event.get_absolute_url()).content.decode()
    assert "Scoring: Placement points, counted per game played" in html
    assert "more games played first" in html
    assert "House bots are not ranked." in html
    assert "(Absent)" in html
    # Withdrawing shows as withdrawn.
    client_for(people[1]).post(reverse("event_withdraw", args=[event.slug]))
    html = client_for(people[0]).get(reverse("event_live", args=[event.slug])).content.decode()
    assert "(Withdrawn)" in html


async def test_socket_tells_the_page_within_a_second_of_a_table_end() -> None:
    event = await database_sync_to_async(night)(rounds=1, min_seats=2, max_seats=2)
    people = [await database_sync_to_async(member)(f"W{i}") for i in range(2)]

    def sign_and_start():
        from events import services as event_services

        for person in people:
            event_services.sign_up(person, event.pk)
        Entry.objects.filter(event=event).update(online=True)
        running.publish(running.start(event.pk))
        return RoundTable.objects.get(round__event=event).table_id

    table_id = await database_sync_to_async(sign_and_start)()
    socket = WebsocketCommunicator(
        application, f"/ws/events/{event.pk}/", headers=[(b"origin", b"http://localhost")]
    )
    connected, _ = await socket.connect()
    assert connected
    await database_sync_to_async(services.play_out)(table_id)
    # The clock starts when the table's game has ended (play_out returns), not before
    # the whole game was played: how long a game takes is the machine's, not the page's.
    ended = asyncio.get_running_loop().time()
    frame = await socket.receive_json_from(timeout=5)
    assert frame["type"] == "event" and frame["event"] == event.pk
    assert asyncio.get_running_loop().time() - ended < 1.0
    await socket.disconnect()
    status = await database_sync_to_async(lambda: Event.objects.get(pk=event.pk).status)()
    assert status == Event.Status.FINISHED
    told = await database_sync_to_async(Notification.objects.filter(kind="event_results").count)()
    assert told == 2


def test_reminders_ten_minutes_before_live_and_a_day_before_turn_based() -> None:
    start = timezone.now().replace(microsecond=0) + datetime.timedelta(days=3)
    live = night(starts=start, signup_closes=start)
    turn = night(pace="1d", starts=start, signup_closes=start)
    anna = member("Anna")
    for event in (live, turn):
        client_for(anna).post(reverse("event_sign_up", args=[event.slug]))
    with time_machine.travel(start - datetime.timedelta(hours=23), tick=False):
        running.nights_duty()
    assert list(Notification.objects.values_list("kind", flat=True)) == ["event_tomorrow"]
    with time_machine.travel(start - datetime.timedelta(minutes=9), tick=False):
        running.nights_duty()
        running.nights_duty()
    assert sorted(Notification.objects.values_list("kind", flat=True)) == [
        "event_soon",
        "event_tomorrow",
    ]


def test_a_member_who_signs_up_after_the_reminder_went_out_is_reminded_too() -> None:
    start = timezone.now().replace(microsecond=0) + datetime.timedelta(minutes=30)
    live = night(starts=start, signup_closes=start)
    anna, boris = member("Anna"), member("Boris")
    client_for(anna).post(reverse("event_sign_up", args=[live.slug]))
    with time_machine.travel(start - datetime.timedelta(minutes=9), tick=False):
        running.nights_duty()
        client_for(boris).post(reverse("event_sign_up", args=[live.slug]))
        running.nights_duty()
        running.nights_duty()
    assert sorted(Notification.objects.values_list("player__display_name", flat=True)) == [
        "Anna",
        "Boris",
    ]


def test_a_members_open_page_marks_them_present_only_for_nights_about_to_start() -> None:
    soon = night()  # starts within the hour
    later = night(
        starts=timezone.now() + datetime.timedelta(days=3),
        signup_closes=timezone.now() + datetime.timedelta(days=3),
    )
    anna = member("Anna")
    for event in (soon, later):
        client_for(anna).post(reverse("event_sign_up", args=[event.slug]))
    Entry.objects.update(seen=None)
    running.on_lobby_socket(anna.pk, "channel-1", True)
    assert Entry.objects.get(event=soon).online
    assert not Entry.objects.get(event=later).online
    assert Entry.objects.get(event=later).seen is None
    running.on_lobby_socket(anna.pk, "channel-1", False)
    assert not Entry.objects.get(event=soon).online


@pytest.mark.parametrize(
    "lang,refused,others",
    [
        ("en", "A turn-based night may refuse away days", "Your other tables still stop"),
        ("it", "Una serata a turni può non ammettere i giorni di assenza", "Ai tuoi altri tavoli"),
        ("fr", "peut refuser les jours d'absence", "À vos autres tables"),
        ("ru", "может не разрешать дни отсутствия", "За остальными вашими столами"),
        ("es", "puede no admitir los días de ausencia", "En tus demás mesas"),
        ("ro", "poate să nu permită zilele de absență", "La celelalte mese ale tale"),
    ],
)
def test_the_rules_page_says_a_night_may_refuse_away_days(
    lang: str, refused: str, others: str
) -> None:
    """A night that does not allow away days keeps its own tables' clocks running; the
    member's other tables still stop for their away days: the rules page says both."""
    page = Client(HTTP_ACCEPT_LANGUAGE=lang).get(reverse("rules")).content.decode()
    section = page[page.index('id="club-nights"') :]
    section = section[: section.index("</section>")]
    assert refused.replace("'", "&#x27;") in section or refused in section
    assert others in section
