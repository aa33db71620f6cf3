"""Club nights in Django admin: a night is configured there, and bad input is refused with
a clear message and nothing saved (an impossible table size, a broken recurrence, a pace or
scoring the variant does not allow, an unknown tie-break)."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from events.models import Event
from games.models import Variant

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(db) -> Client:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(user)
    return client


def _when(moment: datetime.datetime, field: str) -> dict:
    return {
        f"{field}_0": moment.strftime("%Y-%m-%d"),
        f"{field}_1": moment.strftime("%H:%M:%S"),
    }


def _form(**changes) -> dict:
    start = (timezone.now() + datetime.timedelta(days=3)).replace(microsecond=0)
    data = {
        "name": "Friday night",
        "slug": "friday-night",
        "variant": Variant.objects.get(name="Devyatka").pk,
        "pace": "live",
        "rounds": 3,
        "games_per_round": 1,
        "min_seats": 3,
        "max_seats": 5,
        "capacity": "",
        **_when(start - datetime.timedelta(days=2), "signup_opens"),
        **_when(start + datetime.timedelta(minutes=30), "signup_closes"),
        **_when(start, "starts"),
        "round_hours": 72,
        "scoring": "",
        "tie_breaks": "[]",
        "series": "",
        "away_allowed": "on",
        "grouping": "mixed",
        "bot_level": "heuristic",
        "recurrence": "",
        "description": "",
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        "entries-MIN_NUM_FORMS": 0,
        "entries-MAX_NUM_FORMS": 1000,
    }
    data.update(changes)
    return data


def test_admin_creates_a_night(admin_client) -> None:
    response = admin_client.post(reverse("admin:events_event_add"), _form())
    assert response.status_code == 302, response.content.decode()[:3000]
    event = Event.objects.get()
    assert event.status == Event.Status.SCHEDULED
    assert event.scoring_key == "placement"


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"max_seats": 9}, "tables have 2 to 6 seats"),
        ({"min_seats": 1}, "tables have 2 to 6 seats"),
        ({"min_seats": 5, "max_seats": 4}, "cannot be fewer than the fewest"),
        ({"recurrence": "FREQ=FORTNIGHTLY"}, "not a recurrence the club can use"),
        ({"recurrence": "FREQ=MINUTELY"}, "not a recurrence the club can use"),
        ({"recurrence": "DTSTART:20260101T000000\nRRULE:FREQ=WEEKLY"}, "not a recurrence"),
        ({"scoring": "loss"}, "Loss scoring needs a single-loser variant"),
        ({"tie_breaks": '["nonsense"]'}, "Not a tie-break of this game"),
        ({"rounds": 0}, "at least one round"),
    ],
)
def test_admin_refuses_bad_input(admin_client, changes: dict, message: str) -> None:
    response = admin_client.post(reverse("admin:events_event_add"), _form(**changes))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Event.objects.exists()


def test_admin_refuses_a_pace_the_variant_does_not_allow(admin_client) -> None:
    variant = Variant.objects.get(name="Devyatka")
    variant.paces = ["live"]
    variant.save()
    response = admin_client.post(reverse("admin:events_event_add"), _form(pace="1d"))
    assert response.status_code == 200
    assert "is not played at that pace" in response.content.decode()
    assert not Event.objects.exists()


def test_admin_refuses_more_games_a_round_than_the_fewest_seats(admin_client) -> None:
    """Seat 0 passes round a table once a round at most: a round of more games than the
    fewest seats at a table is refused on its field, in the admin's language, and a night
    already saved is left as it was."""
    add = reverse("admin:events_event_add")
    response = admin_client.post(add, _form(games_per_round=4, min_seats=3))
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert "at most as many games as the fewest seats at a table (3)" in str(
        form.errors["games_per_round"]
    )
    assert not Event.objects.exists()
    assert admin_client.post(add, _form(games_per_round=3, min_seats=3)).status_code == 302
    event = Event.objects.get()
    change = reverse("admin:events_event_change", args=[event.pk])
    response = admin_client.post(change, _form(games_per_round=3, min_seats=2))
    assert response.status_code == 200
    assert "games_per_round" in response.context["adminform"].form.errors
    event.refresh_from_db()
    assert (event.games_per_round, event.min_seats) == (3, 3)
    response = admin_client.post(
        add, _form(slug="other", games_per_round=5, min_seats=4), HTTP_ACCEPT_LANGUAGE="fr"
    )
    message = str(response.context["adminform"].form.errors["games_per_round"])
    assert "(4)" in message and "at most as many games" not in message
