"""One warning per database outage (games/db.py; docs/OPERATIONS.md).

A request already waiting for a pooled connection when the database comes back
fails up to the pool's timeout later: it belongs to the outage that just ended
and does not report a new one. A failure after that window is a new outage.
tests/integration/test_outages.py restarts a real PostgreSQL under load.
"""

from __future__ import annotations

import copy
import logging

import pytest

from games import db

pytestmark = pytest.mark.django_db


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(db.time, "monotonic", clock)
    monkeypatch.setattr(db, "_outage", db._DatabaseOutage())
    monkeypatch.setattr(db, "straggler_seconds", lambda: 10.0)
    return clock


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def test_a_request_failing_after_the_outage_ended_within_the_pool_timeout_is_the_same_outage(
    clock: Clock, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.INFO, logger="games.db")
    db.database_unavailable(OSError("connection refused"), "table socket")
    clock.now += 4
    db.database_available()
    assert not db.outage_ongoing()
    clock.now += 6  # the house runner's wait for a connection times out
    db.database_unavailable(OSError("couldn't get a connection after 10.00 sec"), "house runner")

    assert len(warnings(caplog)) == 1
    assert "table socket" in warnings(caplog)[0]
    # Still refused quickly meanwhile, and its length counts from the first failure.
    assert db.outage_ongoing()
    clock.now += 2
    db.database_available()
    back = [r.getMessage() for r in caplog.records if r.getMessage().startswith("database back")]
    assert back[-1].startswith("database back after 12.0 s")


def test_a_failure_after_the_pool_timeout_is_a_new_outage(
    clock: Clock, caplog: pytest.LogCaptureFixture
):
    db.database_unavailable(OSError("connection refused"), "table socket")
    clock.now += 4
    db.database_available()
    clock.now += 10.5
    db.database_unavailable(OSError("connection refused"), "page /")

    assert [w.split("(")[0] for w in warnings(caplog)] == ["database unavailable "] * 2
    assert "page /" in warnings(caplog)[1]


@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")  # read only, by the test
def test_the_straggler_window_is_the_pools_timeout(settings):
    databases = copy.deepcopy(settings.DATABASES)
    databases["default"]["OPTIONS"] = {"pool": {"timeout": 7.5}}
    settings.DATABASES = databases
    assert db.straggler_seconds() == 7.5
    databases["default"]["OPTIONS"] = {"pool": True}
    assert db.straggler_seconds() == db.PSYCOPG_POOL_TIMEOUT
    databases["default"]["OPTIONS"] = {}
    assert db.straggler_seconds() == 0.0
