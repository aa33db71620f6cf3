"""Close the duplicate rounds whose end time has passed.

The house runner inside every server process does this by itself every
HOUSE_DUTY_SECONDS; the command is for a site that runs without it
(BOT_RUNNER=0) or wants to close due rounds at once (docs/OPERATIONS.md).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from duplicate.services import close_due_rounds
from games.broadcast import publish_sync


class Command(BaseCommand):
    help = (
        "Close every duplicate round whose end time has passed: the house plays out the "
        "unfinished boards, then the round's results become public."
    )

    def handle(self, *args, **options) -> None:
        closed, updates = close_due_rounds()
        publish_sync(updates)
        self.stdout.write(f"{len(closed)} round(s) closed.")
