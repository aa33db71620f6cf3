"""In Chromium: axe-core finds no serious or critical violation on a finished game's replay."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_replay_browser import finished, replay
from tests.support.axe import assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.once]


@pytest.mark.parametrize(
    ("game", "options", "size"),
    [
        ("devyatka", {"keft": True}, (1366, 768)),
        ("golf", {"rounds": 1}, (390, 844)),
    ],
)
def test_a_replay_page_has_no_serious_accessibility_violation(
    new_page, site_database, game, options, size
):
    made = finished(site_database, game, ["Anna", "Boris", "Vera"], seed=5, **options)
    page = new_page(width=size[0], height=size[1])
    page.goto(f"/games/{made['game']}/")
    expect(replay(page)).to_have_attribute("data-step", "0")
    assert_accessible(page)
    # Mid-game too: the board, the hands and the highlighted log line.
    page.get_by_test_id("replay-next").click()
    page.get_by_test_id("replay-next").click()
    expect(replay(page)).to_have_attribute("data-step", "2")
    assert_accessible(page)
