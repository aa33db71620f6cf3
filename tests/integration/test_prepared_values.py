"""The hot path's writes prepare each value as the ORM would (games.services.common
`prepared`, issue 44): the same value for the database, whether the ORM was asked or
its answer for that field and type was remembered."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection

from games.models import Game, Move, Seat, Table
from games.services import common

pytestmark = pytest.mark.django_db

WHEN = datetime.datetime(2026, 12, 7, 1, 2, 3, 456789, tzinfo=datetime.UTC)

# Values of the kinds a move writes, and a few it never does (a bool for an
# integer, an int for text), for every field the hot path writes.
VALUES = [7, 0, True, False, "7", "7♠", "", None, WHEN, 3.5, {"a": [1, 2]}, [1, 2], "x" * 300]
FIELDS = [
    (Move, ("game", "number", "seat", "move", "auto", "created")),
    (Game, ("state", "version", "simultaneous_since", "result", "finished", "resigned")),
    (Table, ("version", "status", "updated", "turn_started", "turn_deadline", "abort_reason")),
    (Seat, ("handed_over", "missed", "rematch", "away_since", "resigned_at", "position")),
]


def _comparable(value):
    # psycopg's wrappers (Jsonb, Int4, ...) compare by identity: compare what they wrap.
    return (type(value).__name__, getattr(value, "obj", value))


def _orm(field, value):
    try:
        return ("value", _comparable(field.get_db_prep_save(value, connection)))
    except Exception as exc:  # noqa: BLE001 - whatever the ORM refuses, refused alike
        return ("error", type(exc))


def _ours(field, value):
    try:
        return ("value", _comparable(common.prepared(field, value, connection)))
    except Exception as exc:  # noqa: BLE001
        return ("error", type(exc))


@pytest.mark.parametrize("model,names", FIELDS, ids=[m.__name__ for m, _n in FIELDS])
def test_each_value_is_prepared_as_the_orm_prepares_it(model, names):
    for name in names:
        field = model._meta.get_field(name)
        for _twice in range(2):  # asked, then remembered
            for value in VALUES:
                assert _ours(field, value) == _orm(field, value), (name, value)


def test_a_remembered_field_and_type_skips_the_orm(monkeypatch):
    # A move's text: handed back as it is on either database (PostgreSQL's integers
    # come back wrapped for the driver, so those always go through the ORM).
    field = Move._meta.get_field("move")
    assert common.prepared(field, "7♠", connection) == "7♠"

    def refuse(*args, **kwargs):
        raise AssertionError("asked the ORM again")

    monkeypatch.setattr(field, "get_db_prep_save", refuse)
    assert common.prepared(field, "8♥", connection) == "8♥"
    with pytest.raises(AssertionError):
        common.prepared(field, WHEN, connection)  # another type: the ORM's
