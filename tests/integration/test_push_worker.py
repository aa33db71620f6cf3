"""The real task worker (`manage.py worker`) pushes beside the mail (issue 46): a push
service that holds its answer does not hold up the mail, which goes out meanwhile from
the worker's other thread; the push follows when the service answers."""

from __future__ import annotations

import time

import pytest

from push import keys
from tests.integration.mailbox import Mailbox
from tests.support.push_receiver import PushReceiver
from tests.support.tables import run_django
from tests.support.worker import AnalysisWorker

pytestmark = pytest.mark.server

# Guest sits at a turn-based table where it is their turn: a "your turn" mail and push.
SETUP = """
from games import services
from games.models import Variant
from notifications.models import Preference
from push.models import Subscription
from tests.support.members import member
host, guest = member('Host'), member('Guest')
Preference.objects.create(player=host, kind='turn', channel='mail', enabled=False)
Subscription.objects.create(player=guest, endpoint={endpoint!r}, p256dh={p256dh!r}, auth={auth!r})
table, _ = services.create_table(host, Variant.objects.get(name='Golf'), 2, pace='1d')
services.join_table(guest, table.pk)
emit(table.pk)
"""

HOLD = 12.0  # seconds the push service keeps the worker's post waiting


def test_a_push_service_that_hangs_does_not_hold_up_the_mail(database, tmp_path):
    private, public = keys.make_pair()
    receiver = PushReceiver(public).start()
    phone = receiver.device("guest-phone")
    receiver.delay["guest-phone"] = HOLD
    box = Mailbox().start()
    env = {
        "EMAIL_URL": f"smtp://127.0.0.1:{box.port}",
        "NOTIFY_PUMP_SECONDS": "0.2",
        "SITE_URL": "http://club.test",
        "PUSH_VAPID_PRIVATE_KEY": private,
        "PUSH_TEST_ORIGIN": receiver.origin,
        "PUSH_TIMEOUT_SECONDS": "30",
    }
    subscription = phone.subscription(receiver.origin)
    worker = None
    try:
        table_id = run_django(
            database,
            SETUP.format(
                endpoint=subscription["endpoint"],
                p256dh=subscription["keys"]["p256dh"],
                auth=subscription["keys"]["auth"],
            ),
        )
        worker = AnalysisWorker(database, tmp_path, env).start()
        # The push is posted and held...
        receiver.wait_for(lambda: receiver.connections >= 1, timeout=60)
        posted = time.monotonic()
        # ...and the mail goes out meanwhile.
        [mail] = box.wait_for(1, timeout=HOLD - 2)
        assert time.monotonic() - posted < HOLD
        assert mail["To"] == "guest@example.com"
        assert receiver.received == []
        # The push arrives once the service answers.
        receiver.wait_for(lambda: len(receiver.to("guest-phone")) == 1, timeout=60)
        [push] = receiver.to("guest-phone")
        assert push.headers["Topic"] == f"turn-{table_id}"
        assert receiver.refused == []
    finally:
        if worker is not None:
            worker.stop()
        box.stop()
        receiver.stop()
