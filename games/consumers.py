"""Websocket consumers: parse a frame, call a service, send views. No rules here.

Protocol: docs/PROTOCOL.md. Every frame a client sends gets exactly one answer:
a bad one an `error` frame with a code and a message, and it changes nothing;
the connection stays open (except for the size and flood limits below, which
close it with their own codes). No exception escapes a handler: an unexpected
one is logged once and answered with `server_error`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from club.i18n import language_from_scope
from games import hooks, runner, services, socket_limits
from games.broadcast import (
    account_group,
    offer_current,
    publish,
    table_group,
)
from games.db import (
    DATABASE_DOWN,
    RETRY_AFTER_SECONDS,
    database_available,
    database_unavailable,
    on_database,
    on_database_inline,
    refuse_while_away,
)
from games.i18n import lazy_format

logger = logging.getLogger(__name__)

# Close codes (4000-4999 are the application's): the client shows why.
CLOSE_LOGIN_REQUIRED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_FLOODING = 4429  # kept sending over the rate limit
# A frame over WS_MAX_FRAME_BYTES. Not 1009 ("message too big"): daphne's
# websocket library only lets an application close with 1000 or 3000-4999;
# it uses 1009 itself for frames over daphne's own 1 MiB limit.
CLOSE_TOO_BIG = 4413
CLOSE_SERVER_ERROR = 1011  # the connection could not be set up (logged)
CLOSE_UNAVAILABLE = 4503  # the database is away: connect again later
CLOSE_ACCOUNT_CLOSED = 4410  # the member's account was closed (club.leaving)

# Client frames already queued that one dispatch takes at once (see dispatch).
FRAMES_PER_TURN = 200

# The rate limiter's clock; a test may replace it to send "a burst at once".
clock = time.monotonic


@on_database
def socket_language(scope: dict) -> str:
    return language_from_scope(scope)


@on_database
def player_id_of(user) -> int | None:
    player = getattr(user, "player", None)
    return player.pk if player else None


class ProtocolError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class TokenBucket:
    """`burst` frames at once, refilled at `rate` a second."""

    def __init__(self, burst: float, rate: float, now: float) -> None:
        self.burst = max(1.0, float(burst))
        self.rate = max(0.001, float(rate))
        self.tokens = self.burst
        self.stamp = now

    def take(self, now: float) -> float:
        """Take a token: 0.0 if there was one, else the seconds until there is."""
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate


class GuardedConsumer(AsyncJsonWebsocketConsumer):
    """What every socket shares: one catch-all, the frame size limit, the rate limit.

    `dispatch` is Channels' without its per-message hop to the database
    thread: Channels (4.2+) runs `close_old_connections` in the shared
    database thread before EVERY handler, so each table update fanned out to
    N sockets queued N times behind other tables' moves. Every database call
    in these consumers goes through `on_database` (games/db.py), which already
    closes old connections before and after, in the thread that owns them.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bucket = TokenBucket(settings.WS_RATE_BURST, settings.WS_RATE_PER_SECOND, clock())
        # The apps that speak over this socket (games.hooks.SocketExtra: chat), each with
        # a part of this socket's and a bucket of its own: chat never eats the move budget.
        self.extras = [
            (extra, extra.attach(self), TokenBucket(*extra.bucket(), clock()))
            for extra in hooks.socket_extras()
        ]
        self.refused = 0
        self.refused_since = -math.inf
        self.closing = False
        # The socket's language (club/i18n.py: profile, cookie, Accept-Language),
        # set on connect; every human-readable text this socket sends uses it.
        self.language = settings.LANGUAGE_CODE

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        # daphne (and Channels' test communicator) hand over a queue's `get`:
        # keep the queue, to take the frames already waiting (see dispatch).
        queue = getattr(receive, "__self__", None)
        self.client_queue = queue if isinstance(queue, asyncio.Queue) else None
        try:
            await super().__call__(scope, receive, send)
        finally:
            await socket_limits.release(self)

    async def dispatch(self, message: dict) -> None:
        await self._dispatch_one(message)
        if message["type"] != "websocket.receive" or self.client_queue is None:
            return
        # Channels' loop takes one client frame per turn of the event loop,
        # while daphne parses a flooding client's frames by the thousand per
        # turn: the socket would fall ever further behind and never get to
        # its rate limit. Frames already queued are taken now, a bounded
        # number per turn (each refused one costs microseconds).
        for _frame in range(FRAMES_PER_TURN):
            if self.client_queue.empty():
                break
            await self._dispatch_one(self.client_queue.get_nowait())

    async def _dispatch_one(self, message: dict) -> None:
        name = get_handler_name(message)
        handler = getattr(self, name, None)
        if handler is None:
            handler = next(
                (
                    getattr(part, name, None)
                    for extra, part, _bucket in self.extras
                    if name.startswith(extra.prefix)
                ),
                None,
            )
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except StopConsumer:
            raise
        except DATABASE_DOWN as exc:
            await self._unavailable(message["type"], exc)
        except Exception:
            # The one catch-all: a bug must cost one answer, not the socket.
            logger.exception("%s: %s failed", type(self).__name__, message["type"])
            await self._recover(message["type"])

    async def _recover(self, kind: str) -> None:
        if kind == "websocket.disconnect":
            raise StopConsumer  # the socket is gone; what cleanup there was is done
        with contextlib.suppress(Exception):  # the socket may be closed under us
            await self._error("server_error", _("Something went wrong on the server; try again."))
            if kind == "websocket.connect":
                await self._shut(CLOSE_SERVER_ERROR)

    async def _unavailable(self, kind: str, exc: BaseException) -> None:
        """The database is away: nothing was changed; say when to try again (no traceback)."""
        database_unavailable(exc, f"{type(self).__name__} {kind}")
        if kind == "websocket.disconnect":
            raise StopConsumer  # presence: the runner expires the unvouched row later
        with contextlib.suppress(Exception):  # the socket may be closed under us
            await self._error(
                "unavailable",
                _("The club's database is not answering; nothing was changed. Try again shortly."),
                retry_after=RETRY_AFTER_SECONDS,
            )
            if kind == "websocket.connect":
                await self._shut(CLOSE_UNAVAILABLE)

    async def _admit(self, text_data: str | None, bytes_data: bytes | None) -> bool:
        """Size and rate limits, before the frame is parsed; False: it was answered."""
        bucket = next(
            (bucket for extra, _part, bucket in self.extras if extra.claims(text_data)),
            self.bucket,
        )
        if self.closing:
            return False  # closed by us; frames already on the way are dropped
        limit = settings.WS_MAX_FRAME_BYTES
        if _frame_size(text_data, bytes_data, limit) > limit:
            await self._error(
                "frame_too_big",
                lazy_format(_("A frame may be at most %(limit)s bytes."), limit=limit),
            )
            await self._shut(CLOSE_TOO_BIG)
            return False
        now = clock()
        wait = bucket.take(now)
        # Frames already waiting beyond what the bucket holds will be refused
        # too: a backlog that size is a flood now, not in a few seconds.
        backlog = self.client_queue.qsize() if self.client_queue is not None else 0
        if not wait and backlog < bucket.tokens + settings.WS_FLOOD_CLOSE_AFTER:
            return True
        if now - self.refused_since > settings.WS_FLOOD_WINDOW_SECONDS:
            self.refused_since, self.refused = now, 0
        self.refused += 1
        if self.refused + max(0, backlog - int(bucket.tokens)) >= settings.WS_FLOOD_CLOSE_AFTER:
            # The cooldown starts before the close, so the next handshake meets it.
            cooldown = await socket_limits.flooded(self)
            await self._error("flooding", _("Too many messages: closing the connection."))
            await self._shut(CLOSE_FLOODING)
            await socket_limits.record_flood(self, cooldown)
            return False
        await self._error(
            "rate_limited",
            _("Too many messages; wait a moment."),
            retry_after=math.ceil(wait * 100) / 100,
        )
        return False

    async def _join_account(self, player_id: int | None) -> None:
        """Join the member's account group: closing the account closes this socket."""
        if player_id is not None:
            self.account_group = account_group(player_id)
            await self.channel_layer.group_add(self.account_group, self.channel_name)

    async def _leave_account(self) -> None:
        group = getattr(self, "account_group", None)
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def account_closed(self, event: dict) -> None:
        await self._error("account_closed", _("This account is closed."))
        await self._shut(CLOSE_ACCOUNT_CLOSED)

    async def _shut(self, code: int) -> None:
        self.closing = True
        await self.close(code=code)

    async def _too_many(self, message: Any) -> None:
        await self._error("too_many_sockets", message)
        await self._shut(socket_limits.CLOSE_TOO_MANY)

    async def _error(self, code: str, message: Any, **extra: Any) -> None:
        # `code` stays English and stable for clients; `message` (lazy) is
        # rendered now, in this socket's language (docs/PROTOCOL.md).
        with translation.override(self.language):
            text = str(message)
        await self.send_json({"type": "error", "code": code, "message": text, **extra})

    def _extra_part(self, kind: Any) -> Any:
        """The part of the socket extra whose frames have this type, or None."""
        if not isinstance(kind, str):
            return None
        return next(
            (part for extra, part, _b in self.extras if kind.startswith(extra.prefix)), None
        )

    async def _extras_leave(self) -> None:
        for _extra, part, _bucket in self.extras:
            await part.leave()


class TableConsumer(GuardedConsumer):
    """One connection to one table: a seated player's or a watcher's."""

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            # However the handler ends (closed, crashed, cancelled), this
            # process stops vouching for its presence (games/runner.py).
            runner.forget(getattr(self, "channel_name", None), self)

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.group = table_group(self.table_id)
        self.version = -1
        self.player_id = None
        self.present = False
        self.invited = False
        if await socket_limits.account_cooldown(self):
            await self.close()  # before accept: the handshake is refused (HTTP 403)
            return
        self.language = await socket_language(self.scope)
        await self.accept()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self._error("login_required", _("Sign in to sit at or watch a table."))
            await self._shut(CLOSE_LOGIN_REQUIRED)
            return
        if not await socket_limits.take_account_sockets(self, "table"):
            await self._too_many(_("You have too many table connections open; close some tabs."))
            return
        self.player_id = await player_id_of(user)
        await self._join_account(self.player_id)
        self.invite = _query_param(self.scope, "invite")
        # Join the group before reading, so no update can fall between the two;
        # anything older than what we send is dropped by version below.
        await self.channel_layer.group_add(self.group, self.channel_name)
        try:
            snapshot = await self._fetch_full_state()
        except services.ServiceError as exc:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self._error(exc.code, exc.message)
            close = CLOSE_NOT_FOUND if exc.code == "not_found" else CLOSE_FORBIDDEN
            await self._shut(close)
            return
        if services.seat_of(
            snapshot, self.player_id
        ) is None and not await socket_limits.take_watcher(self, self.table_id):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self._too_many(_("This table has as many watchers as it can take; try later."))
            return
        self.version = -1
        await self._send_state(snapshot)
        # The table's other sockets may have missed an update (games.broadcast.offer_current).
        await offer_current(snapshot)
        # A seated member who comes back takes their seat back from the house.
        # Alive from here on: the runner vouches for this socket's presence.
        runner.vouch_for(self.channel_name, self)
        await on_database(services.seat_connected)(self.table_id, self.player_id, self.channel_name)
        self.present = True
        for _extra, part, _bucket in self.extras:  # the table's chat: now it may see the table
            await part.join_table(self.table_id, self.player_id)

    async def disconnect(self, code: int) -> None:
        await self._leave_account()
        if not hasattr(self, "group"):
            return  # never got as far as joining
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await self._extras_leave()
        if self.present:
            self.present = False
            await on_database(services.seat_disconnected)(self.table_id, self.channel_name)

    # -- inbound -----------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not await self._admit(text_data, bytes_data):
            return
        if text_data is None:
            await self._error("bad_frame", _("Frames must be text (JSON), not binary."))
            return
        try:
            content = json.loads(text_data)
        except (TypeError, ValueError, RecursionError):
            # RecursionError: JSON nested deeper than the parser's stack.
            await self._error("bad_json", _("That message was not valid JSON."))
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        handlers = {
            "play": self._handle_play,
            "sync": self._handle_sync,
            "ping": self._handle_ping,
            "handover": self._handle_handover,
            "back": self._handle_back,
            "again": self._handle_again,
        }
        try:
            if not isinstance(content, dict):
                raise ProtocolError("bad_message", _("A message must be a JSON object."))
            kind = content.get("type")
            part = self._extra_part(kind)
            if part is not None:
                await part.receive(content)
                return
            if not isinstance(kind, str) or kind not in handlers:
                raise ProtocolError(
                    "unknown_type",
                    lazy_format(_("Unknown message type %(kind)s."), kind=_brief(kind)),
                )
            if kind != "ping":
                refuse_while_away()  # the database is away: `unavailable` at once
            await handlers[kind](content)
        except ProtocolError as exc:
            await self._error(exc.code, exc.message)
        except services.ServiceError as exc:
            await self._error(exc.code, exc.message, **exc.extra)

    async def _handle_play(self, content: dict) -> None:
        # `move` is any game's move string; `card` is its older name, kept for clients.
        move = _field(content, "move" if "move" in content else "card", str)
        version = _field(content, "version", int)
        update = await on_database_inline(services.play_move)(
            self.player_id, self.table_id, move[:16], version
        )
        await self._announce(update)

    async def _handle_sync(self, content: dict) -> None:
        await self._send_full_state()

    async def _handle_ping(self, content: dict) -> None:
        await self.send_json({"type": "pong"})

    async def _handle_handover(self, content: dict) -> None:
        version = _field(content, "version", int)
        update = await on_database(services.hand_over)(self.player_id, self.table_id, version)
        await self._announce(update)

    async def _handle_back(self, content: dict) -> None:
        update = await on_database(services.come_back)(self.player_id, self.table_id)
        await self._announce(update)

    async def _handle_again(self, content: dict) -> None:
        # The table page's "play again" form, as one frame (docs/PROTOCOL.md).
        update = await on_database_inline(services.play_again_by_id)(self.player_id, self.table_id)
        await self._announce(update)

    # -- outbound ----------------------------------------------------------

    async def _announce(self, update: services.Broadcast) -> None:
        """A change this socket made, committed: its own state now, then everyone's.

        The sender's answer comes from this process, not through the channel
        layer, so a committed change is never lost to (or reported failed by)
        a layer that is down; `publish` never raises (games/broadcast.py).
        """
        database_available()  # it just committed: any outage is over
        await self.table_update({"snapshot": update.snapshot})
        await publish([update])

    async def table_update(self, event: dict) -> None:
        snapshot = event["snapshot"]
        if snapshot["version"] <= self.version:
            return  # already sent this version or a newer one
        if not self._still_allowed(snapshot):
            await self._lose_access()
            return
        await self._send_state(snapshot)

    def _still_allowed(self, snapshot: dict) -> bool:
        """May this socket's member still see the table after this change?

        A private table is seen by its seated members, its creator and holders
        of its invite (games.services.common.may_see_private); a member who
        left it, or whose creator role passed on, sees it no more.
        """
        table = snapshot["table"]
        if not table["private"] or self.invited:
            return True
        return table["creator"] == self.player_id or any(
            seat["player"] == self.player_id for seat in table["seats"]
        )

    async def _lose_access(self) -> None:
        # Exactly what a missing table answers at connect: not_found, 4404.
        self.present = False
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await on_database(services.seat_disconnected)(self.table_id, self.channel_name)
        await self._error("not_found", _("There is no such table."))
        await self._shut(CLOSE_NOT_FOUND)

    async def _send_full_state(self) -> None:
        snapshot = await self._fetch_full_state()
        self.version = -1  # a resync always answers, even with the same version
        await self._send_state(snapshot)

    async def _fetch_full_state(self) -> dict:
        snapshot = await on_database(services.table_for_viewer)(
            self.table_id, self.player_id, self.invite
        )
        database_available()
        self.invited = snapshot.pop("invited", False)
        return snapshot

    async def _send_state(self, snapshot: dict) -> None:
        self.version = snapshot["version"]
        await self.send(text_data=services.projected_text(snapshot, self.player_id))


def _field(content: dict, name: str, kind: type) -> Any:
    if name not in content:
        raise ProtocolError(
            "missing_field", lazy_format(_("The message needs a %(name)s field."), name=repr(name))
        )
    value = content[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ProtocolError(
            "bad_field",
            lazy_format(
                _("The %(name)s field must be a %(kind)s."), name=repr(name), kind=kind.__name__
            ),
        )
    return value


def _frame_size(text_data: str | None, bytes_data: bytes | None, limit: int) -> int:
    """The frame's size in bytes (UTF-8 for text), without encoding a short one."""
    if bytes_data is not None:
        return len(bytes_data)
    text = text_data or ""
    if len(text) * 4 <= limit:  # at most 4 bytes a character
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def _brief(value: Any) -> str:
    """A short, safe rendering of whatever a client sent, for an error message."""
    if isinstance(value, str):
        return repr(value[:32])
    return type(value).__name__ if value is not None else "(none)"


def _query_param(scope: dict, name: str) -> str | None:
    values = parse_qs(scope.get("query_string", b"").decode()).get(name)
    return values[0] if values else None
