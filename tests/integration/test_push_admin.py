"""Push subscriptions in Django admin (issue 46): staff see each member's devices, when
their push service last took a push and last failed, and may delete a device; the
endpoint's path and the device's auth secret are never on a page, nor the whole key."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from push.models import PushMessage, Subscription
from tests.support.members import member

pytestmark = pytest.mark.django_db

SECRET_PATH = "fcm/send/dQw4w9WgXcQ-secret-token"
P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
AUTH = "tBHItJI5svbpez7KI4CCXg"


@pytest.fixture
def devices():
    anna, boris = member("Anna"), member("Boris")
    now = timezone.now()
    phone = Subscription.objects.create(
        player=anna,
        endpoint=f"https://fcm.googleapis.com/{SECRET_PATH}",
        p256dh=P256DH,
        auth=AUTH,
        label="Chrome · Android",
        last_sent=now - datetime.timedelta(hours=2),
        last_failure=now - datetime.timedelta(minutes=5),
        last_error="HTTP 503",
    )
    laptop = Subscription.objects.create(
        player=boris,
        endpoint="https://updates.push.services.mozilla.com/wpush/v2/other-secret",
        p256dh=P256DH[::-1],
        auth=AUTH[::-1],
        label="Firefox · Linux",
    )
    return phone, laptop


def test_the_list_shows_member_device_dates_and_service_but_no_secret(admin_client, devices):
    page = admin_client.get("/admin/push/subscription/")
    assert page.status_code == 200
    html = page.content.decode()
    for shown in ("Anna", "Boris", "Chrome · Android", "Firefox · Linux", "HTTP 503"):
        assert shown in html
    assert "fcm.googleapis.com" in html and "updates.push.services.mozilla.com" in html
    for secret in (SECRET_PATH, "other-secret", P256DH, AUTH, AUTH[::-1]):
        assert secret not in html
    found = admin_client.get("/admin/push/subscription/", {"q": "Boris"}).content.decode()
    assert "Firefox · Linux" in found and "Chrome · Android" not in found


def test_a_device_page_shows_no_secret_and_cannot_be_changed_or_added(admin_client, devices):
    phone, _laptop = devices
    page = admin_client.get(f"/admin/push/subscription/{phone.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "fcm.googleapis.com" in html and P256DH[:8] + "…" in html and "HTTP 503" in html
    for secret in (SECRET_PATH, P256DH, AUTH):
        assert secret not in html
    assert 'name="endpoint"' not in html and 'name="auth"' not in html
    assert admin_client.get("/admin/push/subscription/add/").status_code == 403
    posted = admin_client.post(f"/admin/push/subscription/{phone.pk}/change/", {"label": "changed"})
    assert posted.status_code == 403
    phone.refresh_from_db()
    assert phone.label == "Chrome · Android"


def test_the_delete_action_removes_the_chosen_devices_and_their_pushes(admin_client, devices):
    phone, laptop = devices
    note = PushMessage.objects.create(
        key="1:x",
        notification=_notification(phone.player),
        player=phone.player,
        subscription=phone,
        expires=timezone.now() + datetime.timedelta(hours=1),
    )
    url = "/admin/push/subscription/"
    asked = admin_client.post(url, {"action": "delete_selected", "_selected_action": [phone.pk]})
    assert asked.status_code == 200  # the confirmation page names the device, not its secrets
    html = asked.content.decode()
    assert "Chrome · Android" in html and SECRET_PATH not in html and AUTH not in html
    assert Subscription.objects.count() == 2
    done = admin_client.post(
        url, {"action": "delete_selected", "_selected_action": [phone.pk], "post": "yes"}
    )
    assert done.status_code == 302
    assert list(Subscription.objects.values_list("pk", flat=True)) == [laptop.pk]
    assert not PushMessage.objects.filter(pk=note.pk).exists()


def test_staff_without_the_permission_see_nothing(client, devices):
    from django.contrib.auth import get_user_model

    staff = get_user_model().objects.create_user("mod", "mod@example.com", "pw", is_staff=True)
    client.force_login(staff)
    assert client.get("/admin/push/subscription/").status_code == 403


def _notification(player):
    from notifications.models import Notification

    return Notification.objects.create(player=player, kind="message", data={"text": "hi"})


def _push(note, subscription=None, **fields) -> PushMessage:
    return PushMessage.objects.create(
        key=f"{note.pk}:{subscription.pk if subscription else '-'}",
        notification=note,
        player=note.player,
        subscription=subscription,
        expires=timezone.now() + datetime.timedelta(hours=1),
        **fields,
    )


def test_the_push_log_shows_each_push_its_device_state_and_why_one_was_not_sent(
    admin_client, devices
):
    phone, laptop = devices
    sent = _push(_notification(phone.player), phone, state=PushMessage.State.SENT, attempts=1)
    skipped = _push(_notification(laptop.player), state=PushMessage.State.SKIPPED, reason="online")
    page = admin_client.get("/admin/push/pushmessage/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Chrome · Android" in html and "online at the time" in html
    for secret in (SECRET_PATH, "other-secret", P256DH, AUTH):
        assert secret not in html
    only_skipped = admin_client.get("/admin/push/pushmessage/", {"why": "online"}).content.decode()
    assert f"/admin/push/pushmessage/{skipped.pk}/change/" in only_skipped
    assert f"/admin/push/pushmessage/{sent.pk}/change/" not in only_skipped
    detail = admin_client.get(f"/admin/push/pushmessage/{skipped.pk}/change/")
    assert detail.status_code == 200 and "online at the time" in detail.content.decode()


def test_the_push_log_cannot_be_added_to_or_changed(admin_client, devices):
    phone, _laptop = devices
    push = _push(
        _notification(phone.player), phone, state=PushMessage.State.FAILED, error="HTTP 500"
    )
    assert admin_client.get("/admin/push/pushmessage/add/").status_code == 403
    changed = admin_client.post(f"/admin/push/pushmessage/{push.pk}/change/", {"state": "sent"})
    assert changed.status_code == 403
    push.refresh_from_db()
    assert push.state == PushMessage.State.FAILED


def test_the_push_log_speaks_the_readers_language(admin_client, devices):
    _phone, laptop = devices
    _push(_notification(laptop.player), state=PushMessage.State.SKIPPED, reason="no_device")
    page = admin_client.get("/admin/push/pushmessage/", HTTP_ACCEPT_LANGUAGE="ru")
    html = page.content.decode()
    assert "нет устройства" in html and "no device" not in html
