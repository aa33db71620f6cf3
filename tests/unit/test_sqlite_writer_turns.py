"""SQLite writers of one process take turns in the order they asked (club/serving/backends/sqlite3)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from club.serving.backends.sqlite3.base import WriterTurns, turns_for


def _wait_until(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the other thread never got there"
        time.sleep(0.001)


def test_writers_are_served_in_the_order_they_asked():
    turns = WriterTurns()
    assert turns.acquire(1.0)
    served: list[int] = []

    def writer(n: int) -> None:
        assert turns.acquire(10.0)
        served.append(n)
        turns.release()

    threads = []
    for n in range(4):
        thread = threading.Thread(target=writer, args=(n,))
        thread.start()
        threads.append(thread)
        # The next writer asks only once this one is in the queue.
        _wait_until(lambda n=n: turns.waiting == n + 1)
    turns.release()
    for thread in threads:
        thread.join(10)
    assert served == [0, 1, 2, 3]
    assert not turns.held


def test_a_writer_that_times_out_leaves_the_queue_and_the_next_one_is_served():
    turns = WriterTurns()
    assert turns.acquire(1.0)
    assert turns.acquire(0.01) is False
    assert turns.waiting == 0
    turns.release()
    assert turns.acquire(0.01)


@pytest.mark.django_db(transaction=True)
def test_a_write_transaction_holds_the_turn_until_commit_or_rollback():
    if connection.vendor != "sqlite":
        pytest.skip("the writers' queue is SQLite's")
    turns = turns_for(str(connection.settings_dict["NAME"]))
    assert not turns.held
    with transaction.atomic():
        assert turns.held
        with transaction.atomic():  # a savepoint takes no second turn
            assert turns.held
    assert not turns.held
    with pytest.raises(RuntimeError), transaction.atomic():
        assert turns.held
        raise RuntimeError("rolled back")
    assert not turns.held


def test_when_idle_is_called_at_once_with_no_writer_and_after_the_last_one_otherwise():
    turns = WriterTurns()
    called: list[str] = []
    turns.when_idle(lambda: called.append("idle at once"))
    assert called == ["idle at once"]

    assert turns.acquire(1.0)
    done = threading.Event()

    def second_writer() -> None:
        assert turns.acquire(10.0)
        done.wait(10)
        turns.release()

    thread = threading.Thread(target=second_writer)
    thread.start()
    _wait_until(lambda: turns.waiting == 1)
    turns.when_idle(lambda: called.append("idle later"))
    turns.release()  # the waiter's turn now: not idle yet
    _wait_until(lambda: turns.held)
    assert called == ["idle at once"]
    done.set()
    thread.join(10)
    assert called == ["idle at once", "idle later"]


def test_when_idle_is_called_when_the_last_waiter_gives_up():
    turns = WriterTurns()
    called: list[str] = []
    assert turns.acquire(1.0)
    turns.when_idle(lambda: called.append("idle"))
    assert not turns.acquire(0.01)  # times out: the holder still holds
    assert called == []
    turns.release()
    assert called == ["idle"]


def test_a_failing_idle_call_neither_fails_the_release_nor_stops_the_others():
    turns = WriterTurns()
    called: list[str] = []
    assert turns.acquire(1.0)

    def closed_loop() -> None:
        raise RuntimeError("Event loop is closed")

    turns.when_idle(closed_loop)
    turns.when_idle(lambda: called.append("next"))
    turns.release()

    assert called == ["next"]
    assert not turns.held
    assert turns.acquire(0)  # released: the next writer gets in at once
    turns.release()
