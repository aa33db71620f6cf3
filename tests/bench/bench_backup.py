"""Benchmark: backup and restore of a generated club, and live moves while a backup runs.

    .venv/bin/python tests/bench/bench_backup.py [--members 1000] [--games 100000]
        [--tables 20] [--rounds 6] [--json out.json]

DATABASE_URL unset: a temporary SQLite file (the embedded default); pointing at
a PostgreSQL server: a fresh database there (dropped at the end). Both need
nothing else running.

1. The club: `--members` members and `--games` finished three-seat Keft games
   in a house series, each with its seats, its moves, its results and their
   rating changes: copies of one game really played through the services,
   written in bulk (the rows a played game leaves, without playing each one).
2. `manage.py backup` three times and `manage.py restore` of the last one into
   an empty database twice, each as its own process, as an operator runs them:
   wall time of the whole command, and the backup file's size.
3. A real server (`python -m club.server`, the club's settings) with
   `python -m tools.loadtest` playing `--tables` tables of three seats (think 0.5 s)
   against it; meanwhile `--rounds` pairs of stretches alternate, the order
   flipped every round: one while `manage.py backup` runs, one as long with
   no backup. Each move (send -> every seat has it) counts for the stretch it
   completed in; p50/p95/p99 per kind of stretch.

docs/PERFORMANCE.md, "Backups", has the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_moves import percentile  # noqa: E402
from tests.bench.bench_standings import setup_database  # noqa: E402
from tests.bench.common import machine  # noqa: E402
from tests.support.server import free_port  # noqa: E402

PYTHON = sys.executable


def command_env(url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="club.settings",
        DJANGO_SECRET_KEY=env.get("DJANGO_SECRET_KEY", "bench-backup"),
        PYTHONUNBUFFERED="1",
    )
    env.pop("REDIS_URL", None)  # one server process: the in-memory channel layer
    return env


def fill(members: int, games: int, log) -> None:
    """`members` members and `games` finished games, copies of one played game."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from club.models import GameResult, Player, Series
    from games.models import Game, Move, Seat, Table, Variant
    from ratings.models import RatingChange
    from tests.support.finished import play_game
    from tests.support.members import member

    keft = Variant.objects.get(name="Keft")
    series = Series.objects.create(name="Bench nights", slug="bench-nights", variant=keft)
    played = play_game(keft, [member(f"Template{i}") for i in range(3)], seed=7, series=series)
    table_row = Table.objects.filter(pk=played.table_id).values().get()
    seat_rows = list(Seat.objects.filter(table_id=played.table_id).values())
    game_row = Game.objects.filter(pk=played.pk).values().get()
    move_rows = list(Move.objects.filter(game=played).order_by("number").values())
    result_rows = list(GameResult.objects.filter(game=played).order_by("seat").values())
    change_rows = {
        row["result_id"]: row for row in RatingChange.objects.filter(result__game=played).values()
    }
    log(
        f"template game: {len(move_rows)} moves, state {len(json.dumps(game_row['state']))} "
        f"bytes of JSON"
    )

    user_model = get_user_model()
    started = time.perf_counter()
    with transaction.atomic():
        users = user_model.objects.bulk_create(
            user_model(username=f"bench{i}", email=f"bench{i}@example.com", password="!")
            for i in range(members)
        )
        Player.objects.bulk_create(
            Player(user=u, display_name=f"Bench member {i}") for i, u in enumerate(users)
        )
    people = list(
        Player.objects.filter(user__username__startswith="bench").values_list("pk", flat=True)
    )
    rng = random.Random(45)
    batch = 2000
    base = timezone.now() - timezone.timedelta(days=400)
    move_sql = (
        "INSERT INTO games_move (game_id, number, seat, move, auto, created) "
        "VALUES (%s, %s, %s, %s, %s, %s)"
    )
    for start in range(0, games, batch):
        count = min(batch, games - start)
        seatings = [rng.sample(people, 3) for _ in range(count)]
        finished = [base + timezone.timedelta(minutes=5 * (start + i)) for i in range(count)]
        with transaction.atomic():
            tables = Table.objects.bulk_create(
                Table(
                    **{
                        **table_row,
                        "id": None,
                        "created_by_id": seating[0],
                        "invite_token": uuid.uuid4(),
                    }
                )
                for seating in seatings
            )
            Seat.objects.bulk_create(
                Seat(**{**row, "id": None, "table_id": t.pk, "player_id": seating[row["position"]]})
                for t, seating in zip(tables, seatings, strict=True)
                for row in seat_rows
            )
            game_objs = Game.objects.bulk_create(
                Game(
                    **{
                        **game_row,
                        "id": None,
                        "table_id": t.pk,
                        "players": seating,
                        "finished": when,
                    }
                )
                for t, seating, when in zip(tables, seatings, finished, strict=True)
            )
            with connection.cursor() as cursor:
                cursor.executemany(
                    move_sql,
                    [
                        (g.pk, m["number"], m["seat"], m["move"], m["auto"], when)
                        for g, when in zip(game_objs, finished, strict=True)
                        for m in move_rows
                    ],
                )
            results = GameResult.objects.bulk_create(
                GameResult(
                    **{
                        **row,
                        "id": None,
                        "game_id": g.pk,
                        "player_id": seating[row["seat"]],
                        "finished": when,
                    }
                )
                for g, seating, when in zip(game_objs, seatings, finished, strict=True)
                for row in result_rows
            )
            templates = [row for _ in range(count) for row in result_rows]
            RatingChange.objects.bulk_create(
                RatingChange(**{**change_rows[row["id"]], "id": None, "result_id": result.pk})
                for result, row in zip(results, templates, strict=True)
                if row["id"] in change_rows
            )
        if (start // batch) % 10 == 0:
            rate = (start + count) / (time.perf_counter() - started)
            log(f"  {start + count} games ({rate:.0f} games/s)")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")  # what autovacuum does soon after a bulk load
    log(f"filled in {time.perf_counter() - started:.1f} s")


def run(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[1:3])} failed:\n{done.stderr}")
    return seconds, done.stdout


def empty_database(url: str) -> tuple[str, callable]:
    """An empty database beside `url`'s: a new SQLite path, or a new PostgreSQL database."""
    if url.startswith("sqlite"):
        folder = tempfile.mkdtemp(prefix="club-bench-restore-")
        return f"sqlite:///{folder}/restored.sqlite3", lambda: shutil.rmtree(folder)
    import psycopg

    parsed = urlparse(url)
    admin = urlunparse(parsed._replace(path="/postgres"))
    name = f"club_bench_restore_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return urlunparse(parsed._replace(path=f"/{name}")), drop


def start_server(env: dict[str, str], log_path: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    log = open(log_path, "ab")  # noqa: SIM115 - lives as long as the server
    server = subprocess.Popen(
        [PYTHON, "-m", "club.server", "-b", "127.0.0.1", "-p", str(port), "club.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited:\n{log_path.read_text()}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2):
                return server, url
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not answer")


def summary(values: list[float]) -> dict:
    if not values:
        return {"moves": 0}
    return {
        "moves": len(values),
        "p50": round(percentile(values, 0.50), 1),
        "p95": round(percentile(values, 0.95), 1),
        "p99": round(percentile(values, 0.99), 1),
        "max": round(max(values), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--json", help="Also write the figures to this file.")
    args = parser.parse_args()

    url, drop = setup_database()
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-backup")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    work = Path(tempfile.mkdtemp(prefix="club-bench-backup-"))
    env = command_env(url)
    report: dict = {"machine": machine(), "members": args.members, "games": args.games}
    server = None
    try:
        call_command("migrate", verbosity=0)
        fill(args.members, args.games, print)
        vendor = connection.vendor
        connection.close()
        report["database"] = vendor
        with connection.cursor() as cursor:
            for table in ("games_game", "games_move", "club_gameresult"):
                cursor.execute(f"SELECT count(*) FROM {table}")  # noqa: S608 - fixed names
                report[f"rows_{table}"] = cursor.fetchone()[0]
        connection.close()
        print(
            f"{vendor}: {report['rows_games_game']} games, {report['rows_games_move']} moves, "
            f"{report['rows_club_gameresult']} results"
        )

        folder = work / "backups"
        backup_cmd = [PYTHON, "manage.py", "backup", "--dir", str(folder), "--keep", "3"]
        # Whole command (what a timer waits for) and the copy + check it reports itself.
        seconds, inner = [], []
        for _ in range(3):
            wall, output = run(backup_cmd, env)
            seconds.append(wall)
            copy, check = re.search(r"copy ([\d.]+) s, check ([\d.]+) s\)", output).groups()
            inner.append((float(copy), float(check)))
        made = sorted(folder.glob("club-*"))[-1]
        report["backup_seconds"] = [round(s, 2) for s in seconds]
        report["backup_copy_and_check_seconds"] = inner
        report["backup_bytes"] = made.stat().st_size
        print(
            f"backup: {report['backup_seconds']} s ((copy, check) {inner} s), "
            f"{made.stat().st_size / 1e6:.1f} MB"
        )
        restores, restores_inner = [], []
        for _ in range(2):
            target, drop_target = empty_database(url)
            try:
                wall, output = run([PYTHON, "manage.py", "restore", str(made)], command_env(target))
                restores.append(wall)
                check = float(re.search(r"Checked .*\(([\d.]+) s\)", output)[1])
                write = float(re.search(r" tables in ([\d.]+) s", output)[1])
                restores_inner.append((check, write))
            finally:
                drop_target()
        report["restore_seconds"] = [round(s, 2) for s in restores]
        report["restore_check_and_write_seconds"] = restores_inner
        print(f"restore: {report['restore_seconds']} s ((check, write) {restores_inner} s)")

        # Live tables while backups come and go.
        server, site = start_server(env, work / "server.log")
        backup_median = statistics.median(seconds)
        duration = 20 + args.rounds * 2 * (backup_median + 2)
        load = subprocess.Popen(
            [PYTHON, "-m", "tools.loadtest", "--url", site, "--tables", str(args.tables)]
            + ["--seats", "3", "--variant", "Keft", "--think", "0.5", "--connect-concurrency", "5"]
            + ["--duration", f"{duration:.0f}", "--json", str(work / "load.json")],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        time.sleep(15)  # set-up and connecting; stretches before play began are dropped
        stretches: list[tuple[str, float, float]] = []
        for round_ in range(args.rounds):
            for kind in ("backup", "quiet") if round_ % 2 == 0 else ("quiet", "backup"):
                began = time.perf_counter()
                if kind == "backup":
                    run(backup_cmd, env)
                else:
                    time.sleep(backup_median)
                stretches.append((kind, began, time.perf_counter()))
        output, _ = load.communicate(timeout=duration + 300)
        if load.returncode != 0:
            tail = (work / "server.log").read_text().splitlines()[-30:]
            raise SystemExit("loadtest failed; the server's log ends:\n" + "\n".join(tail))
        print(output.strip().splitlines()[-6:] and "\n".join(output.strip().splitlines()[-6:]))
        played = json.loads((work / "load.json").read_text())
        ends = played["began"] + played["duration"]
        moves: dict[str, list[float]] = {"backup": [], "quiet": []}
        kept = [s for s in stretches if s[1] >= played["began"] and s[2] <= ends]
        for at, ms in played["moves_timed"]:
            for kind, began, ended in kept:
                if began <= at < ended:
                    moves[kind].append(ms)
        report["stretches"] = len(kept)
        report["stretch_seconds"] = round(sum(e - b for _, b, e in kept) / max(1, len(kept)), 2)
        report["moves_during_backup_ms"] = summary(moves["backup"])
        report["moves_without_backup_ms"] = summary(moves["quiet"])
        report["load_errors"] = played.get("errors")
        print(
            f"{len(kept)} stretches of {report['stretch_seconds']} s kept; move latency ms, "
            f"during a backup: {report['moves_during_backup_ms']}; "
            f"without: {report['moves_without_backup_ms']}"
        )
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
        connection.close()
        drop()
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
