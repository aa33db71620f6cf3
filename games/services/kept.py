"""A table's rows, kept by the process that made its last move, while nobody writes them.

A move reads the table, its variant and series, its latest game and its seats with
their members: about a third of its database work on SQLite (docs/PERFORMANCE.md,
issue 44). The process that made the move before holds those rows already, as that
move left them. It keeps them, and the next move at the table takes them instead
of reading them, when the table's stamp is still the one the move left.

The stamp is a row of games_tablestamp (migration games 0016) that SQLite triggers
renew, with a random number, on every write to the table's row, its seats, its
games, and the variant, series and members it reads: whoever writes, this process
or another, a service, the admin or raw SQL. A move reads the stamp under the
transaction's write lock (SQLite has one writer at a time), so a stamp that
matches means nothing was written since the rows were kept.

The kept rows are what the move's own objects say, so they are kept only when
every write of its transaction went through them (`save_fields`, and the move's
rows, which nothing here reads): the connection's count of changed rows must
grow by exactly those writes. Any other write (a game's end saved through the
ORM, a hook's) leaves the table to be read afresh. A move takes them out
(`take`), so two moves never hold the same objects.

They are kept at once, with the stamp the move's own writes left: should the
transaction roll back, that stamp goes with it and the rows are never taken (no
later write makes the same random number again), so nothing waits for the
commit (an after-commit callback a move would cost for nothing).

SQLite only: on PostgreSQL nothing keeps rows (see the migration for why).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

# The triggers migration games 0016 makes; without every one of them nothing is kept.
TRIGGERS = (
    "games_stamp_table_insert",
    "games_stamp_table_update",
    "games_stamp_table_delete",
    "games_stamp_seat_insert",
    "games_stamp_seat_update",
    "games_stamp_seat_delete",
    "games_stamp_game_insert",
    "games_stamp_game_update",
    "games_stamp_game_delete",
    "games_stamp_variant_update",
    "games_stamp_series_update",
    "games_stamp_player_update",
)

_STAMP_SQL = "SELECT stamp FROM games_tablestamp WHERE table_id = %s"

# Tables a process keeps at once: a few thousand tables' rows.
_KEPT_MAX = 4096


@dataclass
class _Kept:
    stamp: int
    table: Any
    game: Any
    seats: list


@dataclass
class _Watch:
    """A move's writes so far: its objects, and the changed rows they explain."""

    table_id: int
    owned: set[int]
    start: int
    known: int = 0


# No lock: each get, pop and set is one dict operation, and a table's moves run one
# at a time (the database's write lock).
_kept: dict[int, _Kept] = {}
_ready: bool | None = None
_local = threading.local()


def ready(conn: Any) -> bool:
    """Whether rows can be kept on this database: SQLite with every trigger in place."""
    global _ready
    if _ready is None:
        _ready = conn.vendor == "sqlite" and _triggers_made(conn)
    return _ready


def forget() -> None:
    """Drop every kept row and look for the triggers again (after a schema change)."""
    global _ready
    _ready = None
    _kept.clear()


def take(table_id: int, conn: Any) -> tuple[Any, Any, list] | None:
    """The table's kept (table, game, seats), if nothing wrote them since; taken out."""
    if not ready(conn):
        return None
    kept = _kept.pop(table_id, None)
    if kept is None or _stamp(table_id, conn) != kept.stamp:
        return None
    return kept.table, kept.game, kept.seats


def watch(table: Any, game: Any, seats: list, conn: Any) -> None:
    """A move starts with these rows: count the writes that go through them."""
    if not ready(conn):
        return
    owned = {id(table), id(game), *(id(seat) for seat in seats)}
    _local.watch = _Watch(table.pk, owned, conn.connection.total_changes)


def mark(conn: Any) -> int | None:
    """Before a write: the changed rows so far, when a move is watched."""
    if getattr(_local, "watch", None) is None:
        return None
    return conn.connection.total_changes


def wrote(instance: Any, conn: Any, before: int | None) -> None:
    """After a write to `instance`'s row (None: a move's rows, which nothing kept reads)."""
    watched = getattr(_local, "watch", None)
    if before is None or watched is None:
        return
    if instance is None or id(instance) in watched.owned:
        watched.known += conn.connection.total_changes - before


def keep(table: Any, game: Any, seats: list) -> None:
    """The move is done: keep its rows, if they are what the database now holds."""
    conn = connections[DEFAULT_DB_ALIAS]  # the thread's own (see games.services.common)
    watched = getattr(_local, "watch", None)
    _local.watch = None
    if watched is None or watched.table_id != table.pk or id(table) not in watched.owned:
        return
    if conn.connection.total_changes - watched.start != watched.known:
        return  # a write that did not go through these objects
    stamp = _stamp(table.pk, conn)
    if stamp is not None:
        if len(_kept) >= _KEPT_MAX:
            _kept.clear()
        _kept[table.pk] = _Kept(stamp, table, game, seats)


def _stamp(table_id: int, conn: Any) -> int | None:
    with conn.cursor() as cursor:
        cursor.execute(_STAMP_SQL, [table_id])
        row = cursor.fetchone()
    return None if row is None else row[0]


def _triggers_made(conn: Any) -> bool:
    with conn.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        found = {row[0] for row in cursor.fetchall()}
    return found.issuperset(TRIGGERS)
