"""Database work from async code: which thread runs it.

Channels' `database_sync_to_async` runs every call of a process in ONE shared
thread. That suits SQLite, which takes one writer at a time anyway (a second
writer would only wait on the file lock). On PostgreSQL it makes the moves of
every table of the process queue behind each other's network round trips,
although the table row lock (`SELECT ... FOR UPDATE`) already keeps two moves
at one table apart; under load that queue, not the CPU, set the latency
(docs/PERFORMANCE.md, "Scale-out"). So elsewhere the calls run in a small pool
of threads, each borrowing a pooled connection for the length of one call.
And on SQLite the table sockets' moves skip the thread altogether
(`on_database_inline`): they run on the event loop itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent import futures
from concurrent.futures import ThreadPoolExecutor
from functools import cache, partial
from typing import Any

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings
from django.db import (
    DEFAULT_DB_ALIAS,
    InterfaceError,
    OperationalError,
    connections,
    transaction,
)

from games import hooks

logger = logging.getLogger(__name__)


@cache
def _threads() -> ThreadPoolExecutor | None:
    """None on SQLite (the shared thread); else a pool as big as the connection pool."""
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        return None
    global _thread_count
    _thread_count = settings.DATABASE_THREADS
    return ThreadPoolExecutor(max_workers=_thread_count, thread_name_prefix="db")


_thread_count = 0  # the database threads' pool's size, once made


def release_connections(wait: float = 5.0) -> None:
    """Each database thread gives its connection back to the pool now.

    A call gives it back as it ends (`on_database`); this is for a process about
    to close the pool. A test session's end is one: pytest-django blocks the
    database between tests, and a call that ended while it was blocked (a socket's
    disconnect, running on after its test) could not give its connection back
    (Django's check reads the connection's autocommit, which the block refuses),
    so the test database could not be dropped ("being accessed by other users").
    Waits up to `wait` seconds for busy threads to finish their call.
    """
    if _threads.cache_info().currsize == 0 or _threads() is None:
        return
    # One job a thread: each waits for the others, so none takes two.
    everyone = threading.Barrier(_thread_count)

    def let_go() -> None:
        connections["default"].close()  # closes without asking the connection anything
        with contextlib.suppress(threading.BrokenBarrierError):
            everyone.wait(timeout=wait)

    futures.wait([_threads().submit(let_go) for _ in range(_thread_count)], timeout=2 * wait)


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
# SQLite: the moves on the event loop itself

# Django's guard against database work on a thread that runs an event loop.
_ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"
# Each loop's own connection, by its thread (the server has one loop; a test may run
# others), made on first use. Django's connections belong to the thread that made them.
_loop_connections: dict[int, Any] = {}
# Set when the database's backend cannot promise never to wait: then nothing runs here.
_never_here = False


@cache
def on_database_inline(func: Callable[..., Any]) -> Callable[..., Any]:
    """`on_database(func)`, except on SQLite: there `func` runs on the event loop, at once.

    For the table socket's moves and rematch answers (SQLITE_MOVES_INLINE). A move's
    transaction on SQLite is a few tenths of a millisecond of Python, and handing it
    to the database thread cost about as much again (38 % of that thread's time in
    a profile): the two threads hand the GIL to each other twice a move
    (docs/PERFORMANCE.md, issue 44, "What a move costs, and what was done"). Run here, nothing on the loop
    ever waits:

    - the loop's connection never waits for the write lock (`never_wait`, in
      club.serving.backends.sqlite3): with another writer at work the transaction
      is refused before it starts (its `WriterBusy`). A writer of this process
      (the database thread's: a page, the apps told of a game's end) is waited
      for here, the loop free meanwhile, and the call tried again; for another
      process's (a `manage.py` command), the call goes to the database thread,
      which waits in SQLite's busy handler as before;
    - what the call tells the apps (games.hooks events) is delivered after it,
      before the call returns: to a quick listener (the notifications) here, one
      transaction each, to any other (a club night's next round: long, and it
      publishes) on the database thread.

    `func` must open its transaction before it writes anything (the services do:
    `transaction.atomic`); a call refused after a write is not made again.
    """
    threaded = on_database(func)
    if _threads() is not None:
        return threaded  # PostgreSQL: a network round trip a statement, the threads' work

    async def inline(*args: Any, **kwargs: Any) -> Any:
        if not settings.SQLITE_MOVES_INLINE or _never_here:
            return await threaded(*args, **kwargs)
        return await _here_or_there(func, args, kwargs, lambda: threaded(*args, **kwargs))

    return inline


async def _here_or_there(
    func: Callable[..., Any],
    args: tuple,
    kwargs: dict,
    there: Callable[[], Awaitable[Any]],
) -> Any:
    """`func` on the loop (waiting for this process's writers first if need be), else
    `there()`; then the listeners it told: the quick ones here, the others on the thread."""
    waited = 0.0
    while True:
        ran, result, deliveries, busy = _run_here(func, args, kwargs)
        if ran:
            break
        if busy is None or not busy.in_process:
            # Another process holds SQLite's lock: the thread waits for it in
            # SQLite's busy handler, as every call did before.
            return await there()
        # The database thread is writing (a page, a rematch's deal after a post):
        # wait here for it, the loop free meanwhile, then try again. Not handed to
        # the thread: moves queued there would keep the next ones off the loop.
        waited += await _writers_idle(_loop_connections[threading.get_ident()], waited)
    if not deliveries:
        return result
    # The other sockets' frames first: a game's end is the largest piece of work
    # run here, and telling the apps can wait a turn of the loop.
    await asyncio.sleep(0)
    tell_there = on_database(hooks.deliver_all)
    slow = [delivery for delivery in deliveries if not delivery.quick]
    for delivery in deliveries:
        if delivery.quick:
            await _here_or_there(_told, (delivery,), {}, partial(tell_there, [delivery]))
    if slow:
        await tell_there(slow)
    return result


def _told(delivery: hooks.Delivery) -> None:
    # One transaction, begun before the listener reads or writes anything: refused at
    # its start (another writer at work), the listener has done nothing yet and is
    # told once the writer is done. (A listener that catches its own errors could
    # not say it was refused.)
    with transaction.atomic():
        delivery()


async def _writers_idle(conn: Any, waited: float) -> float:
    """Wait until this process's writers are done; the seconds waited. Raises past the
    connection's timeout, as a writer waiting in the database thread would."""
    loop = asyncio.get_running_loop()
    idle = loop.create_future()

    def wake() -> None:
        if not idle.done():
            idle.set_result(None)

    started = time.monotonic()
    conn.when_writers_idle(lambda: loop.call_soon_threadsafe(wake))
    timeout = float(conn.settings_dict["OPTIONS"].get("timeout", 5)) - waited
    try:
        await asyncio.wait_for(idle, max(0.0, timeout))
    except TimeoutError:
        raise OperationalError("database is locked (waited for the writer before)") from None
    return time.monotonic() - started


def _run_here(func: Callable[..., Any], args: tuple, kwargs: dict) -> tuple[bool, Any, list, Any]:
    """(ran, result, held-back deliveries, the refusal): `func` on the loop's connection,
    or not at all (the backend's WriterBusy, or None when nothing can run here)."""
    global _never_here
    conn = _loop_connections.get(threading.get_ident())
    if conn is None:
        conn = connections.create_connection(DEFAULT_DB_ALIAS)
        if not hasattr(conn, "never_wait"):
            _never_here = True  # Django's own SQLite backend: it would wait
            return False, None, [], None
        conn.never_wait()
        _loop_connections[threading.get_ident()] = conn
    # The thread's connection is the loop's for the call (Django's are per thread).
    previous = connections[DEFAULT_DB_ALIAS]
    connections[DEFAULT_DB_ALIAS] = conn
    deliveries: list = []
    unsafe = os.environ.get(_ASYNC_UNSAFE)
    # Meant, so allowed for the call: no other thread of the process runs a loop,
    # so the guard is the same for them.
    os.environ[_ASYNC_UNSAFE] = "1"
    try:
        conn.ensure_connection()
        changes = conn.connection.total_changes
        with hooks.held_back(deliveries):
            try:
                return True, func(*args, **kwargs), deliveries, None
            except OperationalError as exc:
                # The backend's WriterBusy: refused before the transaction began.
                if not getattr(exc, "refused_before_start", False):
                    raise
                if conn.connection is not None and conn.connection.total_changes != changes:
                    raise  # it wrote before its transaction: never twice
                return False, None, [], exc
    finally:
        connections[DEFAULT_DB_ALIAS] = previous
        conn.close_if_unusable_or_obsolete()
        if unsafe is None:
            del os.environ[_ASYNC_UNSAFE]
        else:
            os.environ[_ASYNC_UNSAFE] = unsafe


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
# psycopg_pool's own default wait for a connection (`pool: True`).
PSYCOPG_POOL_TIMEOUT = 30.0


class DatabaseAway(OperationalError):
    """Refused without trying: the database was away a moment ago (`refuse_while_away`)."""


class _DatabaseOutage:
    def __init__(self) -> None:
        self.since: float | None = None
        self.refused = 0
        self.probed_at = 0.0
        # The last outage's start and end: a request that was already waiting
        # for a pooled connection when it ended fails up to the pool's timeout
        # later, and belongs to that outage, not a new one.
        self.last_since = 0.0
        self.ended_at: float | None = None


_outage = _DatabaseOutage()


def database_unavailable(exc: BaseException, what: str) -> None:
    """A request failed because the database is away: one warning per outage, no traceback."""
    _outage.refused += 1
    if _outage.since is not None:
        return
    now = time.monotonic()
    _outage.probed_at = now
    if _outage.ended_at is not None and now - _outage.ended_at < straggler_seconds():
        _outage.since = _outage.last_since  # the same outage, already reported
        _reset_pool()
        return
    _outage.since = now
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
    _outage.last_since, _outage.ended_at = _outage.since, time.monotonic()
    _outage.since, _outage.refused = None, 0


def straggler_seconds() -> float:
    """How long after an outage a failure may still be a request from during it.

    The connection pool's timeout: that is how long a request waits for a
    connection before it gives up (0 without a pool: nothing waits).
    """
    pool = settings.DATABASES[DEFAULT_DB_ALIAS].get("OPTIONS", {}).get("pool")
    if isinstance(pool, dict):
        return float(pool.get("timeout", PSYCOPG_POOL_TIMEOUT))
    return PSYCOPG_POOL_TIMEOUT if pool else 0.0


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
