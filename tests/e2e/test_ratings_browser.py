"""In Chromium: two members finish a game at a live table and find their ratings on their pages."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_house_browser import play_until_over
from tests.e2e.test_table_browser import open_table, sign_up

pytestmark = pytest.mark.browser


def test_finishing_a_game_puts_a_rating_on_the_players_page(new_page):
    host, guest = new_page(), new_page()
    sign_up(host, "Rata")
    sign_up(guest, "Ratb")

    # Before any game: no rating yet.
    host.get_by_test_id("nav-me").click()
    expect(host.get_by_test_id("ratings-empty")).to_be_visible()

    open_table(host, "Devyatka", 2)
    table_url = host.url
    guest.goto(table_url)
    guest.get_by_test_id("join-button").click()
    expect(guest.get_by_test_id("board")).to_be_visible()
    play_until_over([host, guest])
    expect(host.get_by_test_id("results")).to_be_visible()

    for page in (host, guest):
        page.get_by_test_id("nav-me").click()
        row = page.get_by_test_id("rating-devyatka")
        expect(row).to_be_visible()
        expect(row.get_by_test_id("rating-value")).to_contain_text(re.compile(r"\d{3,4}"))
        expect(row).to_contain_text("provisional")
        change = page.get_by_test_id("rating-change")
        expect(change).to_have_count(1)
        expect(change).to_contain_text("1500 →")
        change.get_by_role("link").click()
        page.wait_for_url(re.compile(r"/games/\d+/$"))

    host.get_by_role("link", name="Ratings", exact=True).first.click()
    host.wait_for_url(re.compile(r"/ratings/$"))
    expect(host.get_by_role("heading", name="Ratings", exact=True)).to_be_visible()
