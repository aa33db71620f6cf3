"""In Chromium, on a demo club of its own: a demo member's home page, a quick Golf game, live rows.

The site gets its own database with `demo_data` (the shared live site's
members would clash with the demo's names): Anna signs in with the password
the README gives, sees her table where it is her turn first, starts a quick
Golf game from the home page, makes a move, and watches her home page's row
for that table follow the house bots' moves without reloading.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import CHROMIUM
from tests.e2e.test_golf_browser import MY_SLOT
from tests.support.server import DaphneServer, SiteDatabase

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaphneServer]:
    if not CHROMIUM.exists():
        pytest.skip("needs Chromium")  # chromium_browser fails under CI before this matters
    database = SiteDatabase(tmp_path_factory.mktemp("demo-site"))
    database.create()
    database.manage("demo_data", "--games", "3")
    server = DaphneServer(database, tmp_path_factory.mktemp("demo-logs")).start()
    yield server
    server.stop()
    database.drop()


@pytest.fixture
def demo_page(chromium_browser, demo_site: DaphneServer) -> Iterator[Page]:
    context = chromium_browser.new_context(
        base_url=demo_site.url, viewport={"width": 1280, "height": 900}, locale="en-GB"
    )
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def sign_in(page: Page, email: str, password: str = "club-player-demo") -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password:", exact=True).fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_test_id("welcome-name")).to_be_visible()


def test_demo_member_sees_their_turn_and_plays_a_quick_golf_game(demo_page: Page):
    home = demo_page
    sign_in(home, "anna@example.com")
    expect(home.get_by_test_id("welcome-name")).to_have_text("Anna")
    rows = home.get_by_test_id("my-table")
    expect(rows.first.get_by_test_id("your-turn")).to_be_visible()
    expect(home.get_by_test_id("my-tables")).to_contain_text("Boris")  # his turn at the other

    home.get_by_test_id("quick-golf").click()
    home.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(home.url.rstrip("/").rsplit("/", 1)[1])
    table = home.get_by_test_id("table-app")
    expect(table).to_have_attribute("data-turn", "you")  # the reveal: everyone at once
    expect(home.locator("[data-testid=hand] [data-testid=golf-slot]")).to_have_count(9)
    version = table.get_attribute("data-version")
    home.locator(MY_SLOT).first.click()  # turn a card up: a move
    expect(table).not_to_have_attribute("data-version", version)
    expect(home.locator("[data-testid=hand] [data-testid=golf-slot][data-card]")).to_have_count(1)

    # The home page in a second tab: its row for this table follows the table live.
    watcher = home.context.new_page()
    watcher.goto("/")
    row = watcher.locator(f"[data-testid=my-table][data-table-id='{table_id}']")
    expect(row).to_be_visible()
    watcher.evaluate("window.notReloaded = true")
    # Ready: the reveal ends and the turns begin at the dealer's left, with the bots
    # (Anna opened the table: seat 0 deals round 1). Once they have played it is
    # Anna's turn again, at a version only the bots' moves can have made.
    home.get_by_test_id("golf-ready").click()
    expect(home.get_by_test_id("golf-ready")).to_be_hidden()
    expect(table).to_have_attribute("data-turn", "you")
    final = table.get_attribute("data-version")
    # The home page followed without a reload: its row is at that version, Anna's turn.
    expect(row).to_have_attribute("data-version", final)
    expect(row.get_by_test_id("your-turn")).to_be_visible()
    assert watcher.evaluate("window.notReloaded") is True
