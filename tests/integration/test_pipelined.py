"""psycopg's pipeline mode (`games.services.common.pipelined`, PostgreSQL only).

A pipeline sends its statements without waiting and reads their answers when it
ends. The server going away in between (a restart mid-move) must surface as the
database-down error every other statement raises, which the consumers answer with
`unavailable`, and not as psycopg's own error, which they would answer with
`server_error` (tests/integration/test_outages.py saw that, once in many runs).

A move is one pipeline from its lock to its COMMIT (`commit_in_pipeline`, issue
44): an inner pipelined block joins the open one, a game's end leaves it before
its ORM writes, and the COMMIT goes only where the move's transaction is the
outermost.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import psycopg
import pytest
from django.db import connection, connections, transaction

from games import registry, services
from games.db import DATABASE_DOWN
from games.models import Move, Table, Variant
from games.services.common import current_game, leave_pipeline, pipelined
from tests.support.members import member

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="pipelines are PostgreSQL's (psycopg)"
    ),
]


def _terminate(pid: int) -> None:
    """End server process `pid` from another connection, and wait until it is gone."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            for _ in range(100):
                cursor.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])
                if cursor.fetchone() is None:
                    return
                time.sleep(0.05)
        raise AssertionError(f"server process {pid} still there")
    finally:
        other.close()


def test_the_server_gone_when_a_pipeline_ends_raises_the_database_down_error():
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    try:
        with pytest.raises(DATABASE_DOWN) as caught:
            with pipelined(), connection.cursor() as cursor:
                # Sent, its answer not read yet: the pipeline reads it as it ends.
                cursor.execute("UPDATE games_table SET name = name WHERE id = -1")
                _terminate(pid)
        # Django's error, made from psycopg's (whichever libpq saw first: the
        # closed socket or the server's goodbye).
        assert isinstance(caught.value.__cause__, psycopg.Error)
    finally:
        connection.close()  # the pool drops the broken connection


def test_a_pipeline_sends_and_reads_on_a_live_server():
    with pipelined(), connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.execute("SELECT 2")
        assert cursor.fetchall() == [(2,)]


def _started_table() -> tuple[Table, int, str]:
    """A started two-seat Devyatka table, the member to move and their first legal move."""
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2)
    services.join_table(boris, table.pk)
    table = Table.objects.get(pk=table.pk)
    game = current_game(table)
    engine = registry.engine(game.game)
    state = engine.from_json(game.state)
    seat = engine.actors(state)[0]
    return table, game.players[seat], engine.view(state, seat)["legal"][0]


def _members_move() -> tuple[Table, Callable[[], object]]:
    table, player_id, move = _started_table()
    return table, lambda: services.play_move(player_id, table.pk, move, table.version)


def _house_move() -> tuple[Table, Callable[[], object]]:
    """A bot's turn at a started table (the member plays first if it is theirs); the
    bot plays at once (BOT_DELAY_SECONDS is 0 in the test)."""
    anna = member("Anna")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2)
    services.add_bot(anna, table.pk, "random")
    turn = services.automatic_turn(table.pk)
    if turn is None:
        table, player_id = Table.objects.get(pk=table.pk), anna.pk
        game = current_game(table)
        engine = registry.engine(game.game)
        move = engine.view(engine.from_json(game.state), game.players.index(player_id))["legal"][0]
        services.play_move(player_id, table.pk, move, table.version)
        turn = services.automatic_turn(table.pk)
    assert turn is not None, "the bot's turn"
    return Table.objects.get(pk=table.pk), lambda: services.play_automatic(
        turn, services.choose_automatic_move(turn)
    )


@pytest.mark.usefixtures("default_variants")
@pytest.mark.parametrize("made", [_members_move, _house_move], ids=["member", "house"])
def test_a_move_commits_in_its_last_round_trip(monkeypatch, settings, made):
    settings.BOT_DELAY_SECONDS = 0
    table, play = made()
    # What the server was told to do in a pipeline, and the transaction's state
    # when the atomic block came to commit.
    piped: list[str] = []
    states = []
    pipelines: list[bool] = []
    execute, commit = psycopg.Cursor.execute, psycopg.Connection.commit
    pipeline = psycopg.Connection.pipeline

    def spy_pipeline(self):
        pipelines.append(True)
        return pipeline(self)

    def spy_execute(self, query, *args, **kwargs):
        if self._conn._pipeline is not None:
            piped.append(str(query).split()[0].upper())
        return execute(self, query, *args, **kwargs)

    def spy_commit(self):
        states.append(self.pgconn.transaction_status)
        return commit(self)

    monkeypatch.setattr(psycopg.Cursor, "execute", spy_execute)
    monkeypatch.setattr(psycopg.Connection, "commit", spy_commit)
    monkeypatch.setattr(psycopg.Connection, "pipeline", spy_pipeline)
    assert play() is not None
    monkeypatch.undo()

    # One pipeline from the lock to the commit: the lock and read's answers, then the
    # pipeline's end, are the move's two waits for the server.
    assert pipelines == [True]
    assert piped[:2] == ["SELECT", "WITH"]  # the lock, then the read

    # The COMMIT went last in the move's last pipeline; the atomic block's own
    # commit then had nothing left to send.
    assert piped[-1] == "COMMIT" and piped.count("COMMIT") == 1
    assert states == [psycopg.pq.TransactionStatus.IDLE]
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT version FROM games_table WHERE id = %s", [table.pk])
            assert cursor.fetchone() == (table.version + 1,)
    finally:
        other.close()
    assert connection.connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


@pytest.mark.usefixtures("default_variants")
def test_a_move_inside_a_callers_transaction_is_committed_by_the_caller():
    table, player_id, move = _started_table()
    moves_before = Move.objects.count()

    class Undo(Exception):
        pass

    with pytest.raises(Undo), transaction.atomic():
        services.play_move(player_id, table.pk, move, table.version)
        raise Undo  # the caller's block rolls back: the move goes with it

    assert Table.objects.get(pk=table.pk).version == table.version
    assert Move.objects.count() == moves_before


def test_a_pipelined_block_inside_another_joins_it_and_a_move_can_leave_it_halfway():
    with pipelined(), connection.cursor() as cursor:
        outer = connection.connection._pipeline
        assert outer is not None
        with pipelined():
            assert connection.connection._pipeline is outer
            assert outer.level == 1  # not a nested psycopg pipeline
            cursor.execute("SELECT 1")
        leave_pipeline()
        assert connection.connection._pipeline is None
        # The ORM's writes read their row counts at once, outside a pipeline.
        cursor.execute("SELECT 2")
        assert cursor.rowcount == 1 and cursor.fetchall() == [(2,)]
    assert connection.connection._pipeline is None
