"""The worker's send pass on the test's own thread (notifications/mailer.py).

Account mails wait in the outbox like every other mail (notifications/account.py):
a test that reads one sends what is queued first, as the task worker would.
"""

from __future__ import annotations

from django.utils import timezone

from notifications import mailer


def send_outbox() -> int:
    """Send every queued mail now; how many went out."""
    mailer.reset()  # a previous test's outage does not hold this one's mail
    return mailer.send_queued(timezone.now())
