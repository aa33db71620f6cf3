"""A table's rows kept between moves (games.services.kept, issue 44): a move takes the
rows the move before left only while nothing wrote them since, whoever the writer.

On both databases: SQLite's stamp is kept by triggers, PostgreSQL's is the rows'
transaction ids.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterator

import pytest
from django.db import connection, transaction

from club.models import Player, Series
from games import registry, services
from games.models import Seat, Table, Variant
from games.services import kept
from games.services.common import current_game, locked_table_game_seats
from tests.support.members import member

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("default_variants"),
]
sqlite_only = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the stamp's triggers are SQLite's (games 0016)"
)

MIGRATION = importlib.import_module("games.migrations.0016_kept_rows_stamp")


def _started_table(series: Series | None = None) -> Table:
    anna, boris = member("Anna"), member("Boris")
    variant = Variant.objects.get(name="Devyatka")
    table, _ = services.create_table(anna, variant, 2, series=series)
    services.join_table(boris, table.pk)
    return Table.objects.get(pk=table.pk)


def _move(table_id: int) -> None:
    """The player to move plays their first legal move."""
    table = Table.objects.get(pk=table_id)
    game = current_game(table)
    engine = registry.engine(game.game)
    state = engine.from_json(game.state)
    seat = engine.actors(state)[0]
    move = engine.view(state, seat)["legal"][0]
    services.play_move(game.players[seat], table_id, move, table.version)


def _rows(table_id: int) -> tuple[Table, object, list[Seat], bool]:
    """A move's rows for the table, and whether they were read (not taken as kept)."""
    holding = kept.holding(table_id)
    with transaction.atomic():
        table, game, seats = locked_table_game_seats(table_id)
    return table, game, seats, table is not holding


@pytest.fixture
def table() -> Table:
    table = _started_table()
    _move(table.pk)
    return table


def test_a_move_takes_the_rows_the_move_before_left(table):
    _move(table.pk)
    kept_table, game, seats, read = _rows(table.pk)
    assert not read
    # What was taken is what the database holds.
    assert kept_table.version == Table.objects.get(pk=table.pk).version
    assert game.version == current_game(table).version
    assert game.state == current_game(table).state
    assert [s.player.display_name for s in seats] == ["Anna", "Boris"]


def test_taken_rows_are_taken_once(table):
    _first, _game, _seats, read_first = _rows(table.pk)
    _again, _game, _seats, read_again = _rows(table.pk)
    assert (read_first, read_again) == (False, True)


def _rename_member(table: Table) -> Callable[[], object]:
    player = Player.objects.get(display_name="Boris")
    player.display_name = "Boris Renamed"
    player.save()
    return lambda rows: rows[2][1].player.display_name == "Boris Renamed"


def _seat_away_by_queryset(table: Table) -> Callable[[], object]:
    Seat.objects.filter(table=table, position=1).update(handed_over=True)
    return lambda rows: rows[2][1].handed_over


def _variant_in_the_admin(table: Table) -> Callable[[], object]:
    variant = Variant.objects.get(pk=table.variant_id)
    variant.turn_seconds = 77
    variant.save()
    return lambda rows: rows[0].variant.turn_seconds == 77


def _table_by_raw_sql(table: Table) -> Callable[[], object]:
    with connection.cursor() as cursor:
        cursor.execute("UPDATE games_table SET abort_reason = 'raw' WHERE id = %s", [table.pk])
    return lambda rows: rows[0].abort_reason == "raw"


def _game_by_raw_sql(table: Table) -> Callable[[], object]:
    with connection.cursor() as cursor:
        cursor.execute("UPDATE games_game SET seed = 4242 WHERE table_id = %s", [table.pk])
    return lambda rows: rows[1].seed == 4242


def _seat_from_another_connection(table: Table) -> Callable[[], object]:
    _in_another_connection(lambda: Seat.objects.filter(table=table, position=0).update(missed=3))
    return lambda rows: rows[2][0].missed == 3


@pytest.mark.parametrize(
    "writer",
    [
        _rename_member,
        _seat_away_by_queryset,
        _variant_in_the_admin,
        _table_by_raw_sql,
        _game_by_raw_sql,
        _seat_from_another_connection,
    ],
)
def test_any_write_since_the_move_makes_the_next_move_read(table, writer):
    seen = writer(table)
    kept_table, game, seats, read = _rows(table.pk)
    assert read
    assert seen((kept_table, game, seats))


def test_a_series_renamed_since_the_move_is_read_again():
    variant = Variant.objects.get(name="Devyatka")
    series = Series.objects.create(name="Winter", slug="winter", variant=variant)
    table = _started_table(series=series)
    _move(table.pk)
    Series.objects.filter(pk=series.pk).update(name="Spring")
    kept_table, _game, _seats, read = _rows(table.pk)
    assert read
    assert kept_table.series.name == "Spring"


def test_a_rolled_back_move_keeps_nothing(table):
    version = Table.objects.get(pk=table.pk).version

    class Undo(Exception):
        pass

    with pytest.raises(Undo), transaction.atomic():
        _move(table.pk)
        raise Undo
    kept_table, _game, _seats, read = _rows(table.pk)
    assert read
    assert kept_table.version == version


@pytest.mark.parametrize("row", ["a seat the move leaves alone", "the table the move writes too"])
def test_a_move_whose_transaction_wrote_elsewhere_keeps_nothing(table, monkeypatch, row):
    """A write inside the move that did not go through the move's objects (as a game's
    end saves through the ORM): the objects no longer say what the database holds.
    The table's row is also written by the move itself, after this write."""
    from games.services import pace

    emit_turns = pace.emit_turns

    def and_write(table_, game, seats, to, deadline):
        if row == "a seat the move leaves alone":
            Seat.objects.filter(table=table_, position=0).update(missed=5)
        else:
            Table.objects.filter(pk=table_.pk).update(abort_reason="written")
        return emit_turns(table_, game, seats, to, deadline)

    monkeypatch.setattr(pace, "emit_turns", and_write)
    _move(table.pk)
    kept_table, _game, seats, read = _rows(table.pk)
    assert read
    if row == "a seat the move leaves alone":
        assert seats[0].missed == 5
    else:
        assert kept_table.abort_reason == "written"


@pytest.mark.postgres
def test_a_member_renamed_by_another_connection_during_the_move_keeps_nothing(table, monkeypatch):
    """PostgreSQL has no write lock over the whole database: a member's row can change
    while a move runs. Committed after the move read its rows, it is in the move's
    last stamp but not in its objects, so they are not kept."""
    from games.services import pace

    emit_turns = pace.emit_turns

    def and_rename(*args):
        _in_another_connection(
            lambda: Player.objects.filter(display_name="Boris").update(display_name="Borya")
        )
        return emit_turns(*args)

    monkeypatch.setattr(pace, "emit_turns", and_rename)
    _move(table.pk)
    monkeypatch.undo()
    _table, _game, seats, read = _rows(table.pk)
    assert read
    assert seats[1].player.display_name == "Borya"


def _in_another_connection(write: Callable[[], object]) -> None:
    def other() -> None:
        try:
            write()
        finally:
            connection.close()

    thread = threading.Thread(target=other)
    thread.start()
    thread.join(30)


@pytest.fixture
def without_a_trigger() -> Iterator[None]:
    name = "games_stamp_seat_update"
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TRIGGER {name}")
    kept.forget()
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE TRIGGER {name} {MIGRATION.TRIGGERS[name]}")
        kept.forget()


@sqlite_only
def test_without_every_trigger_every_move_reads(table, without_a_trigger):
    _move(table.pk)
    _move(table.pk)
    _table, _game, _seats, read = _rows(table.pk)
    assert read


@sqlite_only
def test_the_migration_makes_the_triggers_the_service_looks_for():
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        made = {row[0] for row in cursor.fetchall()}
    assert set(kept.TRIGGERS) == set(MIGRATION.TRIGGERS)
    assert made.issuperset(kept.TRIGGERS)


def test_a_rematch_answer_keeps_the_rows_for_the_next_seats_answer():
    table = _started_table()
    while Table.objects.get(pk=table.pk).status == Table.Status.PLAYING:
        _move(table.pk)
    anna, boris = (Player.objects.get(display_name=name) for name in ("Anna", "Boris"))
    services.play_again_by_id(anna.pk, table.pk)
    kept_table, _game, seats, read = _rows(table.pk)
    assert not read  # the rows Anna's answer left
    assert [s.rematch for s in seats] == [True, False]
    assert kept_table.version == Table.objects.get(pk=table.pk).version
    services.play_again_by_id(boris.pk, table.pk)  # both in: the next deal
    # The deal wrote through the ORM: the next move reads the new game.
    _table, game, seats, read = _rows(table.pk)
    assert read
    assert game.number == 2 and game.version == 0
    assert [s.rematch for s in seats] == [False, False]
