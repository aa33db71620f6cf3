"""What one account (or address) may hold and how long it waits: shared by every process.

- **Cooldowns**: a socket closed for flooding (4429) puts its account, its
  session and (for anonymous sockets) its address in a cooldown; a new
  socket from any of them is refused at the handshake until it ends
  (club/serving/handshake.py refuses by session or address before any database
  work; the consumers by account). Each strike within WS_COOLDOWN_FORGET
  seconds doubles it: WS_COOLDOWN_SECONDS, x2, x4 ... up to
  WS_COOLDOWN_MAX_SECONDS.
- **Socket caps**: how many sockets one account holds open (table sockets,
  lobby sockets), how many watchers a table has. Each live socket is an
  entry in a sorted set with an expiry WS_SLOT_TTL_SECONDS ahead. The
  process holding the socket pushes the expiry forward every third of that
  (`SlotKeeper`, one task per event loop for all its sockets), so a socket
  open for days keeps its place; the entries of a process that died without
  closing its sockets are no longer refreshed and lapse within the TTL.

With REDIS_URL these live in Redis (redis.asyncio, the channel layer's
server), so two daphne processes count together. Without it the site is one
process (the in-memory channel layer cannot serve two), and the counts live
in that process's memory.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from http.cookies import CookieError, SimpleCookie
from typing import Protocol

from django.conf import settings

logger = logging.getLogger(__name__)


def clock() -> float:
    """Wall time for the socket slots' expiry (shared by processes; tests move it)."""
    return time.time()


_ACQUIRE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[4]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""

# Push live entries' expiry forward; XX: never bring back an entry released meanwhile.
_REFRESH = """
for i = 3, #ARGV do redis.call('ZADD', KEYS[1], 'XX', ARGV[1], ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

_STRIKE = """
local strikes = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1])
return strikes
"""


class Store(Protocol):
    async def cooldown_left(self, keys: list[str]) -> float: ...
    async def strike(self, key: str, forget: int) -> int: ...
    async def set_cooldown(self, key: str, seconds: float, value: str = "1") -> None: ...
    async def value(self, key: str) -> str | None: ...
    async def acquire(self, key: str, member: str, cap: int, ttl: float) -> bool: ...
    async def release(self, key: str, member: str) -> None: ...
    async def refresh(self, key: str, members: list[str], ttl: float) -> None: ...
    async def once(self, key: str, seconds: float) -> bool: ...


class MemoryStore:
    """One process's counts (the embedded default runs one process)."""

    def __init__(self) -> None:
        self.expiring: dict[str, tuple[float, int | str]] = {}  # key -> (until, value)
        self.sets: dict[str, dict[str, float]] = {}

    def _get(self, key: str, now: float) -> int | str | None:
        entry = self.expiring.get(key)
        if entry is None or entry[0] <= now:
            self.expiring.pop(key, None)
            return None
        return entry[1]

    async def cooldown_left(self, keys: list[str]) -> float:
        now = time.monotonic()
        left = [self.expiring[k][0] - now for k in keys if self._get(k, now) is not None]
        return max(left, default=0.0)

    async def strike(self, key: str, forget: int) -> int:
        now = time.monotonic()
        strikes = int(self._get(key, now) or 0) + 1
        self.expiring[key] = (now + forget, strikes)
        return strikes

    async def set_cooldown(self, key: str, seconds: float, value: str = "1") -> None:
        self.expiring[key] = (time.monotonic() + seconds, value)

    async def value(self, key: str) -> str | None:
        found = self._get(key, time.monotonic())
        return None if found is None else str(found)

    async def acquire(self, key: str, member: str, cap: int, ttl: float) -> bool:
        now = clock()
        members = {m: t for m, t in self.sets.get(key, {}).items() if t > now}
        self.sets[key] = members
        if member not in members and len(members) >= cap:
            return False
        members[member] = now + ttl
        return True

    async def release(self, key: str, member: str) -> None:
        members = self.sets.get(key)
        if members is not None:
            members.pop(member, None)
            if not members:
                del self.sets[key]

    async def refresh(self, key: str, members: list[str], ttl: float) -> None:
        entries = self.sets.get(key, {})
        for member in members:
            if member in entries:
                entries[member] = clock() + ttl

    async def once(self, key: str, seconds: float) -> bool:
        now = time.monotonic()
        if self._get(key, now) is not None:
            return False
        self.expiring[key] = (now + seconds, 1)
        return True


class RedisStore:
    """Counts in Redis, shared by every process of the site."""

    def __init__(self, url: str, prefix: str) -> None:
        import redis.asyncio as redis

        # Short timeouts: a handshake must not wait long on a Redis that is away.
        self.client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        self.prefix = f"{prefix}:limits:"
        self.acquire_script = self.client.register_script(_ACQUIRE)
        self.strike_script = self.client.register_script(_STRIKE)
        self.refresh_script = self.client.register_script(_REFRESH)

    async def cooldown_left(self, keys: list[str]) -> float:
        async with self.client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.pttl(self.prefix + key)
            left = await pipe.execute()
        return max([ms / 1000 for ms in left if ms and ms > 0], default=0.0)

    async def strike(self, key: str, forget: int) -> int:
        return int(await self.strike_script(keys=[self.prefix + key], args=[forget]))

    async def set_cooldown(self, key: str, seconds: float, value: str = "1") -> None:
        await self.client.set(self.prefix + key, value, px=max(1, int(seconds * 1000)))

    async def value(self, key: str) -> str | None:
        found = await self.client.get(self.prefix + key)
        return None if found is None else found.decode()

    async def acquire(self, key: str, member: str, cap: int, ttl: float) -> bool:
        now = clock()
        args = [now, now + ttl, cap, member, int(ttl * 1000)]
        return bool(await self.acquire_script(keys=[self.prefix + key], args=args))

    async def release(self, key: str, member: str) -> None:
        await self.client.zrem(self.prefix + key, member)

    async def refresh(self, key: str, members: list[str], ttl: float) -> None:
        args = [clock() + ttl, int(ttl * 1000), *members]
        await self.refresh_script(keys=[self.prefix + key], args=args)

    async def once(self, key: str, seconds: float) -> bool:
        return bool(await self.client.set(self.prefix + key, 1, nx=True, px=int(seconds * 1000)))


class FailOpen:
    """A store that lets everything through while its backend fails.

    The limits protect the club from one account; they must not take it down
    with Redis: while Redis is away (docs/OPERATIONS.md, outages) there is no
    cooldown and no cap, and one warning a minute says so.
    """

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.warned = -math.inf

    def _warn(self, exc: Exception) -> None:
        now = time.monotonic()
        if now - self.warned > 60:
            self.warned = now
            logger.warning("websocket limits are off while their store fails: %r", exc)

    def __getattr__(self, name: str):
        method = getattr(self.inner, name)
        fallback = {"cooldown_left": 0.0, "strike": 1, "acquire": True, "once": False}.get(name)

        async def guarded(*args, **kwargs):
            try:
                return await method(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - any store failure: let the socket through
                self._warn(exc)
                return fallback

        return guarded


_stores: dict[asyncio.AbstractEventLoop, Store] = {}


def store() -> Store:
    """The store for this event loop (a Redis client belongs to one loop)."""
    loop = asyncio.get_running_loop()
    found = _stores.get(loop)
    if found is None:
        if settings.REDIS_URL:
            found = FailOpen(RedisStore(settings.REDIS_URL, settings.CHANNELS_PREFIX))
        else:
            found = _stores.setdefault(None, MemoryStore())  # type: ignore[arg-type]
        _stores[loop] = found
    return found


def reset() -> None:
    """Forget every count and cooldown (tests: each starts from nothing)."""
    _stores.clear()
    for keeper in _keepers.values():
        keeper.stop()
    _keepers.clear()
    if settings.REDIS_URL:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL)
        keys = list(client.scan_iter(f"{settings.CHANNELS_PREFIX}:limits:*"))
        if keys:
            client.delete(*keys)
        client.close()


# -- Who a socket is, before the database knows ------------------------------


def session_key(scope: dict) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            try:
                cookie = SimpleCookie(value.decode("latin1"))
            except CookieError:
                return None
            morsel = cookie.get(settings.SESSION_COOKIE_NAME)
            return morsel.value if morsel else None
    return None


def client_address(scope: dict) -> str | None:
    client = scope.get("client")
    return client[0] if client else None


# -- Cooldowns ---------------------------------------------------------------


def cooldown_keys(user_id: int | None, session_key: str | None, address: str | None) -> list[str]:
    """Who a flooding socket came from: its account and session, or its address if anonymous."""
    keys = []
    if user_id is not None:
        keys.append(f"user:{user_id}")
    if session_key:
        keys.append(f"session:{session_key}")
    if user_id is None and address:
        keys.append(f"addr:{address}")
    return keys


async def cooldown_left(keys: list[str]) -> float:
    if not keys:
        return 0.0
    return await store().cooldown_left([f"cd:{k}" for k in keys])


async def start_cooldown(keys: list[str], who: str = "") -> float:
    """A strike against each key; returns the cooldown now in force (seconds).

    `who` (account and address, never the session key) is kept with the
    cooldown for the one log line its refusals get.
    """
    seconds = 0.0
    for key in keys:
        strikes = await store().strike(f"strikes:{key}", settings.WS_COOLDOWN_FORGET)
        length = min(
            settings.WS_COOLDOWN_MAX_SECONDS,
            settings.WS_COOLDOWN_SECONDS * 2 ** min(strikes - 1, 20),
        )
        await store().set_cooldown(f"cd:{key}", length, who or "1")
        seconds = max(seconds, length)
    return seconds


async def log_refusal_once(keys: list[str], left: float, what: str, address: str | None) -> None:
    """One log line per cooldown and key, not one per refused handshake.

    It names the account and address the flood came from (kept with the
    cooldown) and the refused socket's address; never a session key.
    """
    key = keys[0]
    if await store().once(f"logged:{key}", max(1.0, left)):
        flood = None
        for candidate in keys:
            flood = await store().value(f"cd:{candidate}")
            if flood and flood != "1":
                break
        logger.warning(
            "refused %s from address %s: cooling down for %d more s after a flood by %s",
            what,
            address or "unknown",
            math.ceil(left),
            flood if flood and flood != "1" else key.split(":", 1)[0],
        )


# -- Socket caps --------------------------------------------------------------


class SlotKeeper:
    """The slots this event loop's live sockets hold, kept from lapsing while they live.

    One task for all of them: every WS_SLOT_TTL_SECONDS / 3 it pushes each
    held slot's expiry a full TTL ahead. It runs only while slots are held.
    """

    def __init__(self) -> None:
        self.held: dict[str, set[str]] = {}
        self.task: asyncio.Task | None = None

    def hold(self, key: str, member: str) -> None:
        self.held.setdefault(key, set()).add(member)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    def drop(self, key: str, member: str) -> None:
        members = self.held.get(key)
        if members is not None:
            members.discard(member)
            if not members:
                del self.held[key]
        if not self.held:
            self.stop()

    def stop(self) -> None:
        task, self.task = self.task, None
        if task is not None and not task.get_loop().is_closed():
            task.cancel()

    async def refresh(self) -> None:
        """Push every held slot's expiry a full TTL ahead (what the task does each period)."""
        ttl = settings.WS_SLOT_TTL_SECONDS
        for key, members in list(self.held.items()):
            await store().refresh(key, sorted(members), ttl)

    async def _run(self) -> None:
        while self.held:
            await asyncio.sleep(settings.WS_SLOT_TTL_SECONDS / 3)
            try:
                await self.refresh()
            except Exception:  # noqa: BLE001 - a bug here must not end the refreshing
                logger.exception("could not refresh the socket slots")


_keepers: dict[asyncio.AbstractEventLoop, SlotKeeper] = {}


def keeper() -> SlotKeeper:
    """This event loop's SlotKeeper."""
    return _keepers.setdefault(asyncio.get_running_loop(), SlotKeeper())


async def take_slot(key: str, member: str, cap: int) -> bool:
    """Count `member` under `key` unless `cap` is reached; kept while it is held."""
    if cap <= 0:
        return True  # 0: no cap
    key = f"slots:{key}"
    if not await store().acquire(key, member, cap, settings.WS_SLOT_TTL_SECONDS):
        return False
    keeper().hold(key, member)
    return True


async def free_slot(key: str, member: str) -> None:
    key = f"slots:{key}"
    keeper().drop(key, member)
    await store().release(key, member)
