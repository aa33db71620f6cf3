"""Which analysis worker runs a task, and whether that worker still lives.

django-tasks-db marks a task row "running" when a worker claims it and
"successful" or "failed" when the task returns; a worker killed in between
(SIGKILL, out of memory, a power cut) leaves the row "running" for ever. So
an analysis worker gives db_worker a worker id that says where it lives
(:func:`worker_id`: host name, boot, PID namespace, PID and the process's
start time), and anyone on the same machine can tell a dead worker from a
busy one (:func:`alive`) without waiting for a timeout: a worker at the
lowest CPU priority may go quiet for a long time on a busy machine and must
not be taken for dead. A worker elsewhere (another host or container) is
judged by its analysis's last progress instead (analysis.services.recover_stale).

A dead worker's rows are closed as failed with :class:`WorkerLost` (its
analysis, if still wanted, is queued again as a new task by
analysis.services.recover_stale and resumes after its last saved decision).
"""

from __future__ import annotations

import datetime
import os
import socket
from functools import cache
from pathlib import Path

from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

TASK_PATH = "analysis.tasks.analyse_game"


class WorkerLost(Exception):  # noqa: N818 - the name says what happened, as the admin shows it
    """Recorded on a task row whose worker died while running it."""


@cache
def _here() -> tuple[str, str, str]:
    """(host name, boot id, PID namespace) of this process, as worker ids spell them."""
    host = socket.gethostname()[:16].replace(":", "_")
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()[:8]
        pidns = os.readlink("/proc/self/ns/pid").strip("pid:[]")
    except OSError:  # not Linux: nobody can be checked, the progress decides
        return host, "", ""
    return host, boot, pidns


def _start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (field 22 of /proc/PID/stat)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after its last ')'.
    return stat.rpartition(")")[2].split()[19]


def worker_id() -> str:
    """This process's worker id: ``host:boot:pidns:pid:start`` (at most 64 characters)."""
    host, boot, pidns = _here()
    pid = os.getpid()
    return f"{host}:{boot}:{pidns}:{pid}:{_start_time(pid) or ''}"[:64]


def alive(worker: str) -> bool | None:
    """Is the worker of this id running? None: cannot tell from here (another machine, container
    or boot, or an id not made by :func:`worker_id`)."""
    parts = worker.rsplit(":", 4)
    host, boot, pidns = _here()
    if len(parts) != 5 or not boot or parts[:3] != [host, boot, pidns]:
        return None
    try:
        pid = int(parts[3])
    except ValueError:
        return None
    return _start_time(pid) == parts[4]


def last_worker(task_id: str) -> str:
    """The id of the worker that last claimed this task row ("" if none or no such row)."""
    row = DBTaskResult.objects.filter(pk=task_id).values_list("worker_ids", flat=True).first()
    return row[-1] if row else ""


def close(task_id: str, why: str) -> bool:
    """Mark a task row still marked running as failed, its worker lost; did it change?"""
    return bool(
        DBTaskResult.objects.filter(pk=task_id, status=TaskResultStatus.RUNNING).update(
            status=TaskResultStatus.FAILED,
            finished_at=timezone.now(),
            return_value=None,
            exception_class_path=f"{__name__}.{WorkerLost.__qualname__}",
            traceback=why,
        )
    )


def close_orphans(cutoff: datetime.datetime, current: set[str]) -> int:
    """Close the analysis task rows marked running whose worker is gone; how many.

    A row is orphaned when its worker is known dead, or, when that cannot be
    told from here, when it is not the task of a running analysis
    (``current``: their task ids) and was claimed before ``cutoff``.
    """
    closed = 0
    rows = DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING, task_path=TASK_PATH)
    for pk, workers, started in rows.values_list("pk", "worker_ids", "started_at"):
        live = alive(workers[-1]) if workers else None
        if live:
            continue
        if live is None and (str(pk) in current or started is None or started >= cutoff):
            continue
        closed += close(str(pk), "The worker running this task stopped before it ended.")
    return closed
