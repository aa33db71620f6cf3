"""A move's reads (games.services.common.locked_table_game_seats) see what the move before
it committed, on either database (issue 44).

On SQLite the three reads are one statement: the IMMEDIATE transaction holds the
write lock from its start. On PostgreSQL a statement that waited for a row lock sees
the locked row's newest version but the joined rows as they were when it began, so
there the table is locked first and read after.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from games import services
from games.models import Variant
from games.services.common import (
    current_game,
    locked_table,
    locked_table_game_seats,
    save_fields,
)
from tests.support.members import member

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("default_variants"),
]


def _while_the_table_is_held(table_id: int, change, then) -> None:
    """`change(table)` in a transaction holding the table's lock for half a second, and
    `then()` in another thread once the lock is held (so it meets the lock)."""
    held = threading.Event()

    def holder() -> None:
        try:
            with transaction.atomic():
                change(locked_table(table_id))
                held.set()
                time.sleep(0.5)  # the other thread meanwhile waits for the table
        finally:
            connection.close()

    def other() -> None:
        try:
            assert held.wait(30)
            then()
        finally:
            connection.close()

    threads = [threading.Thread(target=holder), threading.Thread(target=other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)


def test_a_move_that_waited_for_the_table_reads_the_game_the_other_move_left():
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2)
    services.join_table(boris, table.pk)
    before = current_game(table).version
    seen: list[int] = []

    def move_on(locked) -> None:
        game = current_game(locked)
        game.version += 5
        save_fields(game, "version")

    def second_move() -> None:
        with transaction.atomic():
            _table, game, seats = locked_table_game_seats(table.pk)
            seen.append(game.version)
            assert [s.player_id for s in seats] == [anna.pk, boris.pk]

    _while_the_table_is_held(table.pk, move_on, second_move)
    assert seen == [before + 5]


def test_a_move_whose_writes_fail_changes_nothing():
    """The move's writes go to PostgreSQL without waiting for each answer (pipelined): a
    write that fails still fails the move, and the whole move is rolled back."""
    from django.utils import timezone

    from games import registry
    from games.models import Game, Move, Table

    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2)
    services.join_table(boris, table.pk)
    table.refresh_from_db()
    game = current_game(table)
    engine = registry.engine(game.game)
    state = engine.from_json(game.state)
    seat = engine.actors(state)[0]
    move = engine.view(state, seat)["legal"][0]
    # A row already holding the move's number: its insert breaks the unique constraint.
    Move.objects.create(
        game=game, number=game.version + 1, seat=seat, move=move, auto=False, created=timezone.now()
    )
    with pytest.raises(Exception):  # noqa: B017 - the driver's own error, whichever database
        services.play_move(game.players[seat], table.pk, move, table.version)
    after = Table.objects.get(pk=table.pk)
    assert after.version == table.version
    assert Game.objects.get(pk=game.pk).state == game.state
    assert Move.objects.filter(game=game).count() == 1
