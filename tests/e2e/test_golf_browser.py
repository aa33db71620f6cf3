"""In Chromium: two members and a house bot play a one-round Golf match to the end.

The reveal phase is played by both members at once (Ready), then whoever is
to move clicks one of their own lifted slots: before drawing, that turns a
face-down card up (G5c), so the round ends when someone's ninth card is up.
The server decides every move; the page only offers what `legal` lists.
"""

from __future__ import annotations

import re
import time
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_table_browser import app, sign_up

pytestmark = pytest.mark.browser

MY_SLOT = "[data-testid=hand] [data-testid=golf-slot][data-legal=true]:enabled"


def wait_for_turn(pages: list[Page], seconds: float = 60) -> Page | None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for page in pages:
            turn = app(page).get_attribute("data-turn")
            if turn == "over":
                return None
            if turn == "you" and page.locator(MY_SLOT).count():
                return page
        pages[0].wait_for_timeout(50)
    raise AssertionError("nobody could move and the match was not over")


def test_two_members_and_a_bot_play_a_one_round_golf_match(new_page, site_database):
    variant = f"Golf sprint {uuid.uuid4().hex[:4]}"
    site_database.shell(
        "from games.models import Variant; "
        f"Variant.objects.create(name={variant!r}, game='golf', options={{'rounds': 1}}, max_players=12)"
    )
    host, guest = new_page(), new_page(width=390, height=844)
    host_name = sign_up(host, "Golfa")
    sign_up(guest, "Golfb")
    host.goto("/tables/")
    form = host.get_by_test_id("create-table")
    form.get_by_label("Game").select_option(label=variant)
    form.get_by_label("Seats").fill("3")
    form.get_by_role("button", name="Open table").click()
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    host.get_by_test_id("bot-level").select_option("heuristic")
    host.get_by_test_id("add-bot-button").click()
    guest.goto(host.url)
    guest.get_by_test_id("join-button").click()

    # The reveal phase: both members at once; the bot readies by itself.
    for page in (host, guest):
        expect(page.get_by_test_id("golf-stock")).to_be_visible()
        expect(page.locator("[data-testid=hand] [data-testid=golf-slot]")).to_have_count(9)
        expect(page.get_by_test_id("golf-ready")).to_be_visible()
    guest.locator(MY_SLOT).first.click()  # turn up one card first
    expect(guest.locator("[data-testid=hand] [data-testid=golf-slot][data-card]")).to_have_count(1)
    for page in (host, guest):
        page.get_by_test_id("golf-ready").click()

    # Play: the member to move turns a card up, until the round (the match) ends.
    first_line = host.get_by_test_id("move-log").locator("li").first
    for turn in range(60):
        mover = wait_for_turn([host, guest])
        if mover is None:
            break
        version = app(mover).get_attribute("data-version")
        mover.locator(MY_SLOT).first.click()
        expect(app(mover)).not_to_have_attribute("data-version", version)
        # A frame redraws only the log lines it changed: the first line (a ready or a
        # turned-up card of the reveal), marked after one turn, is the same element
        # after the next (and nothing of it changed meanwhile).
        # The host has caught up with the mover's move (a bot may already have
        # moved after it: at least that version, not exactly it).
        host.wait_for_function(
            "v => Number(document.querySelector('[data-testid=table-app]').dataset.version) >= v",
            arg=int(app(mover).get_attribute("data-version")),
        )
        if turn == 0:
            first_line.evaluate("li => { li.dataset.kept = 'yes'; }")
            kept_text = first_line.text_content()
        elif turn == 1:
            expect(first_line).to_have_attribute("data-kept", "yes")
            assert first_line.text_content() == kept_text
    else:
        raise AssertionError("the match did not end")

    for page in (host, guest):
        expect(page.get_by_test_id("results")).to_be_visible()
        expect(page.get_by_test_id("result-row")).to_have_count(3)
    expect(host.get_by_test_id("results")).to_contain_text(host_name)
    # The shell's results note (static/js/table.js: the generic slot) carries Golf's legend.
    expect(host.get_by_test_id("results-note")).to_be_visible()
    expect(host.get_by_test_id("results-note")).to_contain_text("Lowest total wins")
