"""The notifications' pages: the bell, the list (read, read all, empty), preferences,
inviting a member by name at a private table, a moderator's message, round reminders."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from games import hooks, services
from games.models import Variant
from notifications.models import Notification, Preference
from tests.support.members import member

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("default_variants")]


def signed_in(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def private_table(creator):
    table, _ = services.create_table(
        creator, Variant.objects.get(name="Golf"), 4, private=True, pace="1d"
    )
    return table


def test_the_list_newest_first_read_one_read_all_and_the_empty_state():
    anna = member("Anna")
    client = signed_in(anna)
    empty = client.get("/notifications/")
    assert empty.status_code == 200 and b"notifications-empty" in empty.content
    assert b'data-testid="bell-count"' in empty.content
    for text in ("Note-A", "Note-B", "Note-C"):
        hooks.emit(hooks.Event("message", (anna.pk,), data={"text": text}))
    page = client.get("/notifications/").content.decode()
    assert page.index("Note-C") < page.index("Note-B") < page.index("Note-A")
    assert page.count('data-testid="mark-read"') == 3
    assert "data-bell-count >3</span>" in page.replace("\n", "") or ">3</span>" in page
    newest = Notification.objects.order_by("-pk").first()
    assert client.post(f"/notifications/{newest.pk}/read/").status_code == 302
    assert Notification.objects.filter(read_at=None).count() == 2
    # Someone else's notification, or none at all: a message, never a 500.
    boris = member("Boris")
    assert signed_in(boris).post(f"/notifications/{newest.pk}/read/").status_code == 302
    assert signed_in(boris).post("/notifications/999999/read/").status_code == 302
    client.post("/notifications/read-all/")
    assert not Notification.objects.filter(read_at=None).exists()
    assert b"read-all" not in client.get("/notifications/").content


def test_a_notification_link_marks_it_read_and_opens_its_table():
    anna, boris = member("Anna"), member("Boris")
    table = private_table(anna)
    client = signed_in(anna)
    response = client.post(f"/notifications/tables/{table.pk}/invite/", {"name": "boris"})
    assert response.status_code == 302
    note = Notification.objects.get(player=boris, kind="invited")
    opened = signed_in(boris).get(f"/notifications/{note.pk}/open/")
    assert opened.status_code == 302 and opened["Location"] == table.invite_url()
    assert signed_in(boris).get(opened["Location"]).status_code == 200
    note.refresh_from_db()
    assert note.read_at is not None


def test_only_a_private_tables_members_invite_and_bad_names_are_told():
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    table = private_table(anna)
    page = signed_in(anna).get(f"/tables/{table.pk}/")
    assert b'data-testid="invite-member"' in page.content
    url = f"/notifications/tables/{table.pk}/invite/"
    for name, words in (
        ("", b"Write the name"),
        ("Nobody", b"No member has that name"),
        ("Anna", b"already at this table"),
    ):
        answer = signed_in(anna).post(url, {"name": name}, follow=True)
        assert answer.status_code == 200 and words in answer.content
    # Vera holds the invite link but sits nowhere: she may look, not invite.
    refused = signed_in(vera).post(url + f"?invite={table.invite_token}", {"name": "Boris"})
    assert refused.status_code == 404
    public, _ = services.create_table(anna, Variant.objects.get(name="Golf"), 4)
    answer = signed_in(anna).post(
        f"/notifications/tables/{public.pk}/invite/", {"name": "Boris"}, follow=True
    )
    assert b"Only a private table" in answer.content
    assert not Notification.objects.filter(kind="invited").exists()
    signed_in(anna).post(url, {"name": "Boris"})
    signed_in(anna).post(url, {"name": "Boris"})  # twice: told once
    assert Notification.objects.filter(player=boris, kind="invited").count() == 1


def test_preferences_page_saves_per_kind_and_channel_and_defaults_are_sensible():
    anna = member("Anna")
    client = signed_in(anna)
    page = client.get("/notifications/settings/")
    assert page.status_code == 200
    form = page.context["form"]
    assert form["turn__mail"].initial is True and form["invited__mail"].initial is True
    assert form["round_closing__mail"].initial is True
    assert form["table_started__mail"].initial is False
    data = {name: "on" for name, field in form.fields.items() if form[name].initial}
    data.pop("turn__mail")
    data["game_finished__mail"] = "on"
    assert client.post("/notifications/settings/", data).status_code == 302
    stored = set(Preference.objects.values_list("kind", "channel", "enabled"))
    assert stored == {("turn", "mail", False), ("game_finished", "mail", True)}
    hooks.emit(hooks.Event("turn", (anna.pk,), None, data={"pace": "turn"}))
    assert Notification.objects.get().mail_state == Notification.Mail.NONE


def test_a_moderator_sends_a_message_from_admin():
    admin = member("Admin", is_staff=True, is_superuser=True)
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    client = signed_in(admin)
    page = client.get("/admin/notifications/notification/message/")
    assert page.status_code == 200
    refused = client.post(
        "/admin/notifications/notification/message/", {"members": [anna.pk], "text": " "}
    )
    assert refused.status_code == 200 and refused.context["form"].errors
    sent = client.post(
        "/admin/notifications/notification/message/",
        {"members": [anna.pk, boris.pk], "text": "The club is closed on Sunday."},
    )
    assert sent.status_code == 302
    assert set(Notification.objects.values_list("player_id", flat=True)) == {anna.pk, boris.pk}
    assert "closed on Sunday" in signed_in(anna).get("/notifications/").content.decode()
    assert not Notification.objects.filter(player=vera).exists()
    assert client.get("/admin/notifications/notification/").status_code == 200
    assert client.get("/admin/notifications/outgoingmail/").status_code == 200


def test_round_reminders_reach_the_series_members_once():
    from duplicate import reminders
    from duplicate import services as duplicate
    from duplicate.models import DuplicateSeries, Round

    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    series = DuplicateSeries.objects.create(
        name="Winter pairs", slug="winter", variant=Variant.objects.get(name="Devyatka")
    )
    now = timezone.now()
    round_ = Round.objects.create(
        series=series,
        number=1,
        starts=now - datetime.timedelta(hours=1),
        ends=now + datetime.timedelta(hours=20),
        boards=2,
    )
    first, second = round_.board_set.order_by("number")
    duplicate.play_board(anna, first.pk)
    duplicate.play_board(boris, first.pk)
    duplicate.play_board(boris, second.pk)
    reminders._told.clear()
    reminders.round_reminders_duty()
    reminders._told.clear()
    reminders.round_reminders_duty()  # as another process would: each member told once
    told = sorted(
        Notification.objects.filter(kind__startswith="round").values_list("kind", "player_id")
    )
    assert told == sorted(
        [("round_opened", anna.pk), ("round_opened", boris.pk), ("round_closing", anna.pk)]
    )
    note = Notification.objects.get(kind="round_closing")
    assert note.data["series"] == "Winter pairs" and note.data["path"] == round_.get_absolute_url()
    assert not Notification.objects.filter(player=vera).exists()
    assert "Winter pairs" in signed_in(anna).get("/notifications/").content.decode()


def test_the_demo_member_has_a_few_notifications_once():
    from notifications import demo

    anna = member("Anna")
    table, _ = services.create_table(anna, Variant.objects.get(name="Golf"), 4, pace="2d")
    assert demo.build([anna]) == 0
    kinds = set(Notification.objects.filter(player=anna).values_list("kind", flat=True))
    assert kinds == {"message", "table_started", "turn"}
    demo.build([anna])  # `make run` again: nothing more
    assert Notification.objects.filter(player=anna).count() == 3
    page = signed_in(anna).get("/notifications/").content.decode()
    assert f"/notifications/{Notification.objects.get(kind='turn').pk}/open/" in page
