"""What every service shares: errors, broadcasts, and the raw reads and writes of the hot path."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import JSONField, Model
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init
from django.utils.translation import gettext_lazy as _

from club.models import Player, Series
from games import hooks
from games.models import Game, Seat, Table, Variant, canonical_invite
from games.services import kept


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


# The reads and writes below run on every move, so they skip Django's query
# compiler, which cost about 0.8 ms a query on this machine class against
# 0.13 ms for `raw()` (tests/bench/bench_moves.py, docs/PERFORMANCE.md).
# `raw()` still builds model instances with the fields' converters, and the
# writes prepare values through the fields, so callers see ordinary models.


# Ids beyond a signed 64-bit integer name no row on any database (and would
# overflow the driver): such a table is simply not there.
_MAX_ID = 2**63 - 1


def id_in_range(pk: int) -> bool:
    return 0 < pk <= _MAX_ID


@functools.cache
def _vendor() -> str:
    """The kind of database behind the default alias: fixed once settings are read.

    Asking the `connection` proxy looks the thread's connection up through an
    asgiref Local, a few microseconds each; a move asked about 35 times, about a
    tenth of its database work on SQLite (docs/PERFORMANCE.md, issue 44). For the
    same reason the hot path below looks its connection up once and passes it on.
    """
    return connections[DEFAULT_DB_ALIAS].vendor


def _per_vendor(build: Callable[..., str]) -> Callable[..., str]:
    """Remember each SQL text `build` makes, per kind of database and arguments.

    The texts of the hot path depend on nothing else; building them (column
    lists, quoting through the connection) on every move cost about 3% of the
    server's Python time under load (docs/PERFORMANCE.md, issue 26).
    """
    built: dict[tuple, str] = {}

    def sql(*args: Any) -> str:
        key = (_vendor(), *args)
        text = built.get(key)
        if text is None:
            text = built[key] = build(*args)
        return text

    return sql


def locked_table(table_id: int) -> Table:
    """The table, locked for this transaction, with its variant and series loaded."""
    if not id_in_range(table_id):
        raise ServiceError("not_found", _("There is no such table."))
    # The table row is the lock for everything at that table (see module doc).
    table_shape, variant_shape, series_shape = _shape(Table), _shape(Variant), _shape(Series)
    conn = _connection()
    row = _fetch_one(_locked_table_sql(), [table_id], conn)
    if row is None:
        raise ServiceError("not_found", _("There is no such table."))
    table = table_shape.build(row, 0, conn)
    _attach(table, "variant", variant_shape.build(row, table_shape.width, conn))
    if table.series_id:
        width = table_shape.width + variant_shape.width
        _attach(table, "series", series_shape.build(row, width, conn))
    return table


@_per_vendor
def _locked_table_sql() -> str:
    # SQLite has no FOR UPDATE: its IMMEDIATE transaction already holds the write lock.
    # One statement reads all three rows; only the table's row is locked (`OF t`):
    # other tables share the variant and the series.
    lock = " FOR UPDATE OF t" if connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {_shape(Table).select('t')}, {_shape(Variant).select('v')}, "
        f"{_shape(Series).select('s')} FROM games_table t "
        "JOIN games_variant v ON v.id = t.variant_id "
        f"LEFT JOIN club_series s ON s.id = t.series_id WHERE t.id = %s{lock}"
    )


def locked_table_game_seats(table_id: int) -> tuple[Table, Game | None, list[Seat]]:
    """`locked_table`, `current_game` and `table_seats`: a move's reads, in one statement
    (on PostgreSQL, after the statement that locks the table).

    A move reads all three; one round trip instead of three was about a tenth of
    the database thread's time per move (docs/PERFORMANCE.md, issue 44). One row
    per seat, each carrying the table's, variant's, series' and latest game's
    columns: they are built once, from the first row. On SQLite the rows the
    table's last move left are taken instead, when nothing wrote them since
    (games.services.kept).
    """
    if not id_in_range(table_id):
        raise ServiceError("not_found", _("There is no such table."))
    conn = _connection()
    rows = kept.take(table_id, conn)
    table, game, seats = rows if rows is not None else _read_table_game_seats(table_id, conn)
    kept.watch(table, game, seats, conn)
    return table, game, seats


def _read_table_game_seats(table_id: int, conn: Any) -> tuple[Table, Game | None, list[Seat]]:
    shapes = [_shape(m) for m in (Table, Variant, Series, Game, Seat, Player)]
    starts = [sum(shape.width for shape in shapes[:i]) for i in range(len(shapes))]
    # PostgreSQL: a statement that waited for the row lock sees the locked row's
    # newest version but the joined rows as they were when it began (READ
    # COMMITTED). A move that waited behind another move at the table would read
    # the game before that move. So the lock is a statement of its own, and the
    # one read after it (a new statement, a new snapshot) sees what committed. Both
    # go to the server at once (`pipelined`): it runs them one after the other, so
    # the read still begins once the lock is held, and the move waits for one
    # network round trip instead of two (docs/PERFORMANCE.md, issue 44). A missing
    # table locks nothing and the read finds no row.
    # SQLite: the IMMEDIATE transaction already holds the database's write lock, so
    # the one statement is all (nothing changes under it).
    with pipelined(), conn.cursor() as cursor:
        if conn.features.has_select_for_update_of:
            cursor.execute(_lock_table_sql(), [table_id])
        cursor.execute(_locked_table_game_seats_sql(), [table_id])
        rows = cursor.fetchall()
    if not rows:
        raise ServiceError("not_found", _("There is no such table."))
    first = rows[0]
    table_shape, variant_shape, series_shape, game_shape, seat_shape, player_shape = shapes
    table = table_shape.build(first, starts[0], conn)
    _attach(table, "variant", variant_shape.build(first, starts[1], conn))
    if table.series_id:
        _attach(table, "series", series_shape.build(first, starts[2], conn))
    # The latest game's id is its first column: NULL when the table has none yet.
    game = game_shape.build(first, starts[3], conn) if first[starts[3]] is not None else None
    seats = []
    for row in rows:
        if row[starts[4]] is None:
            continue  # no seat at all (the LEFT JOIN's one empty row)
        seat = seat_shape.build(row, starts[4], conn)
        _attach(seat, "player", player_shape.build(row, starts[5], conn))
        seats.append(seat)
    return table, game, seats


@_per_vendor
def _lock_table_sql() -> str:
    return "SELECT t.id FROM games_table t WHERE t.id = %s FOR UPDATE"


@_per_vendor
def _locked_table_game_seats_sql() -> str:
    # No FOR UPDATE here (see `locked_table_game_seats`): on SQLite the transaction's
    # write lock is the lock, on PostgreSQL the statement before this one took it.
    columns = ", ".join(
        _shape(model).select(alias)
        for model, alias in (
            (Table, "t"),
            (Variant, "v"),
            (Series, "s"),
            (Game, "g"),
            (Seat, "st"),
            (Player, "p"),
        )
    )
    return (
        f"SELECT {columns} FROM games_table t "
        "JOIN games_variant v ON v.id = t.variant_id "
        "LEFT JOIN club_series s ON s.id = t.series_id "
        "LEFT JOIN games_game g ON g.table_id = t.id AND g.number = "
        "(SELECT MAX(g2.number) FROM games_game g2 WHERE g2.table_id = t.id) "
        "LEFT JOIN games_seat st ON st.table_id = t.id "
        "LEFT JOIN club_player p ON p.id = st.player_id "
        "WHERE t.id = %s ORDER BY st.position"
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
    conn = _connection()
    row = _fetch_one(_current_game_sql(), [table.pk], conn)
    return None if row is None else _shape(Game).build(row, 0, conn)


@_per_vendor
def _current_game_sql() -> str:
    return (
        f"SELECT {_shape(Game).select('g')} FROM games_game g WHERE g.table_id = %s "
        "ORDER BY g.number DESC LIMIT 1"
    )


def table_seats(table: Table) -> list[Seat]:
    """The table's seats in order, each with its player loaded (one statement)."""
    seat_shape, player_shape = _shape(Seat), _shape(Player)
    conn = _connection()
    with conn.cursor() as cursor:
        cursor.execute(_table_seats_sql(), [table.pk])
        rows = cursor.fetchall()
    seats = []
    for row in rows:
        seat = seat_shape.build(row, 0, conn)
        _attach(seat, "player", player_shape.build(row, seat_shape.width, conn))
        seats.append(seat)
    return seats


@_per_vendor
def _table_seats_sql() -> str:
    return (
        f"SELECT {_shape(Seat).select('s')}, {_shape(Player).select('p')} FROM games_seat s "
        "JOIN club_player p ON p.id = s.player_id WHERE s.table_id = %s ORDER BY s.position"
    )


class _Shape:
    """How to read one model's row out of a wider SELECT, as the ORM would build it.

    The columns in model order, and each field's converters for this database
    (JSON text to objects, SQLite's date strings to datetimes, ...): the same
    ones `raw()` applies, worked out once per model and database instead of
    once per query.
    """

    def __init__(self, model: type, conn: Any) -> None:
        self.model = model
        self.fields = list(model._meta.concrete_fields)
        self.width = len(self.fields)
        self.attnames = [f.attname for f in self.fields]
        self.columns = [conn.ops.quote_name(f.column) for f in self.fields]
        self.converters = []
        for position, f in enumerate(self.fields):
            column = f.get_col(model._meta.db_table)
            found = conn.ops.get_db_converters(column) + f.get_db_converters(conn)
            if found:
                self.converters.append((position, found, column))
        # A model whose instantiation something listens to is built the ORM's way.
        # Receivers connect while the apps load, before the first shape is made.
        self.hooked = pre_init.has_listeners(model) or post_init.has_listeners(model)
        # The converted values of the rows read lately, by their values as the
        # driver gave them (see `_values`). A JSON column converts to an object
        # its holder may change in place: converted afresh on every build.
        self.fresh = [c for c in self.converters if isinstance(self.fields[c[0]], JSONField)]
        self.converted: dict[tuple, list] = {}

    def select(self, alias: str) -> str:
        return ", ".join(f"{alias}.{column}" for column in self.columns)

    def build(self, row: Sequence, start: int, conn: Any) -> Any:
        """The instance for `row[start:start + width]`, read on `conn` (the thread's connection)."""
        values = self._values(tuple(row[start : start + self.width]), conn)
        if self.hooked:
            return self.model.from_db(conn.alias, self.attnames, values)
        # What from_db leaves behind for a full row, without Model.__init__'s
        # per-field setattr and signals: a tenth of a move's database work on
        # SQLite went to building its dozen instances (docs/PERFORMANCE.md,
        # issue 44).
        instance = object.__new__(self.model)
        instance.__dict__.update(zip(self.attnames, values, strict=True))
        state = instance._state = ModelState()
        state.adding = False
        state.db = conn.alias
        return instance

    def _values(self, raw: tuple, conn: Any) -> list:
        """The row's values converted for the model, remembered by the row itself.

        Most rows a move reads are the same as at the move before (the variant,
        the series, the seats and their members): converting them again (dates
        parsed, JSON decoded) was about half of the move's joined read on
        SQLite (docs/PERFORMANCE.md, issue 44). The key is every column's value
        as read, so a row that changed in any way is converted anew: nothing is
        remembered that the database did not just say. Converted values are
        immutable (numbers, strings, dates), except JSON's, converted each time.
        No lock: each get and set is one dict operation.
        """
        try:
            known = self.converted.get(raw)
        except TypeError:  # a value the driver made unhashable (parsed JSON)
            return self._convert(list(raw), raw, self.converters, conn)
        if known is not None:
            return self._convert(list(known), raw, self.fresh, conn)
        values = self._convert(list(raw), raw, self.converters, conn)
        if len(self.converted) >= _CONVERTED_MAX:
            self.converted.clear()
        self.converted[raw] = list(values)
        return values

    @staticmethod
    def _convert(values: list, raw: tuple, converters: list, conn: Any) -> list:
        for position, found, column in converters:
            value = raw[position]
            for convert in found:
                value = convert(value, column, conn)
            values[position] = value
        return values


# Rows remembered per model: a few hundred tables' seats and members. A game's row
# carries its state's JSON in the key, so this also bounds that memory (a few MB).
_CONVERTED_MAX = 2048

_shapes: dict[tuple[type, str], _Shape] = {}


def _shape(model: type) -> _Shape:
    key = (model, _vendor())
    shape = _shapes.get(key)
    if shape is None:
        shape = _shapes[key] = _Shape(model, _connection())
    return shape


def _attach(instance: Any, name: str, related: Any) -> None:
    """`instance.<name> = related` for a foreign key whose id the row already holds.

    The descriptor's assignment checks the instance's type and database and sets
    the id again; for rows read together those hold by construction.
    """
    type(instance)._meta.get_field(name).set_cached_value(instance, related)


def _fetch_one(sql: str, params: list, conn: Any) -> tuple | None:
    with conn.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def _first(rows: Any) -> Any:
    return next(iter(rows), None)


def save_fields(instance: Table | Game | Seat, *names: str) -> None:
    """save(update_fields=names), without the query compiler."""
    model = type(instance)
    fields = [model._meta.get_field(name) for name in names]
    conn = _connection()
    # Each field prepares its own value, exactly as the ORM would (JSON,
    # datetimes, booleans, on either database).
    values = [prepared(f, getattr(instance, f.attname), conn) for f in fields]
    before = kept.mark(conn)
    with conn.cursor() as cursor:
        cursor.execute(_update_sql(model, names), [*values, instance.pk])
    kept.wrote(instance, conn, before)


@_per_vendor
def _update_sql(model: type, names: tuple[str, ...]) -> str:
    sets = ", ".join(f"{_quote(model._meta.get_field(name).column)} = %s" for name in names)
    return f"UPDATE {_quote(model._meta.db_table)} SET {sets} WHERE id = %s"


@contextlib.contextmanager
def pipelined() -> Iterator[None]:
    """On PostgreSQL, the block's statements go to the server without each waiting for the
    answer to the one before (psycopg's pipeline mode; a statement whose rows are read
    still waits for them). A move's writes (its rows, the game, the table) then cost one
    network round trip instead of one each (docs/PERFORMANCE.md, issue 44). Elsewhere
    nothing changes."""
    if _vendor() != "postgresql":
        yield
        return
    conn = _connection()
    conn.ensure_connection()
    # psycopg sends what the pipeline holds, and reads the answers, when the block
    # ends: an error there (the server gone mid-move) comes from psycopg itself, not
    # through a Django cursor. Django's wrapper makes it the `OperationalError` the
    # consumers answer with `unavailable` (as any statement's), not a server error.
    with conn.wrap_database_errors, conn.connection.pipeline():
        yield


def insert_rows(model: type[Model], names: Sequence[str], rows: list[Sequence]) -> None:
    """bulk_create for these fields, each row its values in `names` order (a foreign key's
    value is its id), without the query compiler or model instances (ids are not read back).

    For a move's rows, and for the rows a game's end writes on the same database
    thread (ratings, notifications)."""
    conn = _connection()
    fields = [model._meta.get_field(name) for name in names]
    before = kept.mark(conn)
    with conn.cursor() as cursor:
        cursor.executemany(
            _insert_sql(model, tuple(names)),
            [
                [prepared(f, value, conn) for f, value in zip(fields, row, strict=True)]
                for row in rows
            ],
        )
    kept.wrote(None, conn, before)


# The (field, type) pairs whose value the ORM prepares for the database by handing
# the value back as it is: an int for an integer column, a str for a text one, a
# bool. Learned from the ORM itself on first use (see `prepared`).
_as_is: set[tuple[Any, type]] = set()
_PLAIN = (int, str, bool)


def prepared(field: Any, value: Any, conn: Any) -> Any:
    """`field.get_db_prep_save(value, conn)`, without the call when it gives the value back.

    A move writes about seventeen values; the ORM's preparation goes through
    three or four calls each even where it returns the value itself, about a
    tenth of a move's writes on SQLite (docs/PERFORMANCE.md, issue 44). Those
    conversions (int(), str(), bool()) depend on the value's type alone, so
    once the ORM handed an int, a str or a bool back unchanged for a field, the
    same type is handed back for it again; anything else (dates, JSON, None)
    always goes through the ORM.
    """
    kind = type(value)
    if (field, kind) in _as_is:
        return value
    ready = field.get_db_prep_save(value, conn)
    if ready is value and kind in _PLAIN:
        _as_is.add((field, kind))
    return ready


@_per_vendor
def _insert_sql(model: type, names: tuple[str, ...]) -> str:
    columns = ", ".join(_quote(model._meta.get_field(name).column) for name in names)
    marks = ", ".join(["%s"] * len(names))
    return f"INSERT INTO {_quote(model._meta.db_table)} ({columns}) VALUES ({marks})"


def _connection() -> Any:
    # The thread's connection itself: `connection` is a proxy that looks it up
    # again on every attribute read, and the fields read several per value.
    return connections[DEFAULT_DB_ALIAS]


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)
