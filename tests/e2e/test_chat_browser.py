"""Chat in Chromium: two members talk at a table, markup stays text, an admin hides a message live.

Everything goes through the real site on a real daphne process: the table
page's websocket, the chat panel, Django admin's changelist and its action.
Waits are Playwright expectations, never sleeps.
"""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.support.seated import open_seat, sign_in_as
from tests.support.tables import started_table

pytestmark = pytest.mark.browser

XSS = "<img src=x onerror=alert(1)> javascript:alert(2) see https://example.com/x"


def chat(page: Page):
    return page.get_by_test_id("chat-panel")


def messages(page: Page):
    return chat(page).get_by_test_id("chat-message")


def watch_dialogs(page: Page) -> list[str]:
    """Any alert() a message managed to run lands here."""
    seen: list[str] = []
    page.on("dialog", lambda dialog: (seen.append(dialog.message), dialog.dismiss()))
    return seen


def make_admin(site_database) -> tuple[str, str]:
    name = f"mod{uuid.uuid4().hex[:6]}"
    site_database.shell(
        "from django.contrib.auth import get_user_model; "
        f"get_user_model().objects.create_superuser('{name}', '{name}@example.com', 'mod-password')"
    )
    return name, "mod-password"


def test_two_members_chat_markup_stays_text_and_an_admin_hides_a_message_live(
    new_page, live_site, site_database
):
    log_start = live_site.log_path.stat().st_size
    made = started_table(site_database, seats=2, variant="Devyatka")
    anna_info, boris_info = made["players"]
    anna = open_seat(new_page(), live_site, anna_info["session"], made["table"])
    boris = open_seat(new_page(), live_site, boris_info["session"], made["table"])
    dialogs = watch_dialogs(anna) + watch_dialogs(boris)
    for page in (anna, boris):
        expect(chat(page).get_by_test_id("chat-input")).to_be_enabled()

    # Anna writes markup and a javascript: URL: both pages show it as text.
    anna.get_by_test_id("chat-input").fill(XSS)
    anna.get_by_test_id("chat-input").press("Enter")
    for page in (anna, boris):
        expect(messages(page)).to_have_count(1)
        expect(messages(page).first.get_by_test_id("chat-text")).to_have_text(XSS)
        assert chat(page).locator("img").count() == 0
        assert chat(page).locator("a").count() == 0  # no link, not even the https one
    expect(anna.get_by_test_id("chat-input")).to_have_value("")

    # Boris answers with a quick phrase, one click.
    boris.get_by_test_id("chat-phrase").filter(has_text="Good luck").click()
    for page in (anna, boris):
        expect(messages(page)).to_have_count(2)
        expect(messages(page).nth(1)).to_contain_text("Good luck")

    # The "/" key takes the keyboard to the chat box.
    boris.get_by_test_id("hand").focus()
    boris.keyboard.press("/")
    expect(boris.get_by_test_id("chat-input")).to_be_focused()

    # Boris reports Anna's message with one click, then gives a reason.
    first = messages(boris).first
    first.get_by_test_id("chat-report").click()
    reason = boris.get_by_test_id("chat-report-reason")
    expect(reason).to_be_visible()
    reason.fill("spam")
    reason.press("Enter")
    expect(first).to_contain_text("Thank you.")

    # An admin hides it in Django admin: it disappears from both pages, no reload.
    admin_name, password = make_admin(site_database)
    admin = new_page()
    admin.goto("/admin/login/")
    admin.get_by_label("Username").fill(admin_name)
    admin.get_by_label("Password").fill(password)
    admin.get_by_role("button", name="Log in").click()
    admin.goto("/admin/chat/chatmessage/?reported=open")
    row = admin.locator("#result_list tbody tr").filter(has_text="onerror")
    expect(row).to_have_count(1)
    row.locator("input[name=_selected_action]").check()
    admin.locator("select[name=action]").select_option("hide_messages")
    admin.get_by_role("button", name="Go").click()
    expect(admin.locator(".messagelist")).to_contain_text("1 message hidden.")
    for page in (anna, boris):
        expect(messages(page)).to_have_count(1)
        expect(messages(page).first).to_contain_text("Good luck")
    assert dialogs == []
    for page in (anna, boris):
        assert page.evaluate("document.getElementById('table-app').dataset.connected") == "true"

    log = live_site.log_path.read_bytes()[log_start:].decode(errors="replace")
    assert "Traceback" not in log, log[-3000:]


def test_lobby_chat_reaches_another_member_and_mute_keeps_them_quiet(
    new_page, live_site, site_database
):
    made = started_table(site_database, seats=2, variant="Devyatka")
    cleo_info, dora_info = made["players"]
    cleo = sign_in_as(new_page(), live_site, cleo_info["session"])
    dora = sign_in_as(new_page(), live_site, dora_info["session"])
    for page in (cleo, dora):
        page.goto("/tables/")
        expect(page.get_by_test_id("chat-input")).to_be_enabled()
    words = f"series tonight? {uuid.uuid4().hex[:6]}"
    cleo.get_by_test_id("chat-input").fill(words)
    cleo.get_by_test_id("chat-send").click()
    line = messages(dora).filter(has_text=words)
    expect(line).to_have_count(1)
    # New messages are read out politely.
    expect(dora.get_by_test_id("chat-announcer")).to_contain_text(words)
    expect(dora.get_by_test_id("chat-announcer")).to_have_attribute("aria-live", "polite")
    # Dora mutes Cleo: Cleo's lines go, and her next message never shows.
    line.get_by_test_id("chat-mute").click()
    expect(line).to_have_count(0)
    later = f"hello? {uuid.uuid4().hex[:6]}"
    cleo.get_by_test_id("chat-input").fill(later)
    cleo.get_by_test_id("chat-input").press("Enter")
    expect(messages(cleo).filter(has_text=later)).to_have_count(1)
    dora.reload()
    expect(dora.get_by_test_id("chat-input")).to_be_enabled()
    expect(messages(dora).filter(has_text=later)).to_have_count(0)
    # The panel folds away.
    chat(dora).locator("summary").click()
    expect(dora.get_by_test_id("chat-input")).to_be_hidden()
