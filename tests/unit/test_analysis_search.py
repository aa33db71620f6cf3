"""The analysis search in its own low-priority process gives the judgement the worker would."""

from __future__ import annotations

import os

import pytest

from analysis import search
from analysis.coaching import decisions
from games import registry
from games.engine import devyatka


@pytest.fixture
def separate(settings):
    settings.ANALYSIS_WORKER_NICE = 19
    settings.ANALYSIS_WORKER_IDLE = True
    yield
    search.stop()


def test_a_decision_judged_in_the_search_process_is_the_one_judged_here(separate, settings):
    engine = registry.engine("devyatka")
    # Two hands left: the coach solves it exactly, a few milliseconds even at the lowest priority.
    state = devyatka.from_hands_unchecked(
        [["7C", "6C", "KH"], ["AH", "6S"]], devyatka.Options(keft=True), to_move=0
    )
    [decision] = decisions(engine, state, [(1, 0, "KH", False)], [0])
    assert search.separate()
    there, cpu = search.judge("devyatka", decision, 7, 4)
    child = next(iter(search._pool._processes))  # noqa: SLF001 - the test looks at the process
    assert child != os.getpid() and cpu >= 0
    if hasattr(os, "SCHED_IDLE"):
        assert os.sched_getscheduler(child) == os.SCHED_IDLE
    settings.ANALYSIS_WORKER_NICE = 0  # now in this process
    here, _ = search.judge("devyatka", decision, 7, 4)
    assert there == here and there["verdict"] == "blunder"
