"""What every service shares: errors, broadcasts, and the raw reads and writes of the hot path."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.utils.translation import gettext_lazy as _

from club.models import Player, Series
from games.models import Game, Move, Seat, Table, Variant


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
# Reading


# The reads and writes below run on every move, so they skip Django's query
# compiler, which cost about 0.8 ms a query on this machine class against
# 0.13 ms for `raw()` (tests/bench/bench_moves.py, docs/PERFORMANCE.md).
# `raw()` still builds model instances with the fields' converters, and the
# writes prepare values through the fields, so callers see ordinary models.


def _locked_table(table_id: int) -> Table:
    """The table, locked for this transaction, with its variant and series loaded."""
    # The table row is the lock for everything at that table (see module doc).
    # SQLite has no FOR UPDATE: its IMMEDIATE transaction already holds the write lock.
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    table = _first(Table.objects.raw(f"SELECT * FROM games_table WHERE id = %s{lock}", [table_id]))
    if table is None:
        raise ServiceError("not_found", _("There is no such table."))
    table.variant = Variant.objects.raw(
        "SELECT * FROM games_variant WHERE id = %s", [table.variant_id]
    )[0]
    if table.series_id:
        table.series = Series.objects.raw(
            "SELECT * FROM club_series WHERE id = %s", [table.series_id]
        )[0]
    return table


def current_game(table: Table) -> Game | None:
    """The table's latest game (the one being played, or the last one finished)."""
    return _first(
        Game.objects.raw(
            "SELECT * FROM games_game WHERE table_id = %s ORDER BY number DESC LIMIT 1", [table.pk]
        )
    )


def _seats(table: Table) -> list[Seat]:
    """The table's seats in order, each with its player loaded."""
    seats = list(
        Seat.objects.raw(
            "SELECT * FROM games_seat WHERE table_id = %s ORDER BY position", [table.pk]
        )
    )
    if seats:
        marks = ", ".join(["%s"] * len(seats))
        players = Player.objects.raw(
            f"SELECT * FROM club_player WHERE id IN ({marks})", [s.player_id for s in seats]
        )
        by_id = {p.pk: p for p in players}
        for seat in seats:
            seat.player = by_id[seat.player_id]
    return seats


def _first(rows: Any) -> Any:
    return next(iter(rows), None)


def _save(instance: Table | Game | Seat, *names: str) -> None:
    """save(update_fields=names), without the query compiler."""
    model = type(instance)
    fields = [model._meta.get_field(name) for name in names]
    sets = ", ".join(f"{_quote(f.column)} = %s" for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_quote(model._meta.db_table)} SET {sets} WHERE id = %s",
            [*_db_values(instance, fields), instance.pk],
        )


def _insert(model: type[Move], names: Sequence[str], rows: list[Move]) -> None:
    """bulk_create(rows) for these fields, without the query compiler (ids are not read back)."""
    fields = [model._meta.get_field(name) for name in names]
    columns = ", ".join(_quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {_quote(model._meta.db_table)} ({columns}) VALUES ({marks})",
            [_db_values(row, fields) for row in rows],
        )


def _db_values(instance: Any, fields: list) -> list:
    # Each field prepares its own value, exactly as the ORM would (JSON,
    # datetimes, booleans, on either database).
    return [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)
