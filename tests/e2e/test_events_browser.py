"""A live club night in Chromium, on a real daphne server with the real task worker and a
real SMTP server: Anna signs up in one click beside five members; Boris, away from the
site, gets the "starts in 10 minutes" reminder by mail; the admin starts the night and the
house seats the six at two tables of four, a house bot filling each gap; Anna opens her
table and plays her cards of round 1 by clicking, the house playing the seats of the
members who never open theirs (away after AWAY_GRACE_SECONDS, 1 s here); round 2 is
seated by itself once both tables are done; Anna's page shows the tables and the standings
without a reload, over the night's socket.

What is not a member's click here: the five other sign-ups (the services, in a shell), the
other members' games and round 2 (the house plays their absent seats, as it does for a
member who left a table), so the test needs no six browsers.
"""

from __future__ import annotations

import datetime
import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.e2e.test_table_browser import LEGAL, PASSWORD
from tests.integration.mailbox import Mailbox, body
from tests.support.server import DaphneServer, SiteDatabase, free_port
from tests.support.worker import AnalysisWorker

pytestmark = pytest.mark.browser

MEMBERS = ["Anna", "Boris", "Vera", "Grigori", "Dmitri", "Elena"]


def reminder(box: Mailbox, address: str, timeout: float = 40.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in box.to(address):
            if "starts in 10 minutes" in body(message):
                return message
        time.sleep(0.2)
    raise AssertionError(f"no reminder mail to {address}")


def admin_action(page, action: str) -> None:
    page.goto("/admin/events/event/")
    page.locator("input[name=_selected_action]").first.check()
    page.locator("select[name=action]").select_option(action)
    page.locator("button[name=index]").click()
    expect(page.locator(".messagelist")).to_contain_text("club night changed")


def test_a_live_night_seated_by_the_house_with_live_standings_and_a_mail_reminder(
    chromium_browser, tmp_path
):
    database = SiteDatabase(tmp_path)
    database.create()
    box = Mailbox().start()
    port = free_port()
    env = {
        "EMAIL_URL": f"smtp://127.0.0.1:{box.port}",
        "SITE_URL": f"http://127.0.0.1:{port}",
        "NOTIFY_PUMP_SECONDS": "0.3",
        "HOUSE_DUTY_SECONDS": "0.5",
        "AWAY_GRACE_SECONDS": "1",
    }
    start = datetime.datetime.now(datetime.UTC) + datetime.timedelta(minutes=8)
    database.shell(
        "import datetime\n"
        "from allauth.account.models import EmailAddress\n"
        "from django.contrib.auth import get_user_model\n"
        "from events.models import Event\n"
        "from games.models import Variant\n"
        "User = get_user_model()\n"
        f"for name in {MEMBERS!r}:\n"
        f"    user = User.objects.create_user(name.lower(), f'{{name.lower()}}@example.com', {PASSWORD!r})\n"
        "    user.player.display_name = name\n"
        "    user.player.save()\n"
        "    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)\n"
        f"User.objects.create_superuser('root', 'root@example.com', {PASSWORD!r})\n"
        f"start = datetime.datetime.fromisoformat({start.isoformat()!r})\n"
        "Event.objects.create(name='Friday night', slug='friday-night',\n"
        "    variant=Variant.objects.get(name='Devyatka'), pace='live', rounds=2,\n"
        "    min_seats=4, max_seats=4, starts=start,\n"
        "    signup_opens=start - datetime.timedelta(days=1),\n"
        "    signup_closes=start + datetime.timedelta(hours=1))\n"
    )
    server = DaphneServer(database, tmp_path, port=port, env=env).start()
    worker = AnalysisWorker(database, tmp_path, env).start()
    contexts = []

    def page():
        context = chromium_browser.new_context(base_url=server.url, bypass_csp=True)
        context.set_default_timeout(20_000)
        contexts.append(context)
        return context.new_page()

    try:
        anna, admin = page(), page()
        anna.goto("/accounts/login/")
        anna.get_by_label("Email").fill("anna@example.com")
        anna.get_by_label("Password:", exact=True).fill(PASSWORD)
        anna.get_by_role("button", name="Sign in").click()
        expect(anna.get_by_test_id("nav-me")).to_have_text("Anna")
        anna.goto("/")
        expect(anna.get_by_test_id("upcoming-nights")).to_contain_text("Friday night")
        anna.goto("/nights/friday-night/")
        anna.get_by_test_id("event-sign-up").click()
        expect(anna.locator(".messages")).to_contain_text("You are signed up for Friday night.")
        database.shell(
            "from club.models import Player\n"
            "from events import services\n"
            "from events.models import Event\n"
            "event = Event.objects.get(slug='friday-night')\n"
            f"for name in {MEMBERS[1:]!r}:\n"
            "    services.sign_up(Player.objects.get(display_name=name), event.pk)\n"
        )
        anna.reload()
        expect(anna.get_by_test_id("event-entries").locator("li")).to_have_count(6)

        # Boris has no page open: the reminder reaches him by mail.
        mail = reminder(box, "boris@example.com")
        assert "Friday night" in body(mail)
        assert "/nights/friday-night/" in body(mail)

        admin.goto("/admin/login/")
        admin.get_by_label("Username").fill("root")
        admin.get_by_label("Password").fill(PASSWORD)
        admin.get_by_role("button", name=re.compile("Log in")).click()
        anna.evaluate("window.notReloaded = true")
        admin_action(admin, "start_now")

        round_one = anna.get_by_test_id("event-round-1").locator("li")
        expect(round_one).to_have_count(2)  # without a reload: the night's socket
        expect(anna.get_by_test_id("event-round-1")).to_contain_text("Play")
        seats = database.shell(
            "from events.models import RoundTable\n"
            "print([(len(t.members), len(t.bots)) for t in "
            "RoundTable.objects.filter(round__number=1)])\n"
        )
        assert seats.strip() == "[(3, 1), (3, 1)]"

        # Anna plays her round-1 game by clicking; the house plays the absent seats.
        anna.get_by_test_id("event-round-1").get_by_role("link", name="Play").click()
        table = anna.get_by_test_id("table-app")
        expect(table).to_have_attribute("data-status", "playing")
        clicks = 0
        deadline = time.monotonic() + 120
        while table.get_attribute("data-over") != "true":
            assert time.monotonic() < deadline, "Anna's game did not end"
            if table.get_attribute("data-turn") == "you":
                card = anna.locator(f"{LEGAL}:enabled").first
                try:
                    version = table.get_attribute("data-version")
                    card.click(timeout=2_000)
                    expect(table).not_to_have_attribute("data-version", version)
                    clicks += 1
                except AssertionError:
                    pass  # the turn passed meanwhile (an automatic pass): look again
                except PlaywrightError:
                    pass
            else:
                anna.wait_for_timeout(100)
        assert clicks >= 1
        expect(anna.get_by_test_id("results")).to_be_visible()
        anna.goto("/nights/friday-night/")
        anna.evaluate("window.notReloaded = true")
        # Both tables done: the house seats round 2 by itself, and, nobody opening a table
        # of it, plays it out after the grace: the night ends with two games each.
        expect(anna.get_by_test_id("event-round-2").locator("li")).to_have_count(2, timeout=60_000)
        rows = anna.get_by_test_id("event-row")
        expect(rows).to_have_count(6)
        for index in range(6):
            expect(rows.nth(index).locator("td").nth(2)).to_have_text("2", timeout=60_000)
        expect(rows.first.locator("td").first).to_have_text("1")
        assert anna.evaluate("window.notReloaded") is True
        anna.reload()
        expect(anna.get_by_test_id("event-replay")).to_have_count(4)
    finally:
        for context in contexts:
            context.close()
        worker.stop()
        server.stop()
        box.stop()
        database.drop()


@pytest.fixture(scope="module")
def night_with_standings(site_database) -> str:
    """A club night with a round played and standings, on the shared test site."""
    slug = f"fit-night-{time.monotonic_ns() % 100000}"
    site_database.shell(
        "import datetime\n"
        "from django.utils import timezone\n"
        "from events import running, services as event_services\n"
        "from events.models import Event, RoundTable\n"
        "from games import services\n"
        "from games.models import Variant\n"
        "from tests.support.members import member\n"
        "now = timezone.now()\n"
        f"event = Event.objects.create(name='Long club night name for a phone', slug={slug!r},\n"
        "    variant=Variant.objects.get(name='Devyatka'), rounds=3, min_seats=3,\n"
        "    max_seats=4, signup_opens=now - datetime.timedelta(days=1),\n"
        "    signup_closes=now + datetime.timedelta(hours=1),\n"
        "    starts=now + datetime.timedelta(minutes=30))\n"
        "for i in range(7):\n"
        f"    event_services.sign_up(member(f'Fitnight{{i}}x{slug[-4:]}'), event.pk)\n"
        "running.start(event.pk)\n"
        "for t in RoundTable.objects.filter(round__event=event):\n"
        "    services.play_out(t.table_id)\n"
    )
    return slug


@pytest.mark.parametrize("lang", ["en", "it", "fr", "ru", "es", "ro"])
def test_the_night_page_fits_a_phone(new_page, live_site, night_with_standings, lang):
    phone = new_page(width=390, height=844)
    phone.context.add_cookies([{"name": "django_language", "value": lang, "url": live_site.url}])
    for path in (f"/nights/{night_with_standings}/", "/nights/"):
        phone.goto(path)
        if path != "/nights/":
            expect(phone.get_by_test_id("event-standings")).to_be_visible()
            expect(phone.get_by_test_id("event-row")).to_have_count(7)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, (lang, path)
