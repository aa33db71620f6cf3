"""What an open round withholds from everyone, staff and finished entrants included
(duplicate.withheld): its boards' seeds, the hands of their games in admin, and what the
boards add up to: standings (page and CSV), ratings and the player figures built on them."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from analysis import services as analysis_services
from analysis.models import GameAnalysis
from duplicate import standings as duplicate_standings
from duplicate.services import close_round
from games.models import Variant
from ratings.models import Rating, RatingChange
from ratings.services import rebuild
from tests.support.duplicate import board, finish, golf_rounds, make_series, open_round, start
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]


def client_for(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def _golf_series():
    return make_series(Variant.objects.create(name="Golf short", game="golf", **golf_rounds(1)))


def test_the_record_of_a_board_carries_no_seed_until_its_round_closes():
    series = _golf_series()
    round_ = open_round(series, boards=1)
    anna_play = finish(start(member("Anna"), round_))
    seed = board(round_).seed
    url = reverse("game_record", args=[anna_play.game_id])
    anna = client_for(anna_play.player)
    record = json.loads(anna.get(url).content)
    assert record["seed"] is None
    assert record["deal"]["seed"] is None  # Golf's deal names its seed too
    assert str(seed) not in anna.get(url).content.decode()
    assert record["moves"] and record["deal"]["grids"]  # the rest is the record as ever
    close_round(round_.pk)
    record = json.loads(client_for(anna_play.player).get(url).content)
    assert record["seed"] == seed and record["deal"]["seed"] == seed


def test_admin_shows_no_seed_and_no_hands_of_a_board_game_until_its_round_closes():
    series = make_series("Devyatka", seats=3)
    round_ = open_round(series, boards=1)
    running = start(member("Anna"), round_)
    finished = finish(start(member("Boris"), round_))
    # A staff member who may only view games (the demo's admin, also a member).
    staff = member("Vera", is_staff=True)
    staff.user.user_permissions.set(Permission.objects.filter(codename="view_game"))
    client = client_for(staff)
    seed = str(board(round_).seed)
    for play in (running, finished):
        play.game.refresh_from_db()
        page = client.get(reverse("admin:games_game_change", args=[play.game_id]))
        assert page.status_code == 200
        text = page.content.decode()
        assert seed not in text
        assert "hands" not in text  # the state (every hand) is not on the page
        first_hand = play.game.state["hands"][0]
        # As the admin would write a card of the state: quoted (bare codes such as
        # "9D" turn up by chance in tokens and hashed names).
        assert not any(f"&quot;{card}&quot;" in text or f'"{card}"' in text for card in first_hand)
        assert "until the round closes" in text
    close_round(round_.pk)
    text = client.get(reverse("admin:games_game_change", args=[running.game_id])).content.decode()
    assert seed in text and "hands" in text


def test_standings_csv_ratings_and_player_figures_count_a_board_only_once_its_round_closed():
    """The one rule (duplicate.withheld): not when the viewer finished the board, when the
    round closes; for every viewer, the entrants who finished it included."""
    series = make_series("Devyatka", seats=3)
    round_ = open_round(series, boards=1)
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    anna_play = finish(start(anna, round_))
    boris_play = finish(start(boris, round_), lambda legal: legal[-1])
    csv_url = reverse("duplicate_csv", args=[series.slug])
    for viewer in (vera, anna):
        client = client_for(viewer)
        page = client.get(series.get_absolute_url()).content.decode()
        assert 'data-testid="duplicate-standings"' not in page
        assert 'data-testid="standings-pending"' in page
        assert client.get(csv_url).content.decode().splitlines() == [
            "rank,player,boards,matchpoint_percent"
        ]
        profile = client.get(anna.get_absolute_url()).content.decode()
        assert 'data-testid="rating-devyatka"' not in profile  # no rating, no figures
    assert not RatingChange.objects.exists() and not Rating.objects.filter(games__gt=0).exists()
    assert duplicate_standings.standings(series) == []
    rebuild()  # a rebuild rates nothing of an open round either
    assert not RatingChange.objects.exists()

    close_round(round_.pk)
    lines = client_for(vera).get(csv_url).content.decode().splitlines()
    assert len(lines) == 3 and {line.split(",")[1] for line in lines[1:]} == {"Anna", "Boris"}
    page = client_for(vera).get(series.get_absolute_url()).content.decode()
    assert 'data-testid="duplicate-standings"' in page
    assert 'data-testid="standings-pending"' not in page
    # Rated at closing, in the order the games finished: Anna's first.
    changes = list(
        RatingChange.objects.filter(result__player__in=[anna, boris])
        .order_by("pk")
        .values_list("result__game_id", flat=True)
    )
    assert changes == [anna_play.game_id, boris_play.game_id]
    profile = client_for(vera).get(anna.get_absolute_url()).content.decode()
    assert 'data-testid="rating-devyatka"' in profile
    stored = sorted(Rating.objects.values_list("player_id", "family", "mu", "sigma", "games"))
    rebuild()  # the stored values are the ones a rebuild gives
    assert sorted(Rating.objects.values_list("player_id", "family", "mu", "sigma", "games")) == (
        stored
    )
    assert close_round(round_.pk) == [] and RatingChange.objects.count() == 6  # rated once


def test_the_rules_page_says_what_waits_for_the_round_to_close_and_how_ties_rank():
    page = Client().get(reverse("rules")).content.decode()
    assert "until the round closes" in page
    assert "rated when the round closes" in page
    assert "At an equal percentage, fewer boards played ranks lower." in page


def test_another_entrants_running_game_of_a_finished_board_answers_as_a_missing_game():
    series = make_series("Devyatka", seats=3)
    round_ = open_round(series, boards=1)
    anna_play = finish(start(member("Anna"), round_))
    boris_play = start(member("Boris"), round_)  # running
    anna = client_for(anna_play.player)
    missing = reverse("game_detail", args=[10**6])
    assert anna.get(missing).status_code == 404
    for name in ("game_detail", "game_replay", "game_record"):
        response = anna.get(reverse(name, args=[boris_play.game_id]))
        assert response.status_code == 404, name  # not a redirect to the table
    finish(boris_play)
    assert anna.get(reverse("game_detail", args=[boris_play.game_id])).status_code == 200


def test_a_boards_table_says_it_counts_in_its_duplicate_series_not_that_it_is_friendly():
    series = make_series("Devyatka", seats=3)
    round_ = open_round(series, boards=1)
    play = start(member("Anna"), round_)
    page = client_for(play.player).get(reverse("table", args=[play.table_id])).content.decode()
    assert "A friendly game" not in page
    assert f'it counts in <a href="{series.get_absolute_url()}">its series</a>' in page


# The task worker opens connections of its own: on PostgreSQL not inside the test's atomic block.
@pytest.mark.django_db(transaction=True)
def test_admin_shows_no_judgements_of_a_board_games_analysis_until_its_round_closes(settings):
    settings.ANALYSIS_SAMPLES = 2
    settings.ANALYSIS_WORKER_NICE = 0
    series = make_series("Keft", seats=3)
    round_ = open_round(series, boards=1)
    play = finish(start(member("Anna"), round_))
    analysis_services.request(play.game, play.player)
    call_command("worker", batch=True, interval=0)
    analysis = GameAnalysis.objects.get(game=play.game)
    assert analysis.status == GameAnalysis.Status.DONE and analysis.decisions
    staff = member("Vera", is_staff=True)
    staff.user.user_permissions.set(Permission.objects.filter(codename="view_gameanalysis"))
    url = reverse("admin:analysis_gameanalysis_change", args=[analysis.pk])
    text = client_for(staff).get(url).content.decode()
    assert "&quot;verdict&quot;" not in text and "&quot;played&quot;" not in text
    close_round(round_.pk)
    text = client_for(staff).get(url).content.decode()
    assert "&quot;verdict&quot;" in text
