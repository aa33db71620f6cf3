"""Live tables over real websockets (Channels' WebsocketCommunicator on the real ASGI app)."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from club.asgi import application
from games import registry, services
from games.broadcast import publish_sync
from games.engine import devyatka
from games.models import Game, Move, Table, Variant

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("default_variants"),
]


def make_player(name: str):
    user = get_user_model().objects.create_user(name.lower(), f"{name.lower()}@example.com", "pw")
    user.player.display_name = name
    user.player.save()
    return user


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def started_table(names=("Anna", "Boris"), variant="Devyatka"):
    users = [make_player(n) for n in names]
    table, update = services.create_table(
        users[0].player, Variant.objects.get(name=variant), len(users)
    )
    updates = [update]
    for user in users[1:]:
        updates += services.join_table(user.player, table.pk)
    publish_sync(updates)
    return Table.objects.get(pk=table.pk), users


async def connect(table_id: int, user=None, origin=b"http://localhost", path=None):
    headers = [(b"origin", origin)]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    communicator = WebsocketCommunicator(
        application, path or f"/ws/tables/{table_id}/", headers=headers
    )
    connected, _ = await communicator.connect()
    assert connected
    return communicator


def current_state(table_id: int) -> devyatka.State:
    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    return devyatka.from_json(game.state)


async def test_seated_player_gets_own_hand_and_legal_moves():
    table, (anna, boris) = await database_sync_to_async(started_table)()
    ws = await connect(table.pk, anna)
    message = await ws.receive_json_from()
    assert message["type"] == "state"
    assert message["table"]["you"] == 0
    state = await database_sync_to_async(current_state)(table.pk)
    assert message["view"]["hand"] == list(state.hands[0])
    assert message["log"] == []
    expected_legal = devyatka.legal_moves(state) if state.to_move == 0 else []
    assert message["view"]["legal"] == expected_legal
    await ws.disconnect()


async def test_watcher_gets_no_hand_at_all():
    table, _ = await database_sync_to_async(started_table)()
    vera = await database_sync_to_async(make_player)("Vera")
    ws = await connect(table.pk, vera)
    message = await ws.receive_json_from()
    assert message["table"]["you"] is None
    assert message["view"]["hand"] is None
    state = await database_sync_to_async(current_state)(table.pk)
    text = json.dumps(message)
    for hand in state.hands:
        for card in hand:
            assert f'"{card}"' not in text.replace('"legal": []', "")
    await ws.disconnect()


async def test_anonymous_is_told_to_sign_in_and_closed():
    table, _ = await database_sync_to_async(started_table)()
    ws = await connect(table.pk)
    message = await ws.receive_json_from()
    assert message == {
        "type": "error",
        "code": "login_required",
        "message": "Sign in to sit at or watch a table.",
    }
    assert (await ws.receive_output())["code"] == 4401


async def test_foreign_origin_is_refused():
    table, (anna, _) = await database_sync_to_async(started_table)()
    headers = [(b"origin", b"http://evil.example"), (b"cookie", b"")]
    ws = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=headers)
    connected, _ = await ws.connect()
    assert not connected


async def test_play_reaches_every_seat_and_watcher_with_their_own_view():
    table, (anna, boris) = await database_sync_to_async(started_table)()
    vera = await database_sync_to_async(make_player)("Vera")
    sockets = [await connect(table.pk, u) for u in (anna, boris, vera)]
    first = [await ws.receive_json_from() for ws in sockets]
    mover = first[0]["view"]["to_move"]
    card = first[mover]["view"]["legal"][0]
    assert card == "9D"
    await sockets[mover].send_json_to(
        {"type": "play", "card": card, "version": first[0]["version"]}
    )
    updates = [await ws.receive_json_from() for ws in sockets]
    for index, update in enumerate(updates):
        assert update["version"] == first[0]["version"] + 1
        assert update["events"][0] == {"n": 1, "seat": mover, "move": "9D", "auto": False}
        assert update["view"]["rows"]["D"] == ["9D", "9D"]
        if index < 2:
            assert "9D" not in update["view"]["hand"]
        else:
            assert update["view"]["hand"] is None
    moves = await database_sync_to_async(
        lambda: list(Move.objects.values_list("move", flat=True))
    )()
    assert moves[0] == "9D"
    for ws in sockets:
        await ws.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"card": "9D"}', "unknown_type"),
        ('{"type": "play", "version": 1}', "missing_field"),
        ('{"type": "play", "card": "9D"}', "missing_field"),
        ('{"type": "play", "card": 9, "version": 1}', "bad_field"),
        ('{"type": "play", "card": "9D", "version": "1"}', "bad_field"),
        ('{"type": "play", "card": "ZZ", "version": VERSION}', "not_a_card"),
        ('{"type": "play", "card": "9D", "version": 0}', "stale_version"),
    ],
)
async def test_bad_frames_get_an_error_and_change_nothing(frame, code):
    table, (anna, boris) = await database_sync_to_async(started_table)()
    ws = await connect(table.pk, anna)
    first = await ws.receive_json_from()
    await ws.send_to(text_data=frame.replace("VERSION", str(first["version"])))
    error = await ws.receive_json_from()
    assert error["type"] == "error"
    assert error["code"] == code
    assert error["message"]
    assert await database_sync_to_async(Move.objects.count)() == 0
    # The connection stays open and answers.
    await ws.send_json_to({"type": "sync"})
    assert (await ws.receive_json_from())["type"] == "state"
    await ws.disconnect()


async def test_not_your_turn_and_illegal_card_and_double_send():
    table, users = await database_sync_to_async(started_table)()
    sockets = [await connect(table.pk, u) for u in users]
    first = [await ws.receive_json_from() for ws in sockets]
    version = first[0]["version"]
    mover = first[0]["view"]["to_move"]
    other = 1 - mover
    # Not your turn.
    other_card = first[other]["view"]["hand"][0]
    await sockets[other].send_json_to({"type": "play", "card": other_card, "version": version})
    assert (await sockets[other].receive_json_from())["code"] == "not_your_turn"
    # Illegal card: anything but 9D first.
    wrong = next(c for c in first[mover]["view"]["hand"] if c != "9D")
    await sockets[mover].send_json_to({"type": "play", "card": wrong, "version": version})
    error = await sockets[mover].receive_json_from()
    assert error["code"] == "illegal_move"
    assert "9D" in error["message"]
    # A card the player does not hold.
    await sockets[mover].send_json_to({"type": "play", "card": other_card, "version": version})
    error = await sockets[mover].receive_json_from()
    # The card named as the page shows it (Q♦), not by its code (QD).
    shown = (
        f"{other_card[:-1].replace('T', '10')}{dict(C='♣', D='♦', H='♥', S='♠')[other_card[-1]]}"
    )
    assert (error["code"], error["message"]) == ("illegal_move", f"{shown} is not in your hand.")
    assert await database_sync_to_async(Move.objects.count)() == 0
    # The same move twice: applied once, the second is stale.
    await sockets[mover].send_json_to({"type": "play", "card": "9D", "version": version})
    await sockets[mover].send_json_to({"type": "play", "card": "9D", "version": version})
    frames = [await sockets[mover].receive_json_from() for _ in range(2)]
    assert sorted(f["type"] for f in frames) == ["error", "state"]
    error = next(f for f in frames if f["type"] == "error")
    assert error["code"] == "stale_version"
    assert error["version"] == version + 1
    assert await database_sync_to_async(Move.objects.filter(move="9D").count)() == 1
    for ws in sockets:
        await ws.disconnect()


async def test_not_started_and_not_seated():
    users = [await database_sync_to_async(make_player)(n) for n in ("Anna", "Boris", "Vera")]
    variant = await database_sync_to_async(Variant.objects.get)(name="Devyatka")
    table, _ = await database_sync_to_async(services.create_table)(users[0].player, variant, 3)
    ws = await connect(table.pk, users[0])
    first = await ws.receive_json_from()
    assert first["view"] is None and first["table"]["status"] == "open"
    await ws.send_json_to({"type": "play", "card": "9D", "version": first["version"]})
    assert (await ws.receive_json_from())["code"] == "not_started"
    await database_sync_to_async(
        lambda: publish_sync(services.join_table(users[1].player, table.pk))
    )()
    joined = await ws.receive_json_from()
    assert [s["name"] for s in joined["table"]["seats"]] == ["Anna", "Boris"]
    await database_sync_to_async(
        lambda: publish_sync([services.start_table(users[0].player, table.pk)])
    )()
    started = await ws.receive_json_from()
    assert started["table"]["status"] == "playing"
    watcher = await connect(table.pk, users[2])
    state = await watcher.receive_json_from()
    await watcher.send_json_to({"type": "play", "card": "9D", "version": state["version"]})
    assert (await watcher.receive_json_from())["code"] == "not_seated"
    await ws.disconnect()
    await watcher.disconnect()


async def test_whole_game_over_websockets_matches_replay_of_move_log():
    table, users = await database_sync_to_async(started_table)(("Anna", "Boris", "Vera"), "Keft")
    sockets = [await connect(table.pk, u) for u in users]
    latest = [await ws.receive_json_from() for ws in sockets]
    while latest[0]["table"]["status"] == "playing":
        mover = latest[0]["view"]["to_move"]
        card = latest[mover]["view"]["legal"][-1]
        await sockets[mover].send_json_to(
            {"type": "play", "card": card, "version": latest[0]["version"]}
        )
        latest = [await ws.receive_json_from() for ws in sockets]
    results = [m["view"]["result"] for m in latest]
    assert all(r == results[0] for r in results)
    assert results[0]["loser"] is not None

    def replayed():
        game = Game.objects.get(table=table)
        engine = registry.engine(game.game)
        cards = [m for m in game.moves.values_list("move", flat=True) if m != "pass"]
        state = engine.replay(len(game.players), game.seed, game.options, cards)
        return engine.result(state), game.result, Table.objects.get(pk=table.pk).status

    replay_result, stored, status = await database_sync_to_async(replayed)()
    assert replay_result == stored == {k: v for k, v in results[0].items() if k != "hands"}
    assert status == "finished"
    for ws in sockets:
        await ws.disconnect()


async def test_lobby_socket_hears_about_new_tables():
    lobby = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://localhost")]
    )
    assert (await lobby.connect())[0]
    await database_sync_to_async(started_table)()
    assert await lobby.receive_json_from() == {"type": "lobby"}
    await lobby.disconnect()
