"""The websocket side of games/limits.py: who may open a socket, and what a flood costs.

Called from games/consumers.py at a few points only (connect, flood close,
end of the handler), so the consumers stay about the protocol.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from games import limits
from games.db import on_database
from games.limits import client_address, session_key

logger = logging.getLogger(__name__)

# Close code for a socket over a cap (docs/PROTOCOL.md): the client may retry later.
CLOSE_TOO_MANY = 4409


def _user_id(consumer: Any) -> int | None:
    user = consumer.scope.get("user")
    return user.pk if user is not None and user.is_authenticated else None


def flood_keys(consumer: Any) -> list[str]:
    return limits.cooldown_keys(
        _user_id(consumer), session_key(consumer.scope), client_address(consumer.scope)
    )


async def account_cooldown(consumer: Any) -> float:
    """Seconds this socket's account must still wait (the handshake guard saw only the session)."""
    user_id = _user_id(consumer)
    if user_id is None:
        return 0.0
    keys = limits.cooldown_keys(user_id, None, None)
    left = await limits.cooldown_left(keys)
    if left > 0:
        await limits.log_refusal_once(
            keys, left, f"a socket to {consumer.scope.get('path')}", client_address(consumer.scope)
        )
    return left


async def flooded(consumer: Any) -> float:
    """The socket is being closed for flooding: its account (or address) cools down."""
    user_id = _user_id(consumer)
    account = "an anonymous socket" if user_id is None else f"user {user_id}"
    who = f"{account}, address {client_address(consumer.scope) or 'unknown'}"
    return await limits.start_cooldown(flood_keys(consumer), who)


async def record_flood(consumer: Any, seconds: float) -> None:
    """Once the socket is closed: one log line and one admin row for the strike."""
    user_id = _user_id(consumer)
    address = client_address(consumer.scope) or ""
    logger.warning(
        "closed a flooding socket to %s (user %s, address %s): cooldown %d s",
        consumer.scope.get("path"),
        user_id,
        address,
        seconds,
    )
    await on_database(record_event)(
        user_id, address, "flooding", f"{consumer.scope.get('path')}: cooldown {seconds:.0f} s"
    )


def record_event(user_id: int | None, address: str, kind: str, detail: str) -> None:
    """One row for Django admin's "Rate-limit events" (once per cooldown or refusal window)."""
    from club.models import Player
    from games.models import RateLimitEvent

    player = Player.objects.filter(user_id=user_id).first() if user_id else None
    RateLimitEvent.objects.create(
        player=player, address=address[:45], kind=kind, detail=detail[:200]
    )


async def take(consumer: Any, key: str, cap: int) -> bool:
    """Count this socket under `key`; False (and logged once) if `cap` is reached."""
    member = consumer.channel_name
    if not await limits.take_slot(key, member, cap):
        if await limits.store().once(f"logged:cap:{key}", 60):
            logger.warning(
                "refused a socket to %s: %s holds %d", consumer.scope.get("path"), key, cap
            )
            await on_database(record_event)(
                _user_id(consumer),
                client_address(consumer.scope) or "",
                "socket_cap",
                f"{key} at its cap of {cap}",
            )
        return False
    consumer.limit_slots = [*getattr(consumer, "limit_slots", []), key]
    return True


async def take_account_sockets(consumer: Any, kind: str) -> bool:
    """Table or lobby sockets of this account (anonymous lobby sockets: of this address)."""
    user_id = _user_id(consumer)
    if kind == "table":
        return await take(
            consumer, f"table-sockets:{user_id}", settings.WS_TABLE_SOCKETS_PER_ACCOUNT
        )
    if user_id is not None:
        return await take(
            consumer, f"lobby-sockets:{user_id}", settings.WS_LOBBY_SOCKETS_PER_ACCOUNT
        )
    address = client_address(consumer.scope) or "unknown"
    return await take(consumer, f"lobby-address:{address}", settings.WS_LOBBY_SOCKETS_PER_ADDRESS)


async def take_watcher(consumer: Any, table_id: int) -> bool:
    return await take(consumer, f"watchers:{table_id}", settings.WS_WATCHERS_PER_TABLE)


async def release(consumer: Any) -> None:
    """The handler ended: free every slot it held."""
    slots, consumer.limit_slots = getattr(consumer, "limit_slots", []), []
    for key in slots:
        try:
            await limits.free_slot(key, consumer.channel_name)
        except Exception:  # noqa: BLE001 - Redis gone: the slot lapses with its TTL
            logger.warning("could not free the socket slot %s", key, exc_info=True)
