"""Chat over the sockets the site already has: the table's and the lobby's.

`ChatSocket` is one socket's chat, attached to both consumers (games/consumers.py)
through the socket extra registered in ChatConfig.ready() (games.hooks.SocketExtra:
games imports nothing of chat). They only join a room once the socket may see it,
and hand every `chat_*` frame to `receive`; everything else (what may be said, by
whom, how often) is in chat.services. A socket takes part in chat only when it
asked to (the query parameter `chat=1`), so clients that do not chat never get a
chat frame.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from chat import services
from chat.broadcast import publish_message
from chat.rooms import LOBBY, group, table_room
from games import hooks
from games.db import on_database
from games.services import ServiceError

CHAT_FRAME_PREFIX = "chat_"
# A frame whose JSON begins with a chat type (as every client writes its
# objects: type first) counts against the socket's chat bucket, not its move
# bucket; a chat frame written otherwise still works, against the move bucket.
_CHAT_TEXT = re.compile(r'\s*\{\s*"type"\s*:\s*"chat_')


def is_chat_text(text_data: str | None) -> bool:
    """Cheap, before parsing: does this frame say it is a chat frame?"""
    return text_data is not None and _CHAT_TEXT.match(text_data) is not None


def wants_chat(scope: dict) -> bool:
    values = parse_qs(scope.get("query_string", b"").decode()).get("chat")
    return bool(values) and values[0] == "1"


def chat_frame_burst() -> tuple[float, float]:
    """The socket's own bucket for chat frames (burst, refill a second), apart from moves'."""
    per_minute = max(1, settings.CHAT_PER_MINUTE)
    return float(max(5, per_minute)), max(per_minute, 60) / 60.0


class ChatSocket:
    """One socket's chat: its room, its frames and its fan-out (`socket` is the consumer)."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.chat_room: str | None = None
        self.chat_player: int | None = None
        self.chat_muted: frozenset[int] = frozenset()

    async def join_table(self, table_id: int, player_id: int | None) -> None:
        """The table's chat, if the socket asked for it: it may see the table now."""
        if wants_chat(self.socket.scope):
            await self.join(table_room(table_id), player_id)

    async def join_lobby(self, player_id: int | None) -> None:
        """The club-wide room, for a signed-in member's lobby socket that asked for it."""
        if wants_chat(self.socket.scope) and player_id is not None:
            await self.join(LOBBY, player_id)

    async def join(self, room: str, player_id: int | None) -> None:
        """Join `room` (the caller checked the socket may see it) and send its history."""
        if player_id is None:
            return
        self.chat_room = room
        self.chat_player = player_id
        # Join before reading the history, so no message falls between the two.
        await self.socket.channel_layer.group_add(group(room), self.socket.channel_name)
        frame = await on_database(services.history)(room, player_id)
        self.chat_muted = frozenset(frame["muted"])
        await self.socket.send_json(frame)

    async def leave(self) -> None:
        if self.chat_room is not None:
            await self.socket.channel_layer.group_discard(
                group(self.chat_room), self.socket.channel_name
            )
            self.chat_room = None

    async def receive(self, content: dict) -> None:
        """One `chat_*` frame from the client; a refusal raises ServiceError."""
        if self.chat_room is None:
            raise ServiceError(
                "chat_unavailable", _("Chat is not open on this connection (connect with chat=1).")
            )
        kind = content["type"]
        room, player = self.chat_room, self.chat_player
        if kind == "chat_send":
            message = await on_database(services.send)(
                room, player, content.get("text"), content.get("phrase")
            )
            # The sender's answer is its own message, fanned out with everyone's.
            await publish_message(message)
        elif kind == "chat_report":
            answer = await on_database(services.report)(
                room, player, content.get("id"), content.get("reason")
            )
            await self.socket.send_json(answer)
        elif kind == "chat_mute":
            answer = await on_database(services.mute)(
                player, content.get("player"), content.get("muted", True)
            )
            self.chat_muted = frozenset(answer["all"])
            await self.socket.send_json(answer)
        elif kind == "chat_history":
            frame = await on_database(services.history)(room, player)
            self.chat_muted = frozenset(frame["muted"])
            await self.socket.send_json(frame)
        else:
            raise ServiceError("unknown_type", _("Unknown chat message type."))

    # -- from the channel layer ---------------------------------------------

    async def chat_message(self, event: dict) -> None:
        message = event["message"]
        if message["author"] in self.chat_muted:
            return
        await self.socket.send_json({"type": "chat", "message": message})

    async def chat_hidden(self, event: dict) -> None:
        await self.socket.send_json({"type": "chat_hidden", "id": event["id"]})


# What ChatConfig.ready() registers with the sockets (games.hooks.register_socket_extra).
SOCKET_EXTRA = hooks.SocketExtra(
    prefix=CHAT_FRAME_PREFIX, claims=is_chat_text, bucket=chat_frame_burst, attach=ChatSocket
)


__all__ = [
    "CHAT_FRAME_PREFIX",
    "SOCKET_EXTRA",
    "ChatSocket",
    "chat_frame_burst",
    "is_chat_text",
    "wants_chat",
]
