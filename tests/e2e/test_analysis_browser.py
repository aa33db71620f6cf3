"""In Chromium: ask for a finished game's analysis, watch it run, step to a flagged move.

A real daphne serves the site and a real analysis worker process runs the
task (tests/support/worker.py). The page must follow the progress to "done"
without a reload (it polls analysis.json), then show the summary, the chart
and the flagged moves; a flagged move's button steps the replay to the
position where it was chosen, names the better alternative under the caption
and outlines it on the board (Keft: the card in the hand and its place in the
row; Golf: the grid card and the pile the move would touch).
"""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.support.tables import run_django
from tests.support.worker import AnalysisWorker

pytestmark = pytest.mark.browser

OUTLINED = re.compile(r"(^|\s)rp-better(\s|$)")  # the class the board's outline is drawn with

MAKE = (
    "from django.contrib.sessions.backends.db import SessionStore\n"
    "from games.models import Variant\n"
    "from tests.support.finished import finished_game\n"
    "variant = Variant.objects.create(name='Analysis {suffix}', {variant})\n"
    "game, players = finished_game(variant, ['Ana{suffix}', 'Bo{suffix}'], seed={seed})\n"
    "session = SessionStore()\n"
    "session['_auth_user_id'] = str(players[0].user.pk)\n"
    "session['_auth_user_backend'] = 'django.contrib.auth.backends.ModelBackend'\n"
    "session['_auth_user_hash'] = players[0].user.get_session_auth_hash()\n"
    "session.create()\n"
    "emit({{'game': game.pk, 'session': session.session_key}})\n"
)


@pytest.fixture
def worker(site_database, tmp_path):
    worker = AnalysisWorker(site_database, tmp_path).start()
    yield worker
    worker.stop()


def _analysed_game_page(new_page, site_database, live_site, variant: str, seed: int):
    """A finished two-member game's page, its analysis asked for and watched to the end."""
    suffix = uuid.uuid4().hex[:6]
    made = run_django(site_database, MAKE.format(suffix=suffix, variant=variant, seed=seed))
    page = new_page()
    page.context.add_cookies(
        [{"name": "sessionid", "value": made["session"], "url": live_site.url}]
    )
    page.goto(f"/games/{made['game']}/")
    panel = page.get_by_test_id("analysis")
    expect(panel).to_have_attribute("data-status", "none")
    # Mark the document (a reload would lose the mark) and note every status line shown.
    page.evaluate(
        """() => {
          window.__notReloaded = true;
          window.__seen = [];
          const status = document.querySelector("[data-testid=analysis-status]");
          new MutationObserver(() => window.__seen.push(status.textContent))
            .observe(status, { childList: true, characterData: true, subtree: true });
        }"""
    )
    page.get_by_test_id("analysis-ask").click()
    expect(panel).to_have_attribute("data-status", "done", timeout=90_000)
    assert page.evaluate("window.__notReloaded === true")
    seen = page.evaluate("window.__seen")
    assert any(line.startswith(("Queued", "Analysing")) for line in seen), seen
    expect(page.get_by_test_id("analysis-status")).to_contain_text("Done")
    return page


def _step_to_first_flag(page):
    """Click the first flagged move; the replay shows its position. (step, seat, best move)."""
    flag = page.get_by_test_id("analysis-flag").first
    step = int(flag.get_attribute("data-step"))
    seat, best = flag.get_attribute("data-seat"), flag.get_attribute("data-best")
    flag.click()
    expect(page.get_by_test_id("replay")).to_have_attribute("data-step", str(step))
    expect(page.get_by_test_id("analysis-moment")).to_be_visible()
    better = page.get_by_test_id("analysis-better")
    expect(better).to_be_visible()
    expect(better).to_have_css("background-color", "rgb(220, 252, 231)")
    return step, seat, best


def _step_where_nothing_is_flagged(page) -> None:
    """Go to a position with no flagged decision: nothing is outlined there."""
    flagged = {
        int(b.get_attribute("data-step")) for b in page.get_by_test_id("analysis-flag").all()
    }
    steps = int(page.get_by_test_id("replay").get_attribute("data-steps"))
    quiet = next(i for i in range(steps) if i not in flagged)
    page.get_by_test_id("replay").evaluate(
        "(el, step) => el.dispatchEvent(new CustomEvent('replay:go', {detail: {step}}))", quiet
    )
    expect(page.get_by_test_id("replay")).to_have_attribute("data-step", str(quiet))
    expect(page.locator("[data-testid=replay-board] .rp-better")).to_have_count(0)


def test_ask_for_the_analysis_watch_it_finish_and_step_to_a_flagged_move(
    new_page, site_database, live_site, worker
):
    page = _analysed_game_page(new_page, site_database, live_site, "options={'keft': True}", seed=5)
    expect(page.get_by_test_id("analysis-summary").first).to_contain_text("accuracy")
    expect(page.get_by_test_id("analysis-chart")).to_be_visible()
    # The verdicts stand beside the moves in the replay's log.
    expect(page.get_by_test_id("replay-verdict").first).to_be_visible()
    _, seat, best = _step_to_first_flag(page)
    # The better card is outlined on the board: in that player's hand, and in its row.
    board = page.get_by_test_id("replay-board")
    expect(board.locator(".rp-better")).to_have_count(2)
    in_hand = board.locator(f'[data-seat="{seat}"] .card.rp-better')
    expect(in_hand).to_have_attribute("data-card", best)
    expect(in_hand).to_be_visible()
    expect(in_hand).to_have_css("outline-style", "dashed")
    expect(board.locator(".rp-slot.rp-better")).to_have_attribute("data-card", best)
    _step_where_nothing_is_flagged(page)


def test_golf_the_better_move_is_outlined_on_the_grid(new_page, site_database, live_site, worker):
    page = _analysed_game_page(
        new_page,
        site_database,
        live_site,
        "game='golf', options={'rounds': 1}, max_players=12",
        seed=3,
    )
    _, seat, best = _step_to_first_flag(page)
    board = page.get_by_test_id("replay-board")
    kind, _, pos = best.partition(" ")
    outlined = board.locator(".rp-better")
    expect(outlined.first).to_be_visible()
    if pos:  # a move at a grid position: that card of the player's grid is outlined
        card = board.locator(f'[data-testid=replay-grid][data-seat="{seat}"] [data-pos="{pos}"]')
        expect(card).to_have_attribute("class", OUTLINED)
    if kind == "draw":
        expect(board.get_by_test_id("replay-stock")).to_have_attribute("class", OUTLINED)
    if kind in ("take", "discard"):
        expect(board.get_by_test_id("replay-discard")).to_have_attribute("class", OUTLINED)
    _step_where_nothing_is_flagged(page)
