"""A table's rows, kept by the process that made its last move, while nobody writes them.

A move reads the table, its variant and series, its latest game and its seats with
their members: about a third of its database work on SQLite, half of the database
thread's on PostgreSQL (docs/PERFORMANCE.md, issue 44). The process that made the
move before holds those rows already, as that move left them. It keeps them, and
the next move at the table takes them instead of reading them, when the table's
stamp is still the one the move left.

The kept rows are what the move's own objects say, so they are kept only when
every write of its transaction to them went through those objects (`save_fields`;
the move's rows, which nothing here reads, do not count). Any other write (a
game's end saved through the ORM, a hook's) leaves the table to be read afresh. A
move takes them out (`take`, `held`), so two moves never hold the same objects.
Each database has its own stamp:

SQLite: a row of games_tablestamp (migration games 0016) that triggers renew, with a
random number, on every write to the table's row, its seats, its games, and the
variant, series and members it reads: whoever writes, this process or another, a
service, the admin or raw SQL. A move reads the stamp under the transaction's
write lock (SQLite has one writer at a time), so a stamp that matches means
nothing was written since the rows were kept. The move's own writes are counted
by the connection's count of changed rows, which must grow by exactly those. The
rows are kept at once, with the stamp the move's own writes left: should the
transaction roll back, that stamp goes with it and the rows are never taken (no
later write makes the same random number again).

PostgreSQL: no trigger (one on a member's row would lock the stamps of the tables
it touches in the opposite order to a move's). Every row version there carries the
id of the transaction that wrote it (`xmin`), so the stamp is those ids, for each
row a move reads (`STAMP`): any committed write since, by anyone, changes one.
The move reads it after it holds the table's lock, in the same round trip as the
read, which then sends no rows when the stamp is the kept one
(games.services.common). Its last statement (`seal`, in the move's last round
trip) reads the stamp again with the transaction's counts of written rows: the
rows are kept when those counts are the move's own writes, and the stamp changed
only where the move wrote, to the move's own transaction id. A rolled-back move's
id is never seen on a row, so its rows are never taken. What this cannot see: a
write that skips the table's lock (the admin, raw SQL) to a row the move itself
writes, committed between the move's read and its write; the kept rows then miss
that write's other fields until the table is next read (a game's end at the
latest). Every service writes a table's rows under its lock.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
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

# PostgreSQL's stamp of table %s: "<kind><id>:<xmin>" for each row a move reads, the
# table, its variant, series and latest game, and each seat with its member, seats by
# id. NULL for no such table. concat() reads a missing row (no series, a seat
# without a member) as empty text.
STAMP = (
    "SELECT concat_ws(' ', concat('t', t.id, ':', t.xmin), concat('v', v.id, ':', v.xmin), "
    "concat('s', s.id, ':', s.xmin), concat('g', g.id, ':', g.xmin), "
    "(SELECT string_agg(concat('st', st.id, ':', st.xmin, ' p', p.id, ':', p.xmin), ' ' "
    "ORDER BY st.id) FROM games_seat st LEFT JOIN club_player p ON p.id = st.player_id "
    "WHERE st.table_id = t.id)) AS stamp "
    "FROM games_table t JOIN games_variant v ON v.id = t.variant_id "
    "LEFT JOIN club_series s ON s.id = t.series_id "
    "LEFT JOIN games_game g ON g.table_id = t.id AND g.number = "
    "(SELECT MAX(g2.number) FROM games_game g2 WHERE g2.table_id = t.id) "
    "WHERE t.id = %s"
)

# How many rows of the tables a move writes through its objects this connection has
# inserted, updated or deleted and not yet reported to the server's statistics: the
# transaction's writes, and those of the connection's earlier transactions, which are
# reported only once it is idle outside a transaction. So a move reads it twice, with
# its lock and at its end: the difference is its own transaction's.
WRITES = " + ".join(
    f"pg_stat_get_xact_tuples_{count}('{table}'::regclass)"
    for table in ("games_table", "games_game", "games_seat")
    for count in ("inserted", "updated", "deleted")
)

# The end of a move on PostgreSQL: the stamp again, the transaction's own id, and
# the writes so far.
_SEAL_SQL = f"SELECT ({STAMP}), xid(pg_current_xact_id_if_assigned())::text, {WRITES}"

# A written row's kind in the stamp, by its table.
_KINDS = {"games_table": "t", "games_game": "g", "games_seat": "st"}

# Tables a process keeps at once: a few thousand tables' rows.
_KEPT_MAX = 4096


@dataclass
class _Kept:
    stamp: Any
    table: Any
    game: Any
    seats: list


@dataclass
class _Watch:
    """A move's writes so far: its objects, and the changed rows they explain."""

    table_id: int
    owned: set[int]
    start: Any  # SQLite: the changed-rows count; PostgreSQL: the stamp
    writes: int = 0  # PostgreSQL: `WRITES` when the move took its lock
    known: int = 0
    written: set[str] = field(default_factory=set)  # PostgreSQL: the rows, as the stamp names them
    sealed: Any = None  # PostgreSQL: the cursor of `seal`'s statement
    sealed_at: int = -1  # `known` when it was sent


# No lock: each get, pop and set is one dict operation, and a table's moves run one
# at a time (the table's lock).
_kept: dict[int, _Kept] = {}
_ready: bool | None = None
_local = threading.local()


def ready(conn: Any) -> bool:
    """Whether rows can be kept on this database: SQLite with every trigger in place,
    or PostgreSQL."""
    global _ready
    if _ready is None:
        _ready = conn.vendor == "postgresql" or (conn.vendor == "sqlite" and _triggers_made(conn))
    return _ready


def forget() -> None:
    """Drop every kept row and look for the triggers again (after a schema change)."""
    global _ready
    _ready = None
    _kept.clear()


def holding(table_id: int) -> Any:
    """The table object this process keeps for the table, if any (not taken out)."""
    kept = _kept.get(table_id)
    return None if kept is None else kept.table


def take(table_id: int, conn: Any) -> tuple[Any, Any, list] | None:
    """SQLite: the table's kept (table, game, seats), if nothing wrote them since; taken out."""
    if not ready(conn):
        return None
    kept = _kept.pop(table_id, None)
    if kept is None or _stamp(table_id, conn) != kept.stamp:
        return None
    return kept.table, kept.game, kept.seats


def held(table_id: int, conn: Any) -> _Kept | None:
    """PostgreSQL: the table's kept rows, taken out, for the read to check (`stamp`)."""
    if not ready(conn):
        return None
    return _kept.pop(table_id, None)


def watch(
    table: Any, game: Any, seats: list, conn: Any, stamp: Any = None, writes: int = 0
) -> None:
    """A move starts with these rows (on PostgreSQL, read at `stamp`, `writes` the
    connection's `WRITES` then): count the writes that go through them."""
    if not ready(conn):
        return
    owned = {id(table), id(game), *(id(seat) for seat in seats)}
    start = stamp if conn.vendor == "postgresql" else conn.connection.total_changes
    _local.watch = _Watch(table.pk, owned, start, writes)


def mark(conn: Any) -> int | None:
    """Before a write: the changed rows so far, when a move is watched (SQLite; 0 on
    PostgreSQL, where `wrote` counts the rows itself)."""
    if getattr(_local, "watch", None) is None:
        return None
    return conn.connection.total_changes if conn.vendor == "sqlite" else 0


def wrote(instance: Any, conn: Any, before: int | None) -> None:
    """After a write to `instance`'s row (None: a move's rows, which nothing kept reads)."""
    watched = getattr(_local, "watch", None)
    if before is None or watched is None:
        return
    if instance is None or id(instance) in watched.owned:
        if conn.vendor == "sqlite":
            watched.known += conn.connection.total_changes - before
        elif instance is not None:
            # One row by its primary key: a row gone meanwhile writes none, and the
            # server's count then says so.
            watched.known += 1
            watched.written.add(f"{_KINDS[instance._meta.db_table]}{instance.pk}")


def seal() -> None:
    """PostgreSQL, after a move's last write: send the statement `keep` reads, in the
    move's last round trip (games.services.moves)."""
    watched = getattr(_local, "watch", None)
    conn = connections[DEFAULT_DB_ALIAS]
    if watched is None or conn.vendor != "postgresql":
        return
    cursor = conn.cursor()
    cursor.execute(_SEAL_SQL, [watched.table_id])
    watched.sealed, watched.sealed_at = cursor, watched.known


def keep(table: Any, game: Any, seats: list) -> None:
    """The move is done: keep its rows, if they are what the database now holds."""
    conn = connections[DEFAULT_DB_ALIAS]  # the thread's own (see games.services.common)
    watched = getattr(_local, "watch", None)
    _local.watch = None
    if watched is None or watched.table_id != table.pk or id(table) not in watched.owned:
        return
    if conn.vendor == "postgresql":
        stamp = _sealed_stamp(watched, conn)
    elif conn.connection.total_changes - watched.start != watched.known:
        return  # a write that did not go through these objects
    else:
        stamp = _stamp(table.pk, conn)
    if stamp is not None:
        if len(_kept) >= _KEPT_MAX:
            _kept.clear()
        _kept[table.pk] = _Kept(stamp, table, game, seats)


def _sealed_stamp(watched: _Watch, conn: Any) -> str | None:
    """The stamp to keep the rows at, if only the move's own writes changed them."""
    cursor = watched.sealed
    if cursor is None or watched.sealed_at != watched.known:
        # Not sealed in the move's round trip, or written since: ask now.
        if cursor is not None:
            cursor.close()
        cursor = conn.cursor()
        cursor.execute(_SEAL_SQL, [watched.table_id])
    try:
        stamp, mine, written = cursor.fetchone()
    finally:
        cursor.close()
    if written - watched.writes != watched.known or not watched.start or not stamp:
        return None
    before, after = _rows_of(watched.start), _rows_of(stamp)
    if before.keys() != after.keys():
        return None  # a row came or went
    for row, xmin in after.items():
        if xmin != (mine if row in watched.written else before[row]):
            return None
    return stamp


def _rows_of(stamp: str) -> dict[str, str]:
    return dict(token.split(":") for token in stamp.split(" "))


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
