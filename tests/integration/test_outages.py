"""The scale-out setup survives its own services failing: Redis and PostgreSQL killed mid-game.

Each test starts its own `redis-server` and its own PostgreSQL cluster (initdb
in a temporary directory, tests/support/services.py), two real daphne
processes on them, and players that keep playing their turns over websockets:
seats 0 and 1 (and a watcher) on one process, seats 2 and 3 (and a watcher)
on the other. The service is killed and started again while they play; the
daphne processes are never restarted.

Redis down: no move is answered with an error; moves keep being accepted and
the other sockets of the mover's process see them at once; once Redis is
back every socket has the database's version within 2 s; every move anyone
saw is in the database. PostgreSQL down: a move is refused with `unavailable`
and `retry_after` and changes nothing, pages answer 503 with the branded
page, and play (the house's too) carries on once it is back. In both, the
servers log no traceback and at most one warning per outage and process.

Needs redis-server and PostgreSQL's server binaries (CI has both); skipped
with a message elsewhere when they are missing.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from tests.support.outages import (
    Player,
    Site,
    converge,
    need_services,
    run_player,
    start_site,
    stop_site,
)
from tests.support.tables import TableClient, run_django, started_table

# Own PostgreSQL and Redis whatever the pass: one CI pass is enough.
pytestmark = [pytest.mark.server, pytest.mark.once("postgres"), pytest.mark.timeout(300)]

THINK = 0.1  # seconds a player takes for a move (50-150%)
CONVERGE_SECONDS = 2.0  # the bound, from the service's return to the last socket


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    need_services()
    site = start_site(tmp_path)
    try:
        yield site
    finally:
        stop_site(site)


async def seat_players(site: Site, setup: dict, seats_on_one: bool = False) -> list[Player]:
    """Seats 0 and 1 and the first watcher on server 0; seats 2, 3 and the second on server 1.

    `seats_on_one`: every seat on server 0 (the watchers still one on each).
    """
    players = []
    members = setup["players"] + setup["watchers"]
    for index, member in enumerate(members):
        seated = index < len(setup["players"])
        if seated:
            server = site.servers[0 if seats_on_one else (index // 2) % 2]
        else:
            server = site.servers[index % 2]
        client = TableClient(server, setup["table"], member["session"])
        players.append(Player(client, index if seated else None, random.Random(index)))
    firsts = await asyncio.gather(*(p.client.open() for p in players))
    for player, first in zip(players, firsts, strict=True):
        player.take(first)
    return players


def server_of(player: Player, site: Site) -> int:
    return site.servers.index(player.client.server)


def assert_clean_logs(site: Site, warning: str) -> None:
    """No traceback, no error line; one warning per outage per process and part.

    The part that lost its service says so once (about `warning`); the
    websocket limits, which also keep their counts in Redis, say once that
    they are off while their store is away (games.limits, issue 22).
    """
    for server, log in zip(site.servers, site.logs(), strict=True):
        assert "Traceback" not in log, f"{server.log_path}:\n{log[-3000:]}"
        assert " ERROR " not in log, f"{server.log_path}:\n{log[-3000:]}"
        warnings = [line for line in log.splitlines() if " WARNING " in line]
        by_logger = Counter(line.split(" WARNING ", 1)[1].split(":", 1)[0] for line in warnings)
        assert all(count <= 1 for count in by_logger.values()), warnings
        others = [line for line in warnings if " WARNING games.limits:" not in line]
        assert all(warning in line for line in others), warnings
    assert site.same_processes(), "a daphne process was restarted or died"


def assert_nothing_lost(site: Site, table_id: int, players: list[Player]) -> None:
    """Every move any socket saw is in the database's log, which has no gap."""
    log = site.database.move_log(table_id)
    assert [n for n, _, _ in log] == list(range(1, len(log) + 1))
    seen = set().union(*(p.seen for p in players))
    assert seen <= set(log), sorted(seen - set(log))


async def play_to_the_end(site: Site, players_by_table: list[list[Player]], limit: float) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if all(
            p.latest["table"]["status"] == "finished"
            for players in players_by_table
            for p in players
        ):
            return
        await asyncio.sleep(0.1)
    stuck = [
        (
            p.client.table_id,
            p.seat,
            [
                (
                    round(f["at"], 2),
                    f["type"],
                    f.get("version"),
                    f.get("code"),
                    (f.get("view") or {}).get("to_move"),
                    "log" in f,
                )
                for f in p.frames[-8:]
            ],
            sorted(p.sent_at.items())[-4:],
        )
        for players in players_by_table
        for p in players
    ]
    tables = {p.client.table_id for players in players_by_table for p in players}
    database = {t: (site.database.table_version(t), site.database.move_log(t)[-6:]) for t in tables}
    raise AssertionError(f"the games did not finish after the outage: {stuck} {database}")


async def lobby_listener(server, frames: list[dict]) -> None:
    """A lobby page's socket on `server`: every frame it gets goes into `frames`."""
    async with connect(f"{server.ws_url}/ws/lobby/", origin=server.url) as ws:
        async for text in ws:
            frames.append(json.loads(text))


async def test_redis_killed_mid_game_loses_no_move_and_every_socket_catches_up(site: Site):
    setups = [
        await asyncio.to_thread(started_table, site.database, 4, "Devyatka", 2, seed)
        for seed in (11, 12)
    ]
    tables = [s["table"] for s in setups]
    # The first table's turn crosses the processes, so it may stop while Redis is
    # down (a seat is not told of a move made on the other process); the second
    # table's seats are all on one process, so it must play on.
    by_table = [await seat_players(site, setups[0]), await seat_players(site, setups[1], True)]
    everyone = [p for players in by_table for p in players]
    lobbies: list[list[dict]] = [[], []]
    tasks = [
        asyncio.create_task(lobby_listener(s, f))
        for s, f in zip(site.servers, lobbies, strict=True)
    ]
    playing = asyncio.Event()
    playing.set()
    tasks += [asyncio.create_task(run_player(p, playing, THINK)) for p in everyone]
    try:
        await asyncio.sleep(1.5)
        site.redis.kill()
        at_kill = [site.database.table_version(t) for t in tables]
        # A table page opened while Redis is down works: its state comes from the database.
        watcher = setups[0]["watchers"][1]["session"]
        late = Player(TableClient(site.servers[1], tables[0], watcher), None, random.Random(9))
        late.take(await late.client.open())
        by_table[0].append(late)
        everyone.append(late)
        tasks.append(asyncio.create_task(run_player(late, playing, THINK)))
        await asyncio.sleep(2.5)  # the seats whose turn comes on the mover's process play on
        playing.clear()
        await asyncio.sleep(0.5)  # answers to the last moves land
        before_return = [site.database.table_version(t) for t in tables]
        assert before_return[1] > at_kill[1], "moves are accepted while Redis is down"
        # A table that moved after the kill: the sockets on the process that made its
        # last move have it already (that process hands its own sockets its updates).
        # (A move just before the kill may have been published and lost with Redis:
        # those sockets get it when Redis is back, below.)
        for table_id, players, version, killed_at in zip(
            tables, by_table, before_return, at_kill, strict=True
        ):
            assert not any(p.errors for p in players), [p.errors for p in players]
            if version == killed_at:
                continue
            # Automatic passes are logged under the passing seat: the mover played the card.
            last_seat = [
                seat for _, seat, move in site.database.move_log(table_id) if move != "pass"
            ][-1]
            mover_server = server_of(players[last_seat], site)
            for player in players:
                if server_of(player, site) == mover_server:
                    assert player.version == version, (table_id, player.seat)

        heard = [len(frames) for frames in lobbies]
        site.redis.start()
        for players, version in zip(by_table, before_return, strict=True):
            seconds = await converge(players, version, limit=15)
            assert seconds is not None and seconds <= CONVERGE_SECONDS, (
                f"sockets at {[p.version for p in players]}, database at {version}: {seconds}"
            )
        # Lobby pages on both processes are told to look again once Redis is back.
        for _ in range(100):
            if all(len(frames) > n for frames, n in zip(lobbies, heard, strict=True)):
                break
            await asyncio.sleep(0.05)
        assert all(
            {"type": "lobby"} in frames[n:] for frames, n in zip(lobbies, heard, strict=True)
        ), lobbies

        playing.set()  # and the games go on to their end, on the same processes
        await play_to_the_end(site, by_table, limit=90)
    finally:
        playing.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(p.client.close() for p in everyone), return_exceptions=True)

    assert not [p.errors for p in everyone if p.errors], "no move was answered with an error"
    for table_id, players in zip(tables, by_table, strict=True):
        assert_nothing_lost(site, table_id, players)
        final = site.database.table_version(table_id)
        assert all(p.version == final for p in players)
    assert_clean_logs(site, "channel layer was unreachable")


def table_with_house(site: Site) -> dict:
    """A started Devyatka table: one member (seat 0) and three house bots."""
    return run_django(
        site.database,
        "from club.models import Player\n"
        "from games import services\n"
        "from tools import synthetic\n"
        "from games.models import Table, Variant\n"
        "[member] = synthetic.make_players(synthetic.new_prefix('house'), 1)\n"
        "player = Player.objects.get(pk=member.player_id)\n"
        "table, _ = services.create_table(player, Variant.objects.get(name='Devyatka'), 4)\n"
        "for level in ('random', 'random', 'random'):\n"
        "    services.add_bot(player, table.pk, level)\n"
        "if Table.objects.get(pk=table.pk).status == Table.Status.OPEN:\n"
        "    services.start_table(player, table.pk)\n"
        "emit({'table': table.pk, 'players': [member.as_dict()], 'watchers': []})\n",
    )


def page_status(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


async def test_postgres_restarted_mid_game_refuses_moves_cleanly_and_play_resumes(site: Site):
    setup = await asyncio.to_thread(started_table, site.database, 4, "Devyatka", 2)
    house = await asyncio.to_thread(table_with_house, site)
    tables = [setup["table"], house["table"]]
    by_table = [await seat_players(site, setup), await seat_players(site, house)]
    everyone = [p for players in by_table for p in players]
    playing = asyncio.Event()
    playing.set()
    tasks = [asyncio.create_task(run_player(p, playing, THINK)) for p in everyone]
    try:
        await asyncio.sleep(1.5)
        await asyncio.to_thread(site.cluster.stop, "immediate")
        at_stop = [max(p.version for p in players) for players in by_table]
        await asyncio.sleep(3.0)  # every move meanwhile is refused
        status, body = await asyncio.to_thread(page_status, site.servers[0].url + "/")
        assert status == 503
        assert "The club is back in a moment" in body
        assert any(p.errors for p in everyone), "someone tried to move meanwhile"
        during = [max(p.version for p in players) for players in by_table]
        assert during == at_stop, "nothing changed while the database was away"

        await asyncio.to_thread(site.cluster.start)
        # Play resumes by itself: refused players try again, the house plays its turns.
        await play_to_the_end(site, by_table, limit=120)
        status, _ = await asyncio.to_thread(page_status, site.servers[1].url + "/")
        assert status == 200
    finally:
        playing.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(p.client.close() for p in everyone), return_exceptions=True)

    codes = {e["code"] for p in everyone for e in p.errors}
    assert codes == {"unavailable"}, codes
    assert all(e["retry_after"] > 0 and e["message"] for p in everyone for e in p.errors), (
        "a refusal says when to try again"
    )
    for table_id, players in zip(tables, by_table, strict=True):
        assert_nothing_lost(site, table_id, players)
        final = site.database.table_version(table_id)
        assert all(p.version == final for p in players)
    assert_clean_logs(site, "database unavailable")


def acknowledged_at(player: Player, version: int, sent: float) -> float | None:
    """When the mover first had a state newer than the one it played against."""
    for frame in player.frames:
        if frame["type"] == "state" and frame["at"] >= sent and frame["version"] > version:
            return frame["at"]
    return None


@pytest.mark.parametrize("site_env", [{"CHANNEL_LAYER_TIMEOUT": "1"}])
async def test_a_slow_redis_holds_no_move_up_longer_than_the_layer_timeout(
    tmp_path: Path, site_env
):
    need_services()
    site = start_site(tmp_path, env=site_env)
    sleep_seconds = 5
    try:
        setup = await asyncio.to_thread(started_table, site.database, 4, "Devyatka", 2)
        # Every seat on one server: its moves need no other process to go on
        # while Redis sleeps (across processes the next seat could wait for Redis
        # whenever the sleep caught an update on its way: a race, not the rule).
        players = await seat_players(site, setup, seats_on_one=True)
        playing = asyncio.Event()
        playing.set()
        tasks = [asyncio.create_task(run_player(p, playing, THINK)) for p in players]
        try:
            await asyncio.sleep(1.0)
            began = time.monotonic()
            # Redis answers nobody for 5 s (the command returns when it is over).
            await asyncio.to_thread(site.redis.command, "DEBUG", "SLEEP", str(sleep_seconds))
            ended = time.monotonic()
            playing.clear()
            await asyncio.sleep(0.5)
            version = site.database.table_version(setup["table"])
            seconds = await converge(players, version, limit=15)
            assert seconds is not None and seconds <= CONVERGE_SECONDS, seconds
            playing.set()
            await play_to_the_end(site, [players], limit=90)
        finally:
            playing.clear()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await asyncio.gather(*(p.client.close() for p in players), return_exceptions=True)
        # Moves sent in the first half of the sleep were answered before it ended:
        # each waited for the layer at most CHANNEL_LAYER_TIMEOUT (1 s), not for Redis.
        early = [
            (p, v, at)
            for p in players
            for v, at in p.sent_at.items()
            if began <= at <= began + sleep_seconds / 2
        ]
        assert early, "someone moved while Redis was asleep"
        for player, version, at in early:
            answered = acknowledged_at(player, version, at)
            assert answered is not None and answered < ended, (player.seat, version)
        assert not [p.errors for p in players if p.errors]
        assert_nothing_lost(site, setup["table"], players)
        assert_clean_logs(site, "channel layer was unreachable")
    finally:
        stop_site(site)
