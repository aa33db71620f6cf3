"""No peeking, the remaining doors: an entrant who has not finished a board finds nothing of
another entrant's game of it in the analysis (JSON, panel, asking for one), the ratings of
its table's seats, the lobby's list or their home page's tables (test_duplicate.py has the
game, replay, record, table, player and traveller pages; test_duplicate_ws the sockets)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from duplicate.services import close_round
from tests.support.duplicate import finish, make_series, open_round, start
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]


def test_analysis_ratings_and_table_lists_show_nothing_of_an_unfinished_board():
    series = make_series("Devyatka", seats=3)
    round_ = open_round(series, boards=1)
    anna, boris = member("Anna"), member("Boris")
    anna_play = finish(start(anna, round_))
    boris_play = start(boris, round_)
    client = Client()
    client.force_login(boris.user)
    hidden = [
        reverse("analysis_status", args=[anna_play.game_id]),
        reverse("analysis_panel", args=[anna_play.game_id]),
        reverse("ratings_table_seats", args=[anna_play.table_id]),
    ]
    for url in hidden:
        assert client.get(url).status_code == 404, url
    assert client.post(reverse("analysis_ask", args=[anna_play.game_id])).status_code == 404
    for url in (reverse("lobby_list"), reverse("home_tables")):
        page = client.get(url).content.decode()
        assert f"/tables/{anna_play.table_id}/" not in page
        assert f'data-table-id="{anna_play.table_id}"' not in page
    # Boris's own table is on his home page. Finishing opens Anna's game to him (the
    # traveller), but its analysis stays hers until the round closes (analysis.open_to).
    assert f"/tables/{boris_play.table_id}/" in client.get(reverse("home_tables")).content.decode()
    finish(boris_play)
    assert client.get(reverse("game_detail", args=[anna_play.game_id])).status_code == 200
    assert client.get(hidden[0]).status_code == 404
    close_round(round_.pk)
    assert Client().get(hidden[0]).status_code == 200  # the round closed: public
