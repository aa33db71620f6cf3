"""In Chromium: the language picker switches at once, and a Russian Golf table
speaks to the member in the second person and names its bot once (issue 35,
points 3, 4 and 8)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_table_browser import app, open_table, sign_up

pytestmark = pytest.mark.browser


def test_the_picker_switches_at_once_and_golf_speaks_to_the_member(new_page):
    page = new_page(width=390, height=844)
    sign_up(page, "Slava")
    open_table(page, "Golf", 2)
    options = page.get_by_test_id("language-select").locator("option")
    expect(options.filter(has_text="English")).to_have_count(1)

    # Choosing an option is enough: no click on the button (the phone's menu first).
    page.get_by_test_id("nav-toggle").click()
    page.get_by_test_id("language-select").select_option("ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(options.filter(has_text="English")).to_have_count(1)  # not "Английский"
    expect(options.filter(has_text="Italiano")).to_have_count(1)

    page.get_by_test_id("bot-level").select_option("heuristic")
    page.get_by_test_id("add-bot-button").click()
    expect(page.get_by_test_id("golf-ready")).to_be_visible()

    # Under the member's own name: the second person.
    stats = page.locator(".me-stats")
    expect(stats).to_contain_text("вы выбираете")
    page.get_by_test_id("golf-ready").click()
    expect(stats).to_contain_text("вы готовы")

    # The bot: its first name in full, its level once, translated.
    bot = page.locator("[data-testid=opponent]").first
    expect(bot.locator(".name")).to_have_text("Hugo")
    expect(bot.locator(".bot-badge")).to_have_text("эвристический бот")
    assert "heuristic" not in bot.inner_text()
    clipped = bot.locator(".name").evaluate("(el) => el.scrollWidth - el.clientWidth > 1")
    assert not clipped
    expect(app(page)).to_be_visible()


def test_bots_names_are_not_clipped_by_their_level_at_a_full_golf_table(new_page):
    page = new_page(width=1366, height=768)
    sign_up(page, "Mila")
    open_table(page, "Golf", 4)
    page.get_by_test_id("language-select").select_option("ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.get_by_test_id("bot-level").select_option("heuristic")
    for _ in range(3):
        page.get_by_test_id("add-bot-button").click()
    expect(page.get_by_test_id("golf-ready")).to_be_visible()
    opponents = page.locator("[data-testid=opponent]")
    expect(opponents).to_have_count(3)
    for i in range(3):
        name = opponents.nth(i).locator(".name")
        expect(name).to_have_text(re.compile(r"^H[a-z]+$"))
        # Whole, not cut to "Hu…" (a pixel of rounding aside).
        assert name.evaluate("(el) => el.scrollWidth - el.clientWidth <= 1"), name.inner_text()
        assert opponents.nth(i).locator(".bot-badge").get_attribute("title") == "эвристический бот"
