"""What the pages say of turn-based tables must be true (issue 42): the pace in the
rules, away days as days, times in the reader's zone and language, dates typed as
the page's language writes them, name lists without a space before the comma."""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine
from django.test import Client
from django.utils import translation

from games import away, services
from games.models import Absence, Variant
from notifications.models import Notification
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]

START = datetime.datetime(2026, 12, 6, 9, 0, tzinfo=datetime.UTC)


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def signed_in(player, language: str = "en", zone: str = "") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(player.user)
    if zone:
        client.cookies["club_tz"] = zone
    return client


def test_a_turn_based_table_states_its_pace_in_the_rules_never_the_live_clock(settings):
    settings.TURN_BASED_MISSED_MOVES = 3
    anna, boris = member("Anna"), member("Boris")
    variant = Variant.objects.get(name="Keft")
    assert variant.turn_seconds  # a live clock of seconds, which no turn-based table runs
    lobby = signed_in(anna).get("/tables/").content.decode()
    rules = lobby[lobby.index(f'data-variant-rules="{variant.pk}"') :]
    rules = rules[: rules.index("</ul>")]
    # The create form's rules box has each pace's line; lobby.js shows the chosen one.
    assert re.search(r'<li data-pace-rule="live">\d+ s a move, then the house plays', rules)
    assert (
        '<li data-pace-rule="1d" hidden>1 day a move; when your time runs out, the house plays '
        "that move for you; after 3 such moves in a row, your seat to the end of the game</li>"
    ) in rules
    table, _ = services.create_table(anna, variant, 2, pace="1d")
    services.join_table(boris, table.pk)
    for language, expected, live in [
        ("en", "1 day a move; when your time runs out", "s a move, then the house"),
        ("ru", "1 день на ход; когда ваше время истекает", "с на ход, затем"),
        ("it", "1 giorno per mossa; quando il tuo tempo scade", "s per mossa, poi"),
    ]:
        page = signed_in(anna, language).get(f"/tables/{table.pk}/").content.decode()
        here = page[page.index('data-testid="rules-in-force"') :]
        here = here[: here.index("</ul>")]
        assert expected in here, language
        assert live not in here, language
    with translation.override("ru"):
        assert "после 3 раз подряд" in variant.clock_rule("2d")


def test_away_until_is_a_day_of_the_club_calendar_not_a_midnight_hour(clock, settings):
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2, pace="1d")
    services.join_table(boris, table.pk)
    away.declare(boris, datetime.date(2026, 12, 6), datetime.date(2026, 12, 8))
    for language, line in [
        ("en", "Boris is away until 8 Dec"),
        ("it", "Boris è assente: ultimo giorno 8 dic"),
        ("ru", "Boris в отъезде по 8 декабря"),
        ("fr", "Boris : absence jusqu'au 8 déc"),
    ]:
        page = signed_in(anna, language, "Europe/Moscow").get(f"/tables/{table.pk}/")
        text = re.sub(r"<[^>]+>", "", page.content.decode())
        assert re.search(re.escape(line) + r"(?![\d,])", text), language  # no year, no hour
    own = re.sub(r"<[^>]+>", "", signed_in(boris).get(f"/tables/{table.pk}/").content.decode())
    assert "You are away until 8 Dec" in own


def test_the_away_page_takes_days_as_the_language_writes_them_and_lists_them_so(clock):
    anna = member("Anna")
    it = signed_in(anna, "it")
    page = it.get("/away/").content.decode()
    assert 'type="date"' not in page  # the browser's own locale would decide the pattern
    assert 'placeholder="gg/mm/aaaa"' in page and "Nel formato gg/mm/aaaa." in page
    # American order on an Italian page is refused with a clear message; nothing is stored.
    refused = it.post("/away/", {"first": "12/31/2026", "last": "12/31/2026"})
    assert refused.status_code == 200
    assert "Scrivi il giorno nel formato gg/mm/aaaa." in refused.content.decode()
    assert not Absence.objects.exists()
    assert it.post("/away/", {"first": "7/12/2026", "last": "10/12/2026"}).status_code == 302
    listed = re.sub(r"\s+", " ", it.get("/away/").content.decode())
    assert "7 dic 2026 – 10 dic 2026" in listed  # no article to guess ("dall'8")
    ru = signed_in(member("Boris"), "ru")
    assert ru.post("/away/", {"first": "11.12.2026", "last": "2026-12-12"}).status_code == 302
    listed = re.sub(r"\s+", " ", ru.get("/away/").content.decode())
    assert "11 декабря 2026" in listed and "12 декабря 2026" in listed


def test_notification_times_are_in_the_readers_zone_and_language(clock):
    anna = member("Anna")
    Notification.objects.create(player=anna, kind="table_started", table_id=None, data={})
    for language, zone, shown in [
        ("it", "Europe/Rome", "6 dic 2026, alle 10:00"),
        ("ru", "Europe/Moscow", "6 декабря 2026, 12:00"),
        ("fr", "Europe/Paris", "6 déc 2026 à 10:00"),
        ("en", "Europe/London", "6 Dec 2026, 09:00"),
    ]:
        page = signed_in(anna, language, zone).get("/notifications/").content.decode()
        assert shown in page, language


def test_lobby_name_lists_have_no_space_before_a_comma():
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name="Keft"), 3)
    services.join_table(boris, table.pk)
    page = signed_in(anna).get("/tables/").content.decode()
    assert re.search(r"Anna,\s*Boris|Boris,\s*Anna", page)
    assert not re.search(r"\s,\s*(Anna|Boris)", page)
