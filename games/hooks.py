"""The tables' hooks: how apps built on tables hear from them, without games importing those apps.

Table rules (sealed tables, withheld deals, games seen beyond their players: the
duplicate app's) live in games/visibility.py, below games.models, and are re-exported
here, so an app registers its `TableRules` here with everything else it hangs on the
tables (duties, results, table lists, socket extras, events). The games pages,
services and sockets ask here, so dependencies keep pointing inward.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.db import transaction

from games.visibility import (  # noqa: F401 - the apps' and tables' door to the table rules
    TableRules,
    deal_withheld,
    game_finished,
    is_sealed,
    not_sealed_q,
    register,
    table_link,
    visible_games_q,
    withheld_q,
)

# ---------------------------------------------------------------------------
# Duties: work an app needs done on time without anyone asking (a duplicate
# round closing at its end time). The house runner of every server process
# runs each registered duty every HOUSE_DUTY_SECONDS, off its own loop, and
# publishes the table updates it returns. Several processes run them at once,
# so a duty must be safe to run twice (its rows' locks decide who does what).

# A duty returns the table updates to publish (games.services.Broadcast); not imported
# here, so that the services, which use these hooks, are not imported back by them.
Duty = Callable[[], list]
_duties: list[Duty] = []


def register_duty(duty: Duty) -> None:
    if duty not in _duties:
        _duties.append(duty)


def duties() -> list[Duty]:
    return list(_duties)


# ---------------------------------------------------------------------------
# Results: apps that keep something derived from results which must commit with them
# (ratings: each row's rating change) subscribe in their AppConfig.ready(). Unlike
# `emit`, listeners run at once, inside the transaction that writes the results (or
# releases them), so their writes commit or roll back with the results; an exception
# in a listener undoes the game's end, as a failed write of the results would.
#
# `results_released(game_key, options, rows)`: a game's GameResult rows (one per seat,
# in seat order) count from now on: when the game finishes, or, for a game whose deal
# was withheld then (`deal_withheld`: a duplicate board of an open round), when the
# rule releases it (games.services.rate_games, in the transaction that closes the round).
# A listener leaves alone a game it has already counted: a game may be released again.

ResultsListener = Callable[[str, dict, list], None]  # (game key, variant options, rows)
_results_listeners: list[ResultsListener] = []


def listen_results(listener: ResultsListener) -> None:
    if listener not in _results_listeners:
        _results_listeners.append(listener)


def results_released(game_key: str, options: dict, rows: list) -> None:
    """Tell the results' listeners, now, inside the caller's transaction."""
    for listener in list(_results_listeners):
        listener(game_key, options, rows)


# ---------------------------------------------------------------------------
# Table lists: apps that show something beside each seat of a listed table (ratings:
# the player's rating in the table's family, as `seat.rating`) annotate the tables
# (seats prefetched) before a page shows them; one call for the whole list, so a
# listener reads what it needs in one query. The lobby's pages call `annotate_tables`.

TablesListener = Callable[[list], None]
_tables_listeners: list[TablesListener] = []


def listen_tables(listener: TablesListener) -> None:
    if listener not in _tables_listeners:
        _tables_listeners.append(listener)


def annotate_tables(tables: list) -> None:
    for listener in list(_tables_listeners):
        listener(tables)


# ---------------------------------------------------------------------------
# Socket extras: an app that speaks over the table's and the lobby's sockets (chat)
# registers a `SocketExtra` in its AppConfig.ready(). Every socket (games.consumers)
# attaches one part per extra when it is made (`attach(socket)`), and
#
# - takes a frame whose text the extra `claims` (cheap, before parsing) from a rate
#   bucket of the extra's own (`bucket()`: burst, refill a second), not the moves' one;
# - hands a frame whose "type" starts with the extra's `prefix` to `part.receive(content)`
#   (a refusal raises games.services.ServiceError, answered as an `error` frame);
# - calls `part.join_table(table_id, player_id)` once the socket may see its table,
#   `part.join_lobby(player_id)` on a member's lobby socket, `part.leave()` at the end
#   (the part decides from `socket.scope` whether the socket asked for it);
# - hands a channel-layer event whose handler name starts with the prefix
#   ("chat.message" -> `chat_message`) to the part's method of that name.


@dataclass(frozen=True)
class SocketExtra:
    prefix: str
    claims: Callable[[str | None], bool]
    bucket: Callable[[], tuple[float, float]]
    attach: Callable[[Any], Any]


_socket_extras: list[SocketExtra] = []


def register_socket_extra(extra: SocketExtra) -> None:
    if extra not in _socket_extras:
        _socket_extras.append(extra)


def socket_extras() -> list[SocketExtra]:
    return list(_socket_extras)


# ---------------------------------------------------------------------------
# Away days: an app may say that members' declared away days do not stop the clocks
# at some of its tables (a club night that does not allow them): `rule(table_id)` is
# False for such a table. Asked only when a member at the table is away.

AwayRule = Callable[[int], bool]
_away_rules: list[AwayRule] = []


def register_away_rule(rule: AwayRule) -> None:
    if rule not in _away_rules:
        _away_rules.append(rule)


def away_stops_clock(table_id: int) -> bool:
    """Do members' away days stop the clocks at this table? (Yes unless an app says no.)"""
    return all(rule(table_id) for rule in _away_rules)


# ---------------------------------------------------------------------------
# Events: what happened to members at tables (their turn came, a table they sat
# at started, their game finished, they were invited...), for apps that tell
# members about it (notifications) without games importing them. Emitters call
# `emit` inside their transaction; listeners are called once it commits, so a
# rolled-back move tells nobody anything. A listener must be quick (write rows,
# queue work): it runs on the emitter's thread, inside a move or page handler.
#
# Emitted by games.services (ids and JSON-safe data only; `player_ids` are members,
# never house bots):
#
# - "turn" (the member the turn passed to; one event each in a phase everyone plays
#   at once), table_id, game_id, data {"deadline": ISO 8601 or None (when the house
#   plays for them: their pace at a turn-based table, the variant's clock at a live
#   one, else None), "pace": "live" | "turn", "pace_code": "live" | "12h" | "1d" | ...}.
#   On every move that hands the turn to a member, and at each new deal.
# - "table_started" (every member seated), table_id, game_id, data {"pace": code,
#   "private": bool, "number": the game's number at the table}. At each deal (first
#   game, rematch, duplicate board).
# - "game_finished" (every member of the game, resigned ones too), table_id, game_id,
#   data {"pace": code, "private": bool, "series_id": int | None, "players": ids in
#   seat order (bots too), "places": 1-based places by seat, "resigned": seats}.
#   For every table, public and private.
# - "seat_to_house" (the member), table_id, game_id, data {"pace": code, "missed": n}:
#   their time ran out TURN_BASED_MISSED_MOVES times in a row at a turn-based table;
#   the house plays the seat to the end of the game.


@dataclass(frozen=True)
class Event:
    """One thing that happened, for the members in `player_ids` (club.Player ids).

    `kind` is a short stable word (the emitter's: "turn", "table_started",
    "game_finished", "invited", "seat_to_house", "round_opened", "round_closing",
    "message"...); `table_id`/`game_id` point at what it is about; `data` holds
    JSON-safe extras the listener may show (a result, a deadline in ISO 8601).
    """

    kind: str
    player_ids: tuple[int, ...]
    table_id: int | None = None
    game_id: int | None = None
    data: dict = field(default_factory=dict)


Listener = Callable[[Event], None]
# What a listener wants told, answered from the event alone (no query): cheap, since
# it runs on every emit, on every move. None: every event.
Accepts = Callable[[Event], bool]
_listeners: list[tuple[Listener, Accepts | None]] = []


# Listeners that may be told on the server's event loop itself (`listen(quick=True)`).
_quick: set[Listener] = set()


def listen(listener: Listener, accepts: Accepts | None = None, quick: bool = False) -> None:
    """Call `listener` with each event it `accepts` (all of them without it), after commit.

    Saying what it wants matters on the hot path: a move whose events nobody
    accepts (a turn at a live table, for a listener that only tells members who
    are not looking) schedules no work at all (docs/PERFORMANCE.md, issue 44).

    `quick`: the listener does a little database work in its own transaction and
    never waits for the event loop (no `async_to_sync`), so a move made on the loop
    (games.db.on_database_inline) tells it there. Any other is told on the
    database thread.
    """
    if all(known != listener for known, _accepts in _listeners):
        _listeners.append((listener, accepts))
    if quick:
        _quick.add(listener)


def unlisten(listener: Listener) -> None:
    """Stop calling `listener` (tests and benchmarks that listened for a while)."""
    _listeners[:] = [(fn, accepts) for fn, accepts in _listeners if fn != listener]
    _quick.discard(listener)


def has_listeners() -> bool:
    """Is anyone listening? (Emitters may skip the work of building events otherwise.)"""
    return bool(_listeners)


def emit(event: Event) -> None:
    """Tell the listeners that accept `event` about it once the current transaction commits."""
    if not _listeners or not event.player_ids:
        return
    wanted = [listener for listener, accepts in _listeners if accepts is None or accepts(event)]
    if not wanted:
        return

    def deliver() -> None:
        for listener in wanted:
            listener(event)

    held = getattr(_held, "deliveries", None)
    if held is not None:
        later = [Delivery(partial(listener, event), listener in _quick) for listener in wanted]
        transaction.on_commit(partial(held.extend, later))
    else:
        transaction.on_commit(deliver)


@dataclass(frozen=True)
class Delivery:
    """One listener to tell of one committed event; `quick`: it may be told on the loop."""

    tell: Callable[[], None]
    quick: bool

    def __call__(self) -> None:
        self.tell()


# A list while `held_back` holds this thread's deliveries for later.
_held = threading.local()


@contextlib.contextmanager
def held_back(deliveries: list[Delivery]) -> Iterator[None]:
    """Inside, what commits is not told to the listeners but put in `deliveries`.

    For work run on the server's event loop (games.db.on_database_inline): it
    tells the quick listeners there after the work, one transaction each, and
    the others on the database thread (`deliver_all`): they may take long or
    publish (a club night's next round).
    """
    _held.deliveries = deliveries
    try:
        yield
    finally:
        _held.deliveries = None


def deliver_all(deliveries: list[Delivery]) -> None:
    """Tell the listeners what `held_back` kept, in the order it committed."""
    for delivery in deliveries:
        delivery()


# ---------------------------------------------------------------------------
# Sockets: a signed-in member's lobby socket (every page with the header's bell
# opens one) opened or closed, for apps that need to know who has the site open
# (notifications mail nobody who sees them live). Called off the event loop,
# in the sockets' database thread, after the socket joined its groups.

SocketListener = Callable[[int, str, bool], None]  # (player id, channel name, opened)
_socket_listeners: list[SocketListener] = []


def listen_sockets(listener: SocketListener) -> None:
    if listener not in _socket_listeners:
        _socket_listeners.append(listener)


def has_socket_listeners() -> bool:
    return bool(_socket_listeners)


def lobby_socket(player_id: int, channel: str, opened: bool) -> None:
    for listener in list(_socket_listeners):
        listener(player_id, channel, opened)


# ---------------------------------------------------------------------------
# Benchmarks (tests/bench/bench_stack_floor.py) measure what each app's hooks
# cost a move by serving the site with that app's registrations taken out.


def forget(module_prefix: str) -> int:
    """Drop every registration made from modules under `module_prefix` ("notifications").

    For benchmarks and tests only: the app's hooks stop being called in this
    process. Returns how many registrations were dropped.
    """

    def ours(thing: Any) -> bool:
        module = getattr(thing, "__module__", None) or type(thing).__module__
        return module == module_prefix or module.startswith(module_prefix + ".")

    dropped = 0
    for registry in (_duties, _results_listeners, _tables_listeners, _socket_listeners):
        kept = [thing for thing in registry if not ours(thing)]
        dropped += len(registry) - len(kept)
        registry[:] = kept
    kept_listeners = [(fn, accepts) for fn, accepts in _listeners if not ours(fn)]
    dropped += len(_listeners) - len(kept_listeners)
    _listeners[:] = kept_listeners
    _quick.intersection_update(fn for fn, _accepts in kept_listeners)
    kept_extras = [extra for extra in _socket_extras if not ours(extra.attach)]
    dropped += len(_socket_extras) - len(kept_extras)
    _socket_extras[:] = kept_extras
    return dropped
