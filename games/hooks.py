"""Rules that apps built on tables lay over them, without games importing those apps.

A duplicate board (the duplicate app) is played at a private table that stays
sealed: no invite link opens it (so nobody can watch it while its round is
open), and no rematch deals new cards at it. Its finished games, on the other
hand, are seen by more people than their players: those who finished the same
board, and everyone once the round has closed. Such an app registers a
`TableRules` in its AppConfig.ready(); only a private table may be sealed
(a public one is answered here without asking them). The games pages,
services and sockets ask here, so dependencies keep pointing inward. They are
also told when a game at one of their (private) tables finishes
(`game_finished`, inside the transaction that writes its results), so they
can keep what they derive from results beside them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from django.db import models, transaction

if TYPE_CHECKING:
    from club.models import Player
    from games.models import Table
    from games.services import Broadcast


class TableRules(Protocol):
    def sealed_table_ids(self) -> models.QuerySet:
        """Ids (a values_list) of the tables no invite opens and no rematch deals at."""

    def is_sealed(self, table_id: int) -> bool: ...

    def visible_games(self, player: Player | None) -> models.Q:
        """Games (a Q over games.Game) this viewer may see beyond the tables' own rule."""

    def table_link(self, table_id: int) -> tuple[str, str] | None:
        """(label, url) of the page a sealed table belongs to, for its table page."""

    def withheld_table_ids(self) -> models.QuerySet:
        """Ids (a values_list) of the sealed tables whose deals and results are still
        withheld from everyone (a board of a round not closed yet): their games' seeds,
        hands in admin, ratings and standings wait (see `deal_withheld`)."""

    def is_withheld(self, table_id: int) -> bool: ...

    def game_finished(self, game_id: int, results: list) -> None:
        """A game's results (club.GameResult, one per seat) were just written."""


_rules: list[TableRules] = []


def register(rules: TableRules) -> None:
    if rules not in _rules:
        _rules.append(rules)


def not_sealed_q(prefix: str = "") -> models.Q:
    """A Q over tables (`prefix` is the lookup to a table) excluding the sealed ones."""
    rule = models.Q()
    for rules in _rules:
        rule &= ~models.Q(**{f"{prefix}pk__in": rules.sealed_table_ids()})
    return rule


def is_sealed(table: Table) -> bool:
    """Is this table sealed? Only a private one can be: a public one is answered without asking."""
    return table.private and any(rules.is_sealed(table.pk) for rules in _rules)


def visible_games_q(player: Player | None) -> models.Q | None:
    """What the registered apps open up beyond the tables' own rule; None when nothing."""
    rule = None
    for rules in _rules:
        extra = rules.visible_games(player)
        rule = extra if rule is None else rule | extra
    return rule


def withheld_q(prefix: str = "") -> models.Q | None:
    """A Q over tables (`prefix` is the lookup to a table) picking the withheld ones; None
    when no app withholds anything."""
    rule = None
    for rules in _rules:
        extra = models.Q(**{f"{prefix}pk__in": rules.withheld_table_ids()})
        rule = extra if rule is None else rule | extra
    return rule


def deal_withheld(table: Table) -> bool:
    """Are this table's deals withheld from everyone for now (seed, hands in admin, rating)?

    Only a private (sealed) table can be: a public one is answered without asking.
    """
    return table.private and any(rules.is_withheld(table.pk) for rules in _rules)


def table_link(table_id: int) -> tuple[str, str] | None:
    for rules in _rules:
        link = rules.table_link(table_id)
        if link is not None:
            return link
    return None


def game_finished(table: Table, game_id: int, results: list) -> None:
    """Tell the apps a game at `table` finished; only a private table can be theirs."""
    if not table.private:
        return
    for rules in _rules:
        rules.game_finished(game_id, results)


# ---------------------------------------------------------------------------
# Duties: work an app needs done on time without anyone asking (a duplicate
# round closing at its end time). The house runner of every server process
# runs each registered duty every HOUSE_DUTY_SECONDS, off its own loop, and
# publishes the table updates it returns. Several processes run them at once,
# so a duty must be safe to run twice (its rows' locks decide who does what).

Duty = Callable[[], "list[Broadcast]"]
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
_listeners: list[Listener] = []


def listen(listener: Listener) -> None:
    if listener not in _listeners:
        _listeners.append(listener)


def has_listeners() -> bool:
    """Is anyone listening? (Emitters may skip the work of building events otherwise.)"""
    return bool(_listeners)


def emit(event: Event) -> None:
    """Tell the listeners about `event` once the current transaction commits."""
    if not _listeners or not event.player_ids:
        return

    def deliver() -> None:
        for listener in list(_listeners):
            listener(event)

    transaction.on_commit(deliver)


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
