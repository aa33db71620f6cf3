"""Publishing table changes to websocket groups, after the transaction commits."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.services import Broadcast

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def player_group(player_id: int) -> str:
    """A member's lobby sockets: told when one of their tables changes (their home page)."""
    return f"player-{player_id}"


async def publish(updates: list[Broadcast]) -> None:
    layer = get_channel_layer()
    lobby = False
    for update in updates:
        await layer.group_send(
            table_group(update.table_id), {"type": "table.update", "snapshot": update.snapshot}
        )
        lobby = lobby or update.lobby
        table = update.snapshot["table"]
        for seat in table["seats"]:
            if not seat["bot"]:
                await layer.group_send(
                    player_group(seat["player"]), {"type": "player.tables", "table": table["id"]}
                )
    if lobby:
        await layer.group_send(LOBBY_GROUP, {"type": "lobby.changed"})


def publish_sync(updates: list[Broadcast]) -> None:
    """For views and other sync callers, once their transaction has committed."""
    async_to_sync(publish)(updates)
