"""Duplicate series: same cards per board and seat, matchpoints, no peeking, closing, admin."""

from __future__ import annotations

import dataclasses
import datetime

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from duplicate import standings as duplicate_standings
from duplicate.models import Play, Round
from duplicate.services import close_due_rounds, close_round, play_board
from games import registry, services
from games.models import Game, Table
from tests.support.duplicate import board, finish, make_series, open_round, start
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]


FIRST, LAST = (lambda legal: legal[0]), (lambda legal: legal[-1])


def client_for(player) -> Client:
    client = Client()
    if player is not None:
        client.force_login(player.user)
    return client


# ---------------------------------------------------------------------------
# The same cards


@pytest.mark.parametrize("variant", ["Devyatka", "Keft", "Golf"])
def test_two_entrants_games_of_one_board_start_from_identical_states(variant):
    series = make_series(variant, seats=4)
    round_ = open_round(series, boards=3)
    anna, boris = member("Anna"), member("Boris")
    for number in (1, 2, 3):
        a, b = start(anna, round_, number), start(boris, round_, number)
        assert a.seat == b.seat == (number - 1) % 4
        assert a.game.state == b.game.state  # every hand, the stock, the seat to lead
        assert a.game.seed == b.game.seed == board(round_, number).seed
        # The bots at the other seats are the same house players too.
        others = [p for i, p in enumerate(a.game.players) if i != a.seat]
        assert others == [p for i, p in enumerate(b.game.players) if i != b.seat]
    # Different boards are different deals.
    games = Game.objects.filter(duplicate_plays__player=anna).order_by("duplicate_plays__board")
    assert len({str(g.state) for g in games}) == 3


def test_golf_later_rounds_deal_the_same_shoe_whatever_was_played():
    """Golf's later rounds are shuffled from the seed and the round number only."""
    engine = registry.engine("golf")
    options = engine.options({"column_rule": "pair", "rounds": 3})
    seed = 123456789
    ends = []
    for level in ("random", "heuristic"):
        state = engine.deal(3, seed, options)
        history = []
        while state.round == 1:
            seat = engine.actors(state)[0]
            move = engine.choose_move(level, engine.view(state, seat), history, 7, 0)
            state, actions = engine.apply(state, seat, move)
            history += actions
        ends.append((state, len(history)))
    (first, moves_a), (second, moves_b) = ends
    assert moves_a != moves_b or first.scores != second.scores  # the players chose differently
    assert first.round == second.round == 2
    assert first.grids == second.grids and first.stock == second.stock
    assert first.discard == second.discard and first.dealer == second.dealer


# ---------------------------------------------------------------------------
# Matchpoints and standings through the database


def test_traveller_and_standings_score_only_the_entrants_seats():
    series = make_series("Golf", seats=3)
    golf_series_round = open_round(series, boards=1)
    names = ["Anna", "Boris", "Vera"]
    players = [member(n) for n in names]
    for player, pick in zip(players, (FIRST, LAST, FIRST), strict=True):
        finish(start(player, golf_series_round), pick)
    entries = duplicate_standings.traveller(series, board(golf_series_round).pk)
    assert sorted(e.name for e in entries) == names  # the bots' seats are not scored
    totals = {e.name: e.outcome["score"] for e in entries}
    assert totals["Anna"] == totals["Vera"]  # same cards, same choices
    for e in entries:
        beaten = sum(1 for other in entries if other.outcome["score"] > e.outcome["score"])
        tied = sum(1 for other in entries if other.outcome["score"] == e.outcome["score"]) - 1
        assert e.matchpoints == 2 * beaten + tied and e.top == 4
    close_round(golf_series_round.pk)  # the standings count a round once it has closed
    rows = duplicate_standings.standings(series)
    assert sum(r.percent for r in rows) == pytest.approx(150.0)  # an average board
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)


def test_standings_rank_only_after_the_minimum_of_boards():
    series = make_series("Devyatka", seats=2, min_boards=2)
    round_ = open_round(series, boards=2)
    anna, boris = member("Anna"), member("Boris")
    for number in (1, 2):
        finish(start(anna, round_, number))
    finish(start(boris, round_, 1), lambda legal: legal[-1])
    close_round(round_.pk)  # the standings count a round once it has closed
    rows = {r.name: r for r in duplicate_standings.standings(series)}
    assert rows["Anna"].games == 2 and rows["Anna"].rank == 1
    assert rows["Boris"].games == 1 and rows["Boris"].rank is None
    csv_text = client_for(None).get(reverse("duplicate_csv", args=[series.slug])).content
    lines = csv_text.decode().splitlines()
    assert lines[0] == "rank,player,boards,matchpoint_percent"
    assert lines[1].startswith("1,Anna,2,") and lines[2].startswith(",Boris,1,")


# ---------------------------------------------------------------------------
# Entering and playing


def test_each_board_is_played_once_inside_the_window():
    series = make_series("Keft", seats=3)
    round_ = open_round(series, boards=1)
    anna = member("Anna")
    first = start(anna, round_)
    again, updates = play_board(anna, board(round_).pk)
    assert again.pk == first.pk and updates == []
    assert Play.objects.count() == 1
    table = first.table
    finish(first)
    with pytest.raises(services.ServiceError) as error:
        services.play_again(anna, table.pk)
    assert error.value.code == "one_deal"
    later = Round.objects.create(
        series=series,
        number=2,
        starts=timezone.now() + datetime.timedelta(hours=2),
        ends=timezone.now() + datetime.timedelta(hours=3),
        boards=1,
    )
    with pytest.raises(services.ServiceError) as error:
        play_board(member("Boris"), board(later).pk)
    assert error.value.code == "round_closed"


def test_the_play_button_deals_and_opens_the_table():
    series = make_series("Devyatka", seats=3)
    open_round(series, boards=2)
    anna = member("Anna")
    client = client_for(anna)
    page = client.get(reverse("duplicate_series", args=[series.slug])).content.decode()
    assert 'data-testid="play-board"' in page
    url = reverse("duplicate_play", args=[series.slug, 1, 2])
    response = client.post(url)
    play = Play.objects.get(player=anna)
    assert response.status_code == 302 and response["Location"] == f"/tables/{play.table_id}/"
    assert play.board.number == 2 and play.table.private
    assert play.table.status == Table.Status.PLAYING
    table_page = client.get(response["Location"]).content.decode()
    assert 'data-testid="invite-url"' not in table_page  # sealed: no invite link
    assert 'data-testid="sealed-link"' in table_page
    assert client_for(None).post(url).status_code == 302  # to sign in; nothing dealt
    assert Play.objects.count() == 1


# ---------------------------------------------------------------------------
# No peeking


def _peek_urls(game: Game) -> list[str]:
    return [
        reverse("game_detail", args=[game.pk]),
        reverse("game_replay", args=[game.pk]),
        reverse("game_record", args=[game.pk]),
        reverse("table", args=[game.table_id]),
        f"{reverse('table', args=[game.table_id])}?invite={game.table.invite_token}",
        f"{reverse('game_detail', args=[game.pk])}?invite={game.table.invite_token}",
        f"{reverse('game_replay', args=[game.pk])}?invite={game.table.invite_token}",
    ]


def test_no_peeking_before_finishing_the_board():
    series = make_series("Devyatka", seats=3)
    round_ = open_round(series, boards=2)
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    anna_play = finish(start(anna, round_, 1))
    boris_play = start(boris, round_, 1)  # started, not finished
    finish(start(boris, round_, 2))  # another board finished: opens nothing of board 1
    traveller = board(round_, 1).get_absolute_url()
    for viewer in (None, boris, vera):
        client = client_for(viewer)
        for url in _peek_urls(anna_play.game):
            response = client.get(url)
            if viewer is None and url.startswith("/tables/"):
                assert response["Location"].startswith("/accounts/login/")  # no table
            else:
                assert response.status_code == 404, (viewer, url)
        assert client.get(traveller).status_code == 404
        # The player page lists none of Anna's duplicate games.
        assert (
            f"/games/{anna_play.game_id}/"
            not in client.get(anna.get_absolute_url()).content.decode()
        )
        # The round page offers no traveller link for board 1.
        round_page = client.get(round_.get_absolute_url()).content.decode()
        assert f'href="{traveller}"' not in round_page
    # Anna sees her own game and the traveller (with only herself in it so far).
    assert client_for(anna).get(traveller).status_code == 200
    # Boris finishes board 1: now he sees the traveller and Anna's game, not her table.
    finish(boris_play)
    client = client_for(boris)
    page = client.get(traveller).content.decode()
    assert "Anna" in page and "Boris" in page and 'data-testid="mp"' in page
    assert client.get(reverse("game_detail", args=[anna_play.game_id])).status_code == 200
    assert client.get(reverse("game_replay", args=[anna_play.game_id])).status_code == 200
    assert client.get(reverse("table", args=[anna_play.table_id])).status_code == 404
    # Vera, who never played it, still sees nothing until the round closes.
    assert client_for(vera).get(traveller).status_code == 404
    close_round(round_.pk)
    for viewer in (None, vera):
        assert client_for(viewer).get(traveller).status_code == 200
        detail = reverse("game_detail", args=[anna_play.game_id])
        assert client_for(viewer).get(detail).status_code == 200


def test_a_sealed_table_is_not_opened_by_its_invite_link():
    series = make_series("Keft", seats=3)
    round_ = open_round(series)
    anna, vera = member("Anna"), member("Vera")
    table = start(anna, round_).table
    assert not table.visible_to(vera, str(table.invite_token))
    assert table.visible_to(anna)
    with pytest.raises(services.ServiceError) as error:
        services.table_for_viewer(table.pk, vera.pk, str(table.invite_token))
    assert error.value.code == "not_found"
    with pytest.raises(services.ServiceError):
        services.join_table(vera, table.pk, str(table.invite_token))


# ---------------------------------------------------------------------------
# Closing


def test_closing_plays_out_an_unfinished_board_and_counts_it():
    series = make_series("Golf", seats=3)
    round_ = open_round(series, boards=2)
    anna, boris = member("Anna"), member("Boris")
    finish(start(anna, round_, 1))
    unfinished = start(boris, round_, 1)
    assert unfinished.game.result is None
    updates = close_round(round_.pk)
    assert [u.table_id for u in updates] == [unfinished.table_id]
    unfinished.game.refresh_from_db()
    assert unfinished.game.result is not None
    assert unfinished.game.moves.filter(auto=True).exists()
    round_.refresh_from_db()
    assert round_.is_closed and not round_.is_open()
    rows = {r.name: r for r in duplicate_standings.standings(series)}
    assert rows["Boris"].games == 1 and rows["Anna"].games == 1
    with pytest.raises(services.ServiceError):
        play_board(member("Vera"), board(round_, 2).pk)
    assert close_round(round_.pk) == []  # twice is harmless


def test_rounds_past_their_end_are_closed_by_the_command():
    series = make_series("Keft", seats=3)
    round_ = open_round(series)
    play = start(member("Anna"), round_)
    Round.objects.filter(pk=round_.pk).update(ends=timezone.now() - datetime.timedelta(seconds=1))
    closed, updates = close_due_rounds()
    assert closed == [round_.pk] and [u.table_id for u in updates] == [play.table_id]
    play.game.refresh_from_db()
    assert play.game.result is not None
    assert Round.objects.get(pk=round_.pk).is_closed
    assert close_due_rounds() == ([], [])


# ---------------------------------------------------------------------------
# Admin


def test_series_validation():
    with pytest.raises(ValidationError) as error:
        make_series("Devyatka", seats=9)
    assert "seats" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        make_series("Devyatka", min_boards=0)
    assert "min_boards" in error.value.message_dict


def test_a_game_without_duplicate_support_is_refused(monkeypatch):
    engine = registry.engine
    plain = dataclasses.replace(engine("golf"), duplicate=False)
    monkeypatch.setattr(registry, "engine", lambda key: plain if key == "golf" else engine(key))
    with pytest.raises(ValidationError) as error:
        make_series("Golf")
    assert "does not support duplicate" in str(error.value.message_dict["variant"])


def test_round_validation():
    series = make_series("Keft")
    first = open_round(series)
    clash = Round(series=series, number=2, starts=first.ends - datetime.timedelta(minutes=1))
    clash.ends = clash.starts + datetime.timedelta(hours=1)
    clash.boards = 2
    with pytest.raises(ValidationError) as error:
        clash.full_clean()
    assert "overlaps round 1" in str(error.value)
    backwards = Round(series=series, number=3, starts=first.ends, ends=first.ends, boards=1)
    with pytest.raises(ValidationError) as error:
        backwards.full_clean()
    assert "end after it starts" in str(error.value)
    empty = Round(
        series=series,
        number=4,
        starts=first.ends,
        ends=first.ends + datetime.timedelta(hours=1),
        boards=0,
    )
    with pytest.raises(ValidationError) as error:
        empty.full_clean()
    assert "at least one board" in str(error.value)


@pytest.fixture
def admin_client(db) -> Client:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(user)
    return client


def test_admin_refuses_overlapping_rounds_in_one_save(admin_client):
    from games.models import Variant

    start_ = timezone.now().replace(microsecond=0)
    later = start_ + datetime.timedelta(hours=1)

    def row(i: int, starts: datetime.datetime, ends: datetime.datetime) -> dict:
        return {
            f"rounds-{i}-number": i + 1,
            f"rounds-{i}-starts_0": starts.strftime("%Y-%m-%d"),
            f"rounds-{i}-starts_1": starts.strftime("%H:%M:%S"),
            f"rounds-{i}-ends_0": ends.strftime("%Y-%m-%d"),
            f"rounds-{i}-ends_1": ends.strftime("%H:%M:%S"),
            f"rounds-{i}-boards": 2,
        }

    data = {
        "name": "Cup",
        "slug": "cup",
        "variant": Variant.objects.get(name="Keft").pk,
        "seats": 3,
        "bot_level": "random",
        "min_boards": 1,
        "description": "",
        "rounds-TOTAL_FORMS": 2,
        "rounds-INITIAL_FORMS": 0,
        "rounds-MIN_NUM_FORMS": 0,
        "rounds-MAX_NUM_FORMS": 1000,
        **row(0, start_, later + datetime.timedelta(minutes=30)),
        **row(1, later, later + datetime.timedelta(hours=1)),
    }
    url = reverse("admin:duplicate_duplicateseries_add")
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "overlap" in response.content.decode()
    assert not Round.objects.exists()
    data.update(row(1, later + datetime.timedelta(minutes=30), later + datetime.timedelta(hours=1)))
    assert admin_client.post(url, data).status_code == 302
    assert Round.objects.count() == 2
    assert all(r.board_set.count() == 2 for r in Round.objects.all())


def test_admin_hides_seeds_while_open_and_closes_rounds(admin_client):
    series = make_series("Keft", seats=3)
    round_ = open_round(series, boards=2)
    play = start(member("Anna"), round_)
    url = reverse("admin:duplicate_round_change", args=[round_.pk])
    page = admin_client.get(url).content.decode()
    for b in round_.board_set.all():
        assert str(b.seed) not in page
    assert "secret until closed" in page
    for path in (
        reverse("admin:duplicate_duplicateseries_change", args=[series.pk]),
        reverse("admin:duplicate_round_changelist"),
    ):
        content = admin_client.get(path).content.decode()
        assert all(str(b.seed) not in content for b in round_.board_set.all())
    response = admin_client.post(
        reverse("admin:duplicate_round_changelist"),
        {"action": "close_now", "_selected_action": [round_.pk]},
    )
    assert response.status_code == 302
    play.game.refresh_from_db()
    assert play.game.result is not None
    page = admin_client.get(url).content.decode()
    assert all(str(b.seed) in page for b in round_.board_set.all())
