"""A private table's games are seen only by its players, creator and invite holders."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Player
from games import services
from games.models import Game, Table, Variant
from tests.integration.test_series import finish_game, make_players, make_series

pytestmark = pytest.mark.django_db


def private_game(series=None) -> tuple[Game, list[Player]]:
    """A finished private Keft game between Anna (creator) and Boris (invited); Vera is not in it."""
    anna, boris, vera = make_players("Anna", "Boris", "Vera")
    variant = series.variant if series else Variant.objects.get(name="Keft")
    table, _ = services.create_table(anna, variant, 2, private=True, series=series)
    services.join_table(boris, table.pk, str(table.invite_token))
    return finish_game(table), [anna, boris, vera]


def client_for(player: Player | None) -> Client:
    client = Client()
    if player is not None:
        client.force_login(player.user)
    return client


def test_private_game_page_is_404_to_outsiders():
    game, (anna, boris, vera) = private_game()
    url = reverse("game_detail", args=[game.pk])
    for outsider in (None, vera):
        response = client_for(outsider).get(url)
        assert response.status_code == 404
        assert "not on the table" in response.content.decode()  # the friendly 404 page
        assert "Boris" not in response.content.decode()
    assert client_for(vera).get(f"{url}?invite=not-a-token").status_code == 404
    for insider in (anna, boris):
        assert client_for(insider).get(url).status_code == 200
    invited = client_for(vera).get(f"{url}?invite={game.table.invite_token}")
    assert invited.status_code == 200 and "Boris" in invited.content.decode()


def test_players_of_a_game_see_it_after_leaving_the_table():
    game, (anna, boris, _) = private_game()
    game.table.seats.filter(player=boris).delete()
    assert client_for(boris).get(reverse("game_detail", args=[game.pk])).status_code == 200


def test_private_table_page_is_404_without_seat_or_invite():
    anna, boris, vera = make_players("Anna", "Boris", "Vera")
    table, _ = services.create_table(anna, Variant.objects.get(name="Keft"), 3, private=True)
    services.join_table(boris, table.pk, str(table.invite_token))
    url = reverse("table", args=[table.pk])
    response = client_for(vera).get(url)
    assert response.status_code == 404
    assert "not on the table" in response.content.decode()
    assert client_for(vera).get(f"{url}?invite=garbage").status_code == 404
    assert client_for(vera).get(f"{url}?invite={table.invite_token}").status_code == 200
    assert client_for(boris).get(url).status_code == 200
    table.seats.filter(player=anna).delete()
    assert client_for(anna).get(url).status_code == 200  # the creator, no longer seated


def test_player_page_lists_private_games_only_to_those_who_may_see_them():
    game, (anna, boris, vera) = private_game()
    public = finish_game(_public_table(anna, vera))
    private_url = reverse("game_detail", args=[game.pk])
    public_url = reverse("game_detail", args=[public.pk])
    page = boris.get_absolute_url()
    for outsider in (None, vera):
        content = client_for(outsider).get(anna.get_absolute_url()).content.decode()
        assert private_url not in content and public_url in content
        assert private_url not in client_for(outsider).get(page).content.decode()
    assert private_url in client_for(anna).get(page).content.decode()
    assert private_url in client_for(boris).get(page).content.decode()


def _public_table(anna: Player, vera: Player) -> Table:
    table, _ = services.create_table(anna, Variant.objects.get(name="Keft"), 2)
    services.join_table(vera, table.pk)
    return table


def test_series_recent_games_hide_private_games():
    series = make_series("Keft", min_games=1)
    game, (anna, boris, vera) = private_game(series)
    url = reverse("series_detail", args=[series.slug])
    game_url = reverse("game_detail", args=[game.pk])
    for outsider in (None, vera):
        assert game_url not in client_for(outsider).get(url).content.decode()
    for insider in (anna, boris):
        assert game_url in client_for(insider).get(url).content.decode()


def test_one_rule_for_tables_and_games():
    game, (anna, boris, vera) = private_game()
    table = game.table
    token = str(table.invite_token)
    assert table.visible_to(anna) and table.visible_to(boris)
    assert not table.visible_to(vera) and not table.visible_to(None)
    assert table.visible_to(vera, token) and table.visible_to(None, token)
    assert not table.visible_to(vera, "not-a-uuid")
    assert list(Game.objects.visible_to(boris)) == [game]
    assert not Game.objects.visible_to(vera).exists()
    assert list(Game.objects.visible_to(vera, token)) == [game]
