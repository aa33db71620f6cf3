"""What a flood costs the flooder: cooldowns, socket caps and table quotas (games/limits.py).

In-process, on the real ASGI application: a socket closed for flooding puts
its account (or an anonymous address) in a cooldown that refuses its next
handshakes before any database work, longer on each repeat; one account
holds a bounded number of table and lobby sockets, a table a bounded number
of watchers; one member a few open tables. The same caps across two server
processes: tests/integration/test_flood_caps_two_processes.py.
"""

from __future__ import annotations

import logging

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from club.asgi import application
from games import limits
from games.models import RateLimitEvent
from tests.integration.test_table_ws import make_player, session_cookie, started_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("default_variants"),
]

CLOSE_TOO_MANY = 4409


@pytest.fixture
def quick_flood(settings):
    settings.WS_RATE_BURST = 2
    settings.WS_RATE_PER_SECOND = 0.5
    settings.WS_FLOOD_CLOSE_AFTER = 5
    settings.WS_FLOOD_WINDOW_SECONDS = 60.0


def socket_to(path: str, cookie: bytes | None = None, address: str = "203.0.113.9"):
    headers = [(b"origin", b"http://localhost")]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    ws = WebsocketCommunicator(application, path, headers=headers)
    ws.scope["client"] = [address, 50000]
    return ws


async def flood_until_closed(ws) -> dict:
    """Send `sync` frames until the server closes the socket; its last error frame."""
    last = None
    for _ in range(100):
        await ws.send_json_to({"type": "sync"})
        frame = await ws.receive_json_from()
        if frame.get("code") == "flooding":
            last = frame
            break
    assert last is not None
    assert (await ws.receive_output())["code"] == 4429
    return last


async def test_a_flood_close_refuses_the_accounts_next_sockets(quick_flood, caplog):
    table, (anna, boris) = await database_sync_to_async(started_table)()
    cookie = await database_sync_to_async(session_cookie)(anna)
    ws = socket_to(f"/ws/tables/{table.pk}/", cookie)
    assert (await ws.connect())[0]
    await ws.receive_json_from()
    with caplog.at_level(logging.WARNING, logger="games"):
        await flood_until_closed(ws)
    # The same session, a fresh log-in of the same account, its lobby: all refused.
    fresh = await database_sync_to_async(session_cookie)(anna)
    for path, cookie_now in [
        (f"/ws/tables/{table.pk}/", cookie),
        (f"/ws/tables/{table.pk}/", fresh),
        ("/ws/lobby/", cookie),
    ]:
        again = socket_to(path, cookie_now)
        connected, _ = await again.connect()
        assert not connected, path
    # Another member at the same table is not affected.
    other = socket_to(
        f"/ws/tables/{table.pk}/", await database_sync_to_async(session_cookie)(boris)
    )
    assert (await other.connect())[0]
    assert (await other.receive_json_from())["type"] == "state"
    await other.disconnect()
    events = await database_sync_to_async(list)(RateLimitEvent.objects.select_related("player"))
    assert [(e.kind, e.player.display_name) for e in events] == [("flooding", "Anna")]
    assert "closed a flooding socket" in caplog.text


async def test_an_anonymous_flood_cools_down_its_address_only(quick_flood):
    ws = socket_to("/ws/lobby/", address="198.51.100.20")
    assert (await ws.connect())[0]
    for _ in range(30):
        await ws.send_to(text_data="x")
        frame = await ws.receive_json_from()
        if frame["code"] == "flooding":
            break
    assert (await ws.receive_output())["code"] == 4429
    refused = socket_to("/ws/lobby/", address="198.51.100.20")
    assert not (await refused.connect())[0]
    elsewhere = socket_to("/ws/lobby/", address="198.51.100.21")
    assert (await elsewhere.connect())[0]
    await elsewhere.disconnect()


async def test_refused_handshakes_do_no_database_work(quick_flood, monkeypatch, caplog):
    table, (anna, _) = await database_sync_to_async(started_table)()
    cookie = await database_sync_to_async(session_cookie)(anna)
    ws = socket_to(f"/ws/tables/{table.pk}/", cookie)
    assert (await ws.connect())[0]
    await ws.receive_json_from()
    await flood_until_closed(ws)

    import channels.auth

    looked_up = []

    async def get_user(scope):
        looked_up.append(scope.get("path"))
        raise AssertionError("the session was read for a refused handshake")

    monkeypatch.setattr(channels.auth, "get_user", get_user)
    with caplog.at_level(logging.WARNING, logger="games.limits"):
        for _ in range(5):
            refused = socket_to(f"/ws/tables/{table.pk}/", cookie)
            assert not (await refused.connect())[0]
    assert looked_up == []
    # Logged once for the whole cooldown, not once per refusal, with the
    # flood's account and address, and never the session key.
    assert caplog.text.count("cooling down") == 1
    assert f"after a flood by user {anna.pk}, address 203.0.113.9" in caplog.text
    assert "from address 203.0.113.9" in caplog.text
    assert cookie.decode().split("=", 1)[1] not in caplog.text


async def test_the_cooldown_grows_on_repeat_up_to_its_maximum(settings):
    settings.WS_COOLDOWN_SECONDS = 5.0
    settings.WS_COOLDOWN_MAX_SECONDS = 60.0
    keys = limits.cooldown_keys(7, None, None)
    lengths = [await limits.start_cooldown(keys) for _ in range(6)]
    assert lengths == [5.0, 10.0, 20.0, 40.0, 60.0, 60.0]
    assert 55.0 < await limits.cooldown_left(keys) <= 60.0
    assert await limits.cooldown_left(limits.cooldown_keys(8, None, None)) == 0.0


async def test_a_cooldown_ends(quick_flood, settings):
    settings.WS_COOLDOWN_SECONDS = 0.2
    table, (anna, _) = await database_sync_to_async(started_table)()
    cookie = await database_sync_to_async(session_cookie)(anna)
    ws = socket_to(f"/ws/tables/{table.pk}/", cookie)
    assert (await ws.connect())[0]
    await ws.receive_json_from()
    await flood_until_closed(ws)
    import asyncio

    await asyncio.sleep(0.5)  # longer than the cooldown, however slow the machine
    again = socket_to(f"/ws/tables/{table.pk}/", cookie)
    assert (await again.connect())[0]
    assert (await again.receive_json_from())["type"] == "state"
    await again.disconnect()


# -- Socket caps ---------------------------------------------------------------


async def expect_too_many(ws) -> None:
    assert (await ws.connect())[0]
    frame = await ws.receive_json_from()
    assert (frame["type"], frame["code"]) == ("error", "too_many_sockets")
    assert (await ws.receive_output())["code"] == CLOSE_TOO_MANY


async def test_one_account_holds_a_bounded_number_of_table_sockets(settings):
    settings.WS_TABLE_SOCKETS_PER_ACCOUNT = 2
    table, (anna, _) = await database_sync_to_async(started_table)()
    cookie = await database_sync_to_async(session_cookie)(anna)
    open_ = []
    for _ in range(2):
        ws = socket_to(f"/ws/tables/{table.pk}/", cookie)
        assert (await ws.connect())[0]
        assert (await ws.receive_json_from())["type"] == "state"
        open_.append(ws)
    await expect_too_many(socket_to(f"/ws/tables/{table.pk}/", cookie))
    await open_.pop().disconnect()  # closing one frees its place
    last = socket_to(f"/ws/tables/{table.pk}/", cookie)
    assert (await last.connect())[0]
    assert (await last.receive_json_from())["type"] == "state"
    for ws in [*open_, last]:
        await ws.disconnect()


async def test_a_table_takes_a_bounded_number_of_watchers_but_every_player(settings):
    settings.WS_WATCHERS_PER_TABLE = 1
    table, (anna, boris) = await database_sync_to_async(started_table)()
    vera, olga = [await database_sync_to_async(make_player)(n) for n in ("Vera", "Olga")]
    cookies = {
        u.username: await database_sync_to_async(session_cookie)(u)
        for u in (anna, boris, vera, olga)
    }
    watcher = socket_to(f"/ws/tables/{table.pk}/", cookies["vera"])
    assert (await watcher.connect())[0]
    await watcher.receive_json_from()
    await expect_too_many(socket_to(f"/ws/tables/{table.pk}/", cookies["olga"]))
    players = [socket_to(f"/ws/tables/{table.pk}/", cookies[n]) for n in ("anna", "boris")]
    for ws in players:
        assert (await ws.connect())[0]
        assert (await ws.receive_json_from())["type"] == "state"
        await ws.disconnect()
    await watcher.disconnect()


async def test_lobby_sockets_are_capped_per_account_and_per_address(settings):
    settings.WS_LOBBY_SOCKETS_PER_ACCOUNT = 2
    settings.WS_LOBBY_SOCKETS_PER_ADDRESS = 3
    anna = await database_sync_to_async(make_player)("Anna")
    cookie = await database_sync_to_async(session_cookie)(anna)
    mine = [socket_to("/ws/lobby/", cookie) for _ in range(2)]
    for ws in mine:
        assert (await ws.connect())[0]
    await expect_too_many(socket_to("/ws/lobby/", cookie))
    anonymous = [socket_to("/ws/lobby/", address="192.0.2.1") for _ in range(3)]
    for ws in anonymous:
        assert (await ws.connect())[0]
    await expect_too_many(socket_to("/ws/lobby/", address="192.0.2.1"))
    other = socket_to("/ws/lobby/", address="192.0.2.2")
    assert (await other.connect())[0]
    for ws in [*mine, *anonymous, other]:
        await ws.disconnect()


async def test_the_limits_let_sockets_through_while_their_store_fails(caplog):
    class Broken:
        async def cooldown_left(self, keys):
            raise ConnectionError("Redis is away")

        async def acquire(self, *args):
            raise ConnectionError("Redis is away")

    loop = __import__("asyncio").get_running_loop()
    limits._stores[loop] = limits.FailOpen(Broken())
    with caplog.at_level(logging.WARNING, logger="games.limits"):
        assert await limits.cooldown_left(["user:1"]) == 0.0
        assert await limits.take_slot("table-sockets:1", "channel", 1)
        assert await limits.take_slot("table-sockets:1", "other", 1)
    assert caplog.text.count("limits are off") == 1
