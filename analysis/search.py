"""Where the coach's search runs: a child process at the lowest CPU priority.

The analysis worker holds database locks (its progress, its saves; on SQLite
the one write lock of the whole site). A process at the lowest priority that
is preempted while it holds such a lock stalls every table until the kernel
gives it the CPU again, which on a busy machine can take long: a priority
inversion. So the worker keeps its own priority and does only the light work
(reading the game, writing progress), and the search, all of its CPU, runs in
one child process (:func:`judge`) that lowers its priority as far as it can
(analysis/priority.py) and never touches the database. The child is started
with ``spawn`` (a fresh interpreter: it inherits no database connection) and
dies with its parent (``PR_SET_PDEATHSIG``), so a killed worker leaves no
search running.

With ``ANALYSIS_WORKER_NICE`` 0 (the tests) or ``ANALYSIS_WORKER_IDLE`` off
the search runs in the worker itself.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings

from analysis.coaching import Decision
from analysis.coaching import judge as coach

_pool: ProcessPoolExecutor | None = None
_child: int | None = None  # the search process's id


def _child_start(nice: int, idle: bool) -> None:
    """In the child: die with the worker, set Django up (the registry), lower the priority."""
    if sys.platform.startswith("linux"):
        try:  # PR_SET_PDEATHSIG (1): SIGKILL this process when its parent dies
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    import django

    django.setup()
    from analysis import priority

    notes = priority.lower(nice, idle)
    print(f"Priority of the search process: {'; '.join(notes)}.", flush=True)


def _judge_here(game: str, decision: Decision, salt: Any, samples: int) -> tuple[Any, float]:
    from games import registry

    cpu = time.process_time()
    got = coach(registry.engine(game), decision, salt, samples)
    return got, time.process_time() - cpu


def separate() -> bool:
    """Does the search run in a child process (the worker's default)?"""
    return settings.ANALYSIS_WORKER_NICE > 0 and settings.ANALYSIS_WORKER_IDLE


def start() -> None:
    """Start the search process now (the worker calls it at start) rather than at the first task."""
    global _pool, _child
    if _pool is None and separate():
        _pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_child_start,
            initargs=(settings.ANALYSIS_WORKER_NICE, True),
        )
        # The child is up and has lowered its priority; its id, to stop it at once.
        _child = _pool.submit(os.getpid).result()


def judge(game: str, decision: Decision, salt: Any, samples: int) -> tuple[Any, float]:
    """The coach's judgement of one decision of a ``game`` (its registry key) and its CPU seconds;
    ``salt`` is public (analysis.coaching.judge)."""
    global _pool, _child
    if not separate():
        return _judge_here(game, decision, salt, samples)
    for retry in (True, False):
        start()
        assert _pool is not None
        try:
            return _pool.submit(_judge_here, game, decision, salt, samples).result()
        except BrokenProcessPool:  # the search process died (killed, out of memory): a new one
            _pool.shutdown(wait=False)
            _pool = None
            _child = None
            if not retry:
                raise
    raise AssertionError("unreachable")


def stop(now: bool = False) -> None:
    """Stop the search process: after its current search (tests), or `now`, killing it (the
    worker stopping: a search can take seconds, and the judgement it would give is lost
    anyway; the analysis resumes after its last save)."""
    global _pool, _child
    if _pool is None:
        return
    killed = False
    if now and _child is not None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(_child, signal.SIGKILL)
        killed = True
    # Once the child is killed, waiting is quick (the pool's manager thread sees it die)
    # and needed: a manager thread still closing its wake-up pipe at interpreter exit
    # races concurrent.futures' exit hook writing to it (CPython 3.11: "Exception
    # ignored ... Bad file descriptor" on the way out).
    _pool.shutdown(wait=killed or not now, cancel_futures=True)
    _pool, _child = None, None
