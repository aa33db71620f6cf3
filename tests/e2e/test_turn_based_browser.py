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


def test_turn_based_truths_the_rules_your_time_offline_and_a_seat_the_house_keeps(
    new_page, site_database
):
    """Issue 42: the rules box says the chosen pace; your own time is said to you; a member
    with no page open is "offline" (not away); a seat the house keeps says why, with no
    "I'm back" button, and the others read the same reason."""
    anna, boris = new_page(), new_page(width=390, height=844)
    anna_name, boris_name = sign_up(anna, "Anna"), sign_up(boris, "Boris")
    anna.goto("/tables/")
    anna.get_by_test_id("create-table").get_by_label("Pace").select_option(label="1 day a move")
    clock = anna.locator("[data-variant-rules]:visible li[data-pace-rule]:visible")
    expect(clock).to_have_count(1)
    expect(clock).to_have_text(re.compile(r"^1 day a move; when your time runs out"))
    table_id = open_table_keeping_pace(anna)
    boris.goto(f"/tables/{table_id}/")
    boris.get_by_test_id("join-button").click()
    mine = boris.get_by_test_id("pace-line").locator(".pace-deadline.mine")
    expect(mine).to_contain_text(re.compile(r"^You have (23 h \d+ min|1 day) to move \(until "))
    expect(boris.get_by_test_id("pace-line")).to_contain_text(f"{anna_name} has")
    # As the server writes times (club.i18n): day, month, year, a 24-hour clock.
    expect(mine.locator("time")).to_have_text(
        re.compile(r"^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d$")
    )
    # Boris leaves the page: at a turn-based table he is offline, not away.
    boris.goto("/")
    gone = (
        "from games.models import Seat; print(Seat.objects.filter("
        f"table_id={table_id}, player__display_name={boris_name!r}, away_since__isnull=False"
        ").exists())"
    )
    for _ in range(100):  # his socket's close is handled by the server: then it is recorded
        if site_database.shell(gone).strip() == "True":
            break
        anna.wait_for_timeout(100)
    anna.reload()
    badge = anna.get_by_test_id("opponent").filter(has_text=boris_name).locator(".away-badge")
    expect(badge).to_be_visible()
    expect(badge).to_have_text("offline")
    # His time ran out three times in a row: the house keeps his seat to the end.
    site_database.shell(
        "from games.models import Seat; "
        f"Seat.objects.filter(table_id={table_id}, player__display_name={boris_name!r})"
        ".update(missed=3, handed_over=True)"
    )
    boris.goto(f"/tables/{table_id}/")
    notice = boris.get_by_test_id("house-notice")
    expect(notice.locator(".notice-text")).to_have_text(
        "Your time ran out 3 times in a row: the house plays your seat to the end of this game."
    )
    expect(boris.get_by_test_id("back-button")).to_be_hidden()
    expect(anna.get_by_test_id("toasts")).to_contain_text(
        f"The house now plays for {boris_name}: their time ran out 3 times in a row."
    )
