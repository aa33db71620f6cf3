"""In Chromium: the house's moves for a member are marked and explained; a bot's are not."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.test_table_browser import open_table, sign_up

pytestmark = pytest.mark.browser


def test_house_move_for_a_member_gets_a_toast_and_a_mark_a_bots_move_does_not(
    new_page, site_database
):
    variant = f"Devyatka 5 s {uuid.uuid4().hex[:4]}"
    site_database.shell(
        "from games.models import Variant; "
        f"Variant.objects.create(name={variant!r}, turn_seconds=5, min_players=2)"
    )
    page = new_page()
    name = sign_up(page, "Slow")
    open_table(page, variant, 2)
    page.get_by_test_id("bot-level").select_option("random")
    page.get_by_test_id("add-bot-button").click()
    expect(page.get_by_test_id("board")).to_be_visible()

    # The member never clicks: on their first real turn the clock runs out.
    toast = page.locator("[data-testid=toast][data-code=played_for_you]").first
    expect(toast).to_be_visible(timeout=30_000)
    expect(toast).to_contain_text(re.compile(r"House move for you \(your time ran out\): played"))
    log = page.get_by_test_id("move-log")
    mine = log.locator("li", has_text=name).filter(has_text="by the house")
    expect(mine.first).to_be_visible()
    # The bot's own moves carry no mark: every marked line is the member's.
    marked = log.locator("li", has_text="by the house")
    assert marked.count() == mine.count()
    bot_lines = log.locator("li").filter(has_not_text=name)
    expect(bot_lines.first).to_be_visible()


def test_the_open_table_message_fades_once_the_game_starts(new_page):
    host, guest = new_page(), new_page()
    sign_up(host, "Host")
    sign_up(guest, "Guest")
    table_id = open_table(host, "Devyatka", 2)
    expect(host.locator("ul.messages")).to_contain_text("is open")
    guest.goto(f"/tables/{table_id}/")
    guest.get_by_role("button", name="Join").first.click()
    # The table filled and started: "Table N is open..." no longer describes it.
    expect(host.get_by_test_id("board")).to_be_visible()
    expect(host.locator("ul.messages")).to_have_count(0)
