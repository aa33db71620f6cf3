"""The analysis worker as a real process: its priority; killed mid-analysis, a new one finishes it.

Nothing half done is ever shown as finished, the resumed analysis equals an
uninterrupted one (the coach is deterministic; the judgements made before the
crash were saved as they were made), and the dead worker's django-tasks row
does not stay "running".
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from urllib.parse import urlparse

import psycopg
import pytest

from tests.support.tables import run_django
from tests.support.worker import AnalysisWorker, children

pytestmark = pytest.mark.server

STATE = (
    "from analysis.models import GameAnalysis\n"
    "from analysis import services\n"
    "from django_tasks_db.models import DBTaskResult\n"
    "a = GameAnalysis.objects.get(game_id={game})\n"
    "rows = DBTaskResult.objects.order_by('enqueued_at')\n"
    "emit({{'status': a.status, 'done': a.done, 'total': a.total, 'decisions': a.decisions,\n"
    "       'shown': 'decisions' in services.status_payload(a), 'task': a.task_id,\n"
    "       'rows': [[str(r.pk), r.status, r.worker_ids, r.exception_class_path] for r in rows]}})\n"
)


def state(database, game: int) -> dict:
    return run_django(database, STATE.format(game=game))


def progress(database, game: int) -> tuple[str, int, int] | None:
    """(status, done, total) read straight from the site's database: milliseconds a look."""
    query = "SELECT status, done, total FROM analysis_gameanalysis WHERE game_id = {}"
    url = urlparse(database.url)
    if url.scheme.startswith("sqlite"):
        with sqlite3.connect(url.path, timeout=20) as conn:
            return conn.execute(query.format("?"), [game]).fetchone()
    with psycopg.connect(database.url.replace("postgres://", "postgresql://", 1)) as conn:
        return conn.execute(query.format("%s"), [game]).fetchone()


def kill_midway(database, game: int, worker: AnalysisWorker, timeout: float = 400.0) -> None:
    """SIGKILL the worker as soon as it has written progress past the third decision.

    Progress is written after every decision here and the analysis has about
    thirty of them (tens of ms each), while a look at the database takes
    milliseconds: the kill lands mid-analysis on a fast machine as on a slow one.
    """
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            row = progress(database, game)
            if row is not None and row[0] == "running" and row[1] >= 3:
                return
            if row is not None and row[0] == "done":
                raise AssertionError("the analysis finished before the kill")
            time.sleep(0.005)
        raise AssertionError(f"never got past three decisions; last: {row}")
    finally:
        worker.kill()


def wait_for(database, game: int, check, timeout: float = 400.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = state(database, game)
        if check(now):
            return now
        time.sleep(0.3)
    raise AssertionError(f"gave up waiting; last: {now['status']} {now['done']}/{now['total']}")


def test_a_killed_worker_leaves_a_running_analysis_that_the_next_worker_finishes(
    database, tmp_path
):
    made = run_django(
        database,
        "from analysis import services\n"
        "from games.models import Variant\n"
        "from tests.support.finished import finished_game\n"
        "variant = Variant.objects.create(name='Golf restart', game='golf', options={'rounds': 1},"
        " max_players=12)\n"
        "game, players = finished_game(variant, ['Anna', 'Boris', 'Vera'], seed=4)\n"
        "services.request(game, players[0])\n"
        "emit({'game': game.pk, 'player': players[1].pk})\n",
    )
    game = made["game"]
    env = {
        "ANALYSIS_SAMPLES": "8",
        # A dead worker on this machine is known dead at once: no waiting for its silence.
        "ANALYSIS_STALE_SECONDS": "3600",
        "ANALYSIS_WORKER_NICE": "0",
        # Progress and judgements written after every decision, so the kill below
        # can land between two of them and the next worker resumes from there.
        "ANALYSIS_PROGRESS_SECONDS": "0",
        "ANALYSIS_SAVE_SECONDS": "0",
    }
    first = AnalysisWorker(database, tmp_path, env).start()
    kill_midway(database, game, first)
    after_kill = state(database, game)
    assert after_kill["done"] < after_kill["total"]
    assert after_kill["status"] == "running" and not after_kill["shown"]
    # django-tasks' row of the killed worker's task says running, and names that worker.
    [(dead_task, row_status, dead_workers, _)] = after_kill["rows"]
    assert dead_task == after_kill["task"] and row_status == "RUNNING"
    assert dead_workers[-1].split(":")[3] == str(first.process.pid)
    second = AnalysisWorker(database, tmp_path, env).start()
    try:
        done = wait_for(database, game, lambda s: s["status"] == "done")
    finally:
        second.stop()
    assert done["shown"] and done["done"] == done["total"]
    # The dead run's row is closed as failed (its worker lost); the resumed run is a new
    # task, run to success by the second worker; nothing is left "running".
    rows = {pk: (status, workers, error) for pk, status, workers, error in done["rows"]}
    assert rows.pop(dead_task) == ("FAILED", dead_workers, "analysis.workers.WorkerLost")
    [(resumed, (status, workers, _))] = rows.items()
    assert resumed == done["task"] and status == "SUCCESSFUL"
    assert workers[-1].split(":")[3] == str(second.process.pid)
    # An uninterrupted analysis of the same game gives the same judgements.
    again = run_django(
        database,
        "from django.conf import settings\n"
        "from django.core.management import call_command\n"
        "from analysis import services\n"
        "from analysis.models import GameAnalysis\n"
        "from club.models import Player\n"
        f"a = GameAnalysis.objects.get(game_id={game})\n"
        "game = a.game\n"
        "a.delete()\n"
        f"services.request(game, Player.objects.get(pk={made['player']}))\n"
        "settings.ANALYSIS_SAMPLES = 8\n"
        "settings.ANALYSIS_WORKER_NICE = 0\n"
        "call_command('worker', batch=True, interval=0)\n"
        f"emit(GameAnalysis.objects.get(game_id={game}).decisions)\n",
    )
    assert again == done["decisions"]


def _autogroup(pid: int | str) -> str:
    return Path(f"/proc/{pid}/autogroup").read_text().strip()


@pytest.mark.skipif(
    not Path("/proc/self/autogroup").exists(), reason="a Linux kernel with autogroups"
)
def test_the_search_runs_at_the_lowest_priority_in_an_autogroup_of_its_own(database, tmp_path):
    """Plain nice does nothing across autogroups (docs/OPERATIONS.md, "Priority"); the worker
    itself, which holds database locks, keeps its priority (no priority inversion)."""
    ours = _autogroup("self")
    worker = AnalysisWorker(database, tmp_path, {"ANALYSIS_WORKER_NICE": "19"}).start()
    old = AnalysisWorker(
        database, tmp_path, {"ANALYSIS_WORKER_NICE": "10", "ANALYSIS_WORKER_IDLE": "0"}
    ).start()
    try:
        pid = worker.process.pid
        deadline = time.monotonic() + 120
        while True:
            idle = [c for c in children(pid) if os.sched_getscheduler(c) == os.SCHED_IDLE]
            if idle:
                break
            assert time.monotonic() < deadline, "no search process at the lowest priority"
            assert worker.process.poll() is None, worker.log_path.read_text()
            time.sleep(0.05)
        [child] = idle
        assert os.getsid(child) == child  # a session, hence an autogroup, of its own
        assert _autogroup(child).endswith(" nice 19") and _autogroup(child) != ours
        assert os.getpriority(os.PRIO_PROCESS, child) == 19
        # The worker keeps its session, autogroup and priority; the starter's is untouched.
        assert os.getsid(pid) == os.getsid(0) and _autogroup(pid) == ours
        assert os.sched_getscheduler(pid) == os.SCHED_OTHER
        assert os.getpriority(os.PRIO_PROCESS, pid) == os.getpriority(os.PRIO_PROCESS, 0)
        # With ANALYSIS_WORKER_IDLE=0 only nice, in the worker: the starter's autogroup.
        while os.getpriority(os.PRIO_PROCESS, old.process.pid) != 10:
            assert time.monotonic() < deadline, "the nice-only worker never reniced"
            time.sleep(0.05)
        assert _autogroup(old.process.pid) == ours
        assert os.sched_getscheduler(old.process.pid) == os.SCHED_OTHER
        # Killed, the worker takes its search process with it.
        worker.kill()
        while Path(f"/proc/{child}").exists() and "Z" not in _state(child):
            assert time.monotonic() < deadline, "the search process outlived its worker"
            time.sleep(0.05)
    finally:
        worker.stop()
        old.stop()
    log = worker.log_path.read_text()
    assert (
        "Priority of the search process: own session; autogroup nice 19; nice 19; SCHED_IDLE."
        in log
    )


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return "gone"
