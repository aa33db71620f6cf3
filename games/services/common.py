"""What every service shares: errors, broadcasts, and the raw reads and writes of the hot path."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.utils.translation import gettext_lazy as _

from club.models import Player, Series
from games import hooks
from games.models import Game, Seat, Table, Variant, canonical_invite
from games.services import kept
from games.services.rows import (  # noqa: F401 - save_fields, insert_rows and the pipeline's helpers: this module's API too
    attach,
    commit_in_pipeline,
    fetch_one,
    insert_instances,
    insert_rows,
    leave_pipeline,
    per_vendor,
    pipelined,
    prepared,
    read_rows,
    save_fields,
    shape,
    this_connection,
)


class ServiceError(Exception):
    """A request that cannot be done; `code` for machines, the message for people."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


@dataclass
class Broadcast:
    """What changed at a table, to send to its group (and maybe the lobby) after commit."""

    table_id: int
    snapshot: dict
    lobby: bool = False
    events: list[dict] = field(default_factory=list)


# ---------------------------------------------------------------------------
# Game states


# The engine state last parsed or made in this process for each game, beside the
# JSON it came from. Parsing a state also validates it: about 30 µs of a move's
# 600 on SQLite (docs/PERFORMANCE.md, issue 44), spent again on the JSON the
# process itself wrote one move earlier. Entries are checked by value against
# what was read, so a state written elsewhere (another process, a rolled-back
# move) is simply parsed. No lock: each get and set is one dict operation.
_parsed: dict[int, tuple[Any, Any]] = {}
_PARSED_MAX = 4096


def game_state(engine: Any, game: Game) -> Any:
    """`engine.from_json(game.state)`, without parsing the same JSON twice."""
    known = _parsed.get(game.pk)
    if known is not None and known[0] == game.state:
        return known[1]
    state = engine.from_json(game.state)
    remember_state(engine, game, state)
    return state


def remember_state(engine: Any, game: Game, state: Any) -> None:
    """Note that `state` is what the game's JSON `engine.to_json(state)` parses to."""
    if len(_parsed) >= _PARSED_MAX:
        _parsed.clear()
    # A JSON of its own: the game's may yet be changed in place by its holder.
    _parsed[game.pk] = (engine.to_json(state), state)


# ---------------------------------------------------------------------------
# Reading


# Ids beyond a signed 64-bit integer name no row on any database (and would
# overflow the driver): such a table is simply not there.
_MAX_ID = 2**63 - 1


def id_in_range(pk: int) -> bool:
    return 0 < pk <= _MAX_ID


def locked_table(table_id: int) -> Table:
    """The table, locked for this transaction, with its variant and series loaded."""
    if not id_in_range(table_id):
        raise ServiceError("not_found", _("There is no such table."))
    # The table row is the lock for everything at that table (see module doc).
    table_shape, variant_shape, series_shape = shape(Table), shape(Variant), shape(Series)
    conn = this_connection()
    row = fetch_one(_locked_table_sql(), [table_id], conn)
    if row is None:
        raise ServiceError("not_found", _("There is no such table."))
    table = table_shape.build(row, 0, conn)
    attach(table, "variant", variant_shape.build(row, table_shape.width, conn))
    if table.series_id:
        width = table_shape.width + variant_shape.width
        attach(table, "series", series_shape.build(row, width, conn))
    return table


@per_vendor
def _locked_table_sql() -> str:
    # SQLite has no FOR UPDATE: its IMMEDIATE transaction already holds the write lock.
    # One statement reads all three rows; only the table's row is locked (`OF t`):
    # other tables share the variant and the series.
    lock = " FOR UPDATE OF t" if connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {shape(Table).select('t')}, {shape(Variant).select('v')}, "
        f"{shape(Series).select('s')} FROM games_table t "
        "JOIN games_variant v ON v.id = t.variant_id "
        f"LEFT JOIN club_series s ON s.id = t.series_id WHERE t.id = %s{lock}"
    )


def locked_table_game_seats(table_id: int) -> tuple[Table, Game | None, list[Seat]]:
    """`locked_table`, `current_game` and `table_seats`: a move's reads, in one statement
    (on PostgreSQL, after the statement that locks the table).

    A move reads all three; one round trip instead of three was about a tenth of
    the database thread's time per move (docs/PERFORMANCE.md, issue 44). One row
    per seat, each carrying the table's, variant's, series' and latest game's
    columns: they are built once, from the first row. The rows the table's last
    move left are taken instead, when nothing wrote them since (games.services.kept).
    """
    if not id_in_range(table_id):
        raise ServiceError("not_found", _("There is no such table."))
    conn = this_connection()
    if conn.features.has_select_for_update_of:
        table, game, seats, stamp, writes = _read_checked(table_id, conn, kept.held(table_id, conn))
    else:
        rows = kept.take(table_id, conn)
        table, game, seats = rows if rows is not None else _read_table_game_seats(table_id, conn)
        stamp, writes = None, 0
    kept.watch(table, game, seats, conn, stamp, writes)
    return table, game, seats


def _read_table_game_seats(table_id: int, conn: Any) -> tuple[Table, Game | None, list[Seat]]:
    # SQLite: the IMMEDIATE transaction already holds the database's write lock, so
    # the one statement is all (nothing changes under it).
    with conn.cursor() as cursor:
        cursor.execute(_locked_table_game_seats_sql(), [table_id])
        rows = cursor.fetchall()
    if not rows:
        raise ServiceError("not_found", _("There is no such table."))
    return _built(rows, 0, conn)


def _read_checked(
    table_id: int, conn: Any, held: Any
) -> tuple[Table, Game | None, list[Seat], str | None, int]:
    """PostgreSQL: lock the table, then read its rows unless `held` (kept rows) are still
    what the database holds; the rows, their stamp and the connection's writes so far
    (games.services.kept)."""
    # A statement that waited for the row lock sees the locked row's newest version
    # but the joined rows as they were when it began (READ COMMITTED). A move that
    # waited behind another move at the table would read the game before that move.
    # So the lock is a statement of its own, and the read after it (a new statement,
    # a new snapshot) sees what committed; so does the stamp it checks. Both go to
    # the server at once (`pipelined`): it runs them one after the other, so the read
    # still begins once the lock is held, and the move waits for one network round
    # trip instead of two (docs/PERFORMANCE.md, issue 44). The read sends its rows,
    # each led by the stamp, only when the stamp is not `held`'s.
    with pipelined(), conn.cursor() as lock, conn.cursor() as read:
        lock.execute(_lock_table_sql(), [table_id])
        read.execute(_locked_table_game_seats_sql(True), [table_id, table_id, held and held.stamp])
        rows = read.fetchall()
        locked = lock.fetchone()
    if locked is None:
        raise ServiceError("not_found", _("There is no such table."))
    if not rows:
        return held.table, held.game, held.seats, held.stamp, locked[0]
    return (*_built(rows, 1, conn), rows[0][0], locked[0])


def _built(rows: list, offset: int, conn: Any) -> tuple[Table, Game | None, list[Seat]]:
    """The objects of the joined read's rows, whose columns begin at `offset`."""
    shapes = [shape(m) for m in (Table, Variant, Series, Game, Seat, Player)]
    starts = [offset + sum(s.width for s in shapes[:i]) for i in range(len(shapes))]
    first = rows[0]
    table_shape, variant_shape, series_shape, game_shape, seat_shape, player_shape = shapes
    table = table_shape.build(first, starts[0], conn)
    attach(table, "variant", variant_shape.build(first, starts[1], conn))
    if table.series_id:
        attach(table, "series", series_shape.build(first, starts[2], conn))
    # The latest game's id is its first column: NULL when the table has none yet.
    game = game_shape.build(first, starts[3], conn) if first[starts[3]] is not None else None
    seats = []
    for row in rows:
        if row[starts[4]] is None:
            continue  # no seat at all (the LEFT JOIN's one empty row)
        seat = seat_shape.build(row, starts[4], conn)
        attach(seat, "player", player_shape.build(row, starts[5], conn))
        seats.append(seat)
    return table, game, seats


@per_vendor
def _lock_table_sql() -> str:
    # With the connection's writes so far: kept rows' check (games.services.kept).
    return f"SELECT {kept.WRITES} FROM games_table t WHERE t.id = %s FOR UPDATE"


@per_vendor
def _locked_table_game_seats_sql(checked: bool = False) -> str:
    # No FOR UPDATE here (see `locked_table_game_seats`): on SQLite the transaction's
    # write lock is the lock, on PostgreSQL the statement before this one took it.
    # `checked` (PostgreSQL): each row led by the table's stamp, read once (a CTE
    # used once is a subquery of the statement), and no row at all when the stamp
    # is the second parameter (the kept rows'; NULL when none are kept).
    columns = ", ".join(
        shape(model).select(alias)
        for model, alias in (
            (Table, "t"),
            (Variant, "v"),
            (Series, "s"),
            (Game, "g"),
            (Seat, "st"),
            (Player, "p"),
        )
    )
    stamp, source, check = (
        (f"WITH k AS ({kept.STAMP}) ", "k.stamp, ", "k, ") if checked else ("", "", "")
    )
    return (
        f"{stamp}SELECT {source}{columns} FROM {check}games_table t "
        "JOIN games_variant v ON v.id = t.variant_id "
        "LEFT JOIN club_series s ON s.id = t.series_id "
        "LEFT JOIN games_game g ON g.table_id = t.id AND g.number = "
        "(SELECT MAX(g2.number) FROM games_game g2 WHERE g2.table_id = t.id) "
        "LEFT JOIN games_seat st ON st.table_id = t.id "
        "LEFT JOIN club_player p ON p.id = st.player_id "
        "WHERE t.id = %s"
        + (" AND k.stamp IS DISTINCT FROM %s" if checked else "")
        + " ORDER BY st.position"
    )


def may_see_private(
    table: Table, player_id: int | None, seats: list[Seat], invite: str | None
) -> bool:
    """Who may see (and act at) a private table: the rule of games.models' `visible_to`."""
    seated = any(s.player_id == player_id for s in seats)
    return seated or table.created_by_id == player_id or invite_matches(table, invite)


def invite_matches(table: Table, invite: str | None) -> bool:
    """The invite opens the table; a sealed table (a duplicate board) no invite opens."""
    token = canonical_invite(invite)
    return token is not None and token == table.invite_token and not hooks.is_sealed(table)


def locked_visible_table(table_id: int, player_id: int | None, invite: str | None = None):
    """The locked table and its seats, or "no such table" for a private one this member may not see.

    Every action at a table starts here, so that without the invite a private
    table answers exactly as a missing one, whatever the action.
    """
    table = locked_table(table_id)
    seats = table_seats(table)
    if table.private and not may_see_private(table, player_id, seats, invite):
        raise ServiceError("not_found", _("There is no such table."))
    return table, seats


def current_game(table: Table) -> Game | None:
    """The table's latest game (the one being played, or the last one finished)."""
    conn = this_connection()
    row = fetch_one(_current_game_sql(), [table.pk], conn)
    return None if row is None else shape(Game).build(row, 0, conn)


@per_vendor
def _current_game_sql() -> str:
    return (
        f"SELECT {shape(Game).select('g')} FROM games_game g WHERE g.table_id = %s "
        "ORDER BY g.number DESC LIMIT 1"
    )


def table_seats(table: Table) -> list[Seat]:
    """The table's seats in order, each with its player loaded (one statement)."""
    seat_shape, player_shape = shape(Seat), shape(Player)
    conn = this_connection()
    with conn.cursor() as cursor:
        cursor.execute(_table_seats_sql(), [table.pk])
        rows = cursor.fetchall()
    seats = []
    for row in rows:
        seat = seat_shape.build(row, 0, conn)
        attach(seat, "player", player_shape.build(row, seat_shape.width, conn))
        seats.append(seat)
    return seats


@per_vendor
def _table_seats_sql() -> str:
    return (
        f"SELECT {shape(Seat).select('s')}, {shape(Player).select('p')} FROM games_seat s "
        "JOIN club_player p ON p.id = s.player_id WHERE s.table_id = %s ORDER BY s.position"
    )
