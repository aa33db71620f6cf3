"""`make screenshots`: docs/screenshots/table-<width>x<height>.png of a table in play.

Not a test file (pytest's default collection skips it): run it by path. It
starts the same live site and Chromium as the browser tests, deals a fixed
four-player Devyatka game between members with readable names, plays seeded
moves until Anna (seat 0) is to move, and photographs her screen at a laptop
and a phone size.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.seated import open_seat
from tests.support.tables import run_django

pytestmark = pytest.mark.browser

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = [(1366, 768), (390, 844)]
NAMES = ["Anna", "Boris", "Vera", "Dmitri"]
SEED = 2026

# In the site's database: the members, a started table on a fixed deal, seeded
# moves until seat 0 may play after at least 14 moves; emits the table and
# Anna's session.
SETUP = f"""
from games import registry, services, synthetic
from games.models import Table, Variant
from tests.support.finished import play_out
from tests.support.members import member

players = [member(name) for name in {NAMES!r}]
table, _ = services.create_table(players[0], Variant.objects.get(name="Devyatka"), len(players))
for player in players[1:]:
    services.join_table(player, table.pk, str(table.invite_token))
game = services.current_game(table)
engine = registry.engine(game.game)
game.seed = {SEED}
game.state = engine.to_json(engine.deal(len(players), {SEED}, engine.options(game.options)))
game.save(update_fields=["seed", "state"])
moves = 0
while True:
    table.refresh_from_db()
    game = services.current_game(table)
    state = engine.from_json(game.state)
    if moves >= 14 and engine.view(state, 0)["legal"]:
        break
    play_out(table, {SEED} + moves, stop_after=1)
    moves += 1
emit({{"table": table.pk, "session": synthetic.session_for(players[0].user)}})
"""


def test_table_screenshots(new_page, live_site, site_database):
    made = run_django(site_database, SETUP)
    OUT.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page = new_page(width=width, height=height)
        open_seat(page, live_site, made["session"], made["table"])
        expect(page.get_by_test_id("table-app")).to_have_attribute("data-turn", "you")
        expect(page.locator("[data-testid=hand-card][data-legal=true]").first).to_be_visible()
        page.evaluate("document.fonts.ready")
        page.wait_for_timeout(500)  # the last card's landing animation
        page.screenshot(path=str(OUT / f"table-{width}x{height}.png"))
