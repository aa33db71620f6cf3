"""In Chromium: ask for a finished game's analysis, watch it run, step to a flagged move.

A real daphne serves the site and a real analysis worker process runs the
task (tests/support/worker.py). The page must follow the progress to "done"
without a reload (it polls analysis.json), then show the summary, the chart
and the flagged moves; a flagged move's button steps the replay to the
position where it was chosen and shows the better alternative, highlighted.
"""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from tests.support.tables import run_django
from tests.support.worker import AnalysisWorker

pytestmark = pytest.mark.browser


@pytest.fixture
def worker(site_database, tmp_path):
    worker = AnalysisWorker(site_database, tmp_path).start()
    yield worker
    worker.stop()


def test_ask_for_the_analysis_watch_it_finish_and_step_to_a_flagged_move(
    new_page, site_database, live_site, worker
):
    suffix = uuid.uuid4().hex[:6]
    made = run_django(
        site_database,
        "from django.contrib.sessions.backends.db import SessionStore\n"
        "from games.models import Variant\n"
        "from tests.support.finished import finished_game\n"
        f"variant = Variant.objects.create(name='Analysis {suffix}', options={{'keft': True}})\n"
        f"game, players = finished_game(variant, ['Ana{suffix}', 'Bo{suffix}'], seed=5)\n"
        "session = SessionStore()\n"
        "session['_auth_user_id'] = str(players[0].user.pk)\n"
        "session['_auth_user_backend'] = 'django.contrib.auth.backends.ModelBackend'\n"
        "session['_auth_user_hash'] = players[0].user.get_session_auth_hash()\n"
        "session.create()\n"
        "emit({'game': game.pk, 'session': session.session_key})\n",
    )
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
    status = page.get_by_test_id("analysis-status")
    expect(panel).to_have_attribute("data-status", "done", timeout=60_000)
    assert page.evaluate("window.__notReloaded === true")
    seen = page.evaluate("window.__seen")
    assert any(line.startswith(("Queued", "Analysing")) for line in seen), seen
    expect(status).to_contain_text("Done")
    expect(page.get_by_test_id("analysis-summary").first).to_contain_text("accuracy")
    expect(page.get_by_test_id("analysis-chart")).to_be_visible()
    # The verdicts stand beside the moves in the replay's log.
    expect(page.get_by_test_id("replay-verdict").first).to_be_visible()
    flag = page.get_by_test_id("analysis-flag").first
    step = int(flag.get_attribute("data-step"))
    flag.click()
    expect(page.get_by_test_id("replay")).to_have_attribute("data-step", str(step))
    moment = page.get_by_test_id("analysis-moment")
    expect(moment).to_be_visible()
    better = page.get_by_test_id("analysis-better")
    expect(better).to_be_visible()
    expect(better).to_have_css("background-color", "rgb(220, 252, 231)")
