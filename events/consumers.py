"""The night's page socket: told when a table of the night finishes or a round is seated.

Read-only: it joins the night's group and forwards `event.changed` as one small frame
({"type": "event", "event": id, "version": n}, docs/PROTOCOL.md); the page then fetches
its standings and tables again over HTTP. Anyone who may see the page may listen.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from events.running import group


class EventConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        self.event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        await self.channel_layer.group_add(group(self.event_id), self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(group(self.event_id), self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        await self.send_json({"type": "error", "code": "read_only", "message": "read only"})

    async def event_changed(self, message: dict) -> None:
        await self.send_json(
            {"type": "event", "event": message["event"], "version": message["version"]}
        )
