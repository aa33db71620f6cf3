"""Delete the members' data exports past their EXPORT_DAYS (files and rows).

manage.py purge_exports     # e.g. daily from cron; asking for or making an export does it too
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from club import export


class Command(BaseCommand):
    help = "Delete expired data exports (files under EXPORT_DIR and their rows)."

    def handle(self, *args: Any, **options: Any) -> None:
        count = export.purge_expired()
        self.stdout.write(f"Deleted {count} expired export(s).")
