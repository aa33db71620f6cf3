"""The small things a new member notices: the icon, the greeting, what counts, the legend."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.integration.test_accounts import PASSWORD, signup
from tests.integration.test_series import make_players, make_series, play_game

pytestmark = pytest.mark.django_db


def test_favicon_ico_leads_to_the_site_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith(".svg")
    assert 'rel="icon"' in client.get("/").content.decode()


def test_signup_welcomes_the_new_member_by_display_name(client):
    response = signup(client, email="newbie1@example.com", name="Newbie One")
    page = client.get(response["Location"]).content.decode()
    assert "Welcome to the club, Newbie One!" in page
    assert "Welcome back" not in page
    assert "Successfully signed in" not in page
    assert "newbie1" not in page.replace("newbie1@example.com", "")


def test_signing_in_names_the_member_by_display_name(client):
    signup(client, email="anna@example.com", name="Anna Karenina")
    client.logout()
    response = client.post(
        reverse("account_login"), {"login": "anna@example.com", "password": PASSWORD}
    )
    page = client.get(response["Location"]).content.decode()
    assert "Signed in as Anna Karenina." in page


def test_home_page_does_not_claim_every_game_counts_in_a_series(client):
    page = client.get("/").content.decode()
    assert "Every game counts" not in page
    assert "friendly games" in page


@pytest.mark.parametrize(
    ("variant", "legend"),
    [("Keft", "L</span> lost the game"), ("Devyatka", "as the place they finished")],
)
def test_series_standings_explain_the_recent_marks(client, variant, legend):
    series = make_series(variant, min_games=1)
    play_game(make_players("Anna", "Boris", "Clara"), variant, series=series)
    page = client.get(reverse("series_detail", args=[series.slug])).content.decode()
    assert 'data-testid="recent-legend"' in page
    assert legend in page


def test_finished_game_page_writes_cards_as_people_do(client):
    import re

    game = play_game(make_players("Anna", "Boris", "Clara"), "Devyatka")
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'class="card-text suit-' in page
    assert "of diamonds" in page or "of hearts" in page
    # No raw codes: not "played AH", not "C: 6C – AC".
    assert not re.search(r"played [2-9TJQKA][CDHS]<", page)
    assert not re.search(r"<li>[CDHS]: ", page)
    assert "♣ Clubs: " in page
