"""The lobby and the table page say which rules are in force; the series list fits the game."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services
from games.models import Variant
from tests.integration.test_series import make_players, make_series

pytestmark = pytest.mark.django_db


def test_rules_in_force_name_each_games_options_and_the_clock():
    assert Variant.objects.get(name="Keft").rules_in_force() == [
        "Keft: players go out one by one; the last one holding cards loses",
        "60 s a move, then the house plays for you",
    ]
    passes = Variant(name="x", game="devyatka", options={"pass_rule": True}, turn_seconds=None)
    assert passes.rules_in_force() == [
        "First out wins; the rest by fewest cards left, then card points",
        "Pass rule: at equal cards left, fewer passes rank first",
        "No turn clock",
    ]
    golf = Variant(
        name="y", game="golf", options={"rounds": 1, "column_rule": "three"}, turn_seconds=30
    )
    assert golf.rules_in_force() == [
        "1 round; lowest total wins",
        "Only a column of three of a rank scores 0 (pairs do not)",
        "30 s a move, then the house plays for you",
    ]


def test_lobby_shows_each_variants_rules_and_tags_series_with_their_variant(client):
    anna = make_players("Anna")[0]
    client.force_login(anna.user)
    series = make_series("Keft")
    page = client.get(reverse("lobby")).content.decode()
    for variant in Variant.objects.active():
        assert f'data-variant-rules="{variant.pk}"' in page
    assert "the last one holding cards loses" in page
    assert re.search(rf'<option value="{series.pk}" data-variant="{series.variant_id}"', page)


def test_table_page_shows_its_rules_and_its_series(client):
    anna = make_players("Anna")[0]
    client.force_login(anna.user)
    series = make_series("Keft")
    table, _ = services.create_table(anna, series.variant, 3, series=series)
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'data-testid="rules-in-force"' in page
    assert "Counts in the house series" in page and series.name in page


def test_own_tables_in_the_lobby_say_back_to_your_seat(client):
    anna, boris = make_players("Anna", "Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name="Keft"), 3)
    client.force_login(anna.user)
    assert 'data-testid="back-to-seat"' in client.get(reverse("lobby")).content.decode()
    client.force_login(boris.user)
    page = client.get(reverse("lobby")).content.decode()
    assert 'data-testid="back-to-seat"' not in page and ">Join</button>" in page
    services.join_table(boris, table.pk)
    services.join_table(make_players("Clara")[0], table.pk)  # full: it starts
    page = client.get(reverse("lobby")).content.decode()
    assert 'data-testid="back-to-seat"' in page and ">Watch</a>" not in page
