"""Fan-out of chat messages to a room's sockets, through the channel layer."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from chat.rooms import group


async def publish_message(message: dict) -> None:
    await get_channel_layer().group_send(
        group(message["room"]), {"type": "chat.message", "message": message}
    )


async def publish_hidden(room: str, message_id: int) -> None:
    await get_channel_layer().group_send(group(room), {"type": "chat.hidden", "id": message_id})


def publish_message_sync(message: dict) -> None:
    """For admin views, once their transaction has committed."""
    async_to_sync(publish_message)(message)


def publish_hidden_sync(room: str, message_id: int) -> None:
    async_to_sync(publish_hidden)(room, message_id)
