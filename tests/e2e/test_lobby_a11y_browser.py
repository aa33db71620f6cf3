"""In Chromium: axe-core finds no serious or critical violation on the club's pages.

The lobby (with your own table, someone else's open table and a running one),
the signup page (empty, then with the server's form errors), the page a new
member lands on (with its welcome message) and a series page with standings
for each kind of series (loss-counting Keft, placed Devyatka, scored Golf).
"""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.test_table_browser import open_table, sign_up
from tests.support.axe import assert_accessible
from tests.support.tables import run_django

pytestmark = [pytest.mark.browser, pytest.mark.once]

# Inside the live site's database: three series with two finished games each,
# and two tables someone else opened (one waiting for players, one playing).
SETUP = """
from django.utils.text import slugify
from club.models import Series
from games import services
from games.models import Variant
from tests.support.finished import finished_game
from tests.support.members import member
slugs = []
for game in ['Keft', 'Devyatka', 'Golf']:
    variant = Variant.objects.get(name=game)
    name = f'{game} a11y SUFFIX'
    series = Series.objects.create(name=name, slug=slugify(name), variant=variant, min_games=1)
    for seed in range(2):
        names = [f'{p}{seed}{game[:2]}SUFFIX' for p in ('Ann', 'Bob', 'Cat')]
        finished_game(variant, names, seed=seed, series=series)
    slugs.append(series.slug)
host = member('HostSUFFIX')
services.create_table(host, Variant.objects.get(name='Devyatka'), 4)
table, _ = services.create_table(host, Variant.objects.get(name='Keft'), 2)
services.join_table(member('GuestSUFFIX'), table.pk)
emit(slugs)
"""


def test_signup_lobby_and_series_pages_have_no_serious_axe_violations(new_page, site_database):
    slugs = run_django(site_database, SETUP.replace("SUFFIX", uuid.uuid4().hex[:6]))
    page = new_page()

    page.goto("/accounts/signup/")
    assert_accessible(page)
    # Passwords that differ pass the browser's checks and come back with the server's errors.
    page.get_by_label("Email").fill(f"a11y{uuid.uuid4().hex[:6]}@example.com")
    page.get_by_label("Display name").fill("Ally")
    page.get_by_label("Password:", exact=True).fill("a-long-password-1")
    page.get_by_label("Password (again):").fill("a-long-password-2")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".errorlist, .form-errors, [role=alert]").first).to_be_visible()
    assert_accessible(page)

    sign_up(page, "Ally")
    expect(page.locator(".messages")).to_contain_text("Welcome to the club")
    assert_accessible(page)

    open_table(page, "Keft", 3)
    page.goto("/tables/")
    expect(page.get_by_test_id("back-to-seat").first).to_be_visible()
    expect(page.get_by_role("button", name="Join").first).to_be_visible()
    assert_accessible(page)

    for slug in slugs:
        page.goto(f"/series/{slug}/")
        expect(page.get_by_test_id("recent-legend")).to_be_visible()
        assert_accessible(page)
