"""Two daphne processes on a PostgreSQL and a Redis of the test's own, and players that keep playing.

Used by tests/integration/test_outages.py and tests/bench/bench_outage.py:
the services can be killed and started again mid-game (tests/support/services.py)
while the servers keep running.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest

from tests.support.server import DaphneServer, SiteDatabase
from tests.support.services import (
    PostgresCluster,
    RedisServer,
    postgres_bin_dir,
    redis_binary,
)
from tests.support.tables import TableClient


def need_services() -> None:
    """Skip (fail in CI) when redis-server or PostgreSQL's server binaries are missing."""
    missing = []
    if redis_binary() is None:
        missing.append("redis-server (apt-get install -y redis-server)")
    if postgres_bin_dir() is None:
        missing.append("PostgreSQL server binaries (apt-get install -y postgresql)")
    if missing:
        message = "outage tests start their own services and need " + ", ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


class OwnDatabase(SiteDatabase):
    """A SiteDatabase on the test's own cluster; the servers talk to the test's own Redis."""

    def __init__(self, tmp_dir: Path, cluster: PostgresCluster, redis: RedisServer) -> None:
        # Migrated in place: the process's template lives on the shared server.
        super().__init__(tmp_dir, template=False)
        self.cluster = cluster
        self.redis = redis
        self._pg_admin_url = cluster.url
        self.url = cluster.url.rsplit("/", 1)[0] + f"/{self.name}"

    def env(self) -> dict[str, str]:
        env = super().env()
        env["REDIS_URL"] = self.redis.url
        return env

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
            return conn.execute(sql, params).fetchall()

    def table_version(self, table_id: int) -> int:
        return self.query("SELECT version FROM games_table WHERE id = %s", (table_id,))[0][0]

    def move_log(self, table_id: int) -> list[tuple[int, int, str]]:
        """(number, seat, move) of the table's latest game, in order."""
        return [
            tuple(row)
            for row in self.query(
                "SELECT m.number, m.seat, m.move FROM games_move m "
                "JOIN games_game g ON g.id = m.game_id WHERE g.table_id = %s AND g.number = "
                "(SELECT max(number) FROM games_game WHERE table_id = %s) ORDER BY m.number",
                (table_id, table_id),
            )
        ]


@dataclass
class Site:
    redis: RedisServer
    cluster: PostgresCluster
    database: OwnDatabase
    servers: list[DaphneServer]
    pids: list[int] = field(default_factory=list)

    def logs(self) -> list[str]:
        return [server.log_path.read_text(errors="replace") for server in self.servers]

    def same_processes(self) -> bool:
        """No daphne was restarted (or died) since the site started."""
        return [s.process.pid for s in self.servers if s.process.poll() is None] == self.pids


def start_site(tmp_path: Path, env: dict[str, str] | None = None) -> Site:
    redis = RedisServer(tmp_path).start()
    cluster = PostgresCluster().init().start()
    database = OwnDatabase(tmp_path, cluster, redis)
    database.create()
    # A loaded test machine must not pass for a slow Redis: the layer's
    # timeout (2 s by default) is generous here; a test of a slow Redis sets its own.
    env = {"CHANNEL_LAYER_TIMEOUT": "5", **(env or {})}
    servers = [DaphneServer(database, tmp_path, env=env).start() for _ in range(2)]
    return Site(redis, cluster, database, servers, [s.process.pid for s in servers])


def stop_site(site: Site) -> None:
    for server in site.servers:
        server.stop()
    site.redis.stop()
    site.cluster.destroy()


@dataclass
class Player:
    """One socket at one table, playing its own turns while `playing` is set."""

    client: TableClient
    seat: int | None
    rng: random.Random
    frames: list[dict] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    version: int = -1
    latest: dict | None = None
    seen: set[tuple[int, int, str]] = field(default_factory=set)  # (n, seat, move)
    sent_at: dict[int, float] = field(default_factory=dict)  # version played against -> when
    retry_at: float | None = None

    def take(self, frame: dict) -> None:
        frame["at"] = time.monotonic()
        self.frames.append(frame)
        if frame["type"] == "error":
            self.errors.append(frame)
            if frame.get("code") == "unavailable":
                self.retry_at = time.monotonic() + frame["retry_after"]
            return
        if frame["type"] != "state":
            return
        for event in frame.get("log") or frame.get("events") or []:
            self.seen.add((event["n"], event["seat"], event["move"]))
        if frame["version"] >= self.version:
            self.version, self.latest = frame["version"], frame

    def my_turn(self) -> bool:
        latest = self.latest
        return bool(
            self.seat is not None
            and latest
            and latest["table"]["status"] == "playing"
            and latest["view"]["legal"]
        )


async def run_player(player: Player, playing: asyncio.Event, think: float) -> None:
    """Read every frame; play this seat's turns (once per version) while `playing` is set."""
    ws = player.client.ws
    played: set[int] = set()

    async def reader() -> None:
        async for text in ws:
            player.take(json.loads(text))

    task = asyncio.create_task(reader())
    try:
        while not task.done():
            await asyncio.sleep(think * player.rng.uniform(0.5, 1.5))
            if player.retry_at is not None and time.monotonic() >= player.retry_at:
                # Refused (`unavailable`): nothing changed, so the same move may go again.
                player.retry_at = None
                played.clear()
            if not playing.is_set() or not player.my_turn() or player.version in played:
                continue
            latest = player.latest
            played.add(latest["version"])
            move = player.rng.choice(latest["view"]["legal"])
            player.sent_at[latest["version"]] = time.monotonic()
            await ws.send(json.dumps({"type": "play", "move": move, "version": latest["version"]}))
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def converge(players: list[Player], version: int, limit: float) -> float | None:
    """Seconds until every player has `version` (None: not within `limit`)."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        if all(p.version >= version for p in players):
            return time.monotonic() - start
        await asyncio.sleep(0.02)
    return None
