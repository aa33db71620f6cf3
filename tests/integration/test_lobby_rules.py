"""The lobby and the table page say which rules are in force; the series list fits the game."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from games import registry, services
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


def _paragraph(page: str, start: str) -> str:
    text = page[page.index(start) :]
    return re.sub(r"\s+", " ", text[: text.index("</")])


def test_the_rules_page_gives_each_duplicate_games_own_words_from_its_entry(client):
    page = client.get(reverse("rules")).content.decode()
    matchpoints = page[page.index("<strong>Matchpoints.</strong>") :]
    matchpoints = re.sub(r"\s+", " ", matchpoints[: matchpoints.index("</li>")])
    duplicate = [e for e in registry.engines() if e.duplicate and e.duplicate_rules]
    assert {e.key for e in duplicate} >= {"devyatka", "golf"}
    for entry in duplicate:
        assert escape(str(entry.duplicate_rules)) in matchpoints, entry.key
    # The English reads as it did when the page named the games itself.
    assert matchpoints == (
        "<strong>Matchpoints.</strong> On each board you get 2 matchpoints for every other "
        "entrant of your seat you beat, 1 for each you tie with and 0 for each who beat you, "
        "shown as a percentage of the most possible. Devyatka: the better place beats the "
        "worse; at the same place, fewer cards left, then fewer card points (with the pass "
        "rule: fewer passes before card points). Keft: not losing beats losing; between two "
        "who did not lose, going out earlier wins. Golf: the lower match total wins. The "
        "house bots' seats are not scored. An entrant alone on a board scores 50%."
    )
    ratings = _paragraph(page, "Every finished game updates a rating per game")
    assert "per game (Devyatka, Keft, Golf), computed" in ratings
    # The worked example comes from the first duplicate game's folder that has one.
    assert "<h3>A worked example</h3>" in page
    assert "Four members play the same Golf board" in page


def test_the_rules_page_gives_the_games_words_in_the_readers_language():
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("rules")).content.decode()
    with translation.override("ru"):
        for entry in registry.engines():
            if entry.duplicate_rules:
                assert escape(str(entry.duplicate_rules)) in page, entry.key
        assert "(Девятка, Кефт, Гольф)" in page
    assert "Гольф: выигрывает меньший итог матча." in page
