"""At most HTTP_CONCURRENCY requests inside Django at once; the others wait their turn.

Django runs each request's synchronous middleware and view in a thread of
its own. When many arrive together (100 tables finishing at once and their
members all posting "play again"), a hundred threads compete for the one
interpreter lock with the event loop that carries every live table and with
the tables' database thread: each of them then waits many switch intervals
for every step, and moves and posts alike took seconds (docs/PERFORMANCE.md,
"Rematches"). A handful of requests at a time do the same work in the same
total time, in order, while the event loop keeps its share.

The request body is read before a request takes its turn, so a client that
sends its body slowly holds no turn while it does.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings

Receive = Callable[[], Awaitable[dict]]


class HttpSlots:
    """ASGI middleware: HTTP requests go to `app` at most `limit` at a time (0: no limit)."""

    def __init__(self, app: Callable[..., Awaitable[None]], limit: int | None = None) -> None:
        self.app = app
        self.limit = settings.HTTP_CONCURRENCY if limit is None else limit
        # One semaphore per event loop: tests run many loops in one process.
        self._slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    async def __call__(self, scope: dict, receive: Receive, send: Any) -> None:
        if scope["type"] != "http" or self.limit <= 0:
            await self.app(scope, receive, send)
            return
        head = await _read_body(receive)
        async with self._semaphore():
            await self.app(scope, _replay(head, receive), send)

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        slots = self._slots.get(loop)
        if slots is None:
            slots = self._slots[loop] = asyncio.Semaphore(self.limit)
        return slots


async def _read_body(receive: Receive) -> list[dict]:
    """The request's messages up to the end of its body (or a disconnect, or a large body)."""
    head: list[dict] = []
    size = 0
    while True:
        message = await receive()
        head.append(message)
        if message["type"] != "http.request" or not message.get("more_body", False):
            return head
        size += len(message.get("body", b""))
        if size > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            return head  # Django refuses it itself; no point in holding it here


def _replay(head: list[dict], receive: Receive) -> Receive:
    async def replayed() -> dict:
        if head:
            return head.pop(0)
        return await receive()

    return replayed
