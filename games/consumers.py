"""Websocket consumers: parse a frame, call a service, send views. No rules here.

Protocol: docs/PROTOCOL.md. Every bad frame gets an `error` frame with a code
and a message and changes nothing; the connection stays open.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games import services
from games.broadcast import LOBBY_GROUP, publish, table_group

# Close codes (4000-4999 are the application's): the client shows why.
CLOSE_LOGIN_REQUIRED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


@database_sync_to_async
def _player_id(user) -> int | None:
    player = getattr(user, "player", None)
    return player.pk if player else None


class ProtocolError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class DirectDispatch:
    """Dispatch without Channels' per-message hop to the database thread.

    Channels (4.2+) runs `close_old_connections` in the shared database thread
    before EVERY handler, so each table update fanned out to N sockets queued
    N times behind other tables' moves. Every database call in these consumers
    goes through `database_sync_to_async`, which already closes old
    connections before and after, in the thread that owns them.
    """

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class TableConsumer(DirectDispatch, AsyncJsonWebsocketConsumer):
    """One connection to one table: a seated player's or a watcher's."""

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.group = table_group(self.table_id)
        self.version = -1
        self.player_id = None
        self.present = False
        await self.accept()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self._error("login_required", "Sign in to sit at or watch a table.")
            await self.close(code=CLOSE_LOGIN_REQUIRED)
            return
        self.player_id = await _player_id(user)
        self.invite = _query_param(self.scope, "invite")
        # Join the group before reading, so no update can fall between the two;
        # anything older than what we send is dropped by version below.
        await self.channel_layer.group_add(self.group, self.channel_name)
        try:
            await self._send_full_state()
        except services.ServiceError as exc:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self._error(exc.code, exc.message)
            close = CLOSE_NOT_FOUND if exc.code == "not_found" else CLOSE_FORBIDDEN
            await self.close(code=close)
            return
        # A seated member who comes back takes their seat back from the house.
        await database_sync_to_async(services.seat_connected)(
            self.table_id, self.player_id, self.channel_name
        )
        self.present = True

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.present:
            self.present = False
            await database_sync_to_async(services.seat_disconnected)(
                self.table_id, self.channel_name
            )

    # -- inbound -----------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.player_id is None:
            return
        try:
            content = json.loads(text_data or "")
        except (TypeError, ValueError):
            await self._error("bad_json", "That message was not valid JSON.")
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        handlers = {"play": self._handle_play, "sync": self._handle_sync}
        try:
            if not isinstance(content, dict):
                raise ProtocolError("bad_message", "A message must be a JSON object.")
            kind = content.get("type")
            if kind not in handlers:
                raise ProtocolError("unknown_type", f"Unknown message type {str(kind)[:32]!r}.")
            await handlers[kind](content)
        except ProtocolError as exc:
            await self._error(exc.code, exc.message)
        except services.ServiceError as exc:
            await self._error(exc.code, exc.message, **exc.extra)

    async def _handle_play(self, content: dict) -> None:
        card = _field(content, "card", str)
        version = _field(content, "version", int)
        update = await database_sync_to_async(services.play_move)(
            self.player_id, self.table_id, card[:16], version
        )
        await publish([update])

    async def _handle_sync(self, content: dict) -> None:
        await self._send_full_state()

    # -- outbound ----------------------------------------------------------

    async def table_update(self, event: dict) -> None:
        snapshot = event["snapshot"]
        if snapshot["version"] <= self.version:
            return  # already sent this version or a newer one
        await self._send_state(snapshot)

    async def _send_full_state(self) -> None:
        snapshot = await database_sync_to_async(services.table_for_viewer)(
            self.table_id, self.player_id, self.invite
        )
        self.version = -1  # a resync always answers, even with the same version
        await self._send_state(snapshot)

    async def _send_state(self, snapshot: dict) -> None:
        self.version = snapshot["version"]
        await self.send_json(services.project(snapshot, self.player_id))

    async def _error(self, code: str, message: str, **extra: Any) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, **extra})


class LobbyConsumer(DirectDispatch, AsyncJsonWebsocketConsumer):
    """Tells lobby pages that the list of tables changed; they fetch it again."""

    async def connect(self) -> None:
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send_json(
            {"type": "error", "code": "read_only", "message": "The lobby only sends updates."}
        )

    async def lobby_changed(self, event: dict) -> None:
        await self.send_json({"type": "lobby"})


def _field(content: dict, name: str, kind: type) -> Any:
    if name not in content:
        raise ProtocolError("missing_field", f"The message needs a {name!r} field.")
    value = content[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ProtocolError("bad_field", f"The {name!r} field must be a {kind.__name__}.")
    return value


def _query_param(scope: dict, name: str) -> str | None:
    values = parse_qs(scope.get("query_string", b"").decode()).get(name)
    return values[0] if values else None
