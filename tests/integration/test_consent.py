"""Leave, resign, rematch by consent and the idle hand-over (RULES: leaving a table).

No member is ever dealt into a game they did not start or accept, a member
who leaves a running game resigns it, and no table waits for ever.
"""

from __future__ import annotations

import asyncio
import datetime

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from club.asgi import application
from club.models import GameResult, Player, Series
from club.standings import standings
from games import runner, services
from games.engine import devyatka
from games.models import Game, Seat, Table, Variant
from tests.support.members import member

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("default_variants")]


def seated_table(players: list[Player], variant: str | Variant = "Devyatka", **kwargs) -> Table:
    if isinstance(variant, str):
        variant = Variant.objects.get(name=variant)
    table, _ = services.create_table(players[0], variant, len(players), **kwargs)
    for player in players[1:]:
        services.join_table(player, table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return table


def state_of(table: Table) -> devyatka.State:
    return devyatka.from_json(services.current_game(table).state)


def play_to_the_end(table: Table) -> Game:
    """Members play their first legal card; the house plays every seat it holds."""
    for _ in range(400):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return services.current_game(table)
        game = services.current_game(table)
        state = devyatka.from_json(game.state)
        seat = table.seats.get(position=state.to_move)
        if seat.is_bot or seat.resigned_at or seat.handed_over:
            turn = services.automatic_turn(table.pk)
            assert turn is not None, "the house must play a seat it holds"
            services.play_automatic(turn, services.choose_automatic_move(turn))
        else:
            legal = devyatka.legal_moves(state)
            services.play_move(seat.player_id, table.pk, legal[0], table.version)
    raise AssertionError("the game did not end")


@pytest.fixture(autouse=True)
def _quick_house(settings):
    settings.BOT_DELAY_SECONDS = 0


# -- Rematch by consent -------------------------------------------------------


def test_rematch_waits_for_every_member_to_accept():
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    table = seated_table([anna, boris, vera])
    first = play_to_the_end(table)
    update = services.play_again(anna, table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED  # one offer deals nobody in
    assert [s["rematch"] for s in update.snapshot["table"]["seats"]] == [True, False, False]
    services.play_again(boris, table.pk)
    assert Game.objects.filter(table=table).count() == 1
    services.play_again(vera, table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    second = services.current_game(table)
    assert (second.number, second.players) == (2, first.players)
    assert not Seat.objects.filter(table=table, rematch=True).exists()


def test_house_bots_accept_a_rematch_at_once():
    anna = member("Anna")
    table, _ = services.create_table(anna, Variant.objects.get(name="Keft"), 3)
    services.add_bot(anna, table.pk, "random")
    services.add_bot(anna, table.pk, "heuristic")
    play_to_the_end(table)
    services.play_again(anna, table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert services.current_game(table).number == 2


def test_declining_a_rematch_frees_the_seat_and_reopens_the_table():
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    table = seated_table([anna, boris, vera])
    play_to_the_end(table)
    services.play_again(boris, table.pk)
    update = services.leave_table(anna, table.pk)  # the host declines
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert table.created_by_id == boris.pk  # the longest-seated member hosts now
    assert sorted(s.player_id for s in table.seats.all()) == sorted([boris.pk, vera.pk])
    assert update.snapshot["state"] is None  # an open table shows seats, not the last game
    assert not table.seats.filter(rematch=True).exists()
    # A newcomer fills the seat: the next game is number 2 at this table.
    services.join_table(member("Gleb"), table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert services.current_game(table).number == 2


def test_absent_member_is_never_dealt_into_a_series_game():
    anna, boris = member("Anna"), member("Boris")
    series = Series.objects.create(name="Cup", slug="cup", variant=Variant.objects.get(name="Keft"))
    table = seated_table([anna, boris], "Keft", series=series)
    play_to_the_end(table)
    services.play_again(anna, table.pk)  # Boris has gone home and never accepts
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert Game.objects.filter(table=table).count() == 1
    assert GameResult.objects.filter(player=boris).count() == 1


def test_only_seated_members_accept_and_only_after_a_game():
    anna, boris = member("Anna"), member("Boris")
    table = seated_table([anna, boris])
    with pytest.raises(services.ServiceError) as error:
        services.play_again(anna, table.pk)
    assert error.value.code == "not_finished"
    play_to_the_end(table)
    with pytest.raises(services.ServiceError) as error:
        services.play_again(member("Gleb"), table.pk)
    assert error.value.code == "not_seated"


# -- Leave and resign -----------------------------------------------------------


def test_leaving_a_running_game_resigns_and_the_house_plays_the_seat():
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    table = seated_table([anna, boris, vera])
    services.leave_table(vera, table.pk)
    seat = Seat.objects.get(table=table, player=vera)
    assert seat.resigned_at is not None
    with pytest.raises(services.ServiceError) as error:
        services.play_move(vera.pk, table.pk, "9D", table.version + 1)
    assert error.value.code == "resigned"
    game = play_to_the_end(table)
    assert game.resigned == [seat.position]
    assert game.result["resigned"] == [seat.position]
    # Placement: the resigned player is last, alone, whatever cards were left.
    assert game.result["places"][seat.position] == 3
    assert sorted(game.result["places"])[:2] in ([1, 2], [1, 1])
    result = GameResult.objects.get(game=game, player=vera)
    assert result.place == 3


def test_resigning_in_keft_takes_the_loss():
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    table = seated_table([anna, boris, vera], "Keft")
    services.leave_table(anna, table.pk)
    game = play_to_the_end(table)
    anna_seat = game.players.index(anna.pk)
    assert game.result["loser"] == anna_seat
    assert GameResult.objects.get(game=game, player=anna).lost
    assert not GameResult.objects.filter(game=game, lost=True).exclude(player=anna).exists()


def test_a_keft_player_already_out_who_leaves_keeps_their_result():
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    table = seated_table([anna, boris, vera], "Keft")
    # Play until someone is out, then that player leaves.
    for _ in range(200):
        state = state_of(table)
        if state.out:
            break
        seat = state.to_move
        services.play_move(
            services.current_game(table).players[seat],
            table.pk,
            devyatka.legal_moves(state)[0],
            table.version,
        )
        table.refresh_from_db()
    state = state_of(table)
    out_seat = state.out[0]
    out_player = Player.objects.get(pk=services.current_game(table).players[out_seat])
    services.leave_table(out_player, table.pk)
    game = play_to_the_end(table)
    assert game.resigned == []
    assert game.result["loser"] != out_seat
    assert game.result["places"][out_seat] == 1


def test_resignation_counts_in_series_standings():
    anna, boris = member("Anna"), member("Boris")
    series = Series.objects.create(
        name="Cup", slug="cup", variant=Variant.objects.get(name="Keft"), min_games=1
    )
    table = seated_table([anna, boris], "Keft", series=series)
    services.leave_table(boris, table.pk)
    play_to_the_end(table)
    rows = {r.name: r for r in standings(series)}
    assert (rows["Boris"].losses, rows["Anna"].losses) == (1, 0)


def test_resigned_member_is_not_in_the_rematch_and_frees_the_seat():
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    table = seated_table([anna, boris, vera])
    services.leave_table(vera, table.pk)
    play_to_the_end(table)
    with pytest.raises(services.ServiceError) as error:
        services.play_again(vera, table.pk)
    assert error.value.code == "resigned"
    services.play_again(anna, table.pk)
    services.play_again(boris, table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert sorted(s.player_id for s in table.seats.all()) == sorted([anna.pk, boris.pk])


def test_leaving_twice_is_refused_and_changes_nothing():
    anna, boris = member("Anna"), member("Boris")
    table = seated_table([anna, boris])
    services.leave_table(boris, table.pk)
    table.refresh_from_db()
    version = table.version
    with pytest.raises(services.ServiceError) as error:
        services.leave_table(boris, table.pk)
    assert error.value.code == "resigned"
    table.refresh_from_db()
    assert table.version == version


# -- No table waits for ever ------------------------------------------------------


def test_every_default_variant_has_a_turn_clock():
    assert not Variant.objects.filter(turn_seconds__isnull=True).exists()


def untimed() -> Variant:
    return Variant.objects.create(name="Devyatka, no clock")


def test_idle_seat_can_be_handed_to_the_house_after_the_idle_time(settings):
    settings.IDLE_HANDOVER_SECONDS = 120
    anna, boris = member("Anna"), member("Boris")
    table = seated_table([anna, boris], untimed())
    mover = services.current_game(table).players[state_of(table).to_move]
    other = boris if mover == anna.pk else anna
    snapshot = services.table_for_viewer(table.pk, other.pk)
    handover_at = snapshot["table"]["handover_at"]
    assert handover_at == pytest.approx(table.turn_started.timestamp() + 120)
    with pytest.raises(services.ServiceError) as error:
        services.hand_over(other.pk, table.pk, table.version)
    assert error.value.code == "too_early"
    Table.objects.filter(pk=table.pk).update(
        turn_started=timezone.now() - datetime.timedelta(seconds=121)
    )
    with pytest.raises(services.ServiceError) as error:
        services.hand_over(mover, table.pk, table.version)
    assert error.value.code == "own_seat"
    update = services.hand_over(other.pk, table.pk, table.version)
    idle = next(s for s in update.snapshot["table"]["seats"] if s["player"] == mover)
    assert idle["handed_over"]
    assert asyncio.run(runner.run_once()) == 1  # the house plays the idle seat now
    table.refresh_from_db()
    assert services.current_game(table).moves.get(number=1).auto


def test_handed_over_member_takes_the_seat_back_by_acting(settings):
    settings.IDLE_HANDOVER_SECONDS = 0
    anna, boris = member("Anna"), member("Boris")
    table = seated_table([anna, boris], untimed())
    mover = services.current_game(table).players[state_of(table).to_move]
    other = boris if mover == anna.pk else anna
    services.hand_over(other.pk, table.pk, table.version)
    services.come_back(mover, table.pk)
    seat = Seat.objects.get(table=table, player_id=mover)
    assert not seat.handed_over
    table.refresh_from_db()
    assert table.turn_deadline is None  # their turn again, and no clock
    with pytest.raises(services.ServiceError) as error:
        services.come_back(mover, table.pk)
    assert error.value.code == "not_handed_over"


def test_no_hand_over_while_the_clock_runs():
    anna, boris = member("Anna"), member("Boris")
    table = seated_table([anna, boris])  # the default variant has a clock
    snapshot = services.table_for_viewer(table.pk, anna.pk)
    assert snapshot["table"]["handover_at"] is None
    assert snapshot["table"]["turn_deadline"] is not None
    table.refresh_from_db()
    assert snapshot["table"]["clock_deadline"] == pytest.approx(
        table.turn_started.timestamp() + table.variant.turn_seconds
    )
    with pytest.raises(services.ServiceError) as error:
        services.hand_over(anna.pk, table.pk, table.version)
    assert error.value.code == "not_idle"


# -- Over the websocket -------------------------------------------------------------


@pytest.mark.asyncio
async def test_handover_and_back_frames_reach_every_seat(settings):
    settings.IDLE_HANDOVER_SECONDS = 0

    def setup():
        anna, boris = member("Anna"), member("Boris")
        table = seated_table([anna, boris], untimed())
        mover = services.current_game(table).players[state_of(table).to_move]
        cookies = {}
        for player in (anna, boris):
            client = Client()
            client.force_login(player.user)
            cookies[player.pk] = f"sessionid={client.cookies['sessionid'].value}".encode()
        return table, mover, (boris if mover == anna.pk else anna).pk, cookies

    table, mover, other, cookies = await database_sync_to_async(setup)()

    async def open_socket(player_id):
        ws = WebsocketCommunicator(
            application,
            f"/ws/tables/{table.pk}/",
            headers=[(b"origin", b"http://localhost"), (b"cookie", cookies[player_id])],
        )
        assert (await ws.connect())[0]
        first = await ws.receive_json_from(timeout=5)
        return ws, first

    idle_ws, _ = await open_socket(mover)
    other_ws, state = await open_socket(other)
    assert state["table"]["handover_at"] is not None
    # The idle member cannot hand over their own seat; a bad version changes nothing.
    await idle_ws.send_json_to({"type": "handover", "version": state["version"]})
    assert (await idle_ws.receive_json_from(timeout=5))["code"] == "own_seat"
    await other_ws.send_json_to({"type": "handover", "version": "x"})
    assert (await other_ws.receive_json_from(timeout=5))["code"] == "bad_field"
    await other_ws.send_json_to({"type": "handover", "version": state["version"]})
    for ws in (idle_ws, other_ws):
        frame = await ws.receive_json_from(timeout=5)
        seat = next(s for s in frame["table"]["seats"] if s["player"] == mover)
        assert seat["handed_over"]
    await idle_ws.send_json_to({"type": "back"})
    for ws in (idle_ws, other_ws):
        frame = await ws.receive_json_from(timeout=5)
        seat = next(s for s in frame["table"]["seats"] if s["player"] == mover)
        assert not seat["handed_over"]
    await other_ws.send_json_to({"type": "back"})
    assert (await other_ws.receive_json_from(timeout=5))["code"] == "not_handed_over"
    await idle_ws.disconnect()
    await other_ws.disconnect()


@pytest.mark.asyncio
async def test_again_frame_offers_accepts_and_deals_like_the_form():
    def setup():
        anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
        table = seated_table([anna, boris])
        first = play_to_the_end(table)
        cookies = {}
        for player in (anna, boris, vera):
            client = Client()
            client.force_login(player.user)
            cookies[player.pk] = f"sessionid={client.cookies['sessionid'].value}".encode()
        return table, first, (anna.pk, boris.pk, vera.pk), cookies

    table, first, (anna, boris, vera), cookies = await database_sync_to_async(setup)()

    async def open_socket(player_id):
        ws = WebsocketCommunicator(
            application,
            f"/ws/tables/{table.pk}/",
            headers=[(b"origin", b"http://localhost"), (b"cookie", cookies[player_id])],
        )
        assert (await ws.connect())[0]
        return ws, await ws.receive_json_from(timeout=5)

    (anna_ws, state), (boris_ws, _), (vera_ws, _) = [
        await open_socket(p) for p in (anna, boris, vera)
    ]
    assert state["table"]["status"] == "finished"
    # A watcher cannot accept for anyone: refused, nothing changes.
    await vera_ws.send_json_to({"type": "again"})
    assert (await vera_ws.receive_json_from(timeout=5))["code"] == "not_seated"
    # One offer deals nobody in; every socket sees who accepted.
    await boris_ws.send_json_to({"type": "again"})
    for ws in (anna_ws, boris_ws, vera_ws):
        frame = await ws.receive_json_from(timeout=5)
        assert frame["table"]["status"] == "finished"
        offered = {s["player"]: s["rematch"] for s in frame["table"]["seats"]}
        assert offered == {anna: False, boris: True}
    await anna_ws.send_json_to({"type": "again"})
    for ws in (anna_ws, boris_ws, vera_ws):
        frame = await ws.receive_json_from(timeout=5)
        assert frame["table"]["status"] == "playing"
        assert frame["table"]["game_number"] == 2
    second = await database_sync_to_async(lambda: services.current_game(table))()
    assert (second.number, second.players) == (2, first.players)
    # A running game has no rematch to accept.
    await anna_ws.send_json_to({"type": "again"})
    assert (await anna_ws.receive_json_from(timeout=5))["code"] == "not_finished"
    for ws in (anna_ws, boris_ws, vera_ws):
        await ws.disconnect()


def test_players_see_the_recorded_result_with_the_resignation():
    anna, boris = member("Anna"), member("Boris")
    table = seated_table([anna, boris], "Keft")
    services.leave_table(boris, table.pk)
    game = play_to_the_end(table)
    boris_seat = game.players.index(boris.pk)
    state = services.project(services.table_for_viewer(table.pk, anna.pk), anna.pk)
    assert state["view"]["result"]["loser"] == boris_seat
    assert state["view"]["result"]["resigned"] == [boris_seat]
    assert len(state["view"]["result"]["hands"]) == 2  # the engine's view still reveals hands


def test_rules_page_explains_leaving_resigning_idle_hand_over_and_rematch(client, settings):
    settings.IDLE_HANDOVER_SECONDS = 120
    page = client.get("/rules/").content.decode()
    for words in (
        "Leaving a running game resigns it",
        "you take the loss, unless you were already out",
        "has not moved for 2 minutes",
        "Rematch by consent",
        "every player at the table has accepted",
    ):
        assert words in page


def test_finished_game_page_shows_the_resignation(client):
    anna, boris = member("Anna"), member("Boris")
    table = seated_table([anna, boris], "Keft")
    services.leave_table(boris, table.pk)
    game = play_to_the_end(table)
    client.force_login(anna.user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert page.count('data-testid="resigned"') == 1
    boris_row = next(row for row in page.split("<tr")[1:] if ">Boris</a>" in row)
    assert 'data-testid="resigned"' in boris_row
    assert boris_row.startswith(' class="lost"')  # the resignation is the Keft loss
