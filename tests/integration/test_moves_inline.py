"""On SQLite a table socket's moves run on the event loop itself, and never make it wait.

games.db.on_database_inline (docs/PERFORMANCE.md, issue 44, "What a move costs, and what was done"): the
move's transaction runs on the loop's own connection; a move behind another writer
of the process waits for it without holding the loop, then runs; the apps' hooks
are told on the database thread, before the mover hears back.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from channels.db import database_sync_to_async
from django.db import connections, transaction
from django.utils import timezone

from games import hooks, services
from games.models import Table
from tests.integration.test_table_ws import connect, current_state, started_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("default_variants"),
    pytest.mark.skipif(
        connections["default"].vendor != "sqlite", reason="moves run on the loop on SQLite only"
    ),
]


def _recording_play_move(monkeypatch) -> list[int]:
    """Record the thread each move runs on."""
    threads: list[int] = []
    play_move = services.play_move

    def recorded(*args, **kwargs):
        threads.append(threading.get_ident())
        return play_move(*args, **kwargs)

    monkeypatch.setattr(services, "play_move", recorded)
    return threads


async def _first_move() -> tuple[object, Table, dict]:
    """The socket of the seat to move, its first state, and a legal move."""
    table, (anna, boris) = await database_sync_to_async(started_table)()
    state = await database_sync_to_async(current_state)(table.pk)
    mover = (anna, boris)[state.to_move]
    ws = await connect(table.pk, mover)
    first = await ws.receive_json_from()
    # The socket's own start (its presence written) is done once it answers a ping.
    await ws.send_json_to({"type": "ping"})
    while (await ws.receive_json_from(timeout=5))["type"] != "pong":
        pass
    return ws, table, first


def _writer_holding_the_lock(held: threading.Event, release: threading.Event) -> threading.Thread:
    """A thread of this process in a write transaction (a page's), from `held` to `release`."""

    def other_writer() -> None:
        try:
            with transaction.atomic():
                Table.objects.update(updated=timezone.now())
                held.set()
                release.wait(5)
        finally:
            connections.close_all()

    writer = threading.Thread(target=other_writer)
    writer.start()
    return writer


async def _play_first_legal(ws, first: dict) -> None:
    await ws.send_json_to(
        {"type": "play", "move": first["view"]["legal"][0], "version": first["version"]}
    )


async def _ticking(ticks: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        ticks.append(time.monotonic())
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
@pytest.mark.parametrize("inline", [True, False], ids=["on the loop", "setting off: the thread"])
async def test_a_move_runs_on_the_event_loop_itself_unless_the_setting_is_off(
    monkeypatch, settings, inline
):
    settings.SQLITE_MOVES_INLINE = inline
    threads = _recording_play_move(monkeypatch)
    ws, table, first = await _first_move()

    await _play_first_legal(ws, first)
    answer = await ws.receive_json_from(timeout=5)

    assert answer["type"] == "state" and answer["version"] == first["version"] + 1
    assert len(threads) == 1
    assert (threads[0] == threading.get_ident()) is inline
    await ws.disconnect()


@pytest.mark.asyncio
async def test_a_move_behind_another_writer_of_the_process_waits_without_holding_the_loop(
    monkeypatch, settings
):
    settings.SQLITE_MOVES_INLINE = True
    threads = _recording_play_move(monkeypatch)
    ws, table, first = await _first_move()
    held, release = threading.Event(), threading.Event()

    writer = _writer_holding_the_lock(held, release)
    assert await asyncio.to_thread(held.wait, 5)
    ticks: list[float] = []
    stop = asyncio.Event()
    ticker = asyncio.create_task(_ticking(ticks, stop))

    await _play_first_legal(ws, first)
    await asyncio.sleep(0.3)  # the move waits for the writer meanwhile
    release.set()
    answer = await ws.receive_json_from(timeout=5)
    stop.set()
    await ticker
    await asyncio.to_thread(writer.join, 5)

    # Refused before it began, then made once the writer was done, on the loop again:
    # it landed once.
    assert answer["type"] == "state" and answer["version"] == first["version"] + 1
    assert threads == [threading.get_ident()] * 2
    stored = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    assert stored.version == answer["version"]
    # ...and the loop went on meanwhile: no gap of more than a fraction of the wait.
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert len(ticks) >= 10 and max(gaps) < 0.2
    await ws.disconnect()


@pytest.mark.asyncio
async def test_what_an_inline_move_tells_the_apps_is_told_off_the_loop_before_the_answer(
    settings,
):
    settings.SQLITE_MOVES_INLINE = True
    told: list[tuple[str, int]] = []

    def listener(event: hooks.Event) -> None:
        told.append((event.kind, threading.get_ident()))

    hooks.listen(listener)
    try:
        ws, table, first = await _first_move()
        await _play_first_legal(ws, first)
        answer = await ws.receive_json_from(timeout=5)
    finally:
        hooks.unlisten(listener)

    assert answer["type"] == "state"
    # The turn passed to the other member: told, on another thread, before the answer.
    assert told, "the listener was not told before the mover's answer"
    assert all(thread != threading.get_ident() for _kind, thread in told)
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
def test_a_connection_that_never_waits_is_refused_at_once_while_another_writes():
    quick = connections.create_connection("default")
    quick.never_wait()
    held, release = threading.Event(), threading.Event()

    writer = _writer_holding_the_lock(held, release)
    try:
        assert held.wait(5)
        started = time.monotonic()
        with pytest.raises(Exception) as refused:
            quick.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
        assert time.monotonic() - started < 0.5
        assert getattr(refused.value, "refused_before_start", False)
        assert quick.get_autocommit()  # nothing begun
    finally:
        release.set()
        writer.join(5)
    # Once the writer is done, the same connection writes.
    with quick.cursor() as cursor:
        quick.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
        cursor.execute("SELECT 1")
        quick.commit()
        quick.set_autocommit(True)
    quick.close()
