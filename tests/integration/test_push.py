"""Web Push (issue 46), against a push service on loopback that checks what a real one does.

tests/support/push_receiver.py verifies each post's VAPID JWT (ES256 with the
site's public key, aud, exp, sub) and decrypts its aes128gcm body with the
device's own keys. Here: a two-member turn-based game whose "your turn" pushes
arrive once each, never while the member has the site open, with one Topic per
table; an invitation in the member's language; 410 removes the device; a push
service down or slow is retried with backoff; and every forged subscription is
refused with nothing stored and nothing sent to the address given.
"""

from __future__ import annotations

import datetime
import json
import socket

import pytest
import urllib3
from django.test import Client, override_settings
from django.utils import timezone, translation

from club.models import Player
from games import hooks, services
from games.models import Seat, Table, Variant
from notifications import kinds
from notifications import services as notify
from notifications.models import Notification, Online, Preference
from push import endpoints, keys, sender
from push.models import PushMessage, Subscription
from tests.support.members import member
from tests.support.push_receiver import PushReceiver

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("default_variants")]


@pytest.fixture
def receiver(settings):
    private, public = keys.make_pair()
    settings.PUSH_VAPID_PRIVATE_KEY = private
    settings.PUSH_VAPID_SUBJECT = "mailto:club@example.org"
    settings.PUSH_RETRY_SECONDS = 30
    settings.PUSH_TIMEOUT_SECONDS = 2
    service = PushReceiver(public).start()
    settings.PUSH_TEST_ORIGIN = service.origin
    sender.reset()
    yield service
    service.stop()
    sender.reset()


def signed_in(player, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(player.user)
    return client


def subscribe(client: Client, data) -> object:
    return client.post(
        "/push/subscribe/",
        data=json.dumps(data) if not isinstance(data, bytes) else data,
        content_type="application/json",
        HTTP_USER_AGENT="Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile",
    )


def on_site(player) -> None:
    """The member has a page of the site open (its lobby socket's row, vouched for now)."""
    Online.objects.update_or_create(
        channel=f"test.{player.pk}",
        defaults={"player": player, "server": "test", "seen": timezone.now()},
    )


def off_site(player) -> None:
    Online.objects.filter(player=player).delete()


def to_move(table: Table) -> Seat:
    game = services.current_game(table)
    engine = Variant.objects.get(pk=table.variant_id).engine
    [seat] = engine.actors(engine.from_json(game.state))[:1]
    return table.seats.get(position=seat)


def play_one(table: Table) -> Seat:
    """The member to move plays their first legal card; the seat that moved."""
    table.refresh_from_db()
    seat = to_move(table)
    game = services.current_game(table)
    engine = table.variant.engine
    move = engine.view(engine.from_json(game.state), seat.position)["legal"][0]
    services.play_move(seat.player_id, table.pk, move, table.version)
    return seat


def test_turn_pushes_arrive_once_never_while_on_the_site_one_topic_per_table(receiver):
    anna, boris = member("Anna"), member("Boris")
    anna.language = "fr"
    anna.save(update_fields=["language"])
    phones = {}
    for player in (anna, boris):
        device = receiver.device(f"phone-{player.pk}")
        response = subscribe(signed_in(player), device.subscription(receiver.origin))
        assert response.status_code == 201, response.content
        phones[player.pk] = device.name
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2, pace="1d")
    services.join_table(boris, table.pk)
    table.refresh_from_db()

    # The first turn: its member is away from the site, and gets one push, from the
    # worker's pass, never from the move or page that made the turn.
    first = to_move(table)
    assert Notification.objects.filter(kind="turn").count() == 1
    assert receiver.connections == 0
    sender.pump()
    receiver.wait_for(lambda: len(receiver.to(phones[first.player_id])) == 1)
    [push] = receiver.to(phones[first.player_id])
    topic = f"turn-{table.pk}"
    assert push.headers["Topic"] == topic
    note = Notification.objects.get(player_id=first.player_id, kind="turn")
    deadline = datetime.datetime.fromisoformat(note.data["deadline"])
    ttl = int(push.headers["TTL"])
    # TTL: until the move's deadline (a day at this pace), give or take the test's seconds.
    assert abs((timezone.now() + datetime.timedelta(seconds=ttl)) - deadline) < datetime.timedelta(
        seconds=30
    )
    assert push.message["url"].endswith(f"/tables/{table.pk}/")
    assert push.message["tag"] == topic

    # Moves go back and forth; whoever has the site open is not pushed. A member
    # told of several turns between two passes (the other had no card and passed)
    # gets one push: the newest notification replaced the older one.
    def turns() -> dict[int, int]:
        return {
            pid: Notification.objects.filter(player_id=pid, kind="turn").count()
            for pid in (anna.pk, boris.pk)
        }

    counts = {anna.pk: 0, boris.pk: 0}
    counts[first.player_id] = 1
    seen = turns()
    skipped_online = 0
    for step in range(10):
        play_one(table)
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        now = turns()
        told = [pid for pid in now if now[pid] > seen[pid]]
        seen = now
        online = step % 3 == 1
        for pid in told:
            if online:
                on_site(Player.objects.get(pk=pid))
        sender.pump()
        for pid in told:
            if online:
                skipped_online += 1
                off_site(Player.objects.get(pk=pid))
            else:
                counts[pid] += 1
        receiver.wait_for(
            lambda: all(len(receiver.to(phones[pid])) == n for pid, n in counts.items())
        )
    sender.pump()
    assert skipped_online >= 1
    assert counts[anna.pk] >= 2 and counts[boris.pk] >= 2, counts
    for pid, n in counts.items():
        pushes = receiver.to(phones[pid])
        assert len(pushes) == n  # once each, nothing for the turns seen live
        assert {p.headers["Topic"] for p in pushes} == {topic}  # each replaces the last
    assert PushMessage.objects.filter(reason="online").count() == skipped_online
    with translation.override("fr"):
        title = str(kinds.TURN.label)
    french = receiver.to(phones[anna.pk])
    assert french and all(p.message["lang"] == "fr" and p.message["title"] == title for p in french)
    assert receiver.refused == []


def test_an_invitation_is_pushed_in_the_members_language_and_a_410_removes_the_device(receiver):
    anna, boris = member("Anna"), member("Boris")
    boris.language = "ru"
    boris.save(update_fields=["language"])
    phone, laptop = receiver.device("phone"), receiver.device("laptop")
    client = signed_in(boris)
    assert subscribe(client, phone.subscription(receiver.origin)).status_code == 201
    assert subscribe(client, laptop.subscription(receiver.origin)).status_code == 201
    receiver.answers["laptop"] = 410
    table, _ = services.create_table(
        anna, Variant.objects.get(name="Golf"), 2, private=True, pace="1d"
    )
    notify.set_mail_from_strangers(boris, True)  # Boris takes invitations from anyone
    notify.invite(anna, table.pk, "Boris")
    sender.pump()
    receiver.wait_for(lambda: len(receiver.to("phone")) == 1)
    [push] = receiver.to("phone")
    assert push.message["lang"] == "ru"
    assert "Anna" in push.message["body"] and push.message["body"].isascii() is False
    assert "/tables/" in push.message["url"]
    assert "Topic" not in push.headers or push.headers["Topic"] is None
    # The laptop's push service said 410: that device is gone, the phone stays.
    assert list(Subscription.objects.filter(player=boris).values_list("label", flat=True)) != []
    assert Subscription.objects.filter(endpoint__endswith="/laptop").count() == 0
    assert Subscription.objects.filter(endpoint__endswith="/phone").count() == 1


def test_a_push_service_down_or_slow_is_retried_with_backoff(receiver, settings):
    settings.PUSH_TIMEOUT_SECONDS = 0.5
    boris = member("Boris")
    phone = receiver.device("phone")
    assert subscribe(signed_in(boris), phone.subscription(receiver.origin)).status_code == 201
    receiver.answers["phone"] = 503
    hooks_message(boris, "first")
    assert sender.pump()["sent"] == 0
    message = PushMessage.objects.get(player=boris, state=PushMessage.State.QUEUED)
    wait = (message.next_try - timezone.now()).total_seconds()
    assert 25 < wait <= 30 and message.error == "HTTP 503"
    # While the service is down its other pushes wait without a request.
    before = receiver.connections
    hooks_message(boris, "second")
    sender.pump()
    assert receiver.connections == before
    # Slow: no answer within PUSH_TIMEOUT_SECONDS is an outage too (doubling).
    sender.reset()
    receiver.answers.pop("phone")
    receiver.delay["phone"] = 1.5
    PushMessage.objects.filter(state=PushMessage.State.QUEUED).update(next_try=timezone.now())
    sender.pump()
    assert not receiver.to("phone")
    assert PushMessage.objects.filter(state=PushMessage.State.QUEUED).count() == 2
    # Back: both go out.
    receiver.delay.pop("phone")
    sender.reset()
    PushMessage.objects.filter(state=PushMessage.State.QUEUED).update(next_try=timezone.now())
    assert sender.pump()["sent"] == 2
    assert sorted(p.message["body"] for p in receiver.to("phone")) == [
        "Message from the club: first",
        "Message from the club: second",
    ]


def hooks_message(player, text: str) -> None:
    """A moderator's message to `player` (push on for it, which is off by default)."""
    Preference.objects.update_or_create(
        player=player, kind="message", channel="push", defaults={"enabled": True}
    )
    hooks.emit(hooks.Event("message", (player.pk,), data={"text": text}))


def test_a_club_night_reminder_is_pushed_by_default_and_lives_a_quarter_of_an_hour(receiver):
    boris = member("Boris")
    phone = receiver.device("phone")
    assert subscribe(signed_in(boris), phone.subscription(receiver.origin)).status_code == 201
    hooks.emit(
        hooks.Event("event_soon", (boris.pk,), data={"event": "Friday nines", "path": "/events/1/"})
    )
    sender.pump()
    [push] = receiver.to("phone")
    assert 0 < int(push.headers["TTL"]) <= 15 * 60
    assert "Friday nines" in push.message["body"] and push.message["url"].endswith("/events/1/")


def test_a_kind_with_push_off_or_a_member_without_devices_gets_nothing(receiver):
    boris = member("Boris")
    phone = receiver.device("phone")
    assert subscribe(signed_in(boris), phone.subscription(receiver.origin)).status_code == 201
    hooks.emit(hooks.Event("message", (boris.pk,), data={"text": "hello"}))  # push off by default
    sender.pump()
    assert receiver.connections == 0
    assert PushMessage.objects.get(player=boris).reason == "off"


# -- bad input ---------------------------------------------------------------------------


def good(receiver) -> dict:
    return receiver.device("ok").subscription(receiver.origin)


@pytest.mark.parametrize(
    ("endpoint", "code"),
    [
        ("http://fcm.googleapis.com/fcm/send/abc", "not_https"),
        ("https://10.0.0.7/push/abc", "private_address"),
        ("https://192.168.1.1/push", "private_address"),
        ("https://169.254.169.254/latest/meta-data", "private_address"),
        ("https://[::1]/push", "private_address"),
        ("https://127.0.0.1:443/push", "private_address"),
        ("https://evil.example.org/push/abc", "unknown_service"),
        ("https://fcm.googleapis.com.evil.example/x", "unknown_service"),
        ("https://user:pw@fcm.googleapis.com/fcm/send/x", "bad_endpoint"),
        ("https://fcm.googleapis.com/" + "a" * 1000, "too_long"),
        ("javascript:alert(1)", "bad_endpoint"),
        ("", "bad_endpoint"),
        (17, "bad_endpoint"),
    ],
)
def test_a_forged_endpoint_is_refused_nothing_stored_nothing_sent(receiver, endpoint, code):
    anna = member("Anna")
    data = good(receiver)
    data["endpoint"] = endpoint
    response = subscribe(signed_in(anna), data)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code and error["message"]
    assert Subscription.objects.count() == 0
    assert receiver.connections == 0


def test_a_host_that_resolves_to_loopback_is_refused(receiver, settings):
    settings.PUSH_SERVICE_HOSTS = ["localhost", ".localhost"]
    data = good(receiver)
    data["endpoint"] = "https://localhost/push/abc"
    response = subscribe(signed_in(member("Anna")), data)
    assert response.json()["error"]["code"] == "private_address"
    assert Subscription.objects.count() == 0 and receiver.connections == 0


def test_the_test_origin_is_honoured_only_on_loopback(receiver, settings):
    settings.PUSH_TEST_ORIGIN = "http://10.1.2.3:8000"
    data = good(receiver)
    data["endpoint"] = "http://10.1.2.3:8000/push/ok"
    assert subscribe(signed_in(member("Anna")), data).json()["error"]["code"] == "not_https"


# -- DNS rebinding: the name was public when the member subscribed -----------------------

PUBLIC = "93.184.215.14"  # an address on the public internet (never dialled: see `dialled`)
SERVICE = "push.example.test"


@pytest.fixture
def dns(monkeypatch, settings):
    """The resolver's answer for SERVICE, as the test sets it; every other name as usual."""
    settings.PUSH_SERVICE_HOSTS = [SERVICE]
    answers: list[str] = [PUBLIC]
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host == SERVICE:
            address = answers.pop(0) if len(answers) > 1 else answers[0]
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answers


@pytest.fixture
def dialled(monkeypatch) -> list[tuple[str, int]]:
    """Every address the worker's HTTP client connects to; none is reached (no network here)."""
    calls: list[tuple[str, int]] = []
    real = urllib3.util.connection.create_connection

    def create_connection(address, *args, **kwargs):
        calls.append((address[0], address[1]))
        if address[0] == "127.0.0.1":
            return real(address, *args, **kwargs)
        raise OSError("no network in the tests")

    monkeypatch.setattr(urllib3.util.connection, "create_connection", create_connection)
    return calls


def subscribed_through_dns(receiver, player) -> Subscription:
    data = receiver.device("phone").subscription(f"https://{SERVICE}:{receiver.port}")
    assert subscribe(signed_in(player), data).status_code == 201
    return Subscription.objects.get(player=player)


def test_a_name_that_now_resolves_to_loopback_gets_no_connection(receiver, dns, dialled):
    boris = member("Boris")
    device = subscribed_through_dns(receiver, boris)  # public then
    dns[:] = ["127.0.0.1"]  # loopback now: the receiver itself listens there
    hooks_message(boris, "hello")
    assert sender.pump()["sent"] == 0
    assert dialled == [] and receiver.connections == 0
    message = PushMessage.objects.get(player=boris)
    assert message.state == PushMessage.State.FAILED and "public" in message.error
    device.refresh_from_db()
    assert device.last_failure is not None and "public" in device.last_error
    assert device.last_sent is None
    for private in ("10.0.0.7", "169.254.169.254", "::1", "fe80::1"):
        dns[:] = [private]
        assert endpoints.post_target(device.endpoint) is None


def test_the_worker_connects_to_the_address_it_checked_not_a_later_answer(receiver, dns, dialled):
    boris = member("Boris")
    subscribed_through_dns(receiver, boris)
    # The first lookup at send time says public; any later one would say loopback.
    dns[:] = [PUBLIC, "127.0.0.1"]
    hooks_message(boris, "hello")
    sender.pump()
    assert dialled == [(PUBLIC, receiver.port)]
    assert receiver.connections == 0
    message = PushMessage.objects.get(player=boris)
    assert message.state == PushMessage.State.QUEUED and "no network" in message.error


def test_only_a_literal_loopback_test_origin_is_allowed_and_only_by_the_setting(receiver):
    device = receiver.device("phone").subscription(receiver.origin)["endpoint"]
    target = endpoints.post_target(device)
    assert target is not None and (target.address, target.port) == ("127.0.0.1", receiver.port)
    with override_settings(PUSH_TEST_ORIGIN=""):
        assert endpoints.post_target(device) is None
    named = device.replace("127.0.0.1", "localhost")
    with override_settings(PUSH_TEST_ORIGIN=receiver.origin.replace("127.0.0.1", "localhost")):
        assert endpoints.post_target(named) is None


@pytest.mark.parametrize(
    "keys_",
    [
        None,
        {},
        {"p256dh": "abc", "auth": "def"},
        {"p256dh": "B" + "A" * 86, "auth": "AAAAAAAAAAAAAAAAAAAAAA"},  # not a point on P-256
        {"p256dh": "x" * 500, "auth": "AAAAAAAAAAAAAAAAAAAAAA"},
    ],
)
def test_bad_keys_are_refused(receiver, keys_):
    data = good(receiver)
    data["keys"] = keys_
    response = subscribe(signed_in(member("Anna")), data)
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_keys"
    assert Subscription.objects.count() == 0


def test_not_json_anonymous_or_without_csrf_is_refused(receiver):
    anna = member("Anna")
    response = subscribe(signed_in(anna), b"{not json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_request"
    response = subscribe(signed_in(anna), b"[" + b"1," * 3000 + b"1]")
    assert response.status_code == 413
    response = subscribe(Client(), good(receiver))
    assert response.status_code == 403 and response.json()["error"]["code"] == "sign_in"
    response = signed_in(anna, csrf=True).post(
        "/push/subscribe/", data=json.dumps(good(receiver)), content_type="application/json"
    )
    assert response.status_code == 403
    assert signed_in(anna).get("/push/subscribe/").status_code == 405
    assert Subscription.objects.count() == 0 and receiver.connections == 0


def test_a_sixth_device_is_refused_and_the_same_device_again_is_no_new_one(receiver):
    anna = member("Anna")
    client = signed_in(anna)
    devices = [receiver.device(f"d{i}").subscription(receiver.origin) for i in range(6)]
    for data in devices[:5]:
        assert subscribe(client, data).status_code == 201
    again = subscribe(client, devices[0])
    assert again.status_code == 201  # its keys renewed, still five
    response = subscribe(client, devices[5])
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "too_many_devices"
    assert "5" in response.json()["error"]["message"]
    assert Subscription.objects.filter(player=anna).count() == 5
    assert receiver.connections == 0


def test_turning_off_one_device_leaves_the_others_and_never_touches_another_members(receiver):
    anna, boris = member("Anna"), member("Boris")
    phone, laptop, theirs = (receiver.device(n) for n in ("phone", "laptop", "theirs"))
    mine = signed_in(anna)
    assert subscribe(mine, phone.subscription(receiver.origin)).status_code == 201
    assert subscribe(mine, laptop.subscription(receiver.origin)).status_code == 201
    other = subscribe(signed_in(boris), theirs.subscription(receiver.origin)).json()["id"]

    def off(data):
        return mine.post(
            "/push/unsubscribe/", data=json.dumps(data), content_type="application/json"
        )

    refused = off({"id": other})
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"
    refused = off({"endpoint": theirs.subscription(receiver.origin)["endpoint"]})
    assert refused.status_code == 404
    assert Subscription.objects.filter(player=boris).count() == 1
    assert off({"id": True}).status_code == 400
    assert off({"endpoint": phone.subscription(receiver.origin)["endpoint"]}).status_code == 200
    assert list(Subscription.objects.filter(player=anna).values_list("endpoint", flat=True)) == [
        laptop.subscription(receiver.origin)["endpoint"]
    ]


def test_an_invitation_from_a_member_never_played_with_is_not_pushed(receiver):
    anna, boris = member("Anna"), member("Boris")
    phone = receiver.device("phone")
    assert subscribe(signed_in(boris), phone.subscription(receiver.origin)).status_code == 201
    table, _ = services.create_table(
        anna, Variant.objects.get(name="Golf"), 2, private=True, pace="1d"
    )
    notify.invite(anna, table.pk, "Boris")  # in the site only, as with the mail
    sender.pump()
    assert receiver.connections == 0
    assert PushMessage.objects.get(player=boris).reason == "site_only"


# -- the settings page ---------------------------------------------------------------------


def test_the_settings_page_has_a_push_column_with_its_defaults_and_the_members_devices(receiver):
    anna = member("Anna")
    client = signed_in(anna)
    phone = receiver.device("phone")
    assert subscribe(client, phone.subscription(receiver.origin)).status_code == 201
    page = client.get("/notifications/settings/")
    form = page.context["form"]
    assert form["turn__push"].initial is True and form["invited__push"].initial is True
    assert form["message__push"].initial is False
    html = page.content.decode()
    assert 'data-testid="push-on"' in html and f'data-public-key="{keys.public_key()}"' in html
    assert html.count('data-testid="push-device"') == 1 and "Chrome · Android" in html
    # Push off for "your turn": no push for it any more.
    data = {name: "on" for name in form.fields if form[name].initial}
    del data["turn__push"]
    assert client.post("/notifications/settings/", data).status_code == 302
    assert Preference.objects.get(player=anna, kind="turn", channel="push").enabled is False
    assert 'data-testid="push-device"' in client.get("/notifications/settings/").content.decode()
    boris = member("Boris")
    table, _ = services.create_table(boris, Variant.objects.get(name="Devyatka"), 2, pace="1d")
    services.join_table(anna, table.pk)
    sender.pump()
    assert receiver.connections == 0
    # Turning the device off from the list; another member's id is refused.
    other = subscribe(signed_in(boris), receiver.device("b").subscription(receiver.origin))
    response = client.post(f"/push/devices/{other.json()['id']}/off/", follow=True)
    assert Subscription.objects.filter(player=boris).count() == 1
    assert "Push is not on for that device." in response.content.decode()
    [mine] = Subscription.objects.filter(player=anna)
    response = client.post(f"/push/devices/{mine.pk}/off/", follow=True)
    assert "Push is off for that device." in response.content.decode()
    assert not Subscription.objects.filter(player=anna).exists()


def test_without_a_key_the_page_says_push_is_off_and_has_no_push_column(settings):
    settings.PUSH_VAPID_PRIVATE_KEY = ""
    page = signed_in(member("Anna")).get("/notifications/settings/")
    assert "turn__push" not in page.context["form"].fields
    assert 'data-testid="push-unavailable"' in page.content.decode()


def test_check_deploy_warns_while_the_test_origin_is_set(settings):
    from django.core.management import call_command

    from push.checks import no_test_origin

    settings.PUSH_TEST_ORIGIN = ""
    assert no_test_origin() == []
    settings.PUSH_TEST_ORIGIN = "http://127.0.0.1:9999"
    [warning] = no_test_origin()
    assert warning.id == "push.W001" and "127.0.0.1:9999" in warning.msg
    with pytest.raises(Exception, match="push.W001"):
        call_command("check", "--deploy", "--fail-level", "WARNING")
