"""The analysis worker: django-tasks' database worker at the lowest CPU priority.

    manage.py analysis_worker            # what `make run` starts beside daphne

At start it starts its search process (analysis/search.py), which takes the
lowest CPU priority (analysis/priority.py: a session and autogroup of its own
niced to ANALYSIS_WORKER_NICE, 19 by default, and SCHED_IDLE; plain nice does
nothing across autogroups) so the live tables always get the CPU first, while
the worker itself, which holds database locks, keeps its priority; it queues again the analyses a dead worker
left running (they resume after their last saved decision) and closes the
task rows it left "running" (analysis/workers.py), now and every
ANALYSIS_STALE_SECONDS, then runs `db_worker` (django-tasks-db) with the
given options and a worker id that tells whether it is still alive.
"""

from __future__ import annotations

import signal
import threading
import time
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import close_old_connections

from analysis import priority, search, services, workers


class Command(BaseCommand):
    help = "Run the post-game analysis worker (a low-priority django-tasks database worker)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--batch", action="store_true", help="Exit when no task is left (tests)."
        )
        parser.add_argument(
            "--interval", type=float, default=1.0, help="Seconds between two looks at the queue."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if search.separate():
            search.start()  # the search process says which priority it got
        else:  # ANALYSIS_WORKER_IDLE off: the worker renices itself and searches itself
            notes = priority.lower(settings.ANALYSIS_WORKER_NICE, idle=False)
            if notes:
                self.stdout.write(f"Priority: {'; '.join(notes)}.")
        recovered = services.recover_stale()
        if recovered:
            self.stdout.write(f"Queued again {recovered} analysis(es) a stopped worker left.")
        if not options["batch"]:
            threading.Thread(target=self._watch, daemon=True, name="analysis-watch").start()
        # Other apps' work for the worker (an AppConfig's `worker_duty(stop)`, e.g. the
        # notifications' mail), each in a thread of its own until the worker stops.
        stop_duties = threading.Event()
        duties = [
            threading.Thread(
                target=config.worker_duty, args=(stop_duties,), daemon=True, name=config.name
            )
            for config in apps.get_app_configs()
            if hasattr(config, "worker_duty")
        ]
        for duty in duties:
            duty.start()
        worker_options: dict[str, Any] = {
            "interval": options["interval"],
            "reload": False,
            "worker_id": workers.worker_id(),
        }
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
            # The search stops now, not after its search.
            search.stop(now=True)

    def _watch(self) -> None:
        """Every ANALYSIS_STALE_SECONDS: queue again what a stopped worker left running."""
        while True:
            time.sleep(settings.ANALYSIS_STALE_SECONDS)
            try:
                services.recover_stale()
            except Exception:  # noqa: BLE001 - a database hiccup must not stop the worker
                pass
            finally:
                close_old_connections()
