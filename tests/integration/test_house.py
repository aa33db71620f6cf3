"""House bots, the turn timer and absent players: the house plays through the same services."""

from __future__ import annotations

import asyncio
import datetime
import time

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils import timezone

from club.models import Player
from games import runner, services
from games.engine import devyatka
from games.models import Move, Presence, Table, Variant
from tests.support.members import member

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("default_variants")]


def run_house() -> int:
    return asyncio.run(runner.run_once())


def play_member_turn(table: Table, player: Player) -> bool:
    """If it is `player`'s turn, play their first legal card; report whether they moved."""
    table.refresh_from_db()
    game = services.current_game(table)
    state = devyatka.from_json(game.state)
    if state.to_move is None or game.players[state.to_move] != player.pk:
        return False
    services.play_move(player.pk, table.pk, devyatka.legal_moves(state)[0], table.version)
    return True


def test_creator_fills_seats_with_bots_and_table_starts_when_full(settings):
    settings.BOT_DELAY_SECONDS = 0
    anna = member("Anna")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 4)
    for level in ("random", "heuristic", "random"):
        services.add_bot(anna, table.pk, level)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    seats = list(table.seats.order_by("position"))
    assert [s.is_bot for s in seats] == [False, True, True, True]
    # Each bot seat has a name of its own, which says its strength.
    assert [s.player.display_name for s in seats[1:]] == [
        "Rosa (random bot)",
        "Hugo (heuristic bot)",
        "Remy (random bot)",
    ]


def test_only_the_creator_adds_bots_and_only_before_start():
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 3)
    with pytest.raises(services.ServiceError) as error:
        services.add_bot(boris, table.pk, "random")
    assert error.value.code == "not_creator"
    with pytest.raises(services.ServiceError) as error:
        services.add_bot(anna, table.pk, "grandmaster")
    assert error.value.code == "bad_level"
    services.add_bot(anna, table.pk, "random")
    services.remove_bot(anna, table.pk, 1)
    services.add_bot(anna, table.pk, "random")
    services.add_bot(anna, table.pk, "random")
    with pytest.raises(services.ServiceError) as error:
        services.add_bot(anna, table.pk, "random")
    assert error.value.code == "not_open"
    assert Table.objects.get(pk=table.pk).seats.count() == 3


def test_house_bots_cannot_log_in():
    assert Player.objects.bots().count() == 33  # eleven named bots a strength
    assert all(bot.user_id is None for bot in Player.objects.bots())


@pytest.mark.parametrize("variant", ["Devyatka", "Keft"])
def test_one_member_and_three_bots_play_to_the_end(settings, variant):
    settings.BOT_DELAY_SECONDS = 0
    anna = member("Anna")
    table, _ = services.create_table(anna, Variant.objects.get(name=variant), 4)
    for level in ("random", "heuristic", "search"):
        services.add_bot(anna, table.pk, level)
    settings.BOT_SEARCH_BUDGET_MS = 20
    for _ in range(500):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        if not play_member_turn(table, anna):
            assert run_house() >= 1
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    game = services.current_game(table)
    bot_seats = {1, 2, 3}
    auto = set(Move.objects.filter(game=game, auto=True).values_list("seat", flat=True))
    assert auto <= bot_seats and auto
    assert not Move.objects.filter(game=game, seat=0, auto=True).exists()
    # The log replays to the stored result.
    cards = [m for m in game.moves.values_list("move", flat=True) if m != "pass"]
    replayed = devyatka.replay(4, game.seed, devyatka.Options(keft=variant == "Keft"), cards)
    assert devyatka.result(replayed) == game.result


def test_turn_timer_plays_for_the_seat_when_time_runs_out(settings):
    settings.BOT_DELAY_SECONDS = 0
    variant = Variant.objects.create(name="Blitz", turn_seconds=1)
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, variant, 2)
    services.join_table(boris, table.pk)
    table.refresh_from_db()
    assert table.turn_deadline is not None
    assert run_house() == 0  # the player still has time
    deadline = time.monotonic() + 15
    while run_house() == 0:
        assert time.monotonic() < deadline, "the house never played the timed-out turn"
        time.sleep(0.2)
    move = Move.objects.get(number=1)
    assert (move.move, move.auto) == ("9D", True)
    table.refresh_from_db()
    assert table.version == 4  # created, joined, started, one move


def test_absent_player_is_played_for_and_takes_the_seat_back(settings):
    settings.BOT_DELAY_SECONDS = 0
    settings.AWAY_GRACE_SECONDS = 0
    anna, boris = member("Anna"), member("Boris")
    untimed = Variant.objects.create(name="Keft, no clock", options={"keft": True})
    table, _ = services.create_table(anna, untimed, 2)
    services.join_table(boris, table.pk)
    for player in (anna, boris):
        services.seat_connected(table.pk, player.pk, f"channel-{player.pk}")
    assert run_house() == 0  # both here, no clock: nobody is played for
    table.refresh_from_db()
    game = services.current_game(table)
    mover = game.players[devyatka.from_json(game.state).to_move]
    services.seat_disconnected(table.pk, f"channel-{mover}")  # walks away
    assert run_house() == 1
    assert Move.objects.get(number=1).auto
    # Keep the absent player's seat covered, then they come back.
    services.seat_connected(table.pk, mover, f"channel-{mover}-again")
    table.refresh_from_db()
    state = devyatka.from_json(services.current_game(table).state)
    if game.players[state.to_move] == mover:
        assert table.turn_deadline is None
    assert run_house() == 0


def test_two_runners_race_exactly_one_plays(settings):
    settings.BOT_DELAY_SECONDS = 0
    anna = member("Anna")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2)
    services.add_bot(anna, table.pk, "random")
    # After Anna's card the bot may have nothing to play and pass automatically,
    # handing the turn straight back to her: play on until it is the bot's turn.
    while play_member_turn(table, anna):
        pass
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    turn = services.automatic_turn(table.pk)
    assert turn is not None and turn.level == "random"
    move = services.choose_automatic_move(turn)
    first = services.play_automatic(turn, move)
    second = services.play_automatic(turn, move)
    assert first is not None and second is None
    assert Move.objects.filter(move=move).count() == 1


@pytest.mark.asyncio
async def test_bot_move_reaches_the_member_over_websocket(settings):
    from tests.integration.test_table_ws import connect

    settings.BOT_DELAY_SECONDS = 0
    anna = await database_sync_to_async(
        lambda: get_user_model().objects.create_user("anna", "anna@example.com", "pw")
    )()
    player = await database_sync_to_async(lambda: anna.player)()
    variant = await database_sync_to_async(Variant.objects.get)(name="Devyatka")
    table, _ = await database_sync_to_async(services.create_table)(player, variant, 2)
    await database_sync_to_async(services.add_bot)(player, table.pk, "heuristic")
    ws = await connect(table.pk, anna)
    state = await ws.receive_json_from()
    assert state["table"]["seats"][1]["bot"] is True
    if state["view"]["to_move"] == 1:
        assert await runner.run_once() == 1
        update = await ws.receive_json_from()
        assert update["events"][0] == {"n": 1, "seat": 1, "move": "9D", "auto": True}
    else:
        assert await runner.run_once() == 0
    await ws.disconnect()


def test_connections_of_a_dead_server_expire_and_the_seat_counts_as_away(settings):
    settings.BOT_DELAY_SECONDS = 0
    settings.AWAY_GRACE_SECONDS = 0
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name="Keft"), 2)
    services.join_table(boris, table.pk)
    table.refresh_from_db()
    game = services.current_game(table)
    mover = game.players[devyatka.from_json(game.state).to_move]
    services.seat_connected(table.pk, mover, "ours")
    # A row left by a process that was killed: nobody refreshes it any more.
    Presence.objects.filter(channel="ours").update(server="dead-process")
    assert services.refresh_presence(datetime.timedelta(seconds=30)) == 0
    assert run_house() == 0  # still counts as here until the row is stale
    Presence.objects.update(seen=timezone.now() - datetime.timedelta(seconds=60))
    assert services.refresh_presence(datetime.timedelta(seconds=30)) == 1
    assert run_house() == 1  # away: the house plays the turn
    assert Move.objects.get(number=1).auto


def test_this_servers_connections_stay_fresh():
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name="Keft"), 2)
    services.join_table(boris, table.pk)
    services.seat_connected(table.pk, anna.pk, "mine")
    Presence.objects.update(seen=timezone.now() - datetime.timedelta(seconds=60))
    assert services.refresh_presence(datetime.timedelta(seconds=30)) == 0
    assert Presence.objects.filter(channel="mine").exists()
