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

And the write-ahead log is checkpointed beside the writers, not by them. With
SQLite's default, the commit that fills the log past 1,000 pages copies it
back into the database file itself: that move (and every move queued behind
it) waited 1-85 ms, once a second or so at full load (docs/PERFORMANCE.md,
issue 44). Here a thread of the process's own checkpoints every
`checkpoint_seconds` (SQLITE_CHECKPOINT_SECONDS) in PASSIVE mode, which takes
no writer's lock, and the serving connections checkpoint only as a safety net,
when the log passes CHECKPOINT_SAFETY_PAGES.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
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
        self._idle_calls: list[Callable[[], None]] = []

    def acquire(self, timeout: float) -> bool:
        ticket: object | None = object()
        deadline = time.monotonic() + timeout
        calls: list[Callable[[], None]] = []
        with self._changed:
            self._waiting.append(ticket)
            while self._owner is not None or self._waiting[0] is not ticket:
                left = deadline - time.monotonic()
                if left <= 0 or not self._changed.wait(left):
                    if self._owner is None and self._waiting[0] is ticket:
                        break  # woken by the release that timed out with us
                    self._waiting.remove(ticket)
                    self._changed.notify_all()  # the next one may be first now
                    calls = self._take_idle_calls()
                    ticket = None
                    break
            if ticket is not None:
                self._waiting.popleft()
                self._owner = ticket
        _call_all(calls)
        return ticket is not None

    def release(self) -> None:
        with self._changed:
            self._owner = None
            self._changed.notify_all()
            calls = self._take_idle_calls()
        _call_all(calls)

    def when_idle(self, call: Callable[[], None]) -> None:
        """Call `call()` once no writer holds a turn or waits for one (at once if none does).

        From whichever thread ends the last turn, so `call` must be quick and
        thread-safe (the event loop's `call_soon_threadsafe`). A turn given up by
        a waiter that timed out counts as ended.
        """
        with self._changed:
            if self._owner is not None or self._waiting:
                self._idle_calls.append(call)
                return
        call()

    def _take_idle_calls(self) -> list[Callable[[], None]]:
        # Under the condition's lock: the calls due now that nobody holds or waits.
        if self._owner is not None or self._waiting or not self._idle_calls:
            return []
        calls, self._idle_calls = self._idle_calls, []
        return calls

    @property
    def held(self) -> bool:
        return self._owner is not None

    @property
    def waiting(self) -> int:
        return len(self._waiting)


logger = logging.getLogger(__name__)


def _call_all(calls: list[Callable[[], None]]) -> None:
    """The `when_idle` calls, each on its own: one that fails (its event loop closed)
    must not fail the commit or rollback that ended the last turn."""
    for call in calls:
        try:
            call()
        except Exception:  # noqa: BLE001 - logged; the turn is released regardless
            logger.exception("a call waiting for the writers failed")


# With the checkpointer on: a serving connection checkpoints only past this many
# log pages (about 40 MB at 4 KiB a page), if the checkpointer fell behind.
CHECKPOINT_SAFETY_PAGES = 10_000


class Checkpointer:
    """Copies one database file's write-ahead log back into it, every few seconds.

    PASSIVE: it copies what no reader still needs and never waits for, nor
    blocks, a writer; SQLite releases the GIL meanwhile, so on a second core it
    costs the moves nothing. A connection of its own per pass, so it never
    holds the file open between passes (a restore may replace it).
    """

    def __init__(self, name: str, seconds: float, start: bool = True) -> None:
        self.name = name
        self.seconds = seconds
        self.passes = 0
        if start:  # `start=False`: passes run by the caller only (tests)
            threading.Thread(
                target=self._run, name=f"sqlite-checkpoint {name}", daemon=True
            ).start()

    def _run(self) -> None:
        while True:
            time.sleep(self.seconds)
            self.checkpoint()

    def checkpoint(self) -> tuple[int, int, int] | None:
        """One PASSIVE checkpoint: (busy, log pages, pages checkpointed), None if it failed."""
        try:
            conn = sqlite3.connect(self.name, timeout=1, uri=True, check_same_thread=False)
            try:
                row = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            finally:
                conn.close()
        except sqlite3.Error as exc:
            logger.debug("checkpoint of %s failed: %s", self.name, exc)
            return None
        self.passes += 1
        return tuple(row)


_checkpointers: dict[str, Checkpointer] = {}
_checkpointers_lock = threading.Lock()  # one checkpointer per file, whichever thread connects


def checkpointer_for(name: str, seconds: float) -> Checkpointer:
    with _checkpointers_lock:
        found = _checkpointers.get(name)
        if found is None:
            found = _checkpointers[name] = Checkpointer(name, seconds)
        return found


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


class WriterBusy(OperationalError):
    """A write transaction refused at its start because it would have had to wait.

    Only a connection that must never wait (`never_wait`) raises it, before its
    transaction wrote anything: the caller may run the same work elsewhere
    (games.db, which may not import this module, knows it by this attribute).
    """

    refused_before_start = True

    def __init__(self, message: str, in_process: bool) -> None:
        super().__init__(message)
        # True: a writer of this process (`when_writers_idle` tells when it is done);
        # False: another process holds SQLite's lock.
        self.in_process = in_process


class DatabaseWrapper(SQLiteDatabaseWrapper):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._holds_turn = False
        self._waits = True

    def never_wait(self) -> None:
        """From now on this connection's write transactions start at once or not at all.

        For the one that runs on the server's event loop (games.db.on_database_inline):
        a writer before it in this process's queue, or another process holding
        SQLite's lock, makes `BEGIN` raise `WriterBusy` instead of waiting, which
        would stop every socket of the process meanwhile.
        """
        self._waits = False
        if self.connection is not None:
            self.connection.execute("PRAGMA busy_timeout = 0")

    def create_cursor(self, name=None):
        return self.connection.cursor(factory=CursorWrapper)

    def get_connection_params(self) -> dict:
        params = super().get_connection_params()
        # Ours, not sqlite3.connect's: how often this process checkpoints (0: SQLite does).
        self._checkpoint_seconds = float(params.pop("checkpoint_seconds", 0) or 0)
        return params

    def get_new_connection(self, conn_params):
        conn = super().get_new_connection(conn_params)
        if self._checkpoint_seconds > 0 and not self.is_in_memory_db():
            conn.execute(f"PRAGMA wal_autocheckpoint={CHECKPOINT_SAFETY_PAGES}")
            checkpointer_for(str(self.settings_dict["NAME"]), self._checkpoint_seconds)
        if not self._waits:
            conn.execute("PRAGMA busy_timeout = 0")
        return conn

    def when_writers_idle(self, call: Callable[[], None]) -> None:
        """`call()` once no write transaction of this process holds or waits for the lock."""
        self._writer_turns().when_idle(call)

    def _writer_turns(self) -> WriterTurns:
        return turns_for(str(self.settings_dict["NAME"]))

    def _start_transaction_under_autocommit(self) -> None:
        if self.transaction_mode == "IMMEDIATE" and not self._holds_turn:
            timeout = float(self.settings_dict["OPTIONS"].get("timeout", 5)) if self._waits else 0
            if not self._writer_turns().acquire(timeout):
                if not self._waits:
                    raise WriterBusy("database is locked (another writer of this process)", True)
                raise OperationalError("database is locked (waited for the writer before)")
            self._holds_turn = True
        try:
            super()._start_transaction_under_autocommit()
        except OperationalError as exc:
            self._end_turn()
            if not self._waits and "locked" in str(exc):
                raise WriterBusy(f"{exc} (another process)", False) from exc
            raise
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
