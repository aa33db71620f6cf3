"""Refuse a websocket handshake during a flooding cooldown, before any database work.

Runs in front of Channels' session and auth middleware, which read the
session and the user from the database for every handshake: a flooder that
reconnects the moment it is closed must cost a cache lookup, not that. The
cooldown is found by the session cookie (a member's sockets) or, without
one, by the client's address (games/limits.py); the consumers check the
account too once it is known. A refused handshake gets HTTP 403 (daphne's
answer to a socket closed before it was accepted), logged once per cooldown.
"""

from __future__ import annotations

from typing import Any

from channels.security.websocket import WebsocketDenier

from games import limits
from games.limits import client_address, session_key


def handshake_keys(scope: dict) -> list[str]:
    """The cooldown keys a handshake can be matched against without the database."""
    session = session_key(scope)
    if session:
        return limits.cooldown_keys(None, session, None)
    return limits.cooldown_keys(None, None, client_address(scope))


class CooldownGuard:
    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket":
            keys = handshake_keys(scope)
            left = await limits.cooldown_left(keys)
            if left > 0:
                await limits.log_refusal_once(
                    keys, left, f"a socket to {scope.get('path')}", client_address(scope)
                )
                return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
