"""The task worker (`manage.py worker`) sends the notifications' mail, as a real
process against a real SMTP server (aiosmtpd): killed mid-send and started again, it
sends every other mail and none twice (notifications/mailer.py: claimed, then sent)."""

from __future__ import annotations

import time

import pytest

from tests.integration.mailbox import Mailbox
from tests.support.tables import run_django
from tests.support.worker import AnalysisWorker

pytestmark = pytest.mark.server

# Each guest sits at a turn-based table with the host, where it is their turn (the
# mail checks that just before it goes out); the host wants no "your turn" mail.
SETUP = """
from games import services
from games.models import Variant
from notifications.models import Preference
from tests.support.members import member
host = member('Host')
Preference.objects.create(player=host, kind='turn', channel='mail', enabled=False)
for name in {names!r}:
    table, _ = services.create_table(host, Variant.objects.get(name='Golf'), 2, pace='1d')
    services.join_table(member(name), table.pk)
emit(table.pk)
"""

STATES = (
    "from notifications.models import OutgoingMail\n"
    "emit(sorted(OutgoingMail.objects.values_list('state', flat=True)))\n"
)


def test_a_worker_killed_mid_send_sends_no_mail_twice(database, tmp_path):
    box = Mailbox()
    box.hold = 6.0  # the server takes the first mail's data and holds its "250 OK"
    box.start()
    env = {
        "EMAIL_URL": f"smtp://127.0.0.1:{box.port}",
        "NOTIFY_PUMP_SECONDS": "0.2",
        "SITE_URL": "http://club.test",
    }
    try:
        run_django(database, SETUP.format(names=["Boris", "Vera", "Gleb"]))
        first = AnalysisWorker(database, tmp_path, env).start()
        try:
            box.wait_for(1, timeout=60)
        finally:
            first.kill()  # SIGKILL while the server still holds the first mail's answer
        assert run_django(database, STATES) == ["queued", "queued", "sending"]
        box.hold = 0
        second = AnalysisWorker(database, tmp_path, env).start()
        try:
            box.wait_for(3, timeout=60)
            time.sleep(1.5)  # several more passes: nothing else goes out
        finally:
            second.stop()
    finally:
        box.stop()
    recipients = sorted(message["To"] for message in box.messages)
    assert recipients == ["boris@example.com", "gleb@example.com", "vera@example.com"]
    assert run_django(database, STATES) == ["sent", "sent", "unknown"]
