"""Close the duplicate rounds whose end time has passed (run it from cron every minute)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from duplicate.services import close_due_rounds


class Command(BaseCommand):
    help = (
        "Close every duplicate round whose end time has passed: the house plays out the "
        "unfinished boards, then the round's results become public."
    )

    def handle(self, *args, **options) -> None:
        closed = close_due_rounds()
        self.stdout.write(f"{closed} round(s) closed.")
