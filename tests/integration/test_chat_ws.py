"""Table and lobby chat over the real ASGI app (Channels' WebsocketCommunicator).

One implementation serves both rooms (chat/): these tests send every chat
frame through the table's socket and the lobby's, with the limits, mute,
report, ban and privacy rules of docs/PROTOCOL.md ("Chat").
"""

from __future__ import annotations

import datetime

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from chat import services as chat
from chat.models import ChatBan, ChatMessage, ChatMute, ChatReport
from club.asgi import application
from games import consumers, services
from games.broadcast import publish_sync
from games.models import Move, Table, Variant

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("default_variants"),
]

XSS = "<img src=x onerror=alert(1)> javascript:alert(2)"


def make_player(name: str):
    user = get_user_model().objects.create_user(name.lower(), f"{name.lower()}@example.com", "pw")
    user.player.display_name = name
    user.player.save()
    return user


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def started_table(names=("Anna", "Boris"), private=False):
    users = [make_player(n) for n in names]
    table, update = services.create_table(
        users[0].player, Variant.objects.get(name="Devyatka"), len(users), private
    )
    updates = [update]
    for user in users[1:]:
        updates += services.join_table(user.player, table.pk, str(table.invite_token))
    publish_sync(updates)
    return Table.objects.get(pk=table.pk), users


async def connect(path: str, user=None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost")]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await ws.connect()
    assert connected
    return ws


async def at_table(table_id: int, user, chat_on: bool = True, invite: str = ""):
    """A table socket, past its first `state` (and its `chat_history` when chatting)."""
    query = "&".join(q for q in ("chat=1" if chat_on else "", invite and f"invite={invite}") if q)
    ws = await connect(f"/ws/tables/{table_id}/" + (f"?{query}" if query else ""), user)
    state = await ws.receive_json_from()
    assert state["type"] == "state", state
    history = await ws.receive_json_from() if chat_on else None
    if chat_on:
        assert history["type"] == "chat_history", history
    return ws, state, history


async def in_lobby(user):
    ws = await connect("/ws/lobby/?chat=1", user)
    history = await ws.receive_json_from()
    assert history["type"] == "chat_history"
    return ws, history


async def say(ws, **fields) -> dict:
    await ws.send_json_to({"type": "chat_send", **fields})
    return await ws.receive_json_from()


db = database_sync_to_async


async def test_history_on_connect_lists_the_rooms_latest_shown_messages_oldest_first(settings):
    settings.CHAT_HISTORY = 3
    table, (anna, boris) = await db(started_table)()
    for n in range(5):
        await db(chat.send)(f"table-{table.pk}", anna.player.pk, f"hello {n}")
    hidden = await db(lambda: ChatMessage.objects.get(text="hello 4"))()
    await db(chat.hide)([hidden])
    ws, _, history = await at_table(table.pk, boris)
    assert [m["text"] for m in history["messages"]] == ["hello 1", "hello 2", "hello 3"]
    first = history["messages"][0]
    assert first["name"] == "Anna" and first["author"] == anna.player.pk
    assert first["room"] == f"table-{table.pk}" and first["house"] is False
    assert history["limits"] == {"length": 300, "per_minute": 10}
    assert history["phrases"] == ["gg", "gl", "wp", "thanks", "again", "bye"]
    assert history["ban"] is None
    await ws.disconnect()


async def test_a_socket_that_did_not_ask_for_chat_gets_no_chat_frame():
    table, (anna, boris) = await db(started_table)()
    quiet, _, _ = await at_table(table.pk, boris, chat_on=False)
    ws, _, _ = await at_table(table.pk, anna)
    assert (await say(ws, text="hi"))["type"] == "chat"
    assert await quiet.receive_nothing(timeout=0.3)
    # ...and it cannot send either: chat is opt-in per connection.
    await quiet.send_json_to({"type": "chat_send", "text": "hi"})
    assert (await quiet.receive_json_from())["code"] == "chat_unavailable"
    await quiet.disconnect()
    await ws.disconnect()


async def test_a_message_reaches_every_seat_and_watcher_of_the_table_and_is_stored():
    table, (anna, boris) = await db(started_table)()
    vera = await db(make_player)("Vera")
    sockets = [(await at_table(table.pk, u))[0] for u in (anna, boris, vera)]
    # A watcher writes too.
    await sockets[2].send_json_to({"type": "chat_send", "text": "  Good   luck\n all  "})
    frames = [await ws.receive_json_from() for ws in sockets]
    for frame in frames:
        assert frame["type"] == "chat"
        assert frame["message"]["text"] == "Good luck all"
        assert frame["message"]["name"] == "Vera"
    stored = await db(lambda: ChatMessage.objects.get())()
    assert (stored.room, stored.table_id, stored.author_id) == (
        f"table-{table.pk}",
        table.pk,
        vera.player.pk,
    )
    # The game being played is recorded, for the finished game's page.
    assert stored.game_id is not None
    for ws in sockets:
        await ws.disconnect()


async def test_quick_phrases_are_sent_as_ids():
    table, (anna, boris) = await db(started_table)()
    ws, _, _ = await at_table(table.pk, anna)
    frame = await say(ws, phrase="gg")
    assert frame["message"]["phrase"] == "gg" and frame["message"]["text"] == ""
    error = await say(ws, phrase="insult")
    assert error["code"] == "chat_bad_phrase"
    error = await say(ws, phrase="gg", text="x")
    assert error["code"] == "bad_field"
    assert await db(ChatMessage.objects.count)() == 1
    await ws.disconnect()


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"text": ""}, "chat_empty"),
        ({"text": "   \n\t "}, "chat_empty"),
        ({"text": "\x00\x07\x1b"}, "chat_empty"),
        ({"text": "x" * 301}, "chat_too_long"),
        ({"text": 5}, "bad_field"),
        ({}, "bad_field"),
        # Zero-width and filler characters alone would show as a blank message (issue 36).
        ({"text": "\u200b\u200c\u200d"}, "chat_empty"),
        ({"text": "\u2060 \ufeff \u3164"}, "chat_empty"),
        # A phrase of the wrong JSON type is a bad field, as docs/PROTOCOL.md says (issue 36).
        ({"phrase": 5}, "bad_field"),
        ({"phrase": True}, "bad_field"),
        ({"phrase": ["gg"]}, "bad_field"),
        ({"phrase": {"id": "gg"}}, "bad_field"),
    ],
)
async def test_bad_chat_frames_get_an_error_and_store_nothing(fields, code):
    table, (anna, _) = await db(started_table)()
    ws, _, _ = await at_table(table.pk, anna)
    error = await say(ws, **fields)
    assert error["type"] == "error" and error["code"] == code and error["message"]
    assert await db(ChatMessage.objects.count)() == 0
    # Still open, still chatting.
    assert (await say(ws, text="fine"))["type"] == "chat"
    await ws.disconnect()


async def test_control_characters_are_stripped_and_markup_is_kept_as_plain_text():
    table, (anna, boris) = await db(started_table)()
    ws, _, _ = await at_table(table.pk, anna)
    frame = await say(ws, text="a\x00b\u202ec\x1b" + XSS)
    assert frame["message"]["text"] == "abc" + XSS
    assert len((await say(ws, text="y" * 300))["message"]["text"]) == 300
    await ws.disconnect()


async def test_chat_rate_limit_is_per_member_across_sockets(settings):
    settings.CHAT_PER_MINUTE = 3
    table, (anna, boris) = await db(started_table)()
    first, _, _ = await at_table(table.pk, anna)
    second, _, _ = await at_table(table.pk, anna)  # a second tab
    assert (await say(first, text="1"))["type"] == "chat"
    await second.receive_json_from()
    assert (await say(second, text="2"))["type"] == "chat"
    await first.receive_json_from()
    assert (await say(first, text="3"))["type"] == "chat"
    await second.receive_json_from()
    refused = await say(second, text="4")
    assert refused["code"] == "chat_rate_limited"
    assert 0 < refused["retry_after"] <= 60
    assert await db(ChatMessage.objects.count)() == 3
    # Another member is not limited by Anna's messages.
    boris_ws, _, _ = await at_table(table.pk, boris)
    assert (await say(boris_ws, text="hi"))["type"] == "chat"
    for ws in (first, second, boris_ws):
        await ws.disconnect()


async def test_chat_never_eats_the_move_budget(settings, monkeypatch):
    """Chat frames up to their own limit, then a move: the move is taken at once."""
    monkeypatch.setattr(consumers, "clock", lambda: 1000.0)  # no refill: a burst at once
    settings.WS_RATE_BURST = 2
    settings.CHAT_PER_MINUTE = 10
    table, users = await db(started_table)()
    sockets = {}
    for user in users:
        sockets[user.player.pk] = await at_table(table.pk, user)
    ws, state, _ = next(
        s for s in sockets.values() if s[1]["view"]["to_move"] == s[1]["table"]["you"]
    )
    other = [s[0] for s in sockets.values() if s[0] is not ws][0]
    codes = []
    for n in range(12):
        answer = await say(ws, text=f"chat {n}")
        codes.append(answer.get("code"))
        if answer["type"] == "chat":
            await other.receive_json_from()
    # The chat frames ran into the chat limits (the member's per-minute limit,
    # then the socket's chat bucket), never into the move bucket...
    assert codes[:10] == [None] * 10
    assert set(codes[10:]) <= {"chat_rate_limited", "rate_limited"}
    # ...which still holds its whole burst for moves.
    card = state["view"]["legal"][0]
    await ws.send_json_to({"type": "play", "card": card, "version": state["version"]})
    update = await ws.receive_json_from()
    assert update["type"] == "state" and update["version"] == state["version"] + 1
    # The member's one card (any passes it forced on the others are the rules', not chat's).
    played = await db(
        lambda: list(Move.objects.exclude(move=Move.PASS).values_list("move", flat=True))
    )()
    assert played == [card]
    for s in sockets.values():
        await s[0].disconnect()


async def test_a_move_flood_does_not_take_chat_away(settings, monkeypatch):
    monkeypatch.setattr(consumers, "clock", lambda: 1000.0)
    settings.WS_RATE_BURST = 2
    table, (anna, _) = await db(started_table)()
    ws, _, _ = await at_table(table.pk, anna)
    codes = []
    for _ in range(4):
        await ws.send_json_to({"type": "sync"})
        codes.append((await ws.receive_json_from()).get("code"))
    assert codes[-1] == "rate_limited"
    assert (await say(ws, text="still here"))["type"] == "chat"
    await ws.disconnect()


async def test_mute_hides_a_members_messages_for_the_muter_everywhere_and_is_kept():
    table, (anna, boris) = await db(started_table)()
    vera = await db(make_player)("Vera")
    a, _, _ = await at_table(table.pk, anna)
    b, _, _ = await at_table(table.pk, boris)
    v, _, _ = await at_table(table.pk, vera)
    await a.send_json_to({"type": "chat_mute", "player": boris.player.pk})
    answer = await a.receive_json_from()
    assert answer == {
        "type": "chat_muted",
        "player": boris.player.pk,
        "muted": True,
        "all": [boris.player.pk],
    }
    await say(b, text="you cannot hear me")
    assert (await v.receive_json_from())["message"]["text"] == "you cannot hear me"
    assert await a.receive_nothing(timeout=0.3)
    # Kept on the member: a new socket, in another room (the lobby), still mutes Boris.
    assert await db(ChatMute.objects.filter(player=anna.player, muted=boris.player).exists)()
    lobby_a, history = await in_lobby(anna)
    assert history["muted"] == [boris.player.pk]
    lobby_b, _ = await in_lobby(boris)
    await say(lobby_b, text="lobby words")
    assert await lobby_a.receive_nothing(timeout=0.3)
    # And the table's history leaves Boris out for Anna only.
    a2, _, history = await at_table(table.pk, anna)
    assert history["messages"] == []
    _, _, vera_history = await at_table(table.pk, vera)
    assert [m["text"] for m in vera_history["messages"]] == ["you cannot hear me"]
    # Unmute.
    await a2.send_json_to({"type": "chat_mute", "player": boris.player.pk, "muted": False})
    assert (await a2.receive_json_from())["all"] == []
    await a2.send_json_to({"type": "chat_mute", "player": anna.player.pk})
    assert (await a2.receive_json_from())["code"] == "chat_mute_self"
    for ws in (a, b, v, a2, lobby_a, lobby_b):
        await ws.disconnect()


async def test_report_with_an_optional_reason_is_stored_once():
    table, (anna, boris) = await db(started_table)()
    a, _, _ = await at_table(table.pk, anna)
    b, _, _ = await at_table(table.pk, boris)
    message = (await say(b, text="rude words"))["message"]
    await a.receive_json_from()
    await a.send_json_to({"type": "chat_report", "id": message["id"], "reason": "rude\x00!"})
    assert await a.receive_json_from() == {"type": "chat_reported", "id": message["id"]}
    await a.send_json_to({"type": "chat_report", "id": message["id"]})  # twice: still one
    assert (await a.receive_json_from())["type"] == "chat_reported"
    report = await db(lambda: ChatReport.objects.get())()
    assert (report.reporter_id, report.reason, report.status) == (anna.player.pk, "rude!", "open")
    await b.send_json_to({"type": "chat_report", "id": message["id"]})
    assert (await b.receive_json_from())["code"] == "chat_own_message"
    await a.send_json_to({"type": "chat_report", "id": "1"})
    assert (await a.receive_json_from())["code"] == "bad_field"
    for ws in (a, b):
        await ws.disconnect()


async def test_a_message_of_another_room_cannot_be_reported_from_here():
    table, (anna, boris) = await db(started_table)()
    other, (cleo, _) = await db(started_table)(("Cleo", "Dora"), private=True)
    secret = await db(chat.send)(f"table-{other.pk}", cleo.player.pk, "secret")
    a, _, _ = await at_table(table.pk, anna)
    await a.send_json_to({"type": "chat_report", "id": secret["id"]})
    assert (await a.receive_json_from())["code"] == "chat_no_message"
    assert await db(ChatReport.objects.count)() == 0
    await a.disconnect()


async def test_a_private_tables_chat_never_reaches_an_outsider():
    table, (anna, boris) = await db(started_table)(private=True)
    outsider = await db(make_player)("Olga")
    await db(chat.send)(f"table-{table.pk}", anna.player.pk, "private words")
    # The outsider's socket is refused before any chat frame.
    ws = await connect(f"/ws/tables/{table.pk}/?chat=1", outsider)
    error = await ws.receive_json_from()
    assert error["code"] == "not_found"
    assert (await ws.receive_output())["type"] == "websocket.close"
    # A lobby socket hears nothing of it either.
    lobby, history = await in_lobby(outsider)
    assert history["messages"] == []
    a, _, history = await at_table(table.pk, anna)
    assert [m["text"] for m in history["messages"]] == ["private words"]
    await say(a, text="more private words")
    assert await lobby.receive_nothing(timeout=0.3)
    # Whoever holds the invite may watch, and read.
    guest = await db(make_player)("Gus")
    g, _, history = await at_table(table.pk, guest, invite=str(table.invite_token))
    assert [m["text"] for m in history["messages"]] == ["private words", "more private words"]
    for s in (lobby, a, g):
        await s.disconnect()


async def test_a_banned_member_still_plays_but_cannot_chat_until_the_ban_ends():
    table, (anna, boris) = await db(started_table)()
    until = timezone.now() + datetime.timedelta(days=2)
    await db(ChatBan.objects.create)(player=anna.player, until=until, reason="Insults")
    await db(ChatBan.objects.create)(
        player=boris.player, until=timezone.now() - datetime.timedelta(minutes=1)
    )
    a, state, history = await at_table(table.pk, anna)
    assert history["ban"] == {"until": until.timestamp(), "reason": "Insults"}
    refused = await say(a, text="hello")
    assert refused["code"] == "chat_banned"
    assert refused["until"] == until.timestamp() and refused["reason"] == "Insults"
    refused = await say(a, phrase="gg")
    assert refused["code"] == "chat_banned"
    assert await db(ChatMessage.objects.count)() == 0
    # An ended ban is no ban.
    b, _, history = await at_table(table.pk, boris)
    assert history["ban"] is None
    assert (await say(b, text="free"))["type"] == "chat"
    await a.receive_json_from()
    # The banned member still plays.
    mover = state["view"]["to_move"]
    ws = a if mover == state["table"]["you"] else b
    await ws.send_json_to({"type": "play", "card": "9D", "version": state["version"]})
    assert (await ws.receive_json_from())["type"] == "state"
    for s in (a, b):
        await s.disconnect()


async def test_hiding_a_message_tells_every_socket_of_its_room_and_leaves_the_history():
    table, (anna, boris) = await db(started_table)()
    a, _, _ = await at_table(table.pk, anna)
    b, _, _ = await at_table(table.pk, boris)
    message = (await say(b, text="bad"))["message"]
    await a.receive_json_from()
    stored = await db(ChatMessage.objects.get)(pk=message["id"])
    from chat.broadcast import publish_hidden

    for room, message_id in await db(chat.hide)([stored]):
        await publish_hidden(room, message_id)
    for ws in (a, b):
        assert await ws.receive_json_from() == {"type": "chat_hidden", "id": message["id"]}
    _, _, history = await at_table(table.pk, anna)
    assert history["messages"] == []
    for s in (a, b):
        await s.disconnect()


async def test_lobby_chat_is_one_room_for_signed_in_members():
    anna, boris = await db(make_player)("Anna"), await db(make_player)("Boris")
    a, history = await in_lobby(anna)
    assert history["room"] == "lobby"
    b, _ = await in_lobby(boris)
    frame = await say(a, text="series tonight at 8?")
    assert frame["message"]["room"] == "lobby"
    assert (await b.receive_json_from())["message"]["text"] == "series tonight at 8?"
    # Other frames to the lobby are still refused as before.
    await a.send_json_to({"type": "play"})
    assert (await a.receive_json_from())["code"] == "read_only"
    await a.send_to(text_data='{"type": "chat_send", "text": ')
    assert (await a.receive_json_from())["code"] == "bad_json"
    # An anonymous visitor's lobby socket gets table-list updates only.
    anon = await connect("/ws/lobby/?chat=1")
    assert await anon.receive_nothing(timeout=0.3)
    await anon.send_json_to({"type": "chat_send", "text": "spam"})
    assert (await anon.receive_json_from())["code"] == "chat_unavailable"
    assert await db(ChatMessage.objects.count)() == 1
    for s in (a, b, anon):
        await s.disconnect()


async def test_chat_errors_come_in_the_sockets_language():
    table, (anna, _) = await db(started_table)()
    headers = [
        (b"origin", b"http://localhost"),
        (b"cookie", await db(session_cookie)(anna)),
        (b"accept-language", b"fr"),
    ]
    ws = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/?chat=1", headers=headers)
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from())["type"] == "state"
    assert (await ws.receive_json_from())["type"] == "chat_history"
    error = await say(ws, text="   ")
    assert (error["code"], error["message"]) == ("chat_empty", "Écrivez d'abord quelque chose.")
    await ws.disconnect()
