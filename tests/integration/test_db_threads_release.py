"""The database threads give their connections back to the pool before it closes.

A call on a database thread (`games.db.on_database`) gives its connection back
as it ends, after asking the connection whether it is still fit. Between tests
pytest-django refuses that question, so a socket's call that ended after its
test kept its connection, and PostgreSQL refused to drop the test database
("being accessed by other users"). `release_connections` closes them without
asking; tests/conftest.py's `django_db_setup` calls it at the session's end.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.db import connection

from club.models import Player
from games import db

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def checked_out() -> int:
    stats = connection.pool.get_stats()
    return stats["pool_size"] - stats["pool_available"]


def test_release_connections_gives_back_a_connection_its_call_could_not(django_db_blocker):
    # This thread's own, and any an earlier test's socket kept (CI met one), so that
    # only this test's call counts.
    connection.close()
    db.release_connections()
    before = checked_out()

    def read_then_end_blocked() -> None:
        Player.objects.exists()  # the thread takes a connection from the pool
        django_db_blocker.block()  # as between two tests, when the call ends

    try:
        with pytest.raises(RuntimeError, match="Database access not allowed"):
            async_to_sync(db.on_database(read_then_end_blocked))()
    finally:
        django_db_blocker.restore()
    assert checked_out() == before + 1

    db.release_connections()
    assert checked_out() == before
