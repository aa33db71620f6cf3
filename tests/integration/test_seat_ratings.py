"""Each seated player's rating in the table's game: in the lobby and for the table page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Variant
from tests.integration.test_series import make_players, play_game

pytestmark = pytest.mark.django_db


def rated_players():
    players = make_players("Anna", "Boris", "Clara")
    play_game(players, "Keft")  # one rated Keft game each
    return players


def test_table_seats_give_each_players_rating_in_the_tables_game(client):
    anna, boris, clara = rated_players()
    newcomer = make_players("Dora")[0]
    table, _ = services.create_table(anna, Variant.objects.get(name="Keft"), 4)
    services.join_table(newcomer, table.pk)
    client.force_login(boris.user)
    body = client.get(reverse("ratings_table_seats", args=[table.pk])).json()
    assert body["family"] == "keft"
    assert body["seats"]["1"] is None  # no rated game yet
    anna_rating = anna.ratings.get(family="keft")
    assert body["seats"]["0"] == {"rating": anna_rating.display, "provisional": True}
    # Another game family: Anna has no Devyatka rating yet.
    other, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 4)
    assert client.get(reverse("ratings_table_seats", args=[other.pk])).json()["seats"] == {
        "0": None
    }


def test_a_private_tables_seat_ratings_are_as_private_as_the_table(client):
    anna, boris, _ = rated_players()
    table, _ = services.create_table(anna, Variant.objects.get(name="Keft"), 4, private=True)
    client.force_login(boris.user)
    url = reverse("ratings_table_seats", args=[table.pk])
    assert client.get(url).status_code == 404
    assert client.get(url, {"invite": str(table.invite_token)}).status_code == 200


def test_lobby_shows_seated_players_ratings_in_one_query(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    anna, boris, clara = rated_players()
    client.force_login(clara.user)
    services.create_table(anna, Variant.objects.get(name="Keft"), 4)
    with CaptureQueriesContext(connection) as one_table:
        client.get(reverse("lobby"))
    services.create_table(boris, Variant.objects.get(name="Keft"), 4)
    services.create_table(clara, Variant.objects.get(name="Devyatka"), 4)
    with CaptureQueriesContext(connection) as three_tables:
        page = client.get(reverse("lobby")).content.decode()
    assert len(three_tables) == len(one_table)
    assert page.count('data-testid="seat-rating"') == 2  # Clara has no Devyatka rating
    assert f">{anna.ratings.get(family='keft').display}?<" in page  # provisional
