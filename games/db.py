"""Database work from async code: which thread runs it.

Channels' `database_sync_to_async` runs every call of a process in ONE shared
thread. That suits SQLite, which takes one writer at a time anyway (a second
writer would only wait on the file lock). On PostgreSQL it makes the moves of
every table of the process queue behind each other's network round trips,
although the table row lock (`SELECT ... FOR UPDATE`) already keeps two moves
at one table apart; under load that queue, not the CPU, set the latency
(docs/PERFORMANCE.md, "Scale-out"). So elsewhere the calls run in a small pool
of threads, each borrowing a pooled connection for the length of one call.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError, connections

logger = logging.getLogger(__name__)


@cache
def _threads() -> ThreadPoolExecutor | None:
    """None on SQLite (the shared thread); else a pool as big as the connection pool."""
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        return None
    workers = settings.DATABASE_THREADS
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="db")


@cache
def on_database(func: Callable[..., Any]) -> Callable[..., Any]:
    """`database_sync_to_async(func)`, in the pool of database threads where there is one.

    Like `database_sync_to_async`, it closes (returns to the pool) the thread's
    connection before and after the call. One wrapper per (module-level)
    function, made on first use: the consumers wrap a service at each call,
    and making the wrapper (asgiref inspects the function) was a few percent
    of the event loop's work per move.
    """
    executor = _threads()
    if executor is None:
        return database_sync_to_async(func)
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=executor)


# ---------------------------------------------------------------------------
# The database going away (docs/OPERATIONS.md, "When Redis or PostgreSQL goes away")

# What a database that is down, restarting or out of pooled connections raises
# through Django (psycopg's and the pool's errors arrive as these).
DATABASE_DOWN = (OperationalError, InterfaceError)
# What a refused request is told: try again in this many seconds.
RETRY_AFTER_SECONDS = 2
# While the database is known to be away, one request this often still goes
# to it (to find out it is back); the others are refused at once instead of
# each waiting DATABASE_POOL_TIMEOUT for a connection that cannot come.
PROBE_SECONDS = 1.0


class DatabaseAway(OperationalError):
    """Refused without trying: the database was away a moment ago (`refuse_while_away`)."""


class _DatabaseOutage:
    def __init__(self) -> None:
        self.since: float | None = None
        self.refused = 0
        self.probed_at = 0.0


_outage = _DatabaseOutage()


def database_unavailable(exc: BaseException, what: str) -> None:
    """A request failed because the database is away: one warning per outage, no traceback."""
    _outage.refused += 1
    if _outage.since is not None:
        return
    _outage.since = _outage.probed_at = time.monotonic()
    reason = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
    logger.warning(
        "database unavailable (%s, in %s): refusing what needs it until it is back", reason, what
    )
    _reset_pool()


def outage_ongoing() -> bool:
    return _outage.since is not None


def refuse_while_away() -> None:
    """Raise `DatabaseAway` while the database is known to be away, but for one probe a second."""
    if _outage.since is None:
        return
    now = time.monotonic()
    if now - _outage.probed_at >= PROBE_SECONDS:
        _outage.probed_at = now
        return
    raise DatabaseAway("the database was not answering a moment ago")


def database_available() -> None:
    """Something just worked on the database: close the outage, if there was one."""
    if _outage.since is None:
        return
    logger.info(
        "database back after %.1f s; %d requests were refused meanwhile",
        time.monotonic() - _outage.since,
        _outage.refused,
    )
    _outage.since, _outage.refused = None, 0


def _reset_pool() -> None:
    """Let the pool drop its connections to the old server now, not one failed request each.

    After a PostgreSQL restart every idle pooled connection is dead but looks
    fine until used; `check()` tests them (in the pool's own workers) and
    replaces the broken ones.
    """
    pool = getattr(connections["default"], "pool", None)
    if pool is not None:
        threading.Thread(target=_check_pool, args=(pool,), daemon=True).start()


def _check_pool(pool: Any) -> None:
    with contextlib.suppress(Exception):  # down still: the next outage's first error tries again
        pool.check()
