from __future__ import annotations

import threading
import time
from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = _("Post-game analysis")
    default_auto_field = "django.db.models.BigAutoField"

    def worker_start(self, command: Any, batch: bool) -> None:
        """Called by the background worker (`manage.py worker`) before it takes tasks.

        The search process starts, which takes the lowest CPU priority
        (analysis/priority.py: a session and autogroup of its own niced to
        ANALYSIS_WORKER_NICE, 19 by default, and SCHED_IDLE; plain nice does nothing
        across autogroups) so the live tables always get the CPU first, while the
        worker itself, which holds database locks, keeps its priority. The analyses a
        dead worker left running are queued again (they resume after their last saved
        decision) and the task rows it left "running" closed (analysis/workers.py),
        now and, unless `batch`, every ANALYSIS_STALE_SECONDS.
        """
        from django.conf import settings

        from analysis import priority, search, services

        if search.separate():
            search.start()  # the search process says which priority it got
        else:  # ANALYSIS_WORKER_IDLE off: the worker renices itself and searches itself
            notes = priority.lower(settings.ANALYSIS_WORKER_NICE, idle=False)
            if notes:
                command.stdout.write(f"Priority: {'; '.join(notes)}.")
        recovered = services.recover_stale()
        if recovered:
            command.stdout.write(f"Queued again {recovered} analysis(es) a stopped worker left.")
        if not batch:
            threading.Thread(target=self._watch, daemon=True, name="analysis-watch").start()

    def worker_id(self) -> str:
        """The id the background worker gives the task rows it claims: where it lives, so
        that a dead worker's analyses are told from a busy one's (analysis/workers.py)."""
        from analysis import workers

        return workers.worker_id()

    def worker_stop(self) -> None:
        """The worker is stopping: the search stops now, not after its search."""
        from analysis import search

        search.stop(now=True)

    def _watch(self) -> None:
        """Every ANALYSIS_STALE_SECONDS: queue again what a stopped worker left running."""
        from django.conf import settings
        from django.db import close_old_connections

        from analysis import services

        while True:
            time.sleep(settings.ANALYSIS_STALE_SECONDS)
            try:
                services.recover_stale()
            except Exception:  # noqa: BLE001 - a database hiccup must not stop the worker
                pass
            finally:
                close_old_connections()
