"""In Chromium: a lone member fills a table with house bots and plays a whole game,
and an admin's Keft series shows a loss after two members play at one of its tables."""

from __future__ import annotations

import re
import time
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_table_browser import LEGAL, app, open_table, result_places, sign_up

pytestmark = pytest.mark.browser


def play_until_over(pages: list[Page], limit: int = 80) -> None:
    """Whoever is to move among `pages` clicks their first lifted card; bots do the rest."""
    for _ in range(limit):
        mover = wait_for_turn(pages)
        if mover is None:
            return
        version = app(mover).get_attribute("data-version")
        mover.locator(f"{LEGAL}:enabled").first.click()
        expect(app(mover)).not_to_have_attribute("data-version", version)
    raise AssertionError("the game did not end")


def wait_for_turn(pages: list[Page], seconds: float = 30) -> Page | None:
    """The page whose player is to move, or None once the game is over."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for page in pages:
            turn = app(page).get_attribute("data-turn")
            if turn == "over":
                return None
            if turn == "you":
                return page
        pages[0].wait_for_timeout(50)
    raise AssertionError("nobody was to move and the game was not over")


def test_lone_member_plays_a_whole_game_against_three_bots(new_page):
    page = new_page(width=390, height=844)
    sign_up(page, "Solo")
    open_table(page, "Devyatka", 4)
    for level in ("random", "heuristic", "search"):
        page.get_by_test_id("bot-level").select_option(level)
        page.get_by_test_id("add-bot-button").click()
    # The table was full, so it started by itself.
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("opponents").locator(".bot-badge")).to_have_count(3)

    # Only the member clicks, until the results panel shows.
    play_until_over([page])

    expect(page.get_by_test_id("results")).to_be_visible()
    expect(page.get_by_test_id("result-row")).to_have_count(4)
    # The bots' own moves are not "by the house" (that mark is for a member's seat).
    expect(page.get_by_test_id("move-log")).not_to_contain_text("by the house")
    # The results lead to the game's page, with its replay.
    page.get_by_test_id("game-page-link").click()
    page.wait_for_url(re.compile(r"/games/\d+/#replay$"))
    expect(page.get_by_test_id("replay")).to_be_visible()


def test_admin_series_counts_a_keft_loss(new_page, site_database):
    admin_email = f"admin{uuid.uuid4().hex[:6]}@example.com"
    site_database.shell(
        "from django.contrib.auth import get_user_model; "
        f"get_user_model().objects.create_superuser('{admin_email.split('@')[0]}', "
        f"'{admin_email}', 'an-admin-password')"
    )
    series_name = f"Keft cup {uuid.uuid4().hex[:4]}"

    admin = new_page()
    admin.goto("/admin/login/")
    admin.get_by_label("Username").fill(admin_email.split("@")[0])
    admin.get_by_label("Password").fill("an-admin-password")
    admin.get_by_role("button", name="Log in").click()
    admin.goto("/admin/club/series/add/")
    admin.get_by_label("Name").fill(series_name)
    admin.get_by_label("Variant").select_option(label="Keft")
    admin.get_by_label("Min games").fill("1")
    admin.get_by_role("button", name="Save", exact=True).click()
    expect(admin.locator(".messagelist")).to_contain_text("was added successfully")

    host, guest = new_page(), new_page()
    host_name = sign_up(host, "Kefa")
    guest_name = sign_up(guest, "Kefb")
    host.goto("/tables/")
    form = host.get_by_test_id("create-table")
    form.get_by_label("Game").select_option(label="Keft")
    form.get_by_label("Seats").fill("2")
    form.get_by_label("House series").select_option(label=series_name)
    form.get_by_role("button", name="Open table").click()
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_url = host.url
    guest.goto(table_url)
    guest.get_by_test_id("join-button").click()
    expect(guest.get_by_test_id("board")).to_be_visible()

    play_until_over([host, guest])
    # Keft places follow the out order: the loser is the one placed last.
    places = {place: name.removesuffix(" (you)") for _, place, name in result_places(host)}
    loser = places["2"]
    assert loser in (host_name, guest_name)

    host.get_by_role("link", name="Series").click()
    host.get_by_role("link", name=series_name).click()
    standings = host.get_by_test_id("standings")
    expect(standings.locator(f"tr[data-player='{loser}'] [data-testid=losses]")).to_have_text("1")
    winner = guest_name if loser == host_name else host_name
    expect(standings.locator(f"tr[data-player='{winner}'] [data-testid=losses]")).to_have_text("0")
