"""psycopg's pipeline mode (`games.services.common.pipelined`, PostgreSQL only).

A pipeline sends its statements without waiting and reads their answers when it
ends. The server going away in between (a restart mid-move) must surface as the
database-down error every other statement raises, which the consumers answer with
`unavailable`, and not as psycopg's own error, which they would answer with
`server_error` (tests/integration/test_outages.py saw that, once in many runs).
"""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection, connections

from games.db import DATABASE_DOWN
from games.services.common import pipelined

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
