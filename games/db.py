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

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings


@cache
def _threads() -> ThreadPoolExecutor | None:
    """None on SQLite (the shared thread); else a pool as big as the connection pool."""
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        return None
    workers = settings.DATABASE_THREADS
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="db")


def on_database(func: Callable[..., Any]) -> Callable[..., Any]:
    """`database_sync_to_async(func)`, in the pool of database threads where there is one.

    Like `database_sync_to_async`, it closes (returns to the pool) the thread's
    connection before and after the call.
    """
    executor = _threads()
    if executor is None:
        return database_sync_to_async(func)
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=executor)
