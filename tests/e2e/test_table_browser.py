"""Live tables in Chromium: two members play a whole game by clicking cards; a third watches.

Everything goes through the real site: the sign-up form, the lobby form, the
lobby's live list, the table page's HTML forms and its websocket. Waits are
Playwright expectations on the page's own attributes (`data-version`,
`data-turn`, `data-over` on the table app), never sleeps.
"""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PASSWORD = "a-long-club-password"
LEGAL = "[data-testid=hand-card][data-legal=true]"


def sign_up(page: Page, prefix: str) -> str:
    name = f"{prefix}{uuid.uuid4().hex[:6]}"
    page.goto("/accounts/signup/")
    page.get_by_label("Email").fill(f"{name.lower()}@example.com")
    page.get_by_label("Display name").fill(name)
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again):").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_test_id("nav-me")).to_have_text(name)
    return name


def open_table(page: Page, variant: str, seats: int) -> int:
    """Open a table through the lobby form; returns its id (the page is on the table)."""
    page.goto("/tables/")
    form = page.get_by_test_id("create-table")
    form.get_by_label("Game").select_option(label=variant)
    form.get_by_label("Seats").fill(str(seats))
    form.get_by_role("button", name="Open table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    expect(page.get_by_test_id("seat-list")).to_be_visible()
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def app(page: Page):
    return page.get_by_test_id("table-app")


def result_places(page: Page) -> list[tuple[str, str, str]]:
    rows = page.get_by_test_id("result-row")
    return [
        (
            rows.nth(i).get_attribute("data-seat"),
            rows.nth(i).get_attribute("data-place"),
            rows.nth(i).locator("th").inner_text(),
        )
        for i in range(rows.count())
    ]


def test_two_members_play_a_whole_game_by_clicking(new_page):
    host = new_page()
    guest = new_page(width=390, height=844)  # one player on a phone
    host_name = sign_up(host, "Hosta")
    guest_name = sign_up(guest, "Gusta")

    # The guest waits in the lobby; the host's new table must show up there live.
    guest.goto("/tables/")
    expect(guest.get_by_role("heading", name="Waiting for players")).to_be_visible()
    table_id = open_table(host, "Devyatka", 2)
    expect(host.get_by_test_id("seat")).to_have_count(2)
    expect(host.get_by_test_id("seat").filter(has_text=host_name)).to_be_visible()
    expect(host.get_by_test_id("turn-indicator")).to_contain_text("1/2 seated")

    listed = guest.locator(f"li[data-table-id='{table_id}']")
    expect(listed).to_contain_text(host_name)  # no reload: lobby.js fetched the list
    listed.get_by_role("button", name="Join").click()
    guest.wait_for_url(re.compile(rf"/tables/{table_id}/$"))

    # The table was full, so it started: the host's board appears without a reload.
    for page in (host, guest):
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.get_by_test_id("row-D")).to_be_visible()
        expect(page.get_by_test_id("hand-card")).to_have_count(18)
        expect(app(page)).to_have_attribute("data-status", "playing")
    expect(host.get_by_test_id("pregame")).to_be_hidden()
    expect(host.get_by_test_id("opponents")).to_contain_text(guest_name)
    expect(guest.get_by_test_id("opponents")).to_contain_text(host_name)

    # Play until the end: whoever is to move clicks their first lifted card.
    moves = 0
    while True:
        version = app(host).get_attribute("data-version")
        expect(app(guest)).to_have_attribute("data-version", version)
        if app(host).get_attribute("data-over") == "true":
            break
        movers = [p for p in (host, guest) if app(p).get_attribute("data-turn") == "you"]
        assert len(movers) == 1, "exactly one player is to move"
        mover, other = movers[0], guest if movers[0] is host else host
        expect(mover.get_by_test_id("turn-indicator")).to_contain_text("Your turn")
        # Nothing is clickable for the player who waits.
        expect(other.locator("[data-testid=hand-card]:enabled")).to_have_count(0)
        card = mover.locator(f"{LEGAL}:enabled").first
        code = card.get_attribute("data-card")
        card.click()
        expect(app(host)).not_to_have_attribute("data-version", version)
        expect(mover.locator(f"[data-testid=hand-card][data-card='{code}']")).to_have_count(0)
        expect(
            other.get_by_test_id("board").locator(f".slot.last-played[data-card='{code}']")
        ).to_be_visible()
        moves += 1
        assert moves < 40, "a two-player Devyatka game has at most 35 card plays"

    for page in (host, guest):
        expect(page.get_by_test_id("results")).to_be_visible()
        expect(page.get_by_test_id("result-row")).to_have_count(2)
        expect(page.get_by_test_id("revealed-hand")).to_have_count(2)
        expect(page.get_by_test_id("again-button")).to_be_visible()
        expect(page.locator("[data-testid=hand-card]:enabled")).to_have_count(0)
    host_places = result_places(host)
    guest_places = result_places(guest)
    assert [(s, p) for s, p, _ in host_places] == [(s, p) for s, p, _ in guest_places]
    assert [p for _, p, _ in host_places] == ["1", "2"]
    names = {name.removesuffix(" (you)") for _, _, name in host_places}
    assert names == {host_name, guest_name}
    # The move log holds every move of the game (cards and automatic passes).
    logged = host.get_by_test_id("move-log").locator("li")
    assert logged.count() >= moves
    assert host.get_by_test_id("move-log").locator("li:not(.pass)").count() == moves

    # A rematch is an offer: the guest's click deals nobody in until the host accepts.
    expect(host.get_by_test_id("again-button")).to_have_text("Offer a rematch")
    guest.get_by_test_id("again-button").click()
    guest_seat = host.get_by_test_id("rematch-seat").filter(has_text=guest_name)
    expect(guest_seat).to_have_attribute("data-state", "accepted")  # live, no reload
    expect(host.get_by_test_id("rematch-seat").filter(has_text=host_name)).to_have_attribute(
        "data-state", "waiting"
    )
    expect(guest.get_by_test_id("again-button")).to_be_disabled()
    expect(host.get_by_test_id("results")).to_be_visible()
    expect(host.get_by_test_id("again-button")).to_have_text("Accept the rematch")
    host.get_by_test_id("again-button").click()
    for page in (host, guest):
        expect(page.get_by_test_id("results")).to_be_hidden()
        expect(page.get_by_test_id("hand-card")).to_have_count(18)
        expect(page.get_by_test_id("move-log").locator("li")).to_have_count(0)
        expect(page.get_by_test_id("board-card")).to_have_count(0)


def test_watcher_sees_the_board_but_no_hand(new_page):
    host = new_page()
    guest = new_page()
    watcher = new_page(width=390, height=844)
    host_name = sign_up(host, "Hostb")
    guest_name = sign_up(guest, "Gustb")
    sign_up(watcher, "Watcher")

    table_id = open_table(host, "Devyatka", 3)
    # Too few players: the host sees Start, disabled, with a hint.
    expect(host.get_by_test_id("start-button")).to_be_disabled()
    expect(host.get_by_test_id("start-hint")).to_be_visible()

    guest.goto(f"/tables/{table_id}/")
    guest.get_by_test_id("join-button").click()
    expect(guest.get_by_test_id("leave-button")).to_be_visible()
    # The host's seat list and Start button update live.
    expect(host.get_by_test_id("seat").filter(has_text=guest_name)).to_be_visible()
    expect(host.get_by_test_id("start-button")).to_be_enabled()
    host.get_by_test_id("start-button").click()
    expect(guest.get_by_test_id("board")).to_be_visible()  # live, no reload

    watcher.goto(f"/tables/{table_id}/")
    expect(watcher.get_by_test_id("board")).to_be_visible()
    expect(watcher.get_by_test_id("watching-label")).to_be_visible()
    expect(watcher.get_by_test_id("hand")).to_be_hidden()
    expect(watcher.get_by_test_id("hand-card")).to_have_count(0)
    expect(watcher.get_by_test_id("opponents").get_by_test_id("opponent")).to_have_count(2)
    expect(watcher.get_by_test_id("opponents")).to_contain_text(host_name)

    # The first move (always 9D), played with the keyboard ("1": the first lifted card),
    # reaches the watcher's board and move log.
    mover = host if app(host).get_attribute("data-turn") == "you" else guest
    expect(app(mover)).to_have_attribute("data-turn", "you")
    expect(mover.locator(f"{LEGAL}:enabled")).to_have_count(1)
    mover.keyboard.press("1")
    expect(
        watcher.get_by_test_id("row-D").locator("[data-card='9D'] [data-testid=board-card]")
    ).to_be_visible()
    # One card played; the next seat may have had nothing to play, and its
    # automatic pass is logged after the card.
    log = watcher.get_by_test_id("move-log")
    expect(log.locator("li:not([data-move='pass'])")).to_have_count(1)
    expect(log.locator("li").first).to_have_attribute("data-move", "9D")
    expect(watcher.get_by_test_id("hand-card")).to_have_count(0)
