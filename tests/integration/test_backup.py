"""Backups that restore (issue 45): `manage.py backup` while the club plays, `manage.py restore`.

Real daphne on its own database (SQLite by default, a fresh PostgreSQL database
when DATABASE_URL points at PostgreSQL), members playing over real sockets.

"The backup's moment" is made exact by holding every write for it: the test
takes the database's write lock (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: every
table locked in EXCLUSIVE mode, which lets readers such as pg_dump through),
reads every table's rows inside that lock, runs the backup, and lets go. Moves
sent meanwhile wait and go through afterwards. The restored database must
hold exactly the rows read under the lock: every table, row for row, and the
sequences' next ids. A second backup taken with no pause at all, mid-play,
must restore to a consistent club: each game's stored position is a replay of
its stored moves.
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import random
import re
import signal
import sqlite3
import subprocess
import threading
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.server import BIN, ROOT, DaphneServer, SiteDatabase
from tests.support.tables import TIMEOUT, TableClient, close_all, open_all, run_django

# Generous: the drill starts five manage.py processes and two servers, on a busy machine too.
pytestmark = [pytest.mark.server, pytest.mark.timeout(420)]

SEED_CLUB = """
from club.models import Player, Series
from games import services
from tools import synthetic
from games.models import Table, Variant
from tests.support.finished import play_game

prefix = synthetic.new_prefix('backup')
people = synthetic.make_players(prefix, 9)
member = {p.player_id: Player.objects.get(pk=p.player_id) for p in people}
def seat(*indexes):
    return [member[people[i].player_id] for i in indexes]
keft = Variant.objects.get(name='Keft')
series = Series.objects.create(name='Backup nights', slug='backup-nights', variant=keft)
finished = [
    play_game(keft, seat(0, 1, 2), seed=11, series=series).pk,
    play_game(keft, seat(1, 2, 3), seed=12, series=series).pk,
    play_game(keft, seat(2, 3, 0), seed=13, series=series).pk,
]
live = [synthetic.started_table(people[3:6], 'Keft'), synthetic.started_table(people[6:9], 'Keft')]
devyatka = Variant.objects.get(name='Devyatka')
table, _ = services.create_table(seat(0)[0], devyatka, 2, pace='1d')
services.join_table(seat(4)[0], table.pk)
assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
emit({
    'finished': finished,
    'players': [p.as_dict() for p in people],
    'live': [{'table': live[0], 'seats': [3, 4, 5]}, {'table': live[1], 'seats': [6, 7, 8]}],
    'turn_based': {'table': table.pk, 'seats': [0, 4]},
})
"""


# ---------------------------------------------------------------------------
# Every row of every table, and holding the writes


def _sqlite_rows(conn: sqlite3.Connection) -> dict[str, list]:
    names = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_stat%'"
        )
    ]
    return {name: sorted(map(repr, conn.execute(f'SELECT * FROM "{name}"'))) for name in names}


def _pg_rows(conn) -> dict[str, list]:
    names = [
        row[0]
        for row in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
        )
    ]
    rows = {name: sorted(map(repr, conn.execute(f'SELECT * FROM "{name}"'))) for name in names}
    for (sequence,) in conn.execute(
        "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"
    ).fetchall():
        rows[f"sequence {sequence}"] = list(
            conn.execute(f'SELECT last_value, is_called FROM "{sequence}"')
        )
    return rows


def _pg_connect(database: SiteDatabase):
    import psycopg

    return psycopg.connect(database.url)


def every_row(database: SiteDatabase) -> dict[str, list]:
    """Every table's rows (and PostgreSQL's sequence positions), sorted, as text."""
    if database.sqlite_path:
        conn = sqlite3.connect(database.sqlite_path)
        try:
            return _sqlite_rows(conn)
        finally:
            conn.close()
    with _pg_connect(database) as conn:
        return _pg_rows(conn)


@contextmanager
def writes_held(database: SiteDatabase):
    """Hold every write to the database; yields every row as of that moment."""
    if database.sqlite_path:
        conn = sqlite3.connect(database.sqlite_path, timeout=TIMEOUT, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")  # the one write lock: writers queue behind it
            yield _sqlite_rows(conn)
            conn.execute("ROLLBACK")
        finally:
            conn.close()
        return
    import psycopg

    with _pg_connect(database) as conn:
        tables = [
            r[0]
            for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        ]
        conn.commit()
        listed = ", ".join(f'"{t}"' for t in tables)
        # All or none, never waiting while holding some: waiting could deadlock a
        # move that holds one table and wants another, and PostgreSQL would kill it.
        while True:
            try:
                conn.execute(f"LOCK TABLE {listed} IN EXCLUSIVE MODE NOWAIT")
                break
            except psycopg.errors.LockNotAvailable:
                conn.rollback()
                time.sleep(0.01)
        yield _pg_rows(conn)
        conn.rollback()


# ---------------------------------------------------------------------------
# Commands, pages, sockets


def manage(database: SiteDatabase, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BIN / "python"), "manage.py", *args],
        cwd=ROOT,
        env=database.env(),
        capture_output=True,
        text=True,
        timeout=120,
    )


def backup(database: SiteDatabase, folder: Path, *args: str) -> Path:
    result = manage(database, "backup", "--dir", str(folder), *args)
    assert result.returncode == 0, result.stderr
    (made,) = re.findall(r" to (\S+club-\S+) \(", result.stdout)
    return Path(made)


def restore_into(tmp_path: Path, made: Path) -> SiteDatabase:
    restored = SiteDatabase(tmp_path)
    restored.create_empty()
    result = manage(restored, "restore", str(made))
    assert result.returncode == 0, result.stderr
    assert "Its migrations match this code" in result.stdout
    return restored


def page(server: DaphneServer, path: str) -> str:
    with urllib.request.urlopen(server.url + path, timeout=TIMEOUT) as response:
        assert response.status == 200
        text = response.read().decode()
    # Per-response tokens; everything else must be the same.
    return re.sub(r'(csrfmiddlewaretoken" value|nonce)="[^"]*"', r'\1=""', text)


def stable(frame: dict) -> dict:
    """A state frame without what moves on by itself (clocks, presence)."""
    return {"version": frame["version"], "view": frame["view"], "log": frame["log"]}


async def play_on(
    clients: list[TableClient], latest: list[dict], rng: random.Random, log: list[dict]
) -> list[dict]:
    """The seat to move plays a random legal card; returns every seat's next frame.

    `log` gets the new events (as the first seat saw them).
    """
    mover = latest[0]["view"]["to_move"]
    version = latest[0]["version"]
    await clients[mover].play(rng.choice(latest[mover]["view"]["legal"]), version)
    frames = []
    for seat, client in enumerate(clients):
        frame = await client.state()
        if seat == 0:
            log += frame["events"]
        while frame["version"] <= version:
            frame = await client.state()
            if seat == 0:
                log += frame["events"]
        frames.append(frame)
    return frames


async def seats(
    server: DaphneServer, club: dict, table: dict
) -> tuple[list[TableClient], list[dict]]:
    sessions = [club["players"][i]["session"] for i in table["seats"]]
    clients = [TableClient(server, table["table"], s) for s in sessions]
    return clients, await open_all(clients)


PAGES = [
    "/series/backup-nights/",
    "/series/backup-nights/standings.csv",
    "/ratings/",
]


# ---------------------------------------------------------------------------


async def test_backup_while_playing_restores_the_club_at_that_moment(
    database: SiteDatabase, tmp_path: Path
):
    club = await asyncio.to_thread(run_django, database, SEED_CLUB)
    pages = PAGES + [f"/games/{g}/" for g in club["finished"]]
    pages += [f"/games/{g}/replay.json" for g in club["finished"]]
    pages += [f"/players/{p['player']}/" for p in club["players"][:4]]
    server = DaphneServer(database, tmp_path)
    await asyncio.to_thread(server.start)
    folder = tmp_path / "backups"
    restored: list[SiteDatabase] = []
    try:
        tables = [await seats(server, club, t) for t in club["live"]]
        rng = random.Random(45)
        logs = [list(latest[0]["log"]) for _, latest in tables]
        latest = [frames for _, frames in tables]

        # Each table plays a bounded number of moves (a three-seat Keft game needs
        # at least 24 cards played to end: these games never finish during the test).
        async def play(index: int, until: asyncio.Future | None = None, most: int = 1) -> None:
            for _ in range(most):
                if until is not None and until.done():
                    return
                clients = tables[index][0]
                latest[index] = await play_on(clients, latest[index], rng, logs[index])
                await asyncio.sleep(0.2)  # a member's pace

        await asyncio.gather(*(play(i, most=2) for i in range(len(tables))))

        # 1. No pause: a backup while the tables play (at most 6 moves each meanwhile).
        unpaused_run = asyncio.ensure_future(asyncio.to_thread(backup, database, folder))
        await asyncio.gather(*(play(i, unpaused_run, most=6) for i in range(len(tables))))
        unpaused = await unpaused_run

        # 2. The writes held for the backup's moment; one move per table is sent once
        #    they are held: it waits behind them and must not be in the backup.
        locked = threading.Event()

        def held_backup() -> tuple[dict, Path]:
            with writes_held(database) as rows:
                locked.set()
                return rows, backup(database, folder)

        held_run = asyncio.ensure_future(asyncio.to_thread(held_backup))
        assert await asyncio.to_thread(locked.wait, TIMEOUT)
        before_held = [list(log) for log in logs]
        in_flight = [asyncio.ensure_future(play(i)) for i in range(len(tables))]
        at_backup, made = await held_run
        await asyncio.gather(*in_flight)
        # Play goes on after the backup: the live games move past it.
        await asyncio.gather(*(play(i, most=2) for i in range(len(tables))))
        source_pages = [await asyncio.to_thread(page, server, p) for p in pages]
        after = await asyncio.to_thread(every_row, database)
        assert len(after["games_move"]) > len(at_backup["games_move"])
        for clients, _ in tables:
            await close_all(clients)
        await asyncio.to_thread(server.stop)

        # The restored database is the source at the backup's moment, row for row.
        copy = await asyncio.to_thread(restore_into, tmp_path, made)
        restored.append(copy)
        assert await asyncio.to_thread(every_row, copy) == at_backup

        # The unpaused backup restores to a consistent club: no half-written move.
        mid_play = await asyncio.to_thread(restore_into, tmp_path, unpaused)
        restored.append(mid_play)
        for table in club["live"]:
            stored = await asyncio.to_thread(replay_state, mid_play, table["table"])
            assert stored["state"] == stored["replayed"]
            assert stored["version"] == len(stored["log"])

        # The restored site serves the same standings, ratings, replays and records ...
        # The restored tables' turn clocks run from the backup's moment, so by now the
        # house would play the turns that ran out (as after any outage); the runner is
        # off here so that the moves checked are the members' own, at the restored state.
        site = DaphneServer(copy, tmp_path, env={"BOT_RUNNER": "0"})
        await asyncio.to_thread(site.start)
        try:
            for path, before in zip(pages, source_pages, strict=True):
                assert await asyncio.to_thread(page, site, path) == before, path
            # ... and the games resume from the restored position.
            for table, final, held in zip(club["live"], logs, before_held, strict=True):
                clients, latest = await seats(site, club, table)
                snapshot = await asyncio.to_thread(replay_state, copy, table["table"])
                assert latest[0]["log"] == snapshot["log"] == held
                assert final[: len(held)] == held and len(final) > len(held)
                moved = await play_on(clients, latest, rng, [])
                assert moved[0]["version"] == latest[0]["version"] + 1
                await close_all(clients)
            turn_clients, turn_latest = await seats(site, club, club["turn_based"])
            assert turn_latest[0]["table"]["status"] == "playing"
            moved = await play_on(turn_clients, turn_latest, rng, [])
            assert moved[0]["version"] == turn_latest[0]["version"] + 1
            await close_all(turn_clients)
        finally:
            await asyncio.to_thread(site.stop)
    finally:
        await asyncio.to_thread(server.stop)
        for other in restored:
            await asyncio.to_thread(other.drop)


def replay_state(database: SiteDatabase, table_id: int) -> dict:
    return run_django(
        database,
        "from games import registry, services\n"
        "from games.models import Game\n"
        f"game = Game.objects.filter(table_id={table_id}).order_by('-number').first()\n"
        "engine = registry.engine(game.game)\n"
        "log = services.move_log(game)\n"
        "cards = [e['move'] for e in log if e['move'] != 'pass']\n"
        "state = engine.replay(len(game.players), game.seed, game.options, cards)\n"
        "emit({'state': game.state, 'replayed': engine.to_json(state),\n"
        "      'log': log, 'version': game.version})\n",
    )


# ---------------------------------------------------------------------------
# SIGKILL mid-write


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _check(path: Path) -> None:
    """The file passes the check `restore` makes before touching anything."""
    if path.suffix == ".sqlite3":
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        finally:
            conn.close()
    else:
        listing = subprocess.run(
            ["pg_restore", "--list", str(path)], capture_output=True, text=True
        )
        assert listing.returncode == 0, listing.stderr
        assert " TABLE DATA public django_migrations " in listing.stdout


def test_a_backup_killed_mid_write_leaves_the_previous_one_whole(
    database: SiteDatabase, tmp_path: Path
):
    # Enough rows that writing and checking the copy takes a moment to land in.
    run_django(
        database,
        "import os\n"
        "from django.contrib.sessions.models import Session\n"
        "from django.utils import timezone\n"
        "expire = timezone.now() + timezone.timedelta(days=1)\n"
        "Session.objects.bulk_create(Session(session_key=f'bulk{n:08d}', "
        "session_data=os.urandom(3000).hex(), expire_date=expire) for n in range(4000))\n"
        "emit(Session.objects.count())\n",
    )
    folder = tmp_path / "backups"
    first = backup(database, folder)
    first_digest = _digest(first)
    killed_mid_write = 0
    for _attempt in range(20):
        before = sorted(folder.glob("club-*"))
        process = subprocess.Popen(
            [str(BIN / "python"), "manage.py", "backup", "--dir", str(folder), "--keep", "100"],
            cwd=ROOT,
            env=database.env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # Its temporary file appearing is the moment to kill it.
        while process.poll() is None and not list(folder.glob(".club-*.partial")):
            time.sleep(0.001)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        complete = sorted(folder.glob("club-*"))
        if complete == before:
            killed_mid_write += 1
        # Whatever the moment: the first backup is as it was, and every file under
        # a final name is whole (a run may have finished just before the kill).
        assert _digest(first) == first_digest
        for path in complete:
            _check(path)
        if killed_mid_write:
            break
    assert killed_mid_write, "never killed a backup mid-write"
    assert list(folder.glob(".club-*.partial")), "the killed run left its temporary file"

    # The next backup clears what the killed one left, and makes a good one.
    result = manage(database, "backup", "--dir", str(folder))
    assert result.returncode == 0, result.stderr
    assert "left unfinished by an interrupted backup" in result.stdout
    assert not list(folder.glob(".club-*.partial"))
    assert _digest(first) == first_digest
    _check(sorted(folder.glob("club-*"))[-1])


def test_restore_refuses_a_database_with_data_and_files_it_cannot_use(
    database: SiteDatabase, tmp_path: Path
):
    folder = tmp_path / "backups"
    made = backup(database, folder)
    assert (folder.stat().st_mode & 0o777, made.stat().st_mode & 0o777) == (0o700, 0o600)
    count_sessions = (
        "from django.contrib.sessions.models import Session\nemit(Session.objects.count())\n"
    )
    before = run_django(database, count_sessions)
    run_django(
        database, "from tools import synthetic\nsynthetic.make_players('after', 1)\nemit(0)\n"
    )
    assert run_django(database, count_sessions) == before + 1

    # A database that holds data: refused, nothing changed, and told how to go on.
    refused = manage(database, "restore", str(made))
    assert refused.returncode == 1
    assert "is not empty" in refused.stderr and "--force" in refused.stderr
    assert run_django(database, count_sessions) == before + 1

    # Not a backup at all, or no file: refused before anything is touched.
    garbage = tmp_path / "club-garbage.sqlite3"
    garbage.write_bytes(b"not a database" * 100)
    for path, message in ((garbage, "neither a SQLite backup"), (tmp_path / "none", "no such")):
        result = manage(database, "restore", "--force", str(path))
        assert result.returncode == 1 and message in result.stderr, result.stderr
    assert run_django(database, count_sessions) == before + 1

    # Another backup writing into the folder: this one waits for nothing and says so.
    with open(folder / ".backup.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        busy = manage(database, "backup", "--dir", str(folder))
    assert busy.returncode == 1 and "another backup" in busy.stderr
    assert sorted(folder.glob("club-*")) == [made]

    # Told to: the database is replaced by the backup, in one go.
    forced = manage(database, "restore", "--force", str(made))
    assert forced.returncode == 0, forced.stderr
    assert "replacing its" in forced.stdout
    assert run_django(database, count_sessions) == before
