"""House bots that can be told apart: a name a seat, which says the bot's strength."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Player
from games import services
from games.models import Table, Variant
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]


def test_three_bots_of_one_strength_get_three_names():
    anna = member("Anna")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 4)
    for _ in range(3):
        services.add_bot(anna, table.pk, "heuristic")
    names = [s.player.display_name for s in table.seats.filter(is_bot=True).order_by("position")]
    assert names == ["Hugo (heuristic bot)", "Hana (heuristic bot)", "Hilda (heuristic bot)"]


def test_a_bot_keeps_its_name_through_the_game_and_into_the_results():
    anna = member("Anna")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 3)
    services.add_bot(anna, table.pk, "search")
    services.add_bot(anna, table.pk, "search")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    game = services.current_game(table)
    seated = {p.pk: p.display_name for p in Player.objects.filter(pk__in=game.players)}
    assert sorted(seated.values()) == ["Anna", "Sasha (search bot)", "Sven (search bot)"]


def test_a_removed_bot_frees_its_name_for_the_next():
    anna = member("Anna")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 4)
    services.add_bot(anna, table.pk, "random")
    services.add_bot(anna, table.pk, "random")
    services.remove_bot(anna, table.pk, 1)
    services.add_bot(anna, table.pk, "random")
    names = sorted(s.player.display_name for s in table.seats.filter(is_bot=True))
    assert names == ["Remy (random bot)", "Rosa (random bot)"]


def test_every_roster_fills_a_twelve_seat_table_with_distinct_names():
    for level in ("random", "heuristic", "search"):
        assert Player.objects.bots().filter(bot_level=level).count() >= 11


def test_a_bots_page_says_what_it_is_not_when_it_joined(client):
    bot = Player.objects.bots().get(display_name="Hugo (heuristic bot)")
    page = client.get(reverse("player", args=[bot.pk])).content.decode()
    assert "Member since" not in page
    assert "house bot of heuristic strength" in page
