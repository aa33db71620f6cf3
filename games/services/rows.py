"""Rows read and written without Django's query compiler: the hot path's SQL machinery.

A move, a deal and a game's end read and write their rows through these helpers
(games.services.common builds the table's reads on them); the results are
ordinary model instances, built and prepared by the fields as the ORM would.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import JSONField, Model
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init

from games.services import kept

# The reads and writes below run on every move, so they skip Django's query
# compiler, which cost about 0.8 ms a query on this machine class against
# 0.13 ms for `raw()` (tests/bench/bench_moves.py, docs/PERFORMANCE.md).
# `raw()` still builds model instances with the fields' converters, and the
# writes prepare values through the fields, so callers see ordinary models.


@functools.cache
def vendor() -> str:
    """The kind of database behind the default alias: fixed once settings are read.

    Asking the `connection` proxy looks the thread's connection up through an
    asgiref Local, a few microseconds each; a move asked about 35 times, about a
    tenth of its database work on SQLite (docs/PERFORMANCE.md, issue 44). For the
    same reason the hot path below looks its connection up once and passes it on.
    """
    return connections[DEFAULT_DB_ALIAS].vendor


def per_vendor(build: Callable[..., str]) -> Callable[..., str]:
    """Remember each SQL text `build` makes, per kind of database and arguments.

    The texts of the hot path depend on nothing else; building them (column
    lists, quoting through the connection) on every move cost about 3% of the
    server's Python time under load (docs/PERFORMANCE.md, issue 26).
    """
    built: dict[tuple, str] = {}

    def sql(*args: Any) -> str:
        key = (vendor(), *args)
        text = built.get(key)
        if text is None:
            text = built[key] = build(*args)
        return text

    return sql


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


def shape(model: type) -> _Shape:
    key = (model, vendor())
    shape = _shapes.get(key)
    if shape is None:
        shape = _shapes[key] = _Shape(model, this_connection())
    return shape


def attach(instance: Any, name: str, related: Any) -> None:
    """`instance.<name> = related` for a foreign key whose id the row already holds.

    The descriptor's assignment checks the instance's type and database and sets
    the id again; for rows read together those hold by construction.
    """
    type(instance)._meta.get_field(name).set_cached_value(instance, related)


def fetch_one(sql: str, params: list, conn: Any) -> tuple | None:
    with conn.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def save_fields(instance: Model, *names: str) -> None:
    """save(update_fields=names), without the query compiler."""
    model = type(instance)
    fields = [model._meta.get_field(name) for name in names]
    conn = this_connection()
    # Each field prepares its own value, exactly as the ORM would (JSON,
    # datetimes, booleans, on either database).
    values = [prepared(f, getattr(instance, f.attname), conn) for f in fields]
    before = kept.mark(conn)
    with conn.cursor() as cursor:
        cursor.execute(_update_sql(model, names), [*values, instance.pk])
    kept.wrote(instance, conn, before)


@per_vendor
def _update_sql(model: type, names: tuple[str, ...]) -> str:
    sets = ", ".join(f"{quote(model._meta.get_field(name).column)} = %s" for name in names)
    return f"UPDATE {quote(model._meta.db_table)} SET {sets} WHERE id = %s"


# The thread's open pipeline (`pipelined`), so that an inner block joins it and a
# move can leave it halfway (`leave_pipeline`). A thread has one connection.
_open = threading.local()


@contextlib.contextmanager
def pipelined() -> Iterator[None]:
    """On PostgreSQL, the block's statements go to the server without each waiting for the
    answer to the one before (psycopg's pipeline mode; a statement whose rows are read
    still waits for them). A move's writes (its rows, the game, the table) then cost one
    network round trip instead of one each (docs/PERFORMANCE.md, issue 44). Elsewhere
    nothing changes.

    A block inside another joins it: psycopg would end a nested pipeline with a round
    trip of its own, even with nothing left to send. So a move opens one pipeline from
    its lock to its commit, and its reads and writes go in it."""
    if vendor() != "postgresql" or getattr(_open, "pipeline", None) is not None:
        yield
        return
    conn = this_connection()
    conn.ensure_connection()
    # psycopg sends what the pipeline holds, and reads the answers, when the block
    # ends: an error there (the server gone mid-move) comes from psycopg itself, not
    # through a Django cursor. Django's wrapper makes it the `OperationalError` the
    # consumers answer with `unavailable` (as any statement's), not a server error.
    with contextlib.ExitStack() as stack:
        stack.enter_context(conn.wrap_database_errors)
        stack.enter_context(conn.connection.pipeline())
        _open.pipeline = stack  # `leave_pipeline` closes it early; then this exit does nothing
        try:
            yield
        finally:
            _open.pipeline = None


def leave_pipeline() -> None:
    """End the thread's pipeline now, its answers read (before writes through the ORM,
    which needs each one's row count at once); the block it was opened by goes on
    without one."""
    stack = getattr(_open, "pipeline", None)
    if stack is not None:
        _open.pipeline = None
        stack.close()


def commit_in_pipeline() -> bool:
    """Inside `pipelined()`, when the transaction is the outermost atomic block: queue its
    COMMIT behind the block's statements, so a move's writes and its commit share one
    round trip (docs/PERFORMANCE.md, issue 44). The block's own commit then finds the
    transaction done and sends nothing. Not inside an outer atomic block (a test's, a
    caller's): that one decides. Returns whether it committed.

    The move stands once the pipeline has ended without an error, whatever happens
    after: so the caller writes nothing more (what it sent would be a new transaction,
    committed or rolled back alone by the atomic block's end) and does nothing that can
    fail (an error then would be answered while the move stands). `play_move` and
    `play_automatic` only keep their rows, from answers already read.
    """
    if vendor() != "postgresql":
        return False
    conn = this_connection()
    if len(conn.atomic_blocks) != 1 or conn.savepoint_ids or conn.needs_rollback:
        return False
    # Queued, not `commit()`: psycopg's commit would sync the pipeline there and then,
    # and the block's end would sync again, one round trip each, as before. psycopg
    # reads the transaction's end from the server's answer, as for any statement.
    with conn.connection.cursor() as cursor:
        cursor.execute("COMMIT", prepare=False)
    return True


def insert_rows(model: type[Model], names: Sequence[str], rows: list[Sequence]) -> None:
    """bulk_create for these fields, each row its values in `names` order (a foreign key's
    value is its id), without the query compiler or model instances (ids are not read back).

    For a move's rows, and for the rows a game's end writes on the same database
    thread (ratings, notifications)."""
    conn = this_connection()
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


def insert_instances(objs: Sequence[Model]) -> None:
    """`bulk_create(objs)` without the query compiler: one INSERT, the new ids set on them.

    For the rows a game's end and a deal write (results, the next game). Each field
    prepares its value as the ORM's insert does (`pre_save`: a creation time is set
    here). Ids come back by `RETURNING`, in the order of the rows, as bulk_create
    reads them on both databases. The writes are not counted for the kept rows
    (games.services.kept): a transaction that makes one leaves its table to be
    read afresh, as an ORM write would.
    """
    if not objs:
        return
    model = type(objs[0])
    conn = this_connection()
    fields = _insert_fields(model)
    params = [prepared(f, f.pre_save(obj, True), conn) for obj in objs for f in fields]
    with conn.cursor() as cursor:
        cursor.execute(_insert_returning_sql(model, len(objs)), params)
        ids = [row[0] for row in cursor.fetchall()]
    for obj, pk in zip(objs, ids, strict=True):
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = conn.alias


def _insert_fields(model: type) -> list:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@per_vendor
def _insert_returning_sql(model: type, count: int) -> str:
    fields = _insert_fields(model)
    columns = ", ".join(quote(f.column) for f in fields)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    values = ", ".join([row] * count)
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES {values} RETURNING id"


def read_rows(model: type[Model], where: str, params: Sequence, lock: bool = False) -> list:
    """`model.objects.filter(...)` as instances, without the query compiler.

    `where` is SQL on the model's table, aliased `r`, and may end with an ORDER BY
    (a fixed text: each one is remembered); `lock`: FOR UPDATE where the database
    has it (SQLite's write transaction already holds its one lock).
    """
    conn = this_connection()
    model_shape = shape(model)
    with conn.cursor() as cursor:
        cursor.execute(_read_rows_sql(model, where, lock), list(params))
        rows = cursor.fetchall()
    return [model_shape.build(row, 0, conn) for row in rows]


@per_vendor
def _read_rows_sql(model: type, where: str, lock: bool) -> str:
    suffix = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    table = quote(model._meta.db_table)
    return f"SELECT {shape(model).select('r')} FROM {table} r WHERE {where}{suffix}"


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


@per_vendor
def _insert_sql(model: type, names: tuple[str, ...]) -> str:
    columns = ", ".join(quote(model._meta.get_field(name).column) for name in names)
    marks = ", ".join(["%s"] * len(names))
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})"


def this_connection() -> Any:
    # The thread's connection itself: `connection` is a proxy that looks it up
    # again on every attribute read, and the fields read several per value.
    return connections[DEFAULT_DB_ALIAS]


def quote(name: str) -> str:
    return connection.ops.quote_name(name)
