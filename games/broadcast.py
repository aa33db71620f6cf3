"""Publishing table changes to websocket groups, after the transaction commits."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.services import Broadcast

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


async def publish(updates: list[Broadcast]) -> None:
    layer = get_channel_layer()
    lobby = False
    for update in updates:
        await layer.group_send(
            table_group(update.table_id), {"type": "table.update", "snapshot": update.snapshot}
        )
        lobby = lobby or update.lobby
    if lobby:
        await layer.group_send(LOBBY_GROUP, {"type": "lobby.changed"})


def publish_sync(updates: list[Broadcast]) -> None:
    """For views and other sync callers, once their transaction has committed."""
    async_to_sync(publish)(updates)
