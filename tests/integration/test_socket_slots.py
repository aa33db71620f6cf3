"""A socket's place under its caps lasts as long as the socket (games/limits.py, SlotKeeper).

Each open socket is an entry with an expiry WS_SLOT_TTL_SECONDS ahead. The
process that holds the socket renews it while the socket lives, so a member
who keeps a table open for hours still counts against their cap; a process
that died without closing its sockets stops renewing, and their places are
freed within the TTL. The slot clock is moved by hand (`limits.clock`), so
nothing here waits for the TTL to pass. With REDIS_URL these run on Redis.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.db import database_sync_to_async

from games import limits
from tests.integration.test_flood_limits import expect_too_many, socket_to
from tests.integration.test_table_ws import session_cookie, started_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("default_variants"),
]

TTL = 600.0


@pytest.fixture
def slot_clock(settings, monkeypatch) -> list[float]:
    """The slots' clock, moved by the test: now[0] is the time they see."""
    settings.WS_TABLE_SOCKETS_PER_ACCOUNT = 1
    settings.WS_SLOT_TTL_SECONDS = TTL
    now = [time.time()]
    monkeypatch.setattr(limits, "clock", lambda: now[0])
    return now


async def open_table_socket(path: str, cookie: bytes):
    ws = socket_to(path, cookie)
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from())["type"] == "state"
    return ws


async def test_a_socket_open_longer_than_the_slot_lifetime_keeps_its_place(slot_clock):
    table, (anna, _) = await database_sync_to_async(started_table)()
    cookie = await database_sync_to_async(session_cookie)(anna)
    path = f"/ws/tables/{table.pk}/"
    first = await open_table_socket(path, cookie)
    # Four renewal periods' worth of time (2.7 TTLs), renewed as the keeper does.
    for _ in range(4):
        slot_clock[0] += TTL * 2 / 3
        await limits.keeper().refresh()
    # The first socket still counts: the account's one place is taken.
    await expect_too_many(socket_to(path, cookie))
    await first.disconnect()
    again = await open_table_socket(path, cookie)  # closing it freed the place at once
    await again.disconnect()


async def test_a_dead_processes_sockets_stop_counting_after_the_slot_lifetime(slot_clock):
    table, (anna, _) = await database_sync_to_async(started_table)()
    cookie = await database_sync_to_async(session_cookie)(anna)
    path = f"/ws/tables/{table.pk}/"
    # A socket held by another process, which then died: nobody renews it.
    key = f"slots:table-sockets:{anna.pk}"
    assert await limits.store().acquire(key, "dead-process-channel", 1, TTL)
    await expect_too_many(socket_to(path, cookie))
    slot_clock[0] += TTL * 2 / 3
    await limits.keeper().refresh()  # this process renews only its own sockets
    await expect_too_many(socket_to(path, cookie))
    slot_clock[0] += TTL / 2  # past the dead socket's lifetime
    ws = await open_table_socket(path, cookie)
    await ws.disconnect()


async def test_the_keeper_renews_on_its_own_while_sockets_live_and_stops_after(
    settings, monkeypatch
):
    settings.WS_SLOT_TTL_SECONDS = 0.06  # renewed every 20 ms
    renewals = []
    renew = limits.SlotKeeper.refresh

    async def counted(self):
        renewals.append(sorted(self.held))
        await renew(self)

    monkeypatch.setattr(limits.SlotKeeper, "refresh", counted)
    table, (anna, _) = await database_sync_to_async(started_table)()
    cookie = await database_sync_to_async(session_cookie)(anna)
    ws = await open_table_socket(f"/ws/tables/{table.pk}/", cookie)
    for _ in range(3000):  # until renewed twice; bounded, however slow the machine
        if len(renewals) >= 2:
            break
        await asyncio.sleep(0.01)
    assert renewals[:2] == [[f"slots:table-sockets:{anna.pk}"]] * 2
    await ws.disconnect()
    keeper = limits.keeper()
    assert keeper.held == {}
    assert keeper.task is None
