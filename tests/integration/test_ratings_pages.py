"""Ratings on the pages: the player page's block, the leaderboard, the rules, the admin."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from club.models import Player
from games.models import Variant
from ratings.models import Rating, RatingChange
from ratings.stats import chart
from tests.support.finished import finished_game
from tests.support.members import member
from tests.support.rated import random_game, variants_by_name

pytestmark = pytest.mark.django_db


def test_player_page_shows_rating_chart_and_last_games_with_links(client, settings):
    settings.RATING_PROVISIONAL_GAMES = 10
    rng = random.Random(5)
    players = [member(f"Player {i}") for i in range(4)]
    variants = variants_by_name()
    for number in range(12):
        random_game(rng, number, players, [], variants)
    anna = players[0]
    html = client.get(anna.get_absolute_url()).content.decode()
    assert 'data-testid="player-ratings"' in html
    for rating in Rating.objects.filter(player=anna):
        assert f'data-testid="rating-{rating.family}"' in html
        assert str(rating.display) in html
    change = RatingChange.objects.filter(result__player=anna).latest("result__finished")
    assert change.result.game.get_absolute_url() in html
    assert "<polyline" in html
    assert "provisional" in html


def test_player_page_without_games_says_so(client):
    anna = member("Anna")
    html = client.get(anna.get_absolute_url()).content.decode()
    assert 'data-testid="ratings-empty"' in html


def test_player_page_hides_private_games_from_strangers(client):
    game, (anna, _) = finished_game(
        Variant.objects.get(name="Devyatka"), ["Anna", "Boris"], 3, private=True
    )
    html = client.get(anna.get_absolute_url()).content.decode()
    assert 'data-testid="rating-devyatka"' in html  # the rating is public
    assert game.get_absolute_url() not in html  # the private game is not


def test_leaderboard_lists_members_with_enough_games_and_bots_apart(client, settings):
    settings.RATING_LEADERBOARD_MIN_GAMES = 3
    rng = random.Random(8)
    players = [member(f"Player {i}") for i in range(5)]
    bots = list(Player.objects.bots())
    keft = {"Keft": Variant.objects.get(name="Keft")}
    for number in range(20):
        random_game(rng, number, players, bots, keft)
    late = member("Late Comer")
    random_game(rng, 99, [late, players[0]], [], keft)
    response = client.get(reverse("ratings_family", args=["keft"]))
    assert response.status_code == 200
    html = response.content.decode()
    listed = [r for r in Rating.objects.filter(family="keft", games__gte=3, player__in=players)]
    assert html.count('data-testid="leaderboard-row"') == len(listed) > 0
    assert "Late Comer" not in html
    assert 'data-testid="bot-board"' in html
    best = max(listed, key=lambda r: r.ordinal)
    first_row = html.index('data-testid="leaderboard-row"')
    assert html.index(best.player.display_name, first_row) < html.index("</tr>", first_row)


def test_leaderboard_empty_state_and_unknown_game(client):
    response = client.get(reverse("ratings"))
    assert response.status_code == 200
    assert 'data-testid="leaderboard-empty"' in response.content.decode()
    assert client.get("/ratings/chess/").status_code == 404


def test_nav_and_rules_link_to_ratings(client):
    html = client.get(reverse("rules")).content.decode()
    assert 'id="ratings"' in html and reverse("ratings") in html
    assert f'href="{reverse("ratings")}"' in client.get(reverse("home")).content.decode()


def test_chart_scales_points_into_the_box():
    drawn = chart([1500, 1540, 1480])
    xs = [float(p.split(",")[0]) for p in drawn["points"].split()]
    ys = [float(p.split(",")[1]) for p in drawn["points"].split()]
    assert xs == sorted(xs) and min(ys) >= 0 and max(ys) <= drawn["height"]
    assert (drawn["low"], drawn["high"]) == (1480, 1540)
    assert chart([1500]) == {}


def test_admin_shows_ratings_read_only_and_rebuilds(client):
    rng = random.Random(3)
    players = [member(f"Player {i}") for i in range(3)]
    for number in range(5):
        random_game(rng, number, players, [], variants_by_name())
    before = sorted(Rating.objects.values_list("player_id", "family", "mu", "sigma"))
    admin = get_user_model().objects.create_superuser("boss", "boss@ex.com", "pw")
    client.force_login(admin)
    url = reverse("admin:ratings_rating_changelist")
    assert client.get(url).status_code == 200
    assert client.get(reverse("admin:ratings_rating_add")).status_code == 403
    response = client.post(
        url,
        {"action": "rebuild_all", "_selected_action": [Rating.objects.first().pk]},
        follow=True,
    )
    assert "Rebuilt ratings from 5 games" in response.content.decode()
    assert sorted(Rating.objects.values_list("player_id", "family", "mu", "sigma")) == before


def test_series_standings_show_each_players_rating(client):
    from tests.integration.test_series import make_players, make_series, play_game

    series = make_series("Keft", min_games=1)
    players = make_players("Anna", "Boris")
    play_game(players, series=series)
    html = client.get(series.get_absolute_url()).content.decode()
    for player in players:
        rating = Rating.objects.get(player=player, family="keft")
        row = html[html.index(f'data-player="{player.display_name}"') :]
        cell = row[row.index('data-testid="rating"') :]
        assert cell[: cell.index("</td>")].count(str(rating.display)) == 1
