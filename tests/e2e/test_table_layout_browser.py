"""In Chromium: your own hand and the turn indicator are on screen during play.

At each common screen size (three laptops, a desktop, a phone) and for every
table size (Devyatka 2 to 6 players, Golf up to 12), the page is opened at
the top, never scrolled, and every hand card (Golf: every slot of your own
grid), the turn indicator and the board (every slot of the lanes; Golf's
piles and buttons) must lie wholly inside the viewport, and be the topmost
thing where they are drawn (no docked hand, toast or other card over them).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.seated import open_seat
from tests.support.tables import started_table

pytestmark = [pytest.mark.browser, pytest.mark.once]

SIZES = [(1280, 800), (1366, 768), (1440, 900), (1920, 1080), (390, 844)]
DEVYATKA_CARDS = "[data-testid=hand-card]"
GOLF_SLOTS = "[data-testid=hand] [data-testid=golf-slot]"
INDICATOR = "[data-testid=turn-indicator]"
# The board must not hide under the docked hand either: every lane's slots, or
# Golf's stock, discard pile and action buttons.
DEVYATKA_BOARD = "[data-testid=board] .slot"
GOLF_BOARD = "[data-testid=golf-stock], [data-testid=golf-discard], .golf-actions button"

# For each element: its box, whether it is inside the viewport, and whether a
# point of it that no sibling card overlaps (its left strip) shows the element.
OFFSCREEN_JS = """
(selector) => {
  const width = document.documentElement.clientWidth;
  const height = document.documentElement.clientHeight;
  const problems = [];
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    const name = el.dataset.card || el.dataset.pos || el.dataset.testid || el.tagName;
    const box = [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
    if (!r.width || !r.height) { problems.push(`${name} not drawn`); continue; }
    if (r.left < -0.5 || r.top < -0.5 || r.right > width + 0.5 || r.bottom > height + 0.5) {
      problems.push(`${name} at ${box} outside ${width}x${height}`);
      continue;
    }
    // Cards in a hand overlap: some point across its middle must show the card itself.
    const y = r.top + r.height / 2;
    let seen = false;
    let over = null;
    for (let i = 0; i <= 10 && !seen; i++) {
      const top = document.elementFromPoint(r.left + 1 + ((r.width - 2) * i) / 10, y);
      seen = Boolean(top && (el === top || el.contains(top)));
      if (!seen && top && !over) over = top.closest("[class]")?.getAttribute("class") || top.tagName;
    }
    if (!seen) problems.push(`${name} at ${box} covered by ${over}`);
  }
  return problems;
}
"""


def check_sizes(page, selector: str, board: str) -> None:
    """At every size, reloaded at the top: the hand, the indicator and the board are in view."""
    failures = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.reload()
        expect(page.locator(selector).first).to_be_visible()
        page.wait_for_timeout(250)  # the hand's fit runs after layout (resize debounce)
        assert page.evaluate("window.scrollY") == 0
        problems = page.evaluate(OFFSCREEN_JS, f"{selector}, {INDICATOR}, {board}")
        if problems:
            failures.append(f"{width}x{height}: {problems[:4]}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_devyatka_hand_and_turn_indicator_stay_in_view(new_page, live_site, site_database, players):
    made = started_table(site_database, seats=players, variant="Devyatka")
    page = open_seat(new_page(), live_site, made["players"][0]["session"], made["table"])
    expect(page.get_by_test_id("board")).to_be_visible()
    check_sizes(page, DEVYATKA_CARDS, DEVYATKA_BOARD)


@pytest.mark.parametrize("players", [2, 7, 12])
def test_golf_grid_and_turn_indicator_stay_in_view(new_page, live_site, site_database, players):
    made = started_table(site_database, seats=players, variant="Golf")
    page = open_seat(new_page(), live_site, made["players"][0]["session"], made["table"])
    expect(page.get_by_test_id("golf-stock")).to_be_visible()
    check_sizes(page, GOLF_SLOTS, GOLF_BOARD)
    assert page.locator(GOLF_SLOTS).count() == 9
