"""`manage.py analysis_worker`: the old name of `manage.py worker`, kept for one release.

Deprecated (issue 47): the worker has long run more than the analysis (the
notifications' mail, the pushes). It says so on stderr, then runs `worker`
with the same options; change units and scripts to `manage.py worker`.
"""

from __future__ import annotations

from typing import Any

from club.management.commands import worker


class Command(worker.Command):
    help = "Deprecated: the old name of `manage.py worker` (runs the same)."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stderr.write(
            "manage.py analysis_worker is deprecated and will be removed in the next "
            "release: run `manage.py worker` (the same worker: analysis, mail, pushes)."
        )
        super().handle(*args, **options)
