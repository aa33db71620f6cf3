"""`make screenshots`: docs/screenshots/<page>-<width>x<height>.png of the demo club.

Not a test file (pytest's default collection skips it): run it by path. It
builds the demo club (`demo_data`, the same seeded games on every machine) in
a site of its own, signs in as Anna, and photographs at a laptop and a phone
size: her home page (on a phone, also with its menu open), her Devyatka table
where it is her turn, a Golf table (a quick game, in the turn phase), a
finished game's replay part-way through, and a series page with its
standings; and a finished Golf table on a phone in Russian (its results and
Anna's grid).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_golf_browser import MY_SLOT
from tests.e2e.test_home_browser import sign_in
from tests.support.server import DaphneServer, SiteDatabase
from tests.support.tables import run_django

pytestmark = pytest.mark.browser

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = [(1366, 768), (390, 844)]


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple]:
    database = SiteDatabase(tmp_path_factory.mktemp("demo-site"))
    database.create()
    database.manage("demo_data")
    server = DaphneServer(database, tmp_path_factory.mktemp("demo-logs")).start()
    yield server, database
    server.stop()
    database.drop()


def shoot(page: Page, name: str, full_page: bool = False) -> None:
    page.evaluate("document.fonts.ready")
    page.wait_for_timeout(600)  # the last card's landing animation
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    page.screenshot(path=str(OUT / f"{name}-{width}x{height}.png"), full_page=full_page)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_demo_club_screenshots(chromium_browser, demo_site, size):
    server, database = demo_site
    OUT.mkdir(parents=True, exist_ok=True)
    width, height = size
    context = chromium_browser.new_context(
        base_url=server.url, viewport={"width": width, "height": height}, locale="en-GB"
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    sign_in(page, "anna@example.com")
    expect(page.get_by_test_id("your-turn").first).to_be_visible()
    shoot(page, "home")
    if page.get_by_test_id("nav-toggle").is_visible():  # a phone: its menu, open
        page.get_by_test_id("nav-toggle").click()
        expect(page.locator("#site-nav")).to_be_visible()
        shoot(page, "home-menu")
        page.keyboard.press("Escape")

    # Her Devyatka table (an earlier size's quick Golf game is her turn too).
    mine = page.get_by_test_id("my-table").filter(has=page.get_by_test_id("your-turn"))
    mine.filter(has_text="Devyatka").first.locator("a").first.click()
    expect(page.get_by_test_id("table-app")).to_have_attribute("data-turn", "you")
    expect(page.locator("[data-testid=hand-card][data-legal=true]").first).to_be_visible()
    shoot(page, "table-devyatka")

    page.goto("/")
    page.get_by_test_id("quick-golf").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table = page.get_by_test_id("table-app")
    for _ in range(2):
        page.locator(MY_SLOT).first.click()
        page.wait_for_timeout(300)
    page.get_by_test_id("golf-ready").click()
    expect(page.get_by_test_id("golf-ready")).to_be_hidden()
    expect(table).to_have_attribute("data-turn", "you")
    shoot(page, "table-golf")

    game = run_django(
        database,
        "from games.models import Game\n"
        "game = Game.objects.filter(table__series__slug='winter-nines', finished__isnull=False)"
        ".order_by('-finished').first()\n"
        "emit(game.pk)\n",
    )
    page.goto(f"/games/{game}/")
    expect(page.get_by_test_id("replay-next")).to_be_enabled()
    for _ in range(12):
        page.get_by_test_id("replay-next").click()
    page.evaluate("document.querySelector('[data-testid=replay]').scrollIntoView()")
    shoot(page, "replay")

    page.goto("/series/winter-nines/")
    shoot(page, "series")
    context.close()


def test_finished_golf_table_on_a_phone_in_russian(chromium_browser, demo_site):
    """Anna's last Golf Ladder table, over: the results (scrolling in their own box) and
    her 3x3 grid, at 390x844 in Russian."""
    server, database = demo_site
    OUT.mkdir(parents=True, exist_ok=True)
    table = run_django(
        database,
        "from club.models import GameResult\n"
        "result = GameResult.objects.filter(game__table__series__slug='golf-ladder', "
        "player__display_name='Anna').order_by('-finished').first()\n"
        "emit(result.game.table_id)\n",
    )
    context = chromium_browser.new_context(
        base_url=server.url, locale="en-GB", viewport={"width": 390, "height": 844}
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    sign_in(page, "anna@example.com")
    page.goto(f"/tables/{table}/")
    # Russian, chosen with the header's picker (her profile keeps it).
    page.get_by_test_id("nav-toggle").click()  # the phone's menu holds the picker
    page.get_by_test_id("language-select").select_option("ru")
    if page.get_by_test_id("language-go").is_visible():
        page.get_by_test_id("language-go").click()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.get_by_test_id("results")).to_be_visible()
    expect(page.locator("[data-testid=hand] [data-testid=golf-slot]")).to_have_count(9)
    # The whole page: the results first, then the last board and her grid below them.
    shoot(page, "table-golf-finished-ru", full_page=True)
    context.close()
