"""Chat moderation in Django admin: the reported list with context, hide (live), dismiss, ban, house posts."""

from __future__ import annotations

import datetime

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from chat import services as chat
from chat.models import ChatBan, ChatMessage, ChatReport
from tests.integration.test_chat_ws import at_table, in_lobby, started_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("default_variants"),
]

db = database_sync_to_async


def admin_client() -> Client:
    user = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw")
    client = Client()
    client.force_login(user)
    return client


def reported_conversation(table_id: int, anna, boris) -> ChatMessage:
    room = f"table-{table_id}"
    for n in range(3):
        chat.send(room, anna.player.pk, f"before {n}")
    bad = chat.send(room, boris.player.pk, "<b>rude</b> words")
    chat.send(room, anna.player.pk, "after")
    chat.report(room, anna.player.pk, bad["id"], "insult")
    return ChatMessage.objects.get(pk=bad["id"])


async def test_reported_messages_are_listed_with_their_conversation_escaped():
    table, (anna, boris) = await db(started_table)()
    bad = await db(reported_conversation)(table.pk, anna, boris)
    client = await db(admin_client)()
    listing = await db(client.get)("/admin/chat/chatmessage/?reported=open")
    assert listing.status_code == 200
    text = listing.content.decode()
    assert "&lt;b&gt;rude&lt;/b&gt; words" in text and "<b>rude</b>" not in text
    assert "before 0" not in text  # only the reported one
    page = await db(client.get)(f"/admin/chat/chatmessage/{bad.pk}/change/")
    body = page.content.decode()
    for words in ("before 0", "before 2", "after", "insult", "&lt;b&gt;rude&lt;/b&gt;"):
        assert words in body
    assert f"/admin/chat/chatban/add/?player={boris.player.pk}" in body


async def test_hiding_in_admin_removes_the_message_live_from_every_open_page():
    table, (anna, boris) = await db(started_table)()
    bad = await db(reported_conversation)(table.pk, anna, boris)
    a, _, history = await at_table(table.pk, anna)
    b, _, _ = await at_table(table.pk, boris)
    assert bad.pk in [m["id"] for m in history["messages"]]
    client = await db(admin_client)()
    response = await db(client.post)(
        "/admin/chat/chatmessage/",
        {"action": "hide_messages", "_selected_action": [bad.pk]},
        follow=True,
    )
    assert "1 message hidden." in response.content.decode()
    for ws in (a, b):
        assert await ws.receive_json_from() == {"type": "chat_hidden", "id": bad.pk}
    await db(bad.refresh_from_db)()
    assert bad.hidden
    report = await db(ChatReport.objects.get)()
    assert report.status == "hidden"
    _, _, history = await at_table(table.pk, boris)
    assert bad.pk not in [m["id"] for m in history["messages"]]
    for ws in (a, b):
        await ws.disconnect()


async def test_dismissing_a_report_keeps_the_message():
    table, (anna, boris) = await db(started_table)()
    bad = await db(reported_conversation)(table.pk, anna, boris)
    client = await db(admin_client)()
    await db(client.post)(
        "/admin/chat/chatmessage/", {"action": "dismiss_reports", "_selected_action": [bad.pk]}
    )
    report = await db(ChatReport.objects.get)()
    assert report.status == "dismissed"
    await db(bad.refresh_from_db)()
    assert not bad.hidden
    listing = await db(client.get)("/admin/chat/chatmessage/?reported=open")
    assert "rude" not in listing.content.decode()


async def test_an_admin_bans_a_member_from_chat_until_a_date():
    table, (anna, boris) = await db(started_table)()
    client = await db(admin_client)()
    until = timezone.localtime() + datetime.timedelta(days=3)
    response = await db(client.post)(
        "/admin/chat/chatban/add/",
        {
            "player": boris.player.pk,
            "until_0": until.strftime("%Y-%m-%d"),
            "until_1": until.strftime("%H:%M:%S"),
            "reason": "Insults",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    ban = await db(ChatBan.objects.select_related("created_by").get)()
    assert ban.player_id == boris.player.pk and ban.created_by.username == "boss"
    b, _, history = await at_table(table.pk, boris)
    assert history["ban"]["reason"] == "Insults"
    await b.send_json_to({"type": "chat_send", "text": "hi"})
    assert (await b.receive_json_from())["code"] == "chat_banned"
    # A ban that ended already is refused.
    past = timezone.localtime() - datetime.timedelta(days=1)
    response = await db(client.post)(
        "/admin/chat/chatban/add/",
        {
            "player": anna.player.pk,
            "until_0": past.strftime("%Y-%m-%d"),
            "until_1": past.strftime("%H:%M:%S"),
        },
    )
    assert response.status_code == 200 and "A ban ends in the future." in response.content.decode()
    await b.disconnect()


async def test_an_admin_posts_as_the_house_in_a_table_and_in_the_lobby():
    table, (anna, boris) = await db(started_table)()
    a, _, _ = await at_table(table.pk, anna)
    lobby, _ = await in_lobby(boris)
    client = await db(admin_client)()
    response = await db(client.post)(
        "/admin/chat/chatmessage/add/", {"table": table.pk, "text": "Tournament at 8"}
    )
    assert response.status_code == 302
    frame = await a.receive_json_from()
    assert frame["message"]["house"] is True and frame["message"]["author"] is None
    assert frame["message"]["text"] == "Tournament at 8"
    await db(client.post)("/admin/chat/chatmessage/add/", {"table": "", "text": "Welcome all"})
    frame = await lobby.receive_json_from()
    assert frame["message"]["room"] == "lobby" and frame["message"]["house"] is True
    response = await db(client.post)(
        "/admin/chat/chatmessage/add/", {"table": "", "text": " \x00 "}
    )
    assert response.status_code == 200
    assert await db(ChatMessage.objects.count)() == 2
    for ws in (a, lobby):
        await ws.disconnect()


async def test_members_without_the_permission_cannot_hide():
    table, (anna, boris) = await db(started_table)()
    bad = await db(reported_conversation)(table.pk, anna, boris)

    def staff_client() -> Client:
        user = get_user_model().objects.create_user("helper", "h@example.com", "pw", is_staff=True)
        client = Client()
        client.force_login(user)
        return client

    client = await db(staff_client)()
    response = await db(client.post)(
        "/admin/chat/chatmessage/", {"action": "hide_messages", "_selected_action": [bad.pk]}
    )
    assert response.status_code == 403
    await db(bad.refresh_from_db)()
    assert not bad.hidden
