"""In Chromium: a member plays the throwaway game (tests/throwaway/highcard.py) to the
end at a table against a house bot, through the generic renderer
(static/js/games/generic.js). The game has no renderer of its own and no site module
names it: its own server registers it by the EXTRA_GAMES setting alone (issue 23).

The page offers exactly the server's legal moves as buttons, shows the member's own
hand and only a count of the bot's, and the results, the move log and the game page
follow. The site's strict CSP stays on (the module must load under it).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_languages_browser import assert_no_english, open_bot_table, open_page
from tests.e2e.test_languages_browser import sign_up as spanish_sign_up
from tests.e2e.test_table_browser import app, open_table, sign_up
from tests.support.server import DaphneServer, SiteDatabase

pytestmark = pytest.mark.browser

ENTRY = "tests.throwaway.highcard.ENGINE"
MOVE = "[data-testid=move-button]"


class ThrowawaySite(SiteDatabase):
    """A site database whose processes (manage.py, daphne) also play the throwaway game."""

    def env(self) -> dict[str, str]:
        return {**super().env(), "EXTRA_GAMES": ENTRY}


@pytest.fixture(scope="module")
def throwaway_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaphneServer]:
    database = ThrowawaySite(tmp_path_factory.mktemp("throwaway-site"))
    database.create()
    # What the admin form makes (tests/integration/test_throwaway_game.py tests that form).
    database.shell(
        "from games.models import Variant; Variant.objects.create(name='Quick high card', "
        "game='highcard', options={'cards': 3}, min_players=2, max_players=2)"
    )
    server = DaphneServer(database, tmp_path_factory.mktemp("throwaway-logs")).start()
    yield server
    server.stop()
    database.drop()


@pytest.fixture
def page(chromium_browser, throwaway_server: DaphneServer) -> Iterator[Page]:
    context = chromium_browser.new_context(
        base_url=throwaway_server.url, viewport={"width": 390, "height": 844}
    )
    context.set_default_timeout(15_000)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == []


def my_turn_or_over(page: Page, seconds: float = 30) -> bool:
    """True once it is the member's turn, False once the game is over."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        turn = app(page).get_attribute("data-turn")
        if turn in ("you", "over"):
            return turn == "you"
        page.wait_for_timeout(50)
    raise AssertionError("the member never got a turn and the game did not end")


def enabled_move(page: Page, seconds: float = 30) -> str | None:
    """The first move the hand takes, once it takes one; None if the game ended first.

    The hand stays disabled while a move is on its way (it asks for the whole
    state after 8 s without an answer), so this waits longer than that; if it
    never comes, the page's state says why.
    """
    buttons = page.locator(f"{MOVE}:enabled")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        moves = buttons.evaluate_all("els => els.map(e => e.dataset.move)")
        if moves:
            return moves[0]
        if app(page).get_attribute("data-turn") == "over":
            return None
        page.wait_for_timeout(50)
    state = app(page).evaluate(
        "el => ({...el.dataset, turn_text: document.querySelector('[data-testid=turn-indicator]')"
        "?.textContent, toasts: [...document.querySelectorAll('[data-testid=toast]')]"
        ".map(t => t.dataset.code + ': ' + t.textContent)})"
    )
    raise AssertionError(f"no move button was enabled for {seconds} s: {state}")


def test_member_plays_a_game_without_a_renderer_through_the_generic_one(page: Page):
    sign_up(page, "Plain")
    open_table(page, "Quick high card", 2)
    page.get_by_test_id("bot-level").select_option("random")
    # The form posts and the table's page comes back: wait for it, then for the
    # start, as long as any action may take (a fresh server on a busy CI machine
    # once took longer than expect's 5 s here).
    with page.expect_navigation():
        page.get_by_test_id("add-bot-button").click()

    # The table was full, so it started: the generic board, the bot, our three cards.
    expect(app(page)).to_have_attribute("data-status", "playing", timeout=15_000)
    figures = page.get_by_test_id("generic-figures")
    expect(figures).to_be_visible()
    expect(figures).to_contain_text("Cards each")
    expect(page.get_by_test_id("opponent")).to_have_count(1)
    expect(page.get_by_test_id("opponent").locator(".bot-badge")).to_be_visible()
    # The bot's hand is a count and its pick a yes/no, never a card (it may have
    # picked already): the view carries nothing more.
    expect(page.get_by_test_id("opponent")).to_contain_text(
        re.compile(r"Cards in hand: [23] · Picked: (yes|no) · Tricks: 0")
    )
    assert my_turn_or_over(page)
    buttons = page.locator(f"{MOVE}:enabled")
    expect(buttons).to_have_count(3)
    expect(page.get_by_test_id("turn-indicator")).to_have_text("Your turn: choose a move.")
    hand = [int(b) for b in buttons.evaluate_all("els => els.map(e => e.dataset.move)")]
    assert hand == sorted(hand) and all(1 <= card <= 13 for card in hand)

    # Three tricks: the first card by keyboard, the others by clicking.
    played = []
    by_keyboard = True
    while my_turn_or_over(page):
        move = enabled_move(page)
        if move is None:
            break  # the game ended meanwhile
        version = app(page).get_attribute("data-version")
        card = int(move)
        if not played or played[-1] != card:
            played.append(card)  # a pick the server refused (stale_version) is tried again
        if by_keyboard:
            page.keyboard.press("1")
            by_keyboard = False
        else:
            page.locator(f'{MOVE}[data-move="{move}"]').click()
        expect(app(page)).not_to_have_attribute("data-version", version)
    assert played == hand  # the lowest card first each time, each card once

    results = page.get_by_test_id("results")
    expect(results).to_be_visible()
    expect(page.get_by_test_id("result-row")).to_have_count(2)
    expect(page.locator(".results-table thead")).to_contain_text("Tricks lost")
    expect(page.get_by_test_id("results-summary")).not_to_be_empty()
    # Every pick is revealed once both have picked (face down until then: the
    # bot's shows as hidden while ours is still to come; tests/integration/
    # test_throwaway_game.py checks the frames).
    lines = page.get_by_test_id("move-log").locator("li")
    expect(lines).to_have_count(6)
    expect(lines.filter(has_text=re.compile(r"played \d+$"))).to_have_count(6)
    expect(page.get_by_test_id("move-log")).to_contain_text(f"played {hand[0]}")
    expect(page.locator(MOVE)).to_have_count(0)

    # The game's page: the generic template, the same figures.
    page.get_by_test_id("game-page-link").click()
    page.wait_for_url(re.compile(r"/games/\d+/"))
    expect(page.get_by_test_id("final-results")).to_contain_text("Tricks lost")


def test_the_generic_table_speaks_the_members_language(chromium_browser, throwaway_server):
    page = open_page(chromium_browser, throwaway_server, "es-ES", width=390, height=844)
    try:
        spanish_sign_up(page, "Llano")
        open_bot_table(page, "Quick high card", 2, bots=1)
        expect(page.get_by_test_id("turn-indicator")).to_have_text("Te toca: elige una jugada.")
        expect(page.get_by_test_id("hand-help")).to_have_text(
            "Haz clic en una jugada o pulsa su número (1–9)."
        )
        expect(page.locator(f"{MOVE}:enabled").first).to_have_attribute(
            "aria-label", re.compile(r"^Jugar \d+, tecla 1$")
        )
        assert_no_english(page, "the generic table in Spanish")
    finally:
        page.context.close()
