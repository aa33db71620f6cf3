"""The analysis worker stops cleanly (issue 36): `make run` sends it SIGTERM twice (its trap
on TERM, then on EXIT); the worker exits with status 0, writes no traceback, and takes its
search process with it."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from tests.support.worker import AnalysisWorker, children

pytestmark = pytest.mark.server


@pytest.mark.parametrize("gap", [0.0, 0.05, 0.3])
def test_the_worker_stopped_twice_exits_cleanly_with_its_search_process(database, tmp_path, gap):
    # At its default priority: the search in a process of its own, as under `make run`.
    worker = AnalysisWorker(database, tmp_path, {"ANALYSIS_WORKER_NICE": "19"}).start()
    try:
        deadline = time.monotonic() + 120
        while "Starting worker" not in worker.log_path.read_text():
            assert worker.process.poll() is None, worker.log_path.read_text()
            assert time.monotonic() < deadline, "the worker never started"
            time.sleep(0.05)
        kids = children(worker.process.pid)
        assert kids  # the search process (and multiprocessing's resource tracker)
        worker.process.send_signal(signal.SIGTERM)
        time.sleep(gap)
        if worker.process.poll() is None:
            worker.process.send_signal(signal.SIGTERM)
        assert worker.process.wait(timeout=30) == 0
        while any(_alive(child) for child in kids):
            assert time.monotonic() < deadline, "a child outlived the worker"
            time.sleep(0.05)
    finally:
        worker.stop()
    log = worker.log_path.read_text()
    assert "Traceback" not in log and "Exception ignored" not in log, log
    assert "leaked" not in log, log


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False
