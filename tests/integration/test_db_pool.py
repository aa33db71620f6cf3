"""PostgreSQL through Django's connection pool: a busy server holds at most the pool.

A real daphne process on PostgreSQL with `DATABASE_POOL_SIZE=4` serves 200 page
loads (8 at a time) and at least 1,000 websocket moves (the load tool, several
tables at once); every 20 ms the test counts the server's connections in
`pg_stat_activity` (tagged by `application_name`). Without the pool, each of
those page loads and moves would open a PostgreSQL connection of its own.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

from tests.support.server import DaphneServer, SiteDatabase

pytestmark = [pytest.mark.postgres, pytest.mark.server, pytest.mark.timeout(300)]

POOL_SIZE = 4
APP_NAME = "club-pool-test"


@contextmanager
def connection_sampler(database: SiteDatabase) -> Iterator[list[int]]:
    """Yields a list that fills with the server's connection counts while the block runs."""
    counts: list[int] = []
    done = threading.Event()

    def sample() -> None:
        with psycopg.connect(database._pg_admin_url, autocommit=True) as conn:
            while not done.is_set():
                row = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = %s AND application_name = %s",
                    (database.name, APP_NAME),
                ).fetchone()
                counts.append(row[0])
                done.wait(0.02)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield counts
    finally:
        done.set()
        thread.join(timeout=10)


def test_page_loads_and_moves_never_hold_more_connections_than_the_pool(
    database: SiteDatabase, tmp_path: Path
):
    server = DaphneServer(
        database,
        tmp_path,
        env={
            "DATABASE_URL": f"{database.url}?application_name={APP_NAME}",
            "DATABASE_POOL": "1",
            "DATABASE_POOL_SIZE": str(POOL_SIZE),
            # The load tool plays at full speed: on a fast machine a seat sends more
            # than the per-socket limit (5 frames a second) and is refused; the
            # limits are not what this test is about.
            "WS_RATE_BURST": "10000",
            "WS_RATE_PER_SECOND": "10000",
        },
    ).start()
    pages = ["/", "/tables/", "/rules/", "/series/", "/accounts/login/"]
    moves = 0
    try:
        with connection_sampler(database) as counts:
            with ThreadPoolExecutor(max_workers=8) as executor:
                statuses = list(
                    executor.map(
                        lambda n: (
                            urllib.request.urlopen(
                                server.url + pages[n % len(pages)], timeout=30
                            ).status
                        ),
                        range(200),
                    )
                )
            assert statuses == [200] * 200
            # A slow machine makes fewer moves per run: play until 1,000.
            for attempt in range(12):
                report_path = tmp_path / f"report-{attempt}.json"
                database.loadtest(
                    "--url", server.url,
                    "--tables", "6",
                    "--seats", "4",
                    "--think", "0",
                    "--duration", "5",
                    "--timeout", "30",
                    "--json", str(report_path),
                )  # fmt: skip
                report = json.loads(report_path.read_text())
                assert report["errors"] == {}
                moves += report["moves"]
                if moves >= 1000:
                    break
    finally:
        server.stop()
    assert moves >= 1000
    assert len(counts) > 50, "the sampler must have watched the whole run"
    assert max(counts) >= 1, "the sampler must see the server's connections"
    assert max(counts) <= POOL_SIZE, f"connections seen: up to {max(counts)}"
