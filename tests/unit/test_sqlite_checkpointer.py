"""The write-ahead log is copied back beside the writers, not by them (club/serving/backends/sqlite3).

With SQLite's default the commit that fills the log past 1,000 pages runs the
checkpoint itself, and every move queued behind it waits (issue 44). The
serving connections now leave that to a thread of the process's own, which
checkpoints in PASSIVE mode: it never takes or waits for a writer's lock.
"""

from __future__ import annotations

import sqlite3
import threading

import pytest
from django.db import connections

from club.serving.backends.sqlite3.base import CHECKPOINT_SAFETY_PAGES, Checkpointer


@pytest.fixture(autouse=True)
def _own_database_file(django_db_blocker):
    """These tests open their own SQLite file, never the test database."""
    with django_db_blocker.unblock():
        yield


def _database(tmp_path) -> tuple[dict, str]:
    name = str(tmp_path / "club.sqlite3")
    settings = {
        **connections["default"].settings_dict,
        "ENGINE": "club.serving.backends.sqlite3",
        "NAME": name,
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "checkpoint_seconds": 3600.0,  # the test runs the passes itself
        },
    }
    return settings, name


def _wrapper(settings: dict):
    from club.serving.backends.sqlite3.base import DatabaseWrapper

    return DatabaseWrapper(settings, alias="checkpoint-test")


def test_serving_connections_leave_the_checkpoints_to_the_checkpointer(tmp_path):
    settings, _name = _database(tmp_path)
    db = _wrapper(settings)
    try:
        with db.cursor() as cursor:
            cursor.execute("PRAGMA wal_autocheckpoint")
            assert cursor.fetchone()[0] == CHECKPOINT_SAFETY_PAGES
    finally:
        db.close()


def test_without_checkpoint_seconds_sqlite_checkpoints_as_it_always_did(tmp_path):
    settings, _name = _database(tmp_path)
    settings["OPTIONS"] = {**settings["OPTIONS"], "checkpoint_seconds": 0}
    db = _wrapper(settings)
    try:
        with db.cursor() as cursor:
            cursor.execute("PRAGMA wal_autocheckpoint")
            assert cursor.fetchone()[0] == 1000  # SQLite's default
    finally:
        db.close()


def test_a_checkpoint_copies_the_log_back_while_a_writer_holds_its_transaction(tmp_path):
    settings, name = _database(tmp_path)
    db = _wrapper(settings)
    try:
        with db.cursor() as cursor:
            cursor.execute("CREATE TABLE moves (n integer, state text)")
            for n in range(200):
                cursor.execute("INSERT INTO moves VALUES (%s, %s)", [n, "x" * 2000])
        # A writer in the middle of its transaction (the write lock held): a PASSIVE
        # checkpoint neither waits for it nor takes the lock from it.
        writer = sqlite3.connect(name, isolation_level=None, check_same_thread=False)
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("INSERT INTO moves VALUES (-1, 'in flight')")
        result: list = []
        checkpointer = Checkpointer(name, 3600.0, start=False)  # its passes, not its thread
        thread = threading.Thread(target=lambda: result.append(checkpointer.checkpoint()))
        thread.start()
        thread.join(30)
        assert not thread.is_alive()
        busy, log_pages, copied = result[0]
        assert busy == 0 and log_pages > 0 and copied == log_pages  # all committed pages back
        writer.execute("COMMIT")  # and the writer's transaction is still good
        writer.close()
        with db.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM moves")
            assert cursor.fetchone()[0] == 201
    finally:
        db.close()
