"""Make the analysis search truly low priority on Linux (docs/OPERATIONS.md, "Priority").

Plain ``os.nice`` is not enough on a Linux desktop or server kernel with
*autogroup* scheduling (``/proc/sys/kernel/sched_autogroup_enabled``, on by
default): the CPU is first shared between autogroups (one per session), and
a task's nice value only counts against tasks of its own autogroup. A process
niced to 19 in its own session still gets as much CPU as a whole daphne
session. So at start the analysis worker's search process (analysis/search.py;
or the worker itself with ANALYSIS_WORKER_IDLE off, step 3 only):

1. takes a session of its own (``os.setsid``), hence an autogroup of its own,
   unless it already leads one. It must not renice an autogroup it shares:
   from a plain ``make run`` shell it would share daphne's. A process group
   leader cannot make a session: then its autogroup is left alone, with a note;
2. writes the nice value to ``/proc/self/autogroup`` (allowed unprivileged
   when it lowers the priority): the whole autogroup weighs 15 against a
   normal session's 1024 (at 19);
3. ``os.nice`` to the same value, for kernels without autogroups and for the
   tasks inside its own group;
4. ``SCHED_IDLE`` (``os.sched_setscheduler``): a task of that policy is
   preempted at once when a normal task wakes on its CPU (a table's move
   never waits for the end of the worker's time slice), and it weighs least
   of all within its group. The policy is per thread: it is set before the
   worker starts any thread, and threads inherit it.

Each step that the system refuses is skipped with a note; the others stay.
"""

from __future__ import annotations

import os
from pathlib import Path

AUTOGROUP = Path("/proc/self/autogroup")


def lower(nice: int, idle: bool) -> list[str]:
    """Lower this process's CPU priority (see the module docstring); what was done, for the log.

    ``nice``: 1..19 (0: nothing at all). ``idle``: also steps 1, 2 and 4 (off:
    only ``os.nice``, the worker's behaviour before autogroups were understood).
    """
    notes: list[str] = []
    if nice <= 0:
        return notes
    nice = min(19, nice)
    if idle:
        own = _own_session(notes)
        if own and AUTOGROUP.exists():
            try:
                AUTOGROUP.write_text(str(nice))
                notes.append(f"autogroup nice {nice}")
            except OSError as exc:
                notes.append(f"autogroup left alone ({exc.strerror})")
    if hasattr(os, "nice"):
        current = os.nice(0)
        if current < nice:
            os.nice(nice - current)
        notes.append(f"nice {os.nice(0)}")
    if idle and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            notes.append("SCHED_IDLE")
        except OSError as exc:
            notes.append(f"SCHED_IDLE refused ({exc.strerror})")
    return notes


def _own_session(notes: list[str]) -> bool:
    """Is this process alone in its session (its autogroup), after trying to make one?"""
    if not hasattr(os, "setsid"):
        return False
    if os.getsid(0) == os.getpid():
        return True  # a session leader already (systemd, setsid): its autogroup is its own
    try:
        os.setsid()
    except OSError:
        notes.append(
            "not in a session of its own (start it with `setsid`): its autogroup, "
            "shared with its session, is left alone"
        )
        return False
    notes.append("own session")
    return True
