"""The house's background runner: plays bot turns, timed-out turns and absent players' turns.

It runs as an asyncio task inside each server process, started by the first
request the process serves (daphne has no startup hook). It polls the
database for tables whose `turn_deadline` has passed; the table row lock in
`services.play_automatic` makes sure exactly one process plays each turn, and
a restarted server simply finds the overdue turns on its first poll.

It also keeps presence honest. Every PRESENCE_HEARTBEAT_SECONDS it vouches
for the table sockets whose consumer is alive in this process (`vouch_for` /
`forget`, called by the consumer itself, the latter in a `finally` so a
crashed or cancelled handler is dropped too), and expires every Presence row
that nobody vouched for in PRESENCE_STALE_SECONDS: a dead handler's or a dead
process's. Its seat turns away and the house plays its turns.

And every HOUSE_DUTY_SECONDS it runs the duties other apps registered with
games.hooks (a duplicate round closing at its end time), in a thread of their
own so that a long one (the house playing out a round's unfinished boards)
holds up neither the bots' turns nor the sockets' database thread.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from channels.db import DatabaseSyncToAsync
from django.conf import settings

from games import hooks, services
from games.broadcast import publish
from games.db import DATABASE_DOWN, database_available, database_unavailable, on_database

logger = logging.getLogger(__name__)
POLL_SECONDS = 0.2

_tasks: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}
# Each loop's running pass of duties: a new pass starts only when the last ended.
_duty_tasks: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}
# One thread for the duties, with its own database connection (closed after each call).
_duty_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="house-duties")
# The table sockets of this process whose handler is alive: channel -> consumer.
_live: dict[str, object] = {}


def vouch_for(channel: str, consumer: object) -> None:
    """This socket's handler is alive: keep its presence fresh."""
    _live[channel] = consumer


def forget(channel: str | None, consumer: object) -> None:
    """This socket's handler ended, cleanly or not: stop vouching for it."""
    if channel is not None and _live.get(channel) is consumer:
        del _live[channel]


def live_channels() -> list[str]:
    return list(_live)


async def heartbeat() -> int:
    """One presence pass: refresh the live sockets' rows, expire stale ones; how many expired."""
    stale = datetime.timedelta(seconds=settings.PRESENCE_STALE_SECONDS)
    # The snapshot is taken here, on the loop that owns `_live`.
    channels = live_channels()
    return await on_database(services.refresh_presence)(stale, channels)


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
    next_heartbeat = next_duties = 0.0
    while True:
        played = 0
        try:
            if loop.time() >= next_duties:
                next_duties = loop.time() + settings.HOUSE_DUTY_SECONDS
                start_duties()
            if loop.time() >= next_heartbeat:
                next_heartbeat = loop.time() + settings.PRESENCE_HEARTBEAT_SECONDS
                await heartbeat()
            played = await run_once()
            database_available()
        except DATABASE_DOWN as exc:
            # One warning per outage (games/db.py); the clock and bots carry on
            # by themselves when the database is back: the overdue turns are due.
            database_unavailable(exc, "house runner")
        except Exception:  # noqa: BLE001 - the runner must outlive any one bad turn
            logger.exception("house runner: a turn failed")
        # After a move the next seat may already be due (several bots in a row,
        # or everyone in a simultaneous phase): look again at once.
        # A bot's move is due BOT_DELAY_SECONDS after the turn starts: poll no slower.
        idle = max(0.01, min(POLL_SECONDS, settings.BOT_DELAY_SECONDS))
        await asyncio.sleep(0 if played else idle)


async def run_once() -> int:
    """Play every overdue turn once; return how many moves were made."""
    played = 0
    for table_id in await on_database(services.due_tables)():
        turn = await on_database(services.automatic_turn)(table_id)
        if turn is None:
            continue
        # Search bots think for up to BOT_SEARCH_BUDGET_MS: keep that off the
        # single thread that serves every consumer's database work.
        move = await sync_to_async(services.choose_automatic_move, thread_sensitive=False)(turn)
        update = await on_database(services.play_automatic)(turn, move)
        if update is not None:
            await publish([update])
            played += 1
    return played


def start_duties() -> None:
    """Start a pass of the registered duties beside the runner, unless one is still going."""
    loop = asyncio.get_running_loop()
    task = _duty_tasks.get(loop)
    if (task is None or task.done()) and hooks.duties():
        _duty_tasks[loop] = loop.create_task(run_duties(), name="house-duties")


async def run_duties() -> int:
    """Run every registered duty once and publish what they changed; how many updates."""
    sent = 0
    for duty in hooks.duties():
        try:
            updates = await DatabaseSyncToAsync(
                duty, thread_sensitive=False, executor=_duty_thread
            )()
            database_available()
        except DATABASE_DOWN as exc:
            database_unavailable(exc, "house duties")
            continue
        except Exception:  # noqa: BLE001 - one failing duty must not stop the others
            logger.exception("house runner: the duty %s failed", getattr(duty, "__name__", duty))
            continue
        if updates:
            await publish(updates)
            sent += len(updates)
    return sent
