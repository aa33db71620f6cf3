"""In Chromium: the lobby's create form offers only the chosen game's series and shows its rules."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.test_table_browser import sign_up

pytestmark = pytest.mark.browser


def test_series_choice_follows_the_chosen_game(new_page, site_database):
    name = f"Keft league {uuid.uuid4().hex[:4]}"
    site_database.shell(
        "from django.utils.text import slugify\n"
        "from club.models import Series\n"
        "from games.models import Variant\n"
        f"Series.objects.create(name={name!r}, slug=slugify({name!r}), "
        "variant=Variant.objects.get(name='Keft'))\n"
    )
    page = new_page()
    sign_up(page, "Chooser")
    page.goto("/tables/")
    form = page.get_by_test_id("create-table")
    series = form.get_by_label("House series")
    option = series.locator("option", has_text=name)

    form.get_by_label("Game").select_option(label="Keft")
    expect(option).to_be_enabled()
    series.select_option(label=name)
    expect(page.locator("[data-variant-rules]:visible")).to_contain_text("the last one holding")

    form.get_by_label("Game").select_option(label="Golf")
    expect(option).to_be_disabled()
    assert series.input_value() == ""  # the Keft series is no longer chosen
    expect(page.locator("[data-variant-rules]:visible")).to_contain_text("lowest total wins")
