"""The in-memory channel layer (one server process), with its per-message costs cut.

Channels' `InMemoryChannelLayer` walks every channel and every group
membership on every `receive` and `group_send` to expire old entries (so
each move cost O(connections) several times over), and deep-copies a message
once per recipient. This subclass keeps the same behaviour and API:

- expiry is still enforced, but the walk runs at most once per
  `clean_interval` seconds (default 1 s; `expiry` is 60 s here);
- every recipient still gets its own copy of the message, made with
  `marshal` (a C round trip, several times faster than `deepcopy`) from one
  serialisation per `group_send`; messages marshal cannot handle (anything
  but dicts, lists, tuples, str, bytes, numbers, bools, None) fall back to
  `deepcopy`;
- `group_send` puts straight onto the queues instead of one task per member.

Several processes need the Redis layer (REDIS_URL); see docs/OPERATIONS.md.
"""

from __future__ import annotations

import asyncio
import marshal
import time
from copy import deepcopy
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as _InMemoryChannelLayer


class InMemoryChannelLayer(_InMemoryChannelLayer):
    def __init__(self, clean_interval: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.clean_interval = clean_interval
        self._cleaned_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at < self.clean_interval:
            return
        self._cleaned_at = now
        super()._clean_expired()

    async def send(self, channel: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        self._put(channel, _copier(message))

    async def group_send(self, group: str, message: dict) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        copy = _copier(message)
        for channel in list(self.groups.get(group, {})):
            try:
                self._put(channel, copy)
            except ChannelFull:
                pass  # as Channels does: a full channel misses this message

    def _put(self, channel: str, copy) -> None:
        queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        try:
            queue.put_nowait((time.time() + self.expiry, copy()))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None


def _copier(message: dict):
    """A function returning a fresh, independent copy of `message` on each call."""
    try:
        blob = marshal.dumps(message)
    except ValueError:
        return lambda: deepcopy(message)
    return lambda: marshal.loads(blob)
