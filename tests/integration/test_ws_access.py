"""Who may hold a table socket: exact origins, and a socket that loses access is closed.

Issue 22, findings 7, 8 and 10: the origin check compared only host names;
a member who left a private table kept receiving its updates; and the
websocket and the pages disagreed on how an invite token may be spelt.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from club.asgi import application
from games import services
from games.broadcast import publish_sync
from games.models import Table, Variant
from tests.integration.test_table_ws import make_player, session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("default_variants"),
]

CLOSE_NOT_FOUND = 4404


async def open_socket(path: str, user=None, origin: bytes = b"http://localhost", host=None):
    headers = [(b"origin", origin)]
    if host is not None:
        headers.append((b"host", host))
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await ws.connect()
    return ws, connected


# -- 8. Origins: scheme, host and port exactly --------------------------------


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        (b"http://127.0.0.1:9999", b"127.0.0.1:8000"),
        (b"ftp://localhost:21", b"localhost:8000"),
        (b"https://localhost:8000", b"localhost:8000"),  # not served over TLS
        (b"http://localhost", b"localhost:8000"),  # another port
        (b"http://evil.example:8000", b"evil.example:8000"),  # not an allowed host
        (b"null", b"localhost:8000"),
        (b"http://127.0.0.1:9999", None),  # no Host header: default ports only
        (b"ftp://localhost", None),
    ],
)
async def test_foreign_origins_are_refused(origin, host):
    ws, connected = await open_socket("/ws/lobby/", origin=origin, host=host)
    assert not connected


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        (b"http://localhost:8000", b"localhost:8000"),
        (b"http://127.0.0.1:8000", b"127.0.0.1:8000"),
        (b"http://localhost", b"localhost"),
        (b"http://localhost", None),
    ],
)
async def test_the_sites_own_origin_is_accepted(origin, host):
    ws, connected = await open_socket("/ws/lobby/", origin=origin, host=host)
    assert connected
    await ws.disconnect()


@override_settings(CSRF_TRUSTED_ORIGINS=["https://club.example.org"])
async def test_a_trusted_origin_is_accepted_exactly():
    ws, connected = await open_socket(
        "/ws/lobby/", origin=b"https://club.example.org", host=b"127.0.0.1:8001"
    )
    assert connected
    await ws.disconnect()
    for origin in (b"http://club.example.org", b"https://club.example.org:444"):
        _, connected = await open_socket("/ws/lobby/", origin=origin, host=b"127.0.0.1:8001")
        assert not connected, origin


# -- 7. A socket that loses access to a private table -------------------------


def private_table(seats: int = 3):
    anna, boris = make_player("Anna"), make_player("Boris")
    table, update = services.create_table(
        anna.player, Variant.objects.get(name="Devyatka"), seats, private=True
    )
    publish_sync([update, *services.join_table(boris.player, table.pk, str(table.invite_token))])
    return Table.objects.get(pk=table.pk), anna, boris


async def expect_closed_as_missing(ws) -> None:
    frame = await ws.receive_json_from()
    # Nothing of the change may arrive: the first frame is the refusal.
    assert frame["type"] != "state", f"a state reached a socket without access: {frame}"
    assert frame == {"type": "error", "code": "not_found", "message": "There is no such table."}
    assert (await ws.receive_output())["code"] == CLOSE_NOT_FOUND


async def test_a_member_who_leaves_a_private_table_stops_hearing_it():
    table, anna, boris = await database_sync_to_async(private_table)()
    ws, connected = await open_socket(f"/ws/tables/{table.pk}/", boris)  # seated, no invite
    assert connected
    assert (await ws.receive_json_from())["type"] == "state"
    await database_sync_to_async(
        lambda: publish_sync([services.leave_table(boris.player, table.pk)])
    )()
    await expect_closed_as_missing(ws)


async def test_the_creator_who_leaves_loses_the_table_too():
    table, anna, boris = await database_sync_to_async(private_table)()
    ws, connected = await open_socket(f"/ws/tables/{table.pk}/", anna)
    assert connected
    await ws.receive_json_from()
    await database_sync_to_async(
        lambda: publish_sync([services.leave_table(anna.player, table.pk)])
    )()
    await expect_closed_as_missing(ws)


async def test_a_member_with_the_invite_keeps_watching_after_leaving():
    table, anna, boris = await database_sync_to_async(private_table)()
    path = f"/ws/tables/{table.pk}/?invite={table.invite_token}"
    ws, connected = await open_socket(path, boris)
    assert connected
    await ws.receive_json_from()
    await database_sync_to_async(
        lambda: publish_sync([services.leave_table(boris.player, table.pk)])
    )()
    update = await ws.receive_json_from()
    assert update["type"] == "state" and update["table"]["you"] is None
    await ws.disconnect()


# -- 10. The invite token has one spelling on the socket too ------------------


async def test_the_socket_takes_only_the_invite_links_spelling():
    table, anna, boris = await database_sync_to_async(private_table)()
    vera = await database_sync_to_async(make_player)("Vera")
    token = str(table.invite_token)
    for odd in (token.upper(), token.replace("-", ""), "{" + token + "}"):
        ws, connected = await open_socket(f"/ws/tables/{table.pk}/?invite={odd}", vera)
        assert connected
        assert (await ws.receive_json_from())["code"] == "not_found"
        assert (await ws.receive_output())["code"] == CLOSE_NOT_FOUND
    ws, _ = await open_socket(f"/ws/tables/{table.pk}/?invite={token}", vera)
    assert (await ws.receive_json_from())["type"] == "state"
    await ws.disconnect()


async def test_a_table_id_beyond_64_bits_closes_as_missing():
    vera = await database_sync_to_async(make_player)("Vera")
    ws, connected = await open_socket(f"/ws/tables/{2**63}/", vera)
    assert connected
    assert (await ws.receive_json_from())["code"] == "not_found"
    assert (await ws.receive_output())["code"] == CLOSE_NOT_FOUND
