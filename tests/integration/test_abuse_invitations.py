"""Issue 42, security review: invitations and notification mail cannot be turned on members.

Measured on main (8c5237a): one account mailed one member 30 times in 9 s (30 private
tables), one table invited 12 members in 0.8 s, a muted member's invitations reached the
member who muted them, and an outsider's address, signed up and never confirmed,
received every invitation. Each test is that attack, against a real SMTP server
(tests/integration/mailbox.py) and the worker's own mail pass; each failed before its fix.
"""

from __future__ import annotations

import datetime

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.test import Client
from django.utils import timezone

from chat import services as chat
from games import services
from games.models import Table, Variant
from notifications import mailer
from notifications import services as notify
from notifications.models import Invitation, Notification
from tests.integration.mailbox import Mailbox
from tests.support.members import member

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("default_variants")]

NOON = datetime.datetime(2026, 3, 2, 12, 0, tzinfo=datetime.UTC)


@pytest.fixture
def mailbox(settings):
    box = Mailbox().start()
    for name, value in box.settings().items():
        setattr(settings, name, value)
    settings.SITE_URL = "http://club.test"
    mailer.reset()
    yield box
    box.stop()
    mailer.reset()


def private_table(host, seats: int = 4) -> Table:
    table, _ = services.create_table(host, Variant.objects.get(name="Golf"), seats, private=True)
    return table


def played_together(first, second) -> None:
    """A finished two-member game, so each has played with the other."""
    table, _ = services.create_table(first, Variant.objects.get(name="Devyatka"), 2)
    services.join_table(second, table.pk)
    services.play_out(table.pk)
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


def mails_to(box: Mailbox, player) -> int:
    return len(box.to(player.user.email))


def test_thirty_one_invitations_to_one_member_in_a_loop_mail_them_three_times(mailbox, settings):
    """Measured: one account mailed one member 30 times in 9 s (30 private tables)."""
    settings.INVITATIONS_TO_ONE_MEMBER_PER_DAY = 3
    anna, boris = member("Anna"), member("Boris")
    played_together(anna, boris)  # so even the mail channel is open to Anna
    with time_machine.travel(NOON, tick=False) as clock:
        tables = [private_table(anna) for _ in range(31)]
        answers, message = [], ""
        for table in tables:
            try:
                notify.invite(anna, table.pk, "Boris")
                answers.append("invited")
            except services.ServiceError as refusal:
                answers.append(refusal.code)
                message = str(refusal.message)
        assert answers == ["invited"] * 3 + ["too_many_invitations"] * 28
        assert "You invited Boris" in message and "(3)" in message
        mailer.pump()
        assert mails_to(mailbox, boris) == 3
        assert Notification.objects.filter(player=boris, kind="invited").count() == 3
        assert Invitation.objects.filter(inviter=anna).count() == 3
        clock.move_to(NOON + datetime.timedelta(days=1, minutes=1))
        notify.invite(anna, tables[3].pk, "Boris")  # a day on: one more
        mailer.pump()
        assert mails_to(mailbox, boris) == 4


def test_thirty_one_invitations_in_a_loop_are_refused_past_the_hour_and_day_limits(
    mailbox, settings
):
    settings.INVITATIONS_PER_HOUR = 10
    settings.INVITATIONS_PER_DAY = 30
    anna = member("Anna")
    guests = [member(f"Guest{n:02d}") for n in range(31)]
    with time_machine.travel(NOON, tick=False) as clock:
        tables = [private_table(anna, seats=2) for _ in range(31)]
        answers, message = [], ""
        for table, guest in zip(tables, guests, strict=True):
            try:
                notify.invite(anna, table.pk, guest.display_name)
                answers.append("invited")
            except services.ServiceError as refusal:
                answers.append(refusal.code)
                message = str(refusal.message)
        assert answers == ["invited"] * 10 + ["too_many_invitations"] * 21
        assert "in the last hour" in message and "(10)" in message
        # An hour on, ten more; then the day's limit holds.
        for hour in (1, 2):
            clock.move_to(NOON + datetime.timedelta(hours=hour, minutes=1))
            for n in range(10 * hour, 10 * hour + 10):
                notify.invite(anna, tables[n].pk, guests[n].display_name)
        clock.move_to(NOON + datetime.timedelta(hours=3, minutes=2))
        with pytest.raises(services.ServiceError) as refusal:
            notify.invite(anna, tables[30].pk, guests[30].display_name)
        assert refusal.value.code == "too_many_invitations"
        assert "24 hours" in str(refusal.value.message) and "(30)" in str(refusal.value.message)
        assert Invitation.objects.filter(inviter=anna).count() == 30
        assert not Notification.objects.filter(player=guests[30]).exists()
        # Strangers to Anna: told in the site, never by mail (the default).
        mailer.pump()
        assert len(mailbox.messages) == 0


def test_a_table_invites_no_more_members_than_its_free_seats(mailbox):
    host = member("Host")
    guests = [member(f"Guest{n}") for n in range(4)]
    table = private_table(host, seats=4)  # three free seats
    client = Client()
    client.force_login(host.user)
    url = f"/notifications/tables/{table.pk}/invite/"
    for guest in guests[:3]:
        answer = client.post(url, {"name": guest.display_name}, follow=True)
        assert f"{guest.display_name} is invited." in answer.content.decode()
    refused = client.post(url, {"name": guests[3].display_name}, follow=True)
    assert refused.status_code == 200
    assert "Every free seat at this table" in refused.content.decode()
    assert not Notification.objects.filter(player=guests[3]).exists()
    assert Invitation.objects.filter(table_id=table.pk).count() == 3
    # A guest who came takes a seat: still no fourth invitation (one seat, one waiting).
    services.join_table(guests[0], table.pk, invite=str(table.invite_token))
    with pytest.raises(services.ServiceError) as refusal:
        notify.invite(host, table.pk, guests[3].display_name)
    assert refusal.value.code == "table_invitations"
    # A day on, invitations nobody took up no longer hold the seats.
    with time_machine.travel(timezone.now() + datetime.timedelta(days=1, minutes=1)):
        notify.invite(host, table.pk, guests[3].display_name)
    assert Notification.objects.filter(player=guests[3], kind="invited").exists()
    # A table whose every seat is taken (bots count) invites nobody, and says why.
    for _seat in range(2):
        services.add_bot(host, table.pk, "random")
    with pytest.raises(services.ServiceError) as refusal:
        notify.invite(host, table.pk, member("Late").display_name)
    assert refusal.value.code == "table_invitations"
    assert "Every seat at this table is taken" in str(refusal.value.message)


def test_a_muted_members_invitations_do_not_reach_the_member_who_muted_them(mailbox):
    anna, boris = member("Anna"), member("Boris")
    played_together(anna, boris)
    chat.mute(boris.pk, anna.pk)
    guest = notify.invite(anna, private_table(anna).pk, "Boris")
    assert guest == boris  # the inviter is told nothing that gives the mute away
    mailer.pump()
    assert mails_to(mailbox, boris) == 0
    assert not Notification.objects.filter(player=boris, kind="invited").exists()
    assert Invitation.objects.get(inviter=anna, guest=boris).delivered is False
    chat.mute(boris.pk, anna.pk, False)
    notify.invite(anna, private_table(anna).pk, "Boris")
    mailer.pump()
    assert mails_to(mailbox, boris) == 1


def test_invitations_from_members_never_played_with_come_in_the_site_only_by_default(mailbox):
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    played_together(anna, boris)
    notify.invite(vera, private_table(vera).pk, "Boris")  # a stranger to Boris
    notify.invite(anna, private_table(anna).pk, "Boris")  # played with him
    mailer.pump()
    assert mails_to(mailbox, boris) == 1
    assert "Anna" in mailbox.to(boris.user.email)[0]["Subject"]
    assert Notification.objects.filter(player=boris, kind="invited").count() == 2
    # The member may take strangers' invitations by mail too (preferences page).
    client = Client()
    client.force_login(boris.user)
    form = client.get("/notifications/settings/").context["form"]
    assert form["invited__stranger"].initial is False
    data = {name: "on" for name in form.fields if form[name].initial}
    data["invited__stranger"] = "on"
    assert client.post("/notifications/settings/", data).status_code == 302
    notify.invite(vera, private_table(vera).pk, "Boris")
    mailer.pump()
    assert mails_to(mailbox, boris) == 2


def test_an_unconfirmed_address_receives_nothing_and_the_site_still_tells_its_member(mailbox):
    anna = member("Anna")
    outsider = member("Outsider", verified=False)
    assert not EmailAddress.objects.filter(user=outsider.user, verified=True).exists()
    notify.invite(anna, private_table(anna).pk, "Outsider")
    notify.send_message([outsider.pk], "Welcome")
    mailer.pump()
    assert mails_to(mailbox, outsider) == 0
    assert Notification.objects.filter(player=outsider).count() == 2
    assert not Notification.objects.filter(player=outsider, mail_state="queued").exists()
    client = Client()
    client.force_login(outsider.user)
    page = client.get("/notifications/settings/").content.decode()
    assert 'data-testid="mail-unconfirmed"' in page
    # A verified address that is not the primary one does not count either.
    EmailAddress.objects.filter(user=outsider.user).update(primary=False)
    EmailAddress.objects.create(user=outsider.user, email="other@example.com", verified=True)
    notify.send_message([outsider.pk], "Still site only")
    mailer.pump()
    assert len(mailbox.to("other@example.com")) == 0
    # Confirmed: mail from now on.
    EmailAddress.objects.filter(user=outsider.user, email="outsider@example.com").update(
        verified=True, primary=True
    )
    notify.send_message([outsider.pk], "Now by mail")
    mailer.pump()
    assert mails_to(mailbox, outsider) == 1


def test_bad_invitations_are_told_and_change_nothing(mailbox):
    anna = member("Anna")
    table = private_table(anna)
    for name, code in (("", "no_name"), ("Nobody", "no_member"), ("Anna", "already_there")):
        with pytest.raises(services.ServiceError) as refusal:
            notify.invite(anna, table.pk, name)
        assert refusal.value.code == code
    assert not Invitation.objects.exists() and not Notification.objects.exists()
