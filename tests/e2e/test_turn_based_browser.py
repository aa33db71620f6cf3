"""A turn-based table in Chromium: the pace chosen in the lobby, each member's time to move
on the table page, and away days that stop a member's clock for the others to see."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_table_browser import sign_up

pytestmark = pytest.mark.browser


def test_turn_based_table_shows_time_to_move_and_away_days_to_the_other_player(new_page):
    anna, boris = new_page(), new_page()
    anna_name, boris_name = sign_up(anna, "Anna"), sign_up(boris, "Boris")
    anna.goto("/tables/")
    anna.get_by_test_id("create-table").get_by_label("Pace").select_option(label="1 day a move")
    table_id = open_table_keeping_pace(anna)
    boris.goto(f"/tables/{table_id}/")
    boris.get_by_test_id("join-button").click()
    line = boris.get_by_test_id("pace-line")
    expect(line).to_contain_text("1 day a move")
    # Golf's reveal: both members may act, each with their day (in the page's words).
    expect(line.get_by_test_id("seat-deadline")).to_have_count(2)
    expect(line).to_contain_text(re.compile(rf"{anna_name} has (23 h \d+ min|1 day) to move"))
    expect(line.locator("time").first).to_have_attribute("datetime", re.compile(r"^\d{4}-"))
    # Anna declares today away: Boris's page says so at once, and her clock has stopped.
    anna.goto("/away/")
    form = anna.get_by_test_id("away-form")
    today = anna.evaluate("() => new Date().toISOString().slice(0, 10)")
    form.get_by_label("First day away").fill(today)
    form.get_by_label("Last day away").fill(today)
    form.get_by_role("button", name="Declare").click()
    expect(anna.get_by_test_id("away-item")).to_have_count(1)
    expect(line.get_by_test_id("seat-away")).to_contain_text(f"{anna_name} is away until")
    expect(line).to_contain_text(re.compile(rf"{anna_name} has 1 day( \d+ h)? to move"))
    assert boris_name not in line.get_by_test_id("seat-away").inner_text()


def open_table_keeping_pace(page) -> int:
    form = page.get_by_test_id("create-table")
    form.get_by_label("Game").select_option(label="Golf")
    form.get_by_label("Seats").fill("2")
    form.get_by_role("button", name="Open table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))
