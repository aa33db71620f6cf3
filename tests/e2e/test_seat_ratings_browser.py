"""In Chromium: the table's seat list shows each seated player's rating in its game."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_table_browser import open_table, sign_up

pytestmark = pytest.mark.browser


def test_seat_list_shows_the_players_rating(new_page, site_database):
    page = new_page()
    name = sign_up(page, "Rated")
    site_database.shell(
        "from club.models import Player\n"
        "from ratings.models import Rating\n"
        f"Rating.objects.create(player=Player.objects.get(display_name={name!r}),"
        " family='devyatka', mu=30.0, sigma=3.0, ordinal=21.0, games=12)\n"
    )
    open_table(page, "Devyatka", 3)
    mine = page.get_by_test_id("seat").filter(has_text=name)
    # 1500 + 40 x ordinal 21, not provisional after 12 games.
    expect(mine.get_by_test_id("seat-rating")).to_have_text("2340")
