"""A table's sockets speak each member's language (docs/PROTOCOL.md, "Languages").

Error `code`s stay English and stable; only `message` follows the socket:
the member's stored language, else the language cookie, else the handshake's
Accept-Language.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from club.asgi import application
from club.models import Player
from games.models import Move
from tests.integration.test_table_ws import session_cookie, started_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("default_variants"),
]


async def _socket(table_id: int, user, accept: str | None = None, cookie_lang: str | None = None):
    cookie = await database_sync_to_async(session_cookie)(user)
    if cookie_lang:
        cookie += f"; {settings.LANGUAGE_COOKIE_NAME}={cookie_lang}".encode()
    headers = [(b"origin", b"http://localhost"), (b"cookie", cookie)]
    if accept:
        headers.append((b"accept-language", accept.encode()))
    ws = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected
    return ws


async def test_illegal_move_from_a_french_socket_is_explained_in_french_english_in_english():
    table, (anna, boris) = await database_sync_to_async(started_table)()
    french = await _socket(table.pk, anna, accept="fr-FR,fr;q=0.9")
    english = await _socket(table.pk, boris, accept="en-GB,en;q=0.9")
    first = {0: await french.receive_json_from(), 1: await english.receive_json_from()}
    version = first[0]["version"]
    mover = first[0]["view"]["to_move"]
    sockets = {0: french, 1: english}
    # The mover plays a card that is not 9D (the first card must be 9D) ...
    wrong = next(c for c in first[mover]["view"]["hand"] if c != "9D")
    await sockets[mover].send_json_to({"type": "play", "card": wrong, "version": version})
    refused = await sockets[mover].receive_json_from()
    # ... and the other plays out of turn.
    other = 1 - mover
    card = first[other]["view"]["hand"][0]
    await sockets[other].send_json_to({"type": "play", "card": card, "version": version})
    out_of_turn = await sockets[other].receive_json_from()

    messages = {mover: refused, other: out_of_turn}
    assert refused["type"] == "error" and refused["code"] == "illegal_move"
    assert out_of_turn["code"] == "not_your_turn"
    assert messages[0]["message"] in {
        "La première carte doit être le 9♦.",
        "Ce n'est pas votre tour.",
    }
    assert messages[1]["message"] in {"The first card must be 9D.", "It is not your turn."}
    assert await database_sync_to_async(Move.objects.count)() == 0
    await french.disconnect()
    await english.disconnect()


async def test_engine_message_parameters_survive_translation():
    table, (anna, boris) = await database_sync_to_async(started_table)()
    # Anna's stored language wins over the browser's and the cookie's.
    await database_sync_to_async(Player.objects.filter(pk=anna.player.pk).update)(language="ru")
    await database_sync_to_async(Player.objects.filter(pk=boris.player.pk).update)(language="ru")
    sockets = [
        await _socket(table.pk, anna, accept="en", cookie_lang="it"),
        await _socket(table.pk, boris, accept="en", cookie_lang="it"),
    ]
    first = [await ws.receive_json_from() for ws in sockets]
    version = first[0]["version"]
    mover = first[0]["view"]["to_move"]
    other_card = first[1 - mover]["view"]["hand"][0]
    await sockets[mover].send_json_to({"type": "play", "card": other_card, "version": version})
    error = await sockets[mover].receive_json_from()
    assert error["code"] == "illegal_move"
    # The card as the page shows it (6♣, 10♦), not its protocol code.
    suit = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}[other_card[-1]]
    shown = ("10" if other_card[0] == "T" else other_card[:-1]) + suit
    assert error["message"] == f"Карты {shown} нет у вас на руках."
    for ws in sockets:
        await ws.disconnect()


async def test_cookie_then_accept_language_choose_the_socket_language():
    table, (anna, boris) = await database_sync_to_async(started_table)()
    spanish = await _socket(table.pk, anna, accept="fr", cookie_lang="es")
    romanian = await _socket(table.pk, boris, accept="ro-RO,ro;q=0.9,en;q=0.5")
    for ws in (spanish, romanian):
        await ws.receive_json_from()
        await ws.send_json_to({"type": "nonsense"})
    assert await spanish.receive_json_from() == {
        "type": "error",
        "code": "unknown_type",
        "message": "Tipo de mensaje desconocido 'nonsense'.",
    }
    assert (await romanian.receive_json_from())["message"] == "Tip de mesaj necunoscut 'nonsense'."
    await spanish.disconnect()
    await romanian.disconnect()


async def test_a_visitor_is_refused_in_the_handshakes_language():
    table, _users = await database_sync_to_async(started_table)()
    ws = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.pk}/",
        headers=[(b"origin", b"http://localhost"), (b"accept-language", b"it-IT,it;q=0.9")],
    )
    connected, _ = await ws.connect()
    assert connected
    frame = await ws.receive_json_from()
    assert frame["code"] == "login_required"
    assert frame["message"] == "Accedi per sederti a un tavolo o guardarlo."
    await ws.disconnect()
