"""In Chromium, with a real SMTP server and the real task worker: Anna opens a private
turn-based Golf table and invites Boris by name (who confirmed his address and takes
invitations by mail from members he has not played with); the mail's link opens the table for
him; he joins and turns a card up; Anna's bell counts up without a reload; Anna
declares days away: Boris sees her "away until", and her deadline moves past them.
"""

from __future__ import annotations

import datetime
import re
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.test_table_browser import sign_up
from tests.integration.mailbox import Mailbox, body
from tests.support.server import DaphneServer, SiteDatabase, free_port
from tests.support.worker import AnalysisWorker

pytestmark = pytest.mark.browser

MY_SLOT = "[data-testid=hand] [data-testid=golf-slot][data-legal=true]:enabled"


def invitation(box: Mailbox, address: str, timeout: float = 30.0):
    """The club's notification mail to `address` (the sign-up mails are allauth's)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in box.to(address):
            if "notify." in (message["Message-ID"] or ""):
                return message
        time.sleep(0.1)
    raise AssertionError(f"no notification mail to {address}")


def confirmation_link(box: Mailbox, address: str, timeout: float = 30.0) -> str:
    """The path of the address confirmation link allauth mailed to `address`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in box.to(address):
            found = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", body(message))
            if found:
                return found.group(1)
        time.sleep(0.1)
    raise AssertionError(f"no confirmation mail to {address}")


def test_an_invitation_by_mail_a_live_bell_and_away_days(chromium_browser, tmp_path):
    database = SiteDatabase(tmp_path)
    database.create()
    box = Mailbox().start()
    port = free_port()
    env = {
        "EMAIL_URL": f"smtp://127.0.0.1:{box.port}",
        "SITE_URL": f"http://127.0.0.1:{port}",
        "NOTIFY_PUMP_SECONDS": "0.3",
    }
    server = DaphneServer(database, tmp_path, port=port, env=env).start()
    worker = AnalysisWorker(database, tmp_path, env).start()
    contexts = []

    def page():
        context = chromium_browser.new_context(base_url=server.url, bypass_csp=True)
        context.set_default_timeout(20_000)
        contexts.append(context)
        return context.new_page()

    try:
        anna, boris = page(), page()
        sign_up(anna, "Anna")
        boris_name = sign_up(boris, "Boris")
        # Mail goes only to a confirmed address, and invitations by mail from members
        # never played with only to those who asked for them (issue 42): Boris does both.
        boris.goto(confirmation_link(box, f"{boris_name.lower()}@example.com"))
        boris.get_by_role("button", name="Confirm").click()
        boris.goto("/notifications/settings/")
        expect(boris.get_by_test_id("mail-unconfirmed")).to_have_count(0)
        boris.get_by_test_id("preference-strangers").locator("input").check()
        boris.get_by_test_id("save-preferences").click()
        expect(boris.get_by_test_id("preference-strangers").locator("input")).to_be_checked()
        boris.goto("about:blank")  # Boris leaves the site: he is told by mail

        anna.goto("/tables/")
        form = anna.get_by_test_id("create-table")
        form.get_by_label("Game").select_option(label="Golf")
        form.get_by_label("Seats").fill("2")
        form.get_by_label("Private (only people with the invite link can join)").check()
        form.get_by_label("Pace").select_option(label="1 day a move")
        form.get_by_role("button", name="Open table").click()
        anna.wait_for_url(re.compile(r"/tables/\d+/$"))
        table_url = anna.url
        expect(anna.get_by_test_id("bell-count")).to_be_hidden()
        # Anna's phone on her home page: the count shows on the closed menu's button (issue 42).
        phone = anna.context.new_page()
        phone.set_viewport_size({"width": 390, "height": 844})
        phone.goto("/")
        expect(phone.get_by_test_id("nav-toggle")).to_be_visible()
        expect(phone.get_by_test_id("menu-count")).to_be_hidden()

        anna.get_by_test_id("invite-name").fill(boris_name)
        anna.get_by_test_id("invite-send").click()
        expect(anna.locator(".messages")).to_contain_text(f"{boris_name} is invited.")

        mail = invitation(box, boris_name.lower())
        [link] = [u for u in re.findall(r"http://\S+", body(mail)) if "/tables/" in u]
        assert link.startswith(table_url) and "?invite=" in link
        boris.goto(link)
        boris.get_by_test_id("join-button").click()

        # The game starts with Boris's seat: Anna's bell counts it without a reload.
        expect(anna.get_by_test_id("bell-count")).to_have_text(re.compile(r"[1-9]"))
        before = int(anna.get_by_test_id("bell-count").inner_text())
        # The same count, live, on the phone's closed menu, and said in words.
        expect(phone.get_by_test_id("menu-count")).to_have_text(re.compile(r"[1-9]"))
        expect(phone.get_by_test_id("menu-count")).to_be_visible()
        expect(phone.locator("#site-nav")).to_be_hidden()
        expect(phone.get_by_test_id("nav-toggle")).to_have_accessible_name(
            re.compile(r"Menu \d+ unread notifications?")
        )
        expect(boris.locator(MY_SLOT).first).to_be_visible()
        boris.locator(MY_SLOT).first.click()  # he turns a card up
        expect(
            boris.locator("[data-testid=hand] [data-testid=golf-slot][data-card]")
        ).to_have_count(1)

        # Anna's deadline, as Boris sees it, then her days away.
        deadline = boris.get_by_test_id("seat-deadline").filter(has_text=re.compile("Anna"))
        expect(deadline).to_have_count(1)
        before_at = deadline.locator("time").get_attribute("datetime")
        today = datetime.datetime.now(datetime.UTC).date()
        anna.goto("/away/")
        anna.get_by_label("First day away").fill(today.isoformat())
        anna.get_by_label("Last day away").fill((today + datetime.timedelta(days=2)).isoformat())
        anna.get_by_test_id("away-form").get_by_role("button").click()
        expect(anna.get_by_test_id("away-item")).to_have_count(1)
        expect(boris.get_by_test_id("seat-away").filter(has_text=re.compile("Anna"))).to_have_count(
            1
        )
        # Her clock stopped: the time she has runs out only after her days away.
        expect(deadline.locator("time")).not_to_have_attribute("datetime", before_at)
        after_at = deadline.locator("time").get_attribute("datetime")
        moved = datetime.datetime.fromisoformat(after_at) - datetime.datetime.fromisoformat(
            before_at
        )
        assert moved >= datetime.timedelta(days=1), (before_at, after_at)
        assert int(anna.get_by_test_id("bell-count").inner_text()) >= before
    finally:
        for context in contexts:
            context.close()
        worker.stop()
        server.stop()
        box.stop()
        database.drop()


@pytest.mark.parametrize("empty", [True, False])
def test_the_notifications_page_fits_a_phone(new_page, site_database, empty):
    phone = new_page(width=390, height=844)
    name = sign_up(phone, "Vera")
    if not empty:
        site_database.shell(
            "from club.models import Player\n"
            "from games import hooks\n"
            f"vera = Player.objects.get(display_name={name!r})\n"
            "for n in range(3):\n"
            "    hooks.emit(hooks.Event('message', (vera.pk,), data={'text': 'A long word: '"
            " + 'Kartenspielverein' * 6}))\n"
        )
    phone.goto("/notifications/")
    expect(
        phone.get_by_test_id("notifications-empty" if empty else "notification-list")
    ).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    if not empty:
        phone.get_by_test_id("read-all").click()
        expect(phone.get_by_test_id("mark-read")).to_have_count(0)
        expect(phone.get_by_test_id("bell-count")).to_be_hidden()
