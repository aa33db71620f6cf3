"""In Chromium: a member leaves a running series game after a confirmation, the house
plays their seat to the end, and the resignation is the loss in the series standings."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.test_house_browser import play_until_over
from tests.e2e.test_table_browser import app, result_places, sign_up

pytestmark = pytest.mark.browser


def test_resignation_is_recorded_in_the_series_standings(new_page, site_database):
    series_name = f"Resign cup {uuid.uuid4().hex[:4]}"
    site_database.shell(
        "from club.models import Series; from games.models import Variant; "
        f"Series.objects.create(name={series_name!r}, slug={series_name.lower().replace(' ', '-')!r}, "
        "variant=Variant.objects.get(name='Keft'), min_games=1)"
    )
    host, guest = new_page(), new_page(width=390, height=844)
    host_name = sign_up(host, "Stay")
    guest_name = sign_up(guest, "Quit")
    host.goto("/tables/")
    form = host.get_by_test_id("create-table")
    form.get_by_label("Game").select_option(label="Keft")
    form.get_by_label("Seats").fill("2")
    form.get_by_label("House series").select_option(label=series_name)
    form.get_by_role("button", name="Open table").click()
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    guest.goto(host.url)
    guest.get_by_test_id("join-button").click()
    expect(guest.get_by_test_id("board")).to_be_visible()

    # Leaving asks first; "Keep playing" changes nothing.
    guest.get_by_test_id("resign-button").click()
    dialog = guest.get_by_test_id("resign-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("take the loss")
    expect(dialog).to_contain_text(series_name)
    guest.get_by_test_id("resign-cancel").click()
    expect(dialog).to_be_hidden()
    expect(app(guest)).to_have_attribute("data-status", "playing")

    guest.get_by_test_id("resign-button").click()
    guest.get_by_test_id("resign-confirm").click()
    guest.wait_for_url(re.compile(r"/tables/$"))
    expect(guest.locator(".messages")).to_contain_text("You left the game")
    # The host is told, and plays on against the house.
    expect(host.get_by_test_id("toasts")).to_contain_text(f"{guest_name} left the game")
    play_until_over([host])

    expect(host.get_by_test_id("results-summary")).to_contain_text(
        f"{guest_name} loses: left the game"
    )
    places = {name: place for _, place, name in result_places(host)}
    assert places[f"{guest_name} · resigned"] == "2"
    # The resigned member is not asked for a rematch.
    expect(host.get_by_test_id("rematch-seat").filter(has_text=guest_name)).to_have_attribute(
        "data-state", "left"
    )

    host.get_by_role("link", name="Series").click()
    host.get_by_role("link", name=series_name).click()
    standings = host.get_by_test_id("standings")
    expect(standings.locator(f"tr[data-player='{guest_name}'] [data-testid=losses]")).to_have_text(
        "1"
    )
    expect(standings.locator(f"tr[data-player='{host_name}'] [data-testid=losses]")).to_have_text(
        "0"
    )
