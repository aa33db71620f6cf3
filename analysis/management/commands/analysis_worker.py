"""The analysis worker: django-tasks' database worker at a lower CPU priority.

    manage.py analysis_worker            # what `make run` starts beside daphne

It lowers its own priority (os.nice by ANALYSIS_WORKER_NICE, 10 by default)
so the live tables' processes always get the CPU first, queues again the
analyses a dead worker left running (they resume after their last saved
decision) now and every ANALYSIS_STALE_SECONDS, then runs `db_worker` (django-tasks-db) with the given options.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import close_old_connections

from analysis import services


class Command(BaseCommand):
    help = "Run the post-game analysis worker (a niced django-tasks database worker)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--batch", action="store_true", help="Exit when no task is left (tests)."
        )
        parser.add_argument(
            "--interval", type=float, default=1.0, help="Seconds between two looks at the queue."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.ANALYSIS_WORKER_NICE and hasattr(os, "nice"):
            os.nice(settings.ANALYSIS_WORKER_NICE)
        recovered = services.recover_stale()
        if recovered:
            self.stdout.write(f"Queued again {recovered} analysis(es) a stopped worker left.")
        if not options["batch"]:
            threading.Thread(target=self._watch, daemon=True, name="analysis-watch").start()
        worker_options: dict[str, Any] = {"interval": options["interval"], "reload": False}
        if options["batch"]:
            worker_options["batch"] = True
        call_command("db_worker", **worker_options)

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
