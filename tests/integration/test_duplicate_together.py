"""Series with shared tables: members play a board together at one table, each scored at
the seat they held, with the same cards per seat as everyone else and no peeking."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from duplicate import standings as duplicate_standings
from duplicate.models import Gathering, Play
from duplicate.services import (
    close_round,
    gather,
    join_gathering,
    leave_gathering,
    play_board,
    start_gathering,
)
from games.models import Table
from games.services import ServiceError
from tests.integration.test_duplicate import _peek_urls
from tests.support.duplicate import board, finish, make_series, open_round, start
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]

FIRST, LAST = (lambda legal: legal[0]), (lambda legal: legal[-1])


def client_for(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def shared_round(variant: str = "Devyatka", seats: int = 3, boards: int = 2):
    series = make_series(variant, seats=seats, shared_tables=True)
    return series, open_round(series, boards=boards)


@pytest.mark.parametrize("variant", ["Devyatka", "Golf"])
def test_members_at_one_table_hold_the_same_cards_as_every_entrant_of_their_seats(variant):
    series, round_ = shared_round(variant, seats=3)
    anna, boris, vera, gleb = (member(n) for n in ("Anna", "Boris", "Vera", "Gleb"))
    gathering = gather(anna, board(round_, 2).pk)
    assert join_gathering(boris, gathering.pk) == (None, [])  # one seat still free
    play, updates = join_gathering(vera, gathering.pk)  # the table is full: dealt
    assert len(updates) == 1 and not Gathering.objects.exists()
    plays = {p.player.display_name: p for p in Play.objects.filter(table_id=play.table_id)}
    # From the board's seat (board 2: seat 1) round the table, in the order they joined.
    assert {n: p.seat for n, p in plays.items()} == {"Anna": 1, "Boris": 2, "Vera": 0}
    assert len({p.game_id for p in plays.values()}) == 1
    game = plays["Anna"].game
    assert [game.players[p.seat] for p in plays.values()] == [p.player_id for p in plays.values()]
    # Gleb plays the board alone: the same deal, the same cards at every seat.
    solo = start(gleb, round_, 2)
    assert solo.seat == 1 and solo.game.state == game.state and solo.game.seed == game.seed


def test_a_started_table_fills_its_free_seats_with_house_bots_of_the_series_level():
    series, round_ = shared_round("Keft", seats=4)
    anna, boris = member("Anna"), member("Boris")
    gathering = gather(anna, board(round_, 1).pk)
    join_gathering(boris, gathering.pk)
    with pytest.raises(ServiceError) as error:
        start_gathering(member("Vera"), gathering.pk)  # not waiting there
    assert error.value.code == "not_seated"
    play, updates = start_gathering(boris, gathering.pk)
    assert play.player == boris and play.seat == 1 and len(updates) == 1
    table = Table.objects.get(pk=play.table_id)
    seats = list(table.seats.order_by("position").select_related("player"))
    assert [s.is_bot for s in seats] == [False, False, True, True]
    assert {s.player.bot_level for s in seats if s.is_bot} == {series.bot_level}


def test_each_member_is_scored_at_the_seat_they_held():
    series, round_ = shared_round("Golf", seats=2, boards=1)
    anna, boris, vera, gleb = (member(n) for n in ("Anna", "Boris", "Vera", "Gleb"))
    gathering = gather(anna, board(round_).pk)
    together, _ = join_gathering(boris, gathering.pk)
    finish(Play.objects.get(player=anna), FIRST)  # plays both members' seats to the end
    finish(start(vera, round_), LAST)  # seat 0, alone with a bot
    finish(start(gleb, round_), FIRST)  # seat 0 too
    entries = duplicate_standings.traveller(series, board(round_).pk)
    by_name = {e.name: e for e in entries}
    assert {n: e.seat for n, e in by_name.items()} == {"Anna": 0, "Boris": 1, "Vera": 0, "Gleb": 0}
    # Seat 0 has three entrants (most 4 matchpoints); Boris alone at seat 1 scores 50%.
    assert by_name["Anna"].top == 4 and by_name["Boris"].entrants == 1
    assert by_name["Boris"].percent == 50.0
    seat0 = [by_name[n] for n in ("Anna", "Vera", "Gleb")]
    for e in seat0:
        beaten = sum(o.outcome["score"] > e.outcome["score"] for o in seat0)
        tied = sum(o.outcome["score"] == e.outcome["score"] for o in seat0) - 1
        assert e.matchpoints == 2 * beaten + tied
    close_round(round_.pk)  # the standings count a round once it has closed
    rows = {r.name: r for r in duplicate_standings.standings(series)}
    assert {n: round(r.percent, 9) for n, r in rows.items()} == {
        e.name: round(e.percent, 9) for e in entries
    }
    assert together.table_id == Play.objects.get(player=anna).table_id


def test_no_peeking_still_holds_for_boards_played_together():
    series, round_ = shared_round("Devyatka", seats=3, boards=1)
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    solo = finish(start(vera, round_))
    gathering = gather(anna, board(round_).pk)
    together, _ = join_gathering(boris, gathering.pk)
    together_play = start_gathering(anna, gathering.pk) if together is None else None
    play = together or together_play[0]
    traveller = board(round_).get_absolute_url()
    for viewer in (anna, boris):  # playing, not finished: nothing of Vera's game
        client = client_for(viewer)
        for url in _peek_urls(solo.game):
            assert client.get(url).status_code == 404, (viewer, url)
        assert client.get(traveller).status_code == 404
    # Vera finished the board: she sees its traveller, but never their live table.
    assert client_for(vera).get(reverse("table", args=[play.table_id])).status_code == 404
    finish(Play.objects.get(player=anna))
    page = client_for(boris).get(traveller).content.decode()
    assert "Anna" in page and "Boris" in page and "Vera" in page
    # A member who has played the board cannot sit at another table of it.
    with pytest.raises(ServiceError) as error:
        gather(vera, board(round_).pk)
    assert error.value.code == "played"


def test_shared_tables_are_refused_unless_the_series_allows_them():
    series = make_series("Devyatka", seats=3)
    round_ = open_round(series, boards=1)
    with pytest.raises(ServiceError) as error:
        gather(member("Anna"), board(round_).pk)
    assert error.value.code == "not_shared"


def test_waiting_members_leave_and_cannot_also_play_alone():
    series, round_ = shared_round("Devyatka", seats=3, boards=1)
    anna, boris = member("Anna"), member("Boris")
    gathering = gather(anna, board(round_).pk)
    with pytest.raises(ServiceError) as error:
        play_board(anna, board(round_).pk)
    assert error.value.code == "waiting"
    with pytest.raises(ServiceError) as error:
        gather(anna, board(round_).pk)
    assert error.value.code == "waiting"
    join_gathering(boris, gathering.pk)
    leave_gathering(anna, gathering.pk)
    leave_gathering(boris, gathering.pk)  # the last one out closes the table
    assert not Gathering.objects.exists()
    with pytest.raises(ServiceError) as error:
        join_gathering(anna, gathering.pk)
    assert error.value.code == "no_table"
    play, _ = play_board(anna, board(round_).pk)  # alone, now that she left
    assert play.seat == 0


def test_closing_the_round_drops_waiting_tables():
    series, round_ = shared_round("Devyatka", seats=3, boards=1)
    gather(member("Anna"), board(round_).pk)
    close_round(round_.pk)
    assert not Gathering.objects.exists()


def test_the_round_page_lists_waiting_tables_and_its_buttons_work():
    series, round_ = shared_round("Devyatka", seats=3, boards=1)
    anna, boris = member("Anna"), member("Boris")
    n = board(round_).number
    response = client_for(anna).post(
        reverse("duplicate_together", args=[series.slug, round_.number, n])
    )
    assert response.status_code == 302
    gathering = Gathering.objects.get()
    page = client_for(boris).get(round_.get_absolute_url()).content.decode()
    assert f'data-testid="waiting-{gathering.pk}"' in page and "Anna" in page
    assert 'data-testid="join-together"' in page
    url = reverse("duplicate_waiting", args=[series.slug, round_.number, gathering.pk])
    assert client_for(boris).post(url, {"action": "dance"}).status_code == 302
    assert Gathering.objects.get().seats.count() == 1  # nothing changed
    response = client_for(boris).post(url, {"action": "join"})
    assert response.status_code == 302 and response["Location"] == round_.get_absolute_url()
    response = client_for(anna).post(url, {"action": "start"})
    play = Play.objects.get(player=anna)
    assert response["Location"] == reverse("table", args=[play.table_id])
    assert client_for(boris).get(reverse("table", args=[play.table_id])).status_code == 200
    gone = client_for(boris).post(url, {"action": "start"})  # it has started: a clear message
    assert gone.status_code == 302
    huge = reverse("duplicate_waiting", args=[series.slug, round_.number, 2**70])
    assert client_for(anna).post(huge, {"action": "join"}).status_code == 302  # no such table


def test_a_waiting_member_s_pages_reload_by_themselves_until_the_table_is_dealt():
    series, round_ = shared_round("Devyatka", seats=3, boards=1)
    anna, boris = member("Anna"), member("Boris")
    refresh = '<meta http-equiv="refresh"'
    pages = (round_.get_absolute_url(), series.get_absolute_url())
    for url in pages:
        page = client_for(anna).get(url).content.decode()
        assert refresh not in page and 'data-testid="together-note"' in page
    gathering = gather(anna, board(round_).pk)
    for url in pages:
        assert refresh in client_for(anna).get(url).content.decode()
        assert refresh not in client_for(boris).get(url).content.decode()  # not waiting
    play, _ = start_gathering(anna, gathering.pk)
    page = client_for(anna).get(round_.get_absolute_url()).content.decode()
    assert refresh not in page
    assert f'href="/tables/{play.table_id}/" data-testid="continue"' in page
