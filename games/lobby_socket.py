"""The lobby's socket: every page with the header's bell opens one.

It tells the page that the list of tables changed (the page fetches it again),
a signed-in member's own tables (their home page) and their unread count; with
chat=1 it also carries the club-wide chat room. It sends updates only: any
frame that is not chat is refused. Protocol: docs/PROTOCOL.md.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext_lazy as _

from games import hooks, services, socket_limits
from games.broadcast import LOBBY_GROUP, player_group
from games.consumers import GuardedConsumer, player_id_of, socket_language
from games.db import on_database


class LobbyConsumer(GuardedConsumer):
    """Tells lobby pages that the list of tables changed; they fetch it again.

    Signed-in members who ask for it (chat=1) also get the club-wide chat room.
    """

    async def connect(self) -> None:
        if await socket_limits.account_cooldown(self):
            await self.close()  # before accept: the handshake is refused (HTTP 403)
            return
        self.language = await socket_language(self.scope)
        await self.accept()
        if not await socket_limits.take_account_sockets(self, "lobby"):
            await self._too_many(_("Too many lobby pages are open; close some tabs."))
            return
        # A signed-in member also hears about their own tables (their home page).
        self.groups_joined = [LOBBY_GROUP]
        player_id = None
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            player_id = await player_id_of(user)
            if player_id is not None:
                self.groups_joined.append(player_group(player_id))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self._join_account(player_id)
        self.member_id = player_id
        if player_id is not None and hooks.has_socket_listeners():
            await on_database(hooks.lobby_socket)(player_id, self.channel_name, True)
        for _extra, part, _bucket in self.extras:  # the club-wide chat room
            await part.join_lobby(player_id)

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", [LOBBY_GROUP]):
            await self.channel_layer.group_discard(group, self.channel_name)
        await self._leave_account()
        await self._extras_leave()
        if getattr(self, "member_id", None) is not None and hooks.has_socket_listeners():
            await on_database(hooks.lobby_socket)(self.member_id, self.channel_name, False)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not await self._admit(text_data, bytes_data):
            return
        part = next((part for extra, part, _b in self.extras if extra.claims(text_data)), None)
        if part is None:
            await self._error("read_only", _("The lobby only sends updates."))
            return
        try:
            content = json.loads(text_data)
            if not isinstance(content, dict):
                raise ValueError("not an object")
            await part.receive(content)
        except (TypeError, ValueError, RecursionError):
            await self._error("bad_json", _("That message was not valid JSON."))
        except services.ServiceError as exc:
            await self._error(exc.code, exc.message, **exc.extra)

    async def lobby_changed(self, event: dict) -> None:
        await self.send_json({"type": "lobby"})

    async def player_tables(self, event: dict) -> None:
        await self.send_json({"type": "tables", "table": event["table"]})

    async def notifications_unread(self, event: dict) -> None:
        # The header's bell (docs/PROTOCOL.md, "Notifications"): the member's unread count.
        await self.send_json({"type": "notifications", "unread": event["unread"]})
