"""Publishing table changes to websocket groups, after the transaction commits.

The database is the truth; the broadcast is best effort and heals itself
(docs/OPERATIONS.md, "When Redis or PostgreSQL goes away"):

- `publish` never raises. A `group_send` that fails or takes longer than
  CHANNEL_LAYER_TIMEOUT marks the layer down for this process: from then on
  updates skip the layer (no move waits on a dead Redis), go at once to this
  process's own sockets of the table (`local_group_send`), and the newest one
  per table is kept. A retry task re-announces the kept updates every
  RETRY_SECONDS until the layer takes them; then one warning says how many
  updates did not go through it.
- When this process's subscription comes back (`layer_reconnected`, called by
  club.serving.channel_layers), its sockets may have missed what other processes published
  meanwhile: each table they follow gets its current state from the database.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from games.db import on_database
from games.services import Broadcast, table_state

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
TABLE_PREFIX = "table-"
# While the layer is down: how often the kept updates are offered to it again.
RETRY_SECONDS = 0.25


def table_group(table_id: int) -> str:
    return f"{TABLE_PREFIX}{table_id}"


class _Outage:
    """This process's view of the layer: up, or down since when with what kept."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.undelivered = 0
        self.kept: dict[int, dict] = {}  # table id -> newest snapshot not delivered
        self.lobby = False
        self.retry: asyncio.Task | None = None


_outage = _Outage()


def player_group(player_id: int) -> str:
    """A member's lobby sockets: told when one of their tables changes (their home page)."""
    return f"player-{player_id}"


def account_group(player_id: int) -> str:
    """Every socket of a member, table and lobby: closed at once when the account closes."""
    return f"account-{player_id}"


def close_account_sockets(player_id: int) -> None:
    """Close every open socket of this member, in every process (club.leaving).

    Best effort, like every broadcast: a socket the layer cannot reach now loses its
    session at its next request anyway (the sessions are deleted with the account).
    """
    try:
        async_to_sync(get_channel_layer().group_send)(
            account_group(player_id), {"type": "account.closed"}
        )
    except Exception:  # noqa: BLE001 - the account is closed regardless
        logger.warning("could not tell the sockets of player %s to close", player_id)


async def publish(updates: list[Broadcast]) -> None:
    """Send each update to its table's group (and the lobby's); never raises."""
    global _loop
    _loop = asyncio.get_running_loop()  # the server's loop, for `soon`
    if _outage.since is None:
        try:
            await _send_all(_messages(updates))
            return
        except Exception as exc:  # noqa: BLE001 - any failure: the move stands regardless
            _went_down(exc)
    await _keep(updates)


async def offer_current(snapshot: dict) -> None:
    """Hand a table's state, just read from the database, to every socket following it.

    Sockets drop it unless they are behind, and one can be: a process that died
    between a move's commit and its publish took that update with it, and the
    other processes' sockets would wait for a turn they were never told of. The
    dead process's sockets connect again, and each connection brings the others
    up to date. Best effort: never raises, and skips a layer known to be down.
    """
    if _outage.since is not None:
        return
    message = {"type": "table.update", "snapshot": snapshot}
    try:
        await asyncio.wait_for(
            get_channel_layer().group_send(table_group(snapshot["table"]["id"]), message),
            settings.CHANNEL_LAYER_TIMEOUT,
        )
    except Exception as exc:  # noqa: BLE001 - the connecting socket has its state regardless
        logger.info("a table's state was not offered to its sockets (%s)", type(exc).__name__)


def publish_sync(updates: list[Broadcast]) -> None:
    """For views and other sync callers, once their transaction has committed."""
    async_to_sync(publish)(updates)


# The event loop the last `publish` ran on: the server's, where every socket lives.
_loop: asyncio.AbstractEventLoop | None = None
# Sends handed to it by `soon`, kept until done (a task nobody holds may be collected).
_pending: set[asyncio.Task] = set()


def soon(send: Callable[[], Awaitable[None]], what: str) -> None:
    """Have `send()` run on the server's event loop, without waiting for it; never raises.

    For best-effort sends made inside a move's database work (a member's unread
    count after a game ends or starts): waiting for them there held the database
    thread, which every table's moves share, until the busy loop came round to
    the send (issue 44, docs/PERFORMANCE.md). Without a running server loop (a
    management command, a test) the send is awaited as before. `what` names it
    in the log if it fails.
    """
    loop = _loop
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if loop is not None and loop.is_running() and running in (None, loop):
        try:
            loop.call_soon_threadsafe(_start, loop, send, what)
            return
        except RuntimeError:
            pass  # the loop closed meanwhile

    async def awaited() -> None:
        await send()

    try:
        async_to_sync(awaited)()
    except Exception as exc:  # noqa: BLE001 - best effort: the page catches up
        logger.info("%s did not go out (%s)", what, type(exc).__name__)


def _start(loop: asyncio.AbstractEventLoop, send: Callable[[], Awaitable[None]], what: str) -> None:
    async def guarded() -> None:
        try:
            await send()
        except Exception as exc:  # noqa: BLE001 - best effort: the page catches up
            logger.info("%s did not go out (%s)", what, type(exc).__name__)

    task = loop.create_task(guarded())
    _pending.add(task)
    task.add_done_callback(_pending.discard)


def _messages(updates: list[Broadcast]) -> list[tuple[str, dict]]:
    """(group, message) for each update: its table, its members' home pages, maybe the lobby."""
    messages = []
    for update in updates:
        messages.append(
            (table_group(update.table_id), {"type": "table.update", "snapshot": update.snapshot})
        )
        table = update.snapshot["table"]
        for seat in table["seats"]:
            if not seat["bot"]:
                messages.append(
                    (player_group(seat["player"]), {"type": "player.tables", "table": table["id"]})
                )
    if any(update.lobby for update in updates):
        messages.append((LOBBY_GROUP, {"type": "lobby.changed"}))
    return messages


async def _send_all(messages: list[tuple[str, dict]]) -> None:
    """Every message to the layer at once, all within CHANNEL_LAYER_TIMEOUT.

    At once, not one after the other: on Redis each would be a round trip, and
    a move or a form post (which waits for its publish) would otherwise wait
    for five of them in a row (its table and each seated member's home page);
    our Redis layer sends them as one pipeline (`group_send_many`).
    """
    layer = get_channel_layer()
    if getattr(layer, "hands_over_at_once", False):
        # An in-process layer never waits: one after the other costs less than
        # a task per message (about 50 us a move, docs/PERFORMANCE.md).
        for group, message in messages:
            await layer.group_send(group, message)
        return
    send_many = getattr(
        layer, "group_send_many", None
    )  # Redis: one round trip (club.serving.channel_layers)
    if send_many is not None:
        sends = [send_many(messages)]
    else:
        sends = [layer.group_send(group, message) for group, message in messages]
    outcomes = await asyncio.wait_for(
        asyncio.gather(*sends, return_exceptions=True), settings.CHANNEL_LAYER_TIMEOUT
    )
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome


def _went_down(exc: BaseException) -> None:
    _outage.since = time.monotonic()
    _outage.undelivered = 0
    if isinstance(exc, TimeoutError):
        reason = f"no answer within {settings.CHANNEL_LAYER_TIMEOUT:g} s"
    else:
        reason = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
    logger.info("channel layer unreachable (%s): keeping table updates to re-announce", reason)


async def _keep(updates: list[Broadcast]) -> None:
    """While the layer is down: this process's sockets now, everyone else later."""
    for update in updates:
        _outage.undelivered += 1
        kept = _outage.kept.get(update.table_id)
        if kept is None or kept["version"] <= update.snapshot["version"]:
            _outage.kept[update.table_id] = update.snapshot
        _outage.lobby = _outage.lobby or update.lobby
    local = getattr(get_channel_layer(), "local_group_send", None)
    if local is not None:
        for group, message in _messages(updates):
            await local(group, message)
    if _outage.retry is None or _outage.retry.done():
        _outage.retry = asyncio.get_running_loop().create_task(_retry(), name="re-announce")


async def _retry() -> None:
    """Offer the kept updates to the layer until it takes them all, then say so once."""
    while _outage.since is not None:
        await asyncio.sleep(RETRY_SECONDS)
        sent = 0
        try:
            # Table by table (each table's newest state, and its members' home
            # pages), so a busy layer makes progress; then the lobby.
            for table_id, snap in list(_outage.kept.items()):
                await _send_all(_messages([Broadcast(table_id, snap)]))
                if _outage.kept.get(table_id) is snap:  # not replaced by a newer one meanwhile
                    del _outage.kept[table_id]
                sent += 1
            if _outage.lobby:
                await _send_all([(LOBBY_GROUP, {"type": "lobby.changed"})])
                _outage.lobby = False
        except Exception:  # noqa: BLE001, S112 - still down: try again shortly
            continue
        if not _outage.kept and not _outage.lobby:
            logger.warning(
                "channel layer was unreachable for %.1f s: %d table updates did not go "
                "through it (this process's own sockets had them at once); "
                "re-announced the newest state of %d tables",
                time.monotonic() - _outage.since,
                _outage.undelivered,
                sent,
            )
            _outage.since = None


def reset() -> None:
    """Forget any outage (tests; a new event loop): the layer is taken to be up."""
    global _outage
    if _outage.retry is not None:
        _outage.retry.cancel()
    _outage = _Outage()


async def layer_reconnected(groups: list[str]) -> None:
    """The layer's subscription is back: refresh every table this process's sockets follow.

    Whatever other processes published while this one was not subscribed is
    lost (pub/sub keeps nothing), so each table's current state is read from
    the database and handed to this process's sockets of it; sockets drop it
    if they already have that version. Lobby pages are told to look again.
    """
    layer = get_channel_layer()
    for group in groups:
        if group == LOBBY_GROUP:
            await layer.local_group_send(LOBBY_GROUP, {"type": "lobby.changed"})
        elif group.startswith(TABLE_PREFIX) and group[len(TABLE_PREFIX) :].isdigit():
            try:
                state = await on_database(table_state)(int(group[len(TABLE_PREFIX) :]))
            except Exception as exc:  # noqa: BLE001 - the database may be down too
                logger.warning("could not refresh sockets after the layer came back: %s", exc)
                return
            if state is not None:
                await layer.local_group_send(group, {"type": "table.update", "snapshot": state})
