"""Every frame a client can send gets exactly one answer; limits close what must close.

Channels' WebsocketCommunicator on the real ASGI application. The rate limiter
reads `games.consumers.clock`; the tests that depend on it freeze that clock,
so "a burst" means "frames sent while no time passes", whatever the machine's
speed.
"""

from __future__ import annotations

import json
import logging

import pytest
from channels.db import database_sync_to_async

from games import consumers
from games.consumers import TokenBucket
from games.models import Move, Table
from tests.integration.test_table_ws import connect, started_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("default_variants"),
]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def frozen(monkeypatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(consumers, "clock", fake)
    return fake


def _table_version(table_id: int) -> int:
    return Table.objects.get(pk=table_id).version


async def assert_usable_and_unchanged(ws, table_id: int, version: int) -> None:
    """Nothing changed, and the next answer is the sync's: no second frame was queued."""
    assert await database_sync_to_async(Move.objects.count)() == 0
    assert await database_sync_to_async(_table_version)(table_id) == version
    await ws.send_json_to({"type": "sync"})
    answer = await ws.receive_json_from()
    assert answer["type"] == "state", answer
    assert answer["version"] == version


async def send_raw(ws, text: str | None = None, data: bytes | None = None) -> None:
    """Any frame, empty ones included (the communicator's send_to refuses those)."""
    message = {"type": "websocket.receive"}
    message.update({"text": text} if text is not None else {"bytes": data})
    await ws.send_input(message)


def play(card, version) -> str:
    return json.dumps({"type": "play", "card": card, "version": version})


HUGE_INT = 10**40
LONG = "x" * 3000

# (frame, expected code); VERSION is replaced by the table's version.
BAD_TEXT_FRAMES = [
    ('{"type": []}', "unknown_type"),
    ('{"type": {}}', "unknown_type"),
    ('{"type": null}', "unknown_type"),
    ('{"type": true}', "unknown_type"),
    ('{"type": 1.5}', "unknown_type"),
    (json.dumps({"type": HUGE_INT}), "unknown_type"),
    (json.dumps({"type": LONG}), "unknown_type"),
    ('{"type": "play", "card": [], "version": VERSION}', "bad_field"),
    ('{"type": "play", "card": {}, "version": VERSION}', "bad_field"),
    ('{"type": "play", "card": null, "version": VERSION}', "bad_field"),
    ('{"type": "play", "card": true, "version": VERSION}', "bad_field"),
    ('{"type": "play", "card": 1.5, "version": VERSION}', "bad_field"),
    (
        json.dumps({"type": "play", "card": LONG, "version": 0}).replace("0}", "VERSION}"),
        "not_a_card",
    ),
    ('{"type": "play", "card": "9D\\u0000", "version": VERSION}', "not_a_card"),
    ('{"type": "play", "card": "\\ud800", "version": VERSION}', "not_a_card"),
    ('{"type": "play", "card": "9D", "version": []}', "bad_field"),
    ('{"type": "play", "card": "9D", "version": {}}', "bad_field"),
    ('{"type": "play", "card": "9D", "version": null}', "bad_field"),
    ('{"type": "play", "card": "9D", "version": true}', "bad_field"),
    ('{"type": "play", "card": "9D", "version": 1.0}', "bad_field"),
    ('{"type": "play", "card": "9D", "version": NaN}', "bad_field"),
    (json.dumps({"type": "play", "card": "9D", "version": HUGE_INT}), "stale_version"),
    (json.dumps({"type": "play", "card": "9D", "version": -HUGE_INT}), "stale_version"),
    ("1" * 4000, "bad_message"),
    ('{"type": "play", "card": "9D", "version": 1' + "0" * 4000 + "}", "stale_version"),
    ("[" * 2000 + "]" * 2000, "bad_json"),  # deeper than the parser's stack, under the limit
    ('{"type": "sync", "x": ' + "[" * 1900 + "]" * 1900 + "}", "bad_json"),
    ("", "bad_json"),
    ("   ", "bad_json"),
    ('{"type": "sync"', "bad_json"),
    ("null", "bad_message"),
    ("true", "bad_message"),
    ('"sync"', "bad_message"),
    ("3.5", "bad_message"),
    ("[]", "bad_message"),
    ("{}", "unknown_type"),
    ('{"type": "Sync"}', "unknown_type"),
    ('{"type": "__init__"}', "unknown_type"),
]


@pytest.mark.parametrize(("frame", "code"), BAD_TEXT_FRAMES)
async def test_any_text_frame_gets_exactly_one_error_and_changes_nothing(frame, code):
    table, (anna, _) = await database_sync_to_async(started_table)()
    ws = await connect(table.pk, anna)
    first = await ws.receive_json_from()
    version = first["version"]
    await send_raw(ws, text=frame.replace("VERSION", str(version)))
    error = await ws.receive_json_from()
    assert error["type"] == "error", error
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"]
    await assert_usable_and_unchanged(ws, table.pk, version)
    await ws.disconnect()


@pytest.mark.parametrize("data", [b"", b"\x00\xff\xfe", b'{"type": "sync"}'])
async def test_binary_frames_get_bad_frame(data):
    table, (anna, _) = await database_sync_to_async(started_table)()
    ws = await connect(table.pk, anna)
    version = (await ws.receive_json_from())["version"]
    await send_raw(ws, data=data)
    error = await ws.receive_json_from()
    assert (error["type"], error["code"]) == ("error", "bad_frame")
    await assert_usable_and_unchanged(ws, table.pk, version)
    await ws.disconnect()


async def test_a_frame_at_the_size_limit_is_read(settings):
    table, (anna, _) = await database_sync_to_async(started_table)()
    ws = await connect(table.pk, anna)
    version = (await ws.receive_json_from())["version"]
    frame = '{"type": "sync", "pad": "'
    # Multi-byte characters: the limit counts UTF-8 bytes, not characters.
    padding = "é" * ((settings.WS_MAX_FRAME_BYTES - len(frame) - 2) // 2)
    frame = frame + padding + '"}'
    frame += " " * (settings.WS_MAX_FRAME_BYTES - len(frame.encode()))
    assert len(frame.encode()) == settings.WS_MAX_FRAME_BYTES
    await ws.send_to(text_data=frame)
    assert (await ws.receive_json_from())["type"] == "state"
    await assert_usable_and_unchanged(ws, table.pk, version)
    await ws.disconnect()


@pytest.mark.parametrize(
    "frame",
    [
        pytest.param(lambda limit: '{"type": "sync", "pad": "' + "x" * limit + '"}', id="long"),
        pytest.param(lambda limit: "é" * (limit // 2 + 1), id="multibyte"),
        pytest.param(lambda limit: "[" * 50_000 + "]" * 50_000, id="nested-50000"),
        pytest.param(lambda limit: b"\x00" * (limit + 1), id="binary"),
    ],
)
async def test_a_frame_over_the_size_limit_is_answered_then_closed_with_4413(settings, frame):
    table, (anna, _) = await database_sync_to_async(started_table)()
    ws = await connect(table.pk, anna)
    version = (await ws.receive_json_from())["version"]
    data = frame(settings.WS_MAX_FRAME_BYTES)
    if isinstance(data, bytes):
        await ws.send_to(bytes_data=data)
    else:
        await ws.send_to(text_data=data)
    error = await ws.receive_json_from()
    assert (error["type"], error["code"]) == ("error", "frame_too_big")
    assert (await ws.receive_output())["code"] == consumers.CLOSE_TOO_BIG == 4413
    assert await database_sync_to_async(_table_version)(table.pk) == version
    await ws.disconnect()


async def test_ping_gets_pong():
    table, (anna, _) = await database_sync_to_async(started_table)()
    ws = await connect(table.pk, anna)
    version = (await ws.receive_json_from())["version"]
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    await assert_usable_and_unchanged(ws, table.pk, version)
    await ws.disconnect()


async def test_an_unexpected_exception_is_logged_once_and_answered(monkeypatch, caplog):
    table, (anna, _) = await database_sync_to_async(started_table)()
    ws = await connect(table.pk, anna)
    version = (await ws.receive_json_from())["version"]

    async def broken(self, content):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(consumers.TableConsumer, "_handle_ping", broken)
    with caplog.at_level(logging.ERROR, logger="games.consumers"):
        await ws.send_json_to({"type": "ping"})
        error = await ws.receive_json_from()
    assert (error["type"], error["code"]) == ("error", "server_error")
    assert "a bug in a handler" not in error["message"]  # no internals to the client
    records = [r for r in caplog.records if r.name == "games.consumers"]
    assert len(records) == 1
    assert records[0].exc_info and records[0].exc_info[0] is RuntimeError
    # The socket is still usable.
    await assert_usable_and_unchanged(ws, table.pk, version)
    await ws.disconnect()


# -- rate limit ----------------------------------------------------------------


async def test_token_bucket_refills_at_its_rate_up_to_its_burst():
    bucket = TokenBucket(burst=3, rate=2.0, now=0.0)
    assert [bucket.take(0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take(0.0) == pytest.approx(0.5)
    assert bucket.take(0.25) == pytest.approx(0.25)  # half a token back
    assert bucket.take(0.5) == 0.0
    assert bucket.take(100.0) == 0.0  # a long pause refills to the burst, not beyond
    assert [bucket.take(100.0) for _ in range(3)] == [0.0, 0.0, pytest.approx(0.5)]


async def test_a_burst_over_the_limit_is_refused_with_retry_after(settings, frozen):
    settings.WS_RATE_BURST = 5
    settings.WS_RATE_PER_SECOND = 2.0
    table, (anna, _) = await database_sync_to_async(started_table)()
    ws = await connect(table.pk, anna)
    first = await ws.receive_json_from()
    version = first["version"]
    mover_card = first["view"]["legal"][0] if first["view"]["legal"] else "9D"
    for _ in range(5):
        await ws.send_json_to({"type": "sync"})
    # Over the limit: refused, not processed (a play would have been a move).
    await ws.send_to(text_data=play(mover_card, version))
    await ws.send_json_to({"type": "sync"})
    answers = [await ws.receive_json_from() for _ in range(7)]
    assert [a["type"] for a in answers] == ["state"] * 5 + ["error"] * 2
    for refused in answers[5:]:
        assert refused["code"] == "rate_limited"
        assert refused["retry_after"] == 0.5
    assert await database_sync_to_async(Move.objects.count)() == 0
    # After retry_after, one frame goes through again.
    frozen.now += 0.5
    await ws.send_json_to({"type": "sync"})
    assert (await ws.receive_json_from())["type"] == "state"
    await ws.disconnect()


async def test_a_socket_that_keeps_flooding_is_closed_with_4429(settings, frozen):
    settings.WS_RATE_BURST = 3
    settings.WS_RATE_PER_SECOND = 1.0
    settings.WS_FLOOD_CLOSE_AFTER = 10
    settings.WS_FLOOD_WINDOW_SECONDS = 10.0
    table, (anna, _) = await database_sync_to_async(started_table)()
    ws = await connect(table.pk, anna)
    await ws.receive_json_from()
    for _ in range(3 + 9):
        await ws.send_json_to({"type": "sync"})
    answers = [await ws.receive_json_from() for _ in range(12)]
    assert [a.get("code") for a in answers] == [None] * 3 + ["rate_limited"] * 9
    # Refusals older than the window are forgiven...
    frozen.now += 10.5
    for _ in range(3 + 9):
        await ws.send_json_to({"type": "sync"})
    answers = [await ws.receive_json_from() for _ in range(12)]
    assert [a.get("code") for a in answers] == [None] * 3 + ["rate_limited"] * 9
    # ...but the tenth within one window closes the socket.
    await ws.send_json_to({"type": "sync"})
    last = await ws.receive_json_from()
    assert (last["type"], last["code"]) == ("error", "flooding")
    assert (await ws.receive_output())["code"] == consumers.CLOSE_FLOODING == 4429
    await ws.disconnect()


async def test_an_honest_client_is_never_limited(frozen):
    """Default limits; every seat plays its turn and syncs after every move, a move a second."""
    table, users = await database_sync_to_async(started_table)(("Anna", "Boris", "Vera"), "Keft")
    sockets = [await connect(table.pk, u) for u in users]
    latest = [await ws.receive_json_from() for ws in sockets]
    moves = 0
    while latest[0]["table"]["status"] == "playing":
        frozen.now += 1.0
        mover = latest[0]["view"]["to_move"]
        card = latest[mover]["view"]["legal"][0]
        await sockets[mover].send_to(text_data=play(card, latest[0]["version"]))
        latest = [await ws.receive_json_from() for ws in sockets]
        assert all(f["type"] == "state" for f in latest), latest
        for ws in sockets:  # a client that always resyncs as well
            await ws.send_json_to({"type": "sync"})
            await ws.send_json_to({"type": "ping"})
        for ws in sockets:
            assert (await ws.receive_json_from())["type"] == "state"
            assert (await ws.receive_json_from())["type"] == "pong"
        moves += 1
    assert moves > 20
    for ws in sockets:
        await ws.disconnect()


async def test_the_lobby_has_the_same_limits(settings, frozen):
    from channels.testing import WebsocketCommunicator

    from club.asgi import application

    settings.WS_RATE_BURST = 2
    lobby = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://localhost")]
    )
    assert (await lobby.connect())[0]
    for data in ("hello", "[]", "x"):
        await lobby.send_to(text_data=data)
    codes = [(await lobby.receive_json_from())["code"] for _ in range(3)]
    assert codes == ["read_only", "read_only", "rate_limited"]
    await lobby.send_to(text_data="x" * (settings.WS_MAX_FRAME_BYTES + 1))
    assert (await lobby.receive_json_from())["code"] == "frame_too_big"
    assert (await lobby.receive_output())["code"] == 4413
    await lobby.disconnect()
