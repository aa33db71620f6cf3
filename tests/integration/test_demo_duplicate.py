"""The demo club has a duplicate series with an open round, and the menu leads to it (issue 35).

`demo_data` (here without series games, `--games 0`, to stay quick) builds a
duplicate series: round 1 played by four demo members and closed, so its
standings and travellers are public, and round 2 open, where Anna finds a
Play button on every board. Run again it adds nothing; once the open round
has ended, the next run opens a new one.
"""

from __future__ import annotations

import datetime
import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from club.models import Player
from duplicate import demo as duplicate_demo
from duplicate.models import DuplicateSeries, Play, Round

pytestmark = pytest.mark.django_db


def build() -> None:
    call_command("demo_data", "--games", "0", stdout=io.StringIO())


def anna() -> Client:
    client = Client()
    client.force_login(Player.objects.get(display_name="Anna").user)
    return client


def test_the_demo_club_has_a_duplicate_series_with_a_closed_and_an_open_round():
    build()
    series = DuplicateSeries.objects.get(slug=duplicate_demo.SLUG)
    closed, open_ = series.rounds.order_by("number")
    assert closed.is_closed and not open_.is_closed and open_.is_open()
    plays = Play.objects.filter(board__round=closed)
    assert plays.count() == sum(duplicate_demo.ROUND_ONE.values())
    assert all(play.game.finished for play in plays.select_related("game"))
    assert {p.player.display_name for p in plays} == set(duplicate_demo.ROUND_ONE)
    # The same deals on every machine: the boards' seeds come from their places.
    assert closed.board_set.get(number=1).seed == duplicate_demo._seed(
        "duplicate", series.slug, 1, 1
    )

    page = anna().get(series.get_absolute_url()).content.decode()
    assert 'data-testid="duplicate-standings"' in page
    assert page.count('data-testid="play-board"') == duplicate_demo.BOARDS
    traveller = anna().get(closed.board_set.get(number=1).get_absolute_url())
    assert traveller.status_code == 200

    counts = (Round.objects.count(), Play.objects.count())
    build()
    assert (Round.objects.count(), Play.objects.count()) == counts, "the second run added some"


def test_an_ended_open_round_is_followed_by_a_new_one():
    build()
    series = DuplicateSeries.objects.get(slug=duplicate_demo.SLUG)
    last = series.rounds.order_by("-number").first()
    Round.objects.filter(pk=last.pk).update(
        starts=timezone.now() - datetime.timedelta(days=3),
        ends=timezone.now() - datetime.timedelta(hours=1),
    )
    build()
    newest = series.rounds.order_by("-number").first()
    assert newest.number == last.number + 1 and newest.is_open()


def test_the_site_menu_leads_to_the_duplicate_series():
    page = Client().get("/").content.decode()
    assert 'data-testid="nav-duplicate" href="/duplicate/"' in page or (
        'href="/duplicate/" data-testid="nav-duplicate"' in page
    )
