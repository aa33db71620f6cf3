"""SQLite, with the process's writers taking turns in order instead of polling the file lock.

SQLite lets one writer at a time in. A second connection that wants to write
(`BEGIN IMMEDIATE`) while another one holds the lock is told "busy" and
sleeps in SQLite's busy handler: 1, 2, 5, ... then 100 ms between tries. On
a server process with the live tables' database thread writing a move after
a move, an HTTP request's thread (a rematch, a join) that lost the first try
could sleep and lose again and again: seconds for a click (docs/PERFORMANCE.md,
"What the server does for speed"), while each time the request did get in,
the tables' thread in turn slept in the busy handler for up to 100 ms.

Here every write transaction of the process first takes a place in one queue
(`WriterTurns`), and is woken the moment the writer before it commits or
rolls back. SQLite's own lock still guards the file (against other
processes, e.g. `manage.py` commands), so correctness never rests on the
queue; it only decides who goes next, fairly and without sleeping.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from functools import lru_cache

from django.db import OperationalError
from django.db.backends.sqlite3.base import FORMAT_QMARK_REGEX, SQLiteCursorWrapper
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteDatabaseWrapper


class WriterTurns:
    """A first-come, first-served lock: `acquire` returns in the order it was called."""

    def __init__(self) -> None:
        # The condition's lock guards the queue and the owner; waiters sleep on it.
        self._changed = threading.Condition(threading.Lock())
        self._waiting: deque[object] = deque()
        self._owner: object | None = None

    def acquire(self, timeout: float) -> bool:
        ticket = object()
        deadline = time.monotonic() + timeout
        with self._changed:
            self._waiting.append(ticket)
            while self._owner is not None or self._waiting[0] is not ticket:
                left = deadline - time.monotonic()
                if left <= 0 or not self._changed.wait(left):
                    if self._owner is None and self._waiting[0] is ticket:
                        break  # woken by the release that timed out with us
                    self._waiting.remove(ticket)
                    self._changed.notify_all()  # the next one may be first now
                    return False
            self._waiting.popleft()
            self._owner = ticket
            return True

    def release(self) -> None:
        with self._changed:
            self._owner = None
            self._changed.notify_all()

    @property
    def held(self) -> bool:
        return self._owner is not None

    @property
    def waiting(self) -> int:
        return len(self._waiting)


# One queue per database file per process (the test suite has several files).
_turns: dict[str, WriterTurns] = {}
_turns_lock = threading.Lock()  # makes the dict's get-or-create atomic across threads


def turns_for(name: str) -> WriterTurns:
    with _turns_lock:
        return _turns.setdefault(name, WriterTurns())


@lru_cache(maxsize=2048)
def _qmark(query: str) -> str:
    return FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")


class CursorWrapper(SQLiteCursorWrapper):
    """Django's, with each statement's `%s` -> `?` rewrite remembered.

    Django rewrites the placeholders with a regular expression on every
    execute; a move runs the same handful of statements every time, and that
    rewrite was about 2% of the server's Python time under load
    (docs/PERFORMANCE.md, "What the server does for speed").
    """

    def convert_query(self, query, *, param_names=None):
        if param_names is None:
            return _qmark(query)
        return super().convert_query(query, param_names=param_names)


class DatabaseWrapper(SQLiteDatabaseWrapper):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._holds_turn = False

    def create_cursor(self, name=None):
        return self.connection.cursor(factory=CursorWrapper)

    def _writer_turns(self) -> WriterTurns:
        return turns_for(str(self.settings_dict["NAME"]))

    def _start_transaction_under_autocommit(self) -> None:
        if self.transaction_mode == "IMMEDIATE" and not self._holds_turn:
            timeout = float(self.settings_dict["OPTIONS"].get("timeout", 5))
            if not self._writer_turns().acquire(timeout):
                raise OperationalError("database is locked (waited for the writer before)")
            self._holds_turn = True
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._end_turn()
            raise

    def _end_turn(self) -> None:
        if self._holds_turn:
            self._holds_turn = False
            self._writer_turns().release()

    def _commit(self) -> None:
        try:
            return super()._commit()
        finally:
            self._end_turn()

    def _rollback(self) -> None:
        try:
            return super()._rollback()
        finally:
            self._end_turn()

    def _close(self) -> None:
        try:
            return super()._close()
        finally:
            self._end_turn()  # closing a connection ends its transaction
