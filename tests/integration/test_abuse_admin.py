"""Issue 42, security review: the notifications admin.

- The moderator's message needs a permission of its own: a staff member who may
  only view notifications mailed every member (measured on main, 8c5237a).
- It records who sent it, and the admin history (LogEntry) shows it.
- The notifications admin withholds what a sealed duplicate board withholds: it
  showed a finisher's places to view-only staff while the round was open.
Each test is the attack first; each failed before its fix.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from duplicate.services import close_round
from notifications.models import Notification
from tests.support.duplicate import finish, make_series, open_round, start
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]

MESSAGE = "/admin/notifications/notification/message/"


def staff_client(name: str, *codenames: str) -> tuple[Client, object]:
    player = member(name, is_staff=True)
    player.user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    client = Client()
    client.force_login(player.user)
    return client, player.user


def test_view_only_staff_get_403_on_the_moderators_message_and_nothing_is_sent():
    anna, boris = member("Anna"), member("Boris")
    viewer, _user = staff_client("Viewer", "view_notification")
    assert viewer.get("/admin/notifications/notification/").status_code == 200
    assert viewer.get(MESSAGE).status_code == 403
    posted = viewer.post(MESSAGE, {"members": [anna.pk, boris.pk], "text": "Mail for everyone"})
    assert posted.status_code == 403
    assert not Notification.objects.exists()
    listing = viewer.get("/admin/notifications/notification/").content.decode()
    assert 'data-testid="admin-send-message"' not in listing


def test_the_message_permission_sends_records_the_sender_and_the_admin_history_shows_it(
    django_capture_on_commit_callbacks,
):
    from notifications.models import ClubMessage

    anna, boris = member("Anna"), member("Boris")
    sender, user = staff_client(
        "Moderator", "view_notification", "send_message", "view_clubmessage"
    )
    listing = sender.get("/admin/notifications/notification/").content.decode()
    assert 'data-testid="admin-send-message"' in listing
    refused = sender.post(MESSAGE, {"members": [anna.pk], "text": "   "})
    assert refused.status_code == 200 and refused.context["form"].errors
    assert not ClubMessage.objects.exists() and not LogEntry.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        sent = sender.post(MESSAGE, {"members": [anna.pk, boris.pk], "text": "Closed on Sunday."})
    assert sent.status_code == 302
    message = ClubMessage.objects.get()
    assert (message.sent_by, message.text, message.recipients) == (user, "Closed on Sunday.", 2)
    notes = Notification.objects.filter(kind="message")
    assert {n.player_id for n in notes} == {anna.pk, boris.pk}
    assert {n.data.get("message") for n in notes} == {message.pk}
    entry = LogEntry.objects.get()
    assert entry.user == user and entry.is_addition()
    assert entry.get_edited_object() == message
    history = sender.get(reverse("admin:notifications_clubmessage_history", args=[message.pk]))
    assert history.status_code == 200 and "2" in history.content.decode()
    # The message itself is kept as sent: nobody edits or deletes it in admin.
    change = reverse("admin:notifications_clubmessage_change", args=[message.pk])
    assert sender.post(change, {"text": "Open on Sunday."}).status_code == 403
    assert ClubMessage.objects.get().text == "Closed on Sunday."


def test_the_notifications_admin_withholds_a_boards_places_while_its_round_is_open(
    django_capture_on_commit_callbacks,
):
    round_ = open_round(make_series("Devyatka", seats=3), boards=1)
    with django_capture_on_commit_callbacks(execute=True):
        play = finish(start(member("Anna"), round_))
    note = Notification.objects.get(kind="game_finished", player=play.player)
    assert note.data["places"]  # what the notification carries for its member
    viewer, _user = staff_client("Viewer", "view_notification")
    url = reverse("admin:notifications_notification_change", args=[note.pk])
    page = viewer.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "places" not in text and json.dumps(note.data["places"]) not in text
    assert "until the round closes" in text
    listing = viewer.get("/admin/notifications/notification/?q=&kind=game_finished")
    assert listing.status_code == 200 and "places" not in listing.content.decode()
    close_round(round_.pk)
    assert "places" in viewer.get(url).content.decode()
