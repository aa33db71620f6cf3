"""In Chromium: the live table for keyboard and screen-reader players, and axe-core.

- A skip link is the first tab stop and lands on your playable card; after a
  move the focus stays in the hand.
- Every card in hand has a spoken name saying whether it can be played now;
  Golf's slots say their row and column.
- The others' moves and your turn are read out in a polite live region.
- The "your turn" sound is off by default, and the choice is remembered.
- axe-core finds no serious or critical violation on a table in play
  (Devyatka and Golf) or on the results panel of a finished game.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.support.axe import assert_accessible
from tests.support.seated import open_seat
from tests.support.tables import run_django, started_table

pytestmark = [pytest.mark.browser, pytest.mark.once]

# A two-seat Devyatka deal where the seat without the nine of diamonds can answer it.
SOUND_SEED = 1
RANKS = "two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace"
CARD_NAME = re.compile(
    rf"^({RANKS}) of (clubs|diamonds|hearts|spades), (playable, key [1-9]|playable|not playable)$"
)
SLOT_NAME = re.compile(
    rf"^Row [1-3], column [1-3], (face down|({RANKS}) of \w+)(, not playable|, key [1-9]: .+)$"
)


def app(page: Page):
    return page.get_by_test_id("table-app")


def seated_pages(
    new_page, live_site, site_database, players: int, variant: str, seed: int | None = None
) -> list[Page]:
    made = started_table(site_database, seats=players, variant=variant, seed=seed)
    return [open_seat(new_page(), live_site, p["session"], made["table"]) for p in made["players"]]


def the_one_to_move(pages: list[Page]) -> Page:
    """The page whose turn it is, once the last frame has reached every page.

    A page that has pressed ready already shows "other" while the others get
    ready, so "you" may reach the mover's page after the rest are checked.
    """
    deadline = time.monotonic() + 20
    while True:
        movers = [p for p in pages if app(p).get_attribute("data-turn") == "you"]
        if len(movers) == 1:
            return movers[0]
        assert time.monotonic() < deadline, f"{len(movers)} pages show it is their turn"
        pages[0].wait_for_timeout(100)


def focus_in_hand(page: Page) -> bool:
    return page.evaluate("Boolean(document.activeElement?.closest('[data-testid=hand]'))")


def test_keyboard_player_skips_to_the_hand_and_keeps_focus_there_after_a_move(
    new_page, live_site, site_database
):
    pages = seated_pages(new_page, live_site, site_database, 2, "Devyatka")
    for page in pages:
        expect(app(page)).to_have_attribute("data-turn", re.compile("you|other"))
    mover, other = pages if app(pages[0]).get_attribute("data-turn") == "you" else pages[::-1]

    # Every card has a name that says whether it can be played; only 9D can open.
    for page in pages:
        labels = page.get_by_test_id("hand-card").evaluate_all(
            "cards => cards.map(c => c.getAttribute('aria-label'))"
        )
        assert len(labels) == 18
        assert all(CARD_NAME.match(label) for label in labels), labels
    nine = mover.locator("[data-testid=hand-card][data-card='9D']")
    expect(nine).to_have_attribute("aria-label", "nine of diamonds, playable, key 1")
    expect(mover.get_by_test_id("me-turn")).to_be_visible()

    # The skip link comes before the site's menu and lands on the playable card.
    mover.keyboard.press("Tab")
    expect(mover.get_by_test_id("skip-to-hand")).to_be_focused()
    mover.keyboard.press("Enter")
    expect(nine).to_be_focused()

    version = app(mover).get_attribute("data-version")
    mover.keyboard.press("Enter")  # plays the focused nine of diamonds
    expect(app(mover)).not_to_have_attribute("data-version", version)
    expect(mover.locator("[data-testid=hand-card][data-card='9D']")).to_have_count(0)
    assert focus_in_hand(mover), "after the move the focus stays in the hand"

    # The other player hears the move, and that it is their turn now.
    announcer = other.get_by_test_id("announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    expect(announcer).to_contain_text(re.compile(r"played the nine of diamonds\."))
    if app(other).get_attribute("data-turn") == "you":
        expect(announcer).to_contain_text("Your turn")
    # Their own move is not read back to the mover.
    expect(mover.get_by_test_id("announcer")).not_to_contain_text("nine of diamonds")


def test_golf_slots_are_named_by_row_and_column(new_page, live_site, site_database):
    (page,) = seated_pages(new_page, live_site, site_database, 2, "Golf")[:1]
    slots = page.locator("[data-testid=hand] [data-testid=golf-slot]")
    expect(slots).to_have_count(9)
    expect(slots.nth(1)).to_have_attribute(
        "aria-label", "Row 1, column 2, face down, key 2: flip it"
    )
    labels = slots.evaluate_all("slots => slots.map(s => s.getAttribute('aria-label'))")
    assert all(SLOT_NAME.match(label) for label in labels), labels
    # The other player's grid reads row by row.
    grid = page.get_by_test_id("opponents").get_by_test_id("golf-grid").first
    expect(grid).to_have_attribute("aria-label", re.compile(r"row 1: face down, .*; row 3: "))


def test_turn_sound_is_off_by_default_remembered_and_beeps_on_your_turn(
    new_page, live_site, site_database
):
    # A deal where the waiter can answer the nine of diamonds (on another, a pass
    # hands the turn straight back to the mover).
    pages = seated_pages(new_page, live_site, site_database, 2, "Devyatka", seed=SOUND_SEED)
    for page in pages:
        expect(app(page)).to_have_attribute("data-turn", re.compile("you|other"))
    mover, waiter = pages if app(pages[0]).get_attribute("data-turn") == "you" else pages[::-1]
    toggle = waiter.get_by_test_id("sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_have_text("Turn sound: off")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert waiter.evaluate("localStorage.getItem('cardclub.turnSound')") == "on"

    waiter.reload()
    expect(waiter.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "true")
    expect(app(waiter)).to_have_attribute("data-turn", "other")
    waiter.get_by_test_id("board").click()  # any gesture lets the page play sound again
    assert app(waiter).get_attribute("data-turn-sounds") is None

    mover.keyboard.press("1")  # the nine of diamonds
    expect(app(waiter)).to_have_attribute("data-turn", "you")
    expect(app(waiter)).to_have_attribute("data-turn-sounds", "1")
    # The mover never turned it on: no sound there.
    assert app(mover).get_attribute("data-turn-sounds") is None


def test_axe_finds_nothing_serious_on_tables_in_play(new_page, live_site, site_database):
    # Whoever is to move (their turn lit up) and someone waiting.
    pages = seated_pages(new_page, live_site, site_database, 3, "Devyatka")
    for page in pages:
        expect(app(page)).to_have_attribute("data-turn", re.compile("you|other"))
    mover = next(p for p in pages if app(p).get_attribute("data-turn") == "you")
    waiter = next(p for p in pages if p is not mover)
    for page in (mover, waiter):
        expect(page.get_by_test_id("hand-card").first).to_be_visible()
        assert_accessible(page)
    # Golf: the reveal phase, then everyone is ready and the player to move
    # has Draw and Take; on a laptop and on a phone.
    golfers = seated_pages(new_page, live_site, site_database, 3, "Golf")
    golf = golfers[0]
    expect(golf.get_by_test_id("golf-stock")).to_be_visible()
    assert_accessible(golf)
    for page in golfers:
        expect(page.get_by_test_id("golf-ready")).to_be_visible()
        page.keyboard.press("r")
    for page in golfers:
        expect(app(page)).to_have_attribute("data-turn", re.compile("you|other"))
        expect(page.get_by_test_id("golf-ready")).to_have_count(0)
    mover = the_one_to_move(golfers)
    expect(mover.get_by_test_id("golf-stock")).to_be_enabled()
    assert_accessible(mover)
    mover.set_viewport_size({"width": 390, "height": 844})
    assert_accessible(mover)


def test_results_link_to_the_game_page_and_pass_axe(new_page, live_site, site_database):
    made = started_table(site_database, seats=2, variant="Keft")
    # Both members play seeded random legal moves through the services to the end.
    run_django(
        site_database,
        "from games.models import Table\n"
        "from tests.support.finished import play_out\n"
        f"play_out(Table.objects.get(pk={made['table']}), seed=7)\n"
        f"emit(Table.objects.get(pk={made['table']}).status)\n",
    )
    page = open_seat(new_page(), live_site, made["players"][0]["session"], made["table"])
    results = page.get_by_test_id("results")
    expect(results).to_be_visible()
    expect(page.get_by_test_id("result-row")).to_have_count(2)
    link = page.get_by_test_id("game-page-link")
    expect(link).to_have_attribute("href", re.compile(r"^/games/\d+/"))
    assert_accessible(page, "[data-testid=results]")
    assert_accessible(page)
    link.click()
    page.wait_for_url(re.compile(r"/games/\d+/"))
