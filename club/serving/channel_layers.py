"""Channel layers: the in-memory one with its costs cut, and Redis pub/sub that survives outages.

The second is at the end of this module (`RedisPubSubChannelLayer`).

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
import logging
import marshal
import time
from copy import deepcopy
from typing import Any

import channels_redis.pubsub
import redis.exceptions
from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as _InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubLoopLayer, RedisSingleShardConnection
from django.utils.module_loading import import_string

logger = logging.getLogger("club.layers")  # the name its log lines have always carried


class InMemoryChannelLayer(_InMemoryChannelLayer):
    # `group_send` puts straight onto queues and never waits (games.broadcast
    # sends its messages one after the other instead of concurrently).
    hands_over_at_once = True

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


# ---------------------------------------------------------------------------
# Redis pub/sub that rides out a Redis outage


class RedisPubSubChannelLayer(channels_redis.pubsub.RedisPubSubChannelLayer):
    """channels_redis's pub/sub layer, quiet and self-healing when Redis goes away.

    channels_redis's receive task logs a traceback every second while Redis
    is down, and a socket that connects or leaves meanwhile crashes on its
    SUBSCRIBE / UNSUBSCRIBE. Here, per process (docs/OPERATIONS.md):

    - the receive task notes the loss at INFO, retries every
      `RECONNECT_SECONDS`, and redis-py subscribes again to every channel and
      group when the connection comes back;
    - SUBSCRIBE / UNSUBSCRIBE while Redis is down are recorded, not raised:
      the reconnection subscribes to what is wanted then;
    - once the subscriptions are confirmed again, the `on_reconnect` callable
      (CONFIG, a dotted path) is called with the process's group names:
      everything published while this process was not listening is lost
      (pub/sub keeps nothing), so the caller refreshes its own sockets;
    - `local_group_send` hands a message to this process's members of a
      group without Redis (used while Redis is unreachable).
    """

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if not isinstance(layer, _LoopLayer):
            # The parent registers the loop (and its clean-up on loop close,
            # which flushes whatever layer is registered then); ours replaces
            # its plain one before anything used it.
            super()._get_layer()
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
        return layer


# Seconds between two attempts to reach Redis again while it is away.
RECONNECT_SECONDS = 0.25
# What a Redis that is down, restarting or not answering raises.
REDIS_DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)


class _LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards = [_Shard(shard.host, self) for shard in self._shards]
        callback = self.on_reconnect
        self.on_reconnect = import_string(callback) if isinstance(callback, str) else callback
        self._group_prefix = self._get_group_channel_name("")

    async def local_group_send(self, group: str, message: dict) -> int:
        """Deliver to this process's members of `group` only; how many got it."""
        members = self.groups.get(self._get_group_channel_name(group), ())
        data = self.channel_layer.serialize(message)
        delivered = 0
        for channel in list(members):
            queue = self.channels.get(channel)
            if queue is not None:
                queue.put_nowait(data)
                delivered += 1
        return delivered

    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        """`group_send` for each (group, message), in one round trip per Redis shard.

        channels_redis publishes under a lock per shard, one round trip at a
        time: a move's table update and its members' home pages were five
        round trips in a row, each also holding up every other table's.
        """
        by_shard: dict[_Shard, list[tuple[str, bytes]]] = {}
        for group, message in messages:
            channel = self._get_group_channel_name(group)
            data = self.channel_layer.serialize(message)
            by_shard.setdefault(self._get_shard(channel), []).append((channel, data))
        await asyncio.gather(*(shard.publish_many(items) for shard, items in by_shard.items()))

    def local_groups(self) -> list[str]:
        """The groups at least one socket of this process belongs to."""
        return [name[len(self._group_prefix) :] for name, members in self.groups.items() if members]

    def reconnected(self) -> None:
        if self.on_reconnect is not None:
            task = asyncio.ensure_future(self.on_reconnect(self.local_groups()))
            _background.add(task)
            task.add_done_callback(_background.discard)


# Strong references to the reconnection tasks, so none is collected mid-way.
_background: set[asyncio.Future] = set()


class _Shard(RedisSingleShardConnection):
    def __init__(self, host: dict, channel_layer: _LoopLayer) -> None:
        super().__init__(host, channel_layer)
        self.lost_at: float | None = None

    async def publish_many(self, messages: list[tuple[str, bytes]]) -> None:
        """Several PUBLISHes as one pipeline, under the lock `publish` takes."""
        async with self._lock:
            self._ensure_redis()
            pipe = self._redis.pipeline(transaction=False)
            for channel, data in messages:
                pipe.publish(channel, data)
            await pipe.execute()

    async def subscribe(self, channel: str) -> None:
        try:
            await super().subscribe(channel)
        except REDIS_DOWN:
            # Wanted all the same: redis-py subscribes the connection again to
            # every name in `channels` when it reconnects.
            self._subscribed_to.add(channel)
            self._pubsub.channels[channel.encode()] = None

    async def unsubscribe(self, channel: str) -> None:
        try:
            await super().unsubscribe(channel)
        except REDIS_DOWN:
            # Not wanted any more: the reconnection must not subscribe it again.
            self._subscribed_to.discard(channel)
            self._pubsub.channels.pop(channel.encode(), None)

    async def _do_receiving(self) -> None:
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(timeout=0.1)
                    self._handle(message)
                else:
                    await asyncio.sleep(0.1)
            except (asyncio.CancelledError, GeneratorExit):
                raise
            except REDIS_DOWN as exc:  # a timeout too: it may be a dying connection
                if self.lost_at is None:
                    self.lost_at = time.monotonic()
                    logger.info("Redis subscription lost (%s); reconnecting", _brief(exc))
                await asyncio.sleep(RECONNECT_SECONDS)
            except Exception:
                logger.exception("Unexpected exception in receive task")
                await asyncio.sleep(1)

    def _handle(self, message: dict | None) -> None:
        if message is None:
            return
        if message["type"] == "message":
            self._receive_message(message)
        elif message["type"] == "subscribe" and self.lost_at is not None:
            # redis-py sends one SUBSCRIBE for every wanted name on reconnecting:
            # its first confirmation means Redis has them all, so anything
            # published from now on reaches us.
            logger.info("Redis subscription back after %.1f s", time.monotonic() - self.lost_at)
            self.lost_at = None
            self.channel_layer.reconnected()


def _brief(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
