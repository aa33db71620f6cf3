"""The house's background runner: plays bot turns, timed-out turns and absent players' turns.

It runs as an asyncio task inside each server process, started by the first
request the process serves (daphne has no startup hook). It polls the
database for tables whose `turn_deadline` has passed; the table row lock in
`services.play_automatic` makes sure exactly one process plays each turn, and
a restarted server simply finds the overdue turns on its first poll.
"""

from __future__ import annotations

import asyncio
import datetime
import logging

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.conf import settings

from games import services
from games.broadcast import publish

logger = logging.getLogger(__name__)
POLL_SECONDS = 0.2
# Each process vouches for its connections this often; rows nobody vouched for
# in PRESENCE_STALE belong to a dead process and their seats count as away.
HEARTBEAT_SECONDS = 10
PRESENCE_STALE = datetime.timedelta(seconds=35)

_tasks: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}


def ensure_started() -> None:
    """Start the runner on the running event loop, once per loop."""
    if not settings.BOT_RUNNER:
        return
    loop = asyncio.get_running_loop()
    task = _tasks.get(loop)
    if task is None or task.done():
        _tasks[loop] = loop.create_task(run_forever(), name="house-runner")


async def run_forever() -> None:
    loop = asyncio.get_running_loop()
    next_heartbeat = 0.0
    while True:
        try:
            if loop.time() >= next_heartbeat:
                next_heartbeat = loop.time() + HEARTBEAT_SECONDS
                await database_sync_to_async(services.refresh_presence)(PRESENCE_STALE)
            await run_once()
        except Exception:  # noqa: BLE001 - the runner must outlive any one bad turn
            logger.exception("house runner: a turn failed")
        await asyncio.sleep(POLL_SECONDS)


async def run_once() -> int:
    """Play every overdue turn once; return how many moves were made."""
    played = 0
    for table_id in await database_sync_to_async(services.due_tables)():
        turn = await database_sync_to_async(services.automatic_turn)(table_id)
        if turn is None:
            continue
        # Search bots think for up to BOT_SEARCH_BUDGET_MS: keep that off the
        # single thread that serves every consumer's database work.
        move = await sync_to_async(services.choose_automatic_move, thread_sensitive=False)(turn)
        update = await database_sync_to_async(services.play_automatic)(turn, move)
        if update is not None:
            await publish([update])
            played += 1
    return played
