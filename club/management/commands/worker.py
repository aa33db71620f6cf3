"""The site's background worker: django-tasks' database worker and the apps' duties.

    manage.py worker            # what `make run` starts beside daphne

One process (run one or more beside the daphne processes) does the site's work
that no page, move or socket waits for:
- the queued tasks (django-tasks-db's `db_worker`): the post-game analyses;
- each app's `worker_duty(stop)` (an AppConfig method), in a thread of its own
  until the worker stops: the notifications' mail, the pushes, and whatever a
  later app registers the same way;
- before and after them, each app's `worker_start(command, batch)` and
  `worker_stop()`: the analysis starts its search process at the lowest CPU
  priority and queues again what a stopped worker left running (analysis/apps.py).

The task rows carry the worker id an app gives (an AppConfig's `worker_id()`: the
analysis' says where the worker lives, analysis/workers.py, so a dead worker's
tasks are told from a busy one's).
`manage.py worker` is the same command under its old name (deprecated).
"""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.apps import apps
from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Run the background worker: queued tasks (post-game analysis) and the apps' duties "
        "(notification mail, pushes)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--batch", action="store_true", help="Exit when no task is left (tests)."
        )
        parser.add_argument(
            "--interval", type=float, default=1.0, help="Seconds between two looks at the queue."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        configs = apps.get_app_configs()
        started = [c for c in configs if hasattr(c, "worker_start")]
        for config in started:
            config.worker_start(self, batch=options["batch"])
        # Other apps' work for the worker (an AppConfig's `worker_duty(stop)`, e.g. the
        # notifications' mail), each in a thread of its own until the worker stops.
        stop_duties = threading.Event()
        duties = [
            threading.Thread(
                target=config.worker_duty, args=(stop_duties,), daemon=True, name=config.name
            )
            for config in configs
            if hasattr(config, "worker_duty")
        ]
        for duty in duties:
            duty.start()
        worker_options: dict[str, Any] = {"interval": options["interval"], "reload": False}
        ids = [config.worker_id() for config in configs if hasattr(config, "worker_id")]
        if ids:
            worker_options["worker_id"] = ids[0]
        if options["batch"]:
            worker_options["batch"] = True
        before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            call_command("db_worker", **worker_options)
        finally:
            # Stopping (SIGTERM: `make run` sends it twice). db_worker's handler would raise
            # SystemExit again wherever the way out then is (joining the duties below,
            # waiting on the search process at exit: a traceback, exit status 1): from here
            # on the process is on its way out, which takes at most a mail's sending, and a
            # further signal changes nothing (the tests' own handlers back in batch runs).
            for sig, handler in before.items():
                signal.signal(sig, handler if options["batch"] else signal.SIG_IGN)
            stop_duties.set()
            for duty in duties:
                duty.join(timeout=5)  # a mail being sent is finished, not cut off
            for config in reversed(started):
                if hasattr(config, "worker_stop"):
                    config.worker_stop()
