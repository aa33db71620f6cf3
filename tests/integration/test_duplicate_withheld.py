"""What an open round withholds from everyone, staff and finished entrants included
(duplicate.rules.withheld_rounds): its boards' seeds, the hands of their games in admin."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from duplicate.services import close_round
from games.models import Variant
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
        assert not all(card in text for card in first_hand)
        assert "until the round closes" in text
    close_round(round_.pk)
    text = client.get(reverse("admin:games_game_change", args=[running.game_id])).content.decode()
    assert seed in text and "hands" in text
