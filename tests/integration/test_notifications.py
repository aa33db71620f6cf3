"""Notifications (issue 37) against a real SMTP server (aiosmtpd, tests/integration/mailbox.py).

The mail pass is the worker's own (`notifications.mailer.pump`), run on the
test's thread; tests/integration/test_notifications_worker.py runs the real
worker process. Events come from the games (a turn-based game played over
sockets) or are emitted as the games emit them (games.hooks).
"""

from __future__ import annotations

import datetime
import logging
import re

import pytest
import time_machine
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone, translation

from club.asgi import application
from games import hooks, services
from games.models import Table, Variant
from notifications import mailer
from notifications.models import Notification, Online, OutgoingMail, Preference
from tests.integration.mailbox import Mailbox, body
from tests.support.members import member

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("default_variants")]

SITE = "http://club.test"


@pytest.fixture
def mailbox(settings):
    box = Mailbox().start()
    for name, value in box.settings().items():
        setattr(settings, name, value)
    settings.SITE_URL = SITE
    settings.NOTIFY_MAIL_MINUTES = 60
    settings.NOTIFY_RETRY_SECONDS = 0.05
    settings.NOTIFY_RETRY_MAX_SECONDS = 0.2
    settings.ALLOWED_HOSTS = ["club.test", "testserver", "localhost"]
    mailer.reset()
    yield box
    box.stop()
    mailer.reset()


@pytest.fixture
def synthetic_turns(monkeypatch):
    """Turns emitted by `turn()` below name tables where nobody plays: the mail's check
    that the turn still waits (notifications.render.still_true) is told it does.
    The check itself is tested with real games (test_turn_mail_truth.py)."""
    monkeypatch.setattr(services, "turn_waiting", lambda table_id, player_id, game_id: (True, None))


def speaker(name: str, language: str = "en"):
    player = member(name)
    player.language = language
    player.save()
    return player


def turn(player, table_id: int) -> None:
    """A turn at a turn-based table, as the games emit it (delivered at once: autocommit)."""
    hooks.emit(
        hooks.Event("turn", (player.pk,), table_id, None, {"deadline": None, "pace": "turn"})
    )


def open_table(creator, private: bool = False) -> Table:
    table, _ = services.create_table(
        creator, Variant.objects.get(name="Golf"), 4, private=private, pace="1d"
    )
    return table


def link_path(url: str) -> str:
    assert url.startswith(SITE), url
    return url[len(SITE) :]


def links(message) -> list[str]:
    return re.findall(rf"{re.escape(SITE)}/\S+", body(message))


def client_for(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


# ---------------------------------------------------------------------------
# A turn-based game over sockets: each "your turn" mail once, in the member's language


async def socket(path: str, player) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(_cookie)(player)
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)]
    )
    connected, _ = await communicator.connect()
    assert connected
    return communicator


def _cookie(player) -> bytes:
    client = client_for(player)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def _two_member_game():
    anna, boris = speaker("Anna", "it"), speaker("Boris", "fr")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2, pace="1d")
    services.join_table(boris, table.pk)
    return Table.objects.get(pk=table.pk), anna, boris


def _to_move(table_id: int) -> int | None:
    table = Table.objects.get(pk=table_id)
    game = services.current_game(table)
    if game is None or game.finished:
        return None
    engine = table.variant.engine
    actors = engine.actors(engine.from_json(game.state))
    return table.seats.get(position=actors[0]).player_id if actors else None


@pytest.mark.asyncio
async def test_a_turn_based_game_over_sockets_mails_each_turn_once_in_the_members_language(
    mailbox, settings
):
    settings.NOTIFY_MAIL_MINUTES = 0  # every turn its own mail here; batching is tested below
    table, anna, boris = await database_sync_to_async(_two_member_game)()
    players = {anna.pk: anna, boris.pk: boris}
    pump = database_sync_to_async(mailer.pump)
    await pump()
    for _move in range(4):
        mover = await database_sync_to_async(_to_move)(table.pk)
        if mover is None:
            break
        ws = await socket(f"/ws/tables/{table.pk}/", players[mover])
        state = await ws.receive_json_from()
        move = state["view"]["legal"][0]
        await ws.send_json_to({"type": "play", "move": move, "version": state["version"]})
        answer = await ws.receive_json_from()
        assert answer["type"] == "state" and answer["version"] > state["version"]
        await ws.disconnect()
        await pump()
    rows = await database_sync_to_async(
        lambda: list(
            Notification.objects.filter(kind="turn").values_list(
                "player_id", "mail_state", "mail__state", "mail_id"
            )
        )
    )()
    # Every turn of a member away from the table is in a sent mail (two turns that
    # came between two passes share one); none is left waiting.
    assert all(state == "queued" and sent == "sent" for _, state, sent, _ in rows), rows
    mailed = {pid: len({mail for p, _, _, mail in rows if p == pid}) for pid in players}
    assert mailed[anna.pk] >= 1 and mailed[boris.pk] >= 1
    ids = [m["Message-ID"] for m in mailbox.messages]
    assert len(ids) == len(set(ids)), "a mail arrived twice"
    for pid, player in players.items():
        mails = [
            m
            for m in mailbox.to(f"{player.display_name.lower()}@example.com")
            if "turn" in m["Message-ID"]
        ]
        assert len(mails) == mailed[pid]
        with translation.override(player.language):
            expected = (
                translation.gettext("It is your turn at %(table)s.").split("%(table)s")[0].strip()
            )
        assert expected != "It is your turn at", "no translation for the turn mail"
        for mail in mails:
            assert expected in mail["Subject"] and expected in body(mail)
            assert body(mail, "html").count(f'href="{SITE}/tables/{table.pk}/"') == 1
            [url] = [u for u in links(mail) if "/tables/" in u]
            page = await database_sync_to_async(
                lambda p=player, u=url: client_for(p).get(link_path(u))
            )()
            assert page.status_code == 200


async def until(check) -> None:
    """Wait (up to 5 s) until `check()`, run on the database thread, holds."""
    import asyncio

    for _ in range(250):
        if await database_sync_to_async(check)():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("gave up waiting")


# ---------------------------------------------------------------------------
# Batching: one "your turn" mail per member per NOTIFY_MAIL_MINUTES, listing every table


def test_turns_within_the_window_wait_for_one_mail_listing_every_table(mailbox, synthetic_turns):
    anna, boris = speaker("Anna"), speaker("Boris")
    tables = [open_table(anna) for _ in range(3)]
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        turn(boris, tables[0].pk)
        mailer.pump()
        [first] = mailbox.wait_for(1)
        assert str(tables[0].pk) in body(first)
        clock.shift(datetime.timedelta(minutes=10))
        turn(boris, tables[1].pk)
        turn(boris, tables[2].pk)
        turn(boris, tables[2].pk)  # his turn there again: still one table waiting
        mailer.pump()
        assert len(mailbox.messages) == 1  # within the hour: they wait
        clock.shift(datetime.timedelta(minutes=49))
        mailer.pump()
        assert len(mailbox.messages) == 1
        clock.shift(datetime.timedelta(minutes=2))  # 61 minutes after the first mail
        mailer.pump()
        _, digest = mailbox.wait_for(2)
        text = body(digest)
        assert f"/tables/{tables[1].pk}/" in text and f"/tables/{tables[2].pk}/" in text
        assert f"/tables/{tables[0].pk}/" not in text
        assert text.count(f"/tables/{tables[2].pk}/") == 1
        assert Notification.objects.filter(player=boris, read_at=None).count() == 3
        mailer.pump()
    assert len(mailbox.messages) == 2
    assert OutgoingMail.objects.filter(player=boris, state="sent").count() == 2


def test_live_tables_turns_tell_nobody(mailbox):
    boris = speaker("Boris")
    hooks.emit(hooks.Event("turn", (boris.pk,), None, None, {"pace": "live"}))
    mailer.pump()
    assert not Notification.objects.exists() and not mailbox.messages


# ---------------------------------------------------------------------------
# No mail while the member has the site open; the bell counts live


@pytest.mark.asyncio
async def test_no_mail_while_the_site_is_open_and_the_bell_counts_live(mailbox, synthetic_turns):
    anna, boris = await database_sync_to_async(lambda: (speaker("Anna"), speaker("Boris")))()
    table = await database_sync_to_async(open_table)(anna)
    lobby = await socket("/ws/lobby/", boris)
    await until(lambda: Online.objects.filter(player=boris).exists())
    await database_sync_to_async(turn)(boris, table.pk)
    assert await lobby.receive_json_from() == {"type": "notifications", "unread": 1}
    await database_sync_to_async(mailer.pump)()
    assert not mailbox.messages
    assert (
        await database_sync_to_async(lambda: Notification.objects.get().mail_state)()
        == Notification.Mail.SKIPPED
    )
    await lobby.disconnect()
    await until(lambda: not Online.objects.filter(player=boris).exists())
    await database_sync_to_async(turn)(boris, (await database_sync_to_async(open_table)(anna)).pk)
    await database_sync_to_async(mailer.pump)()
    assert len(mailbox.wait_for(1)) == 1


# ---------------------------------------------------------------------------
# Unsubscribe: the signed link and RFC 8058's one-click POST


def _invite_mail(mailbox, host, guest) -> object:
    from notifications import services as notify
    from tests.integration.test_abuse_invitations import played_together

    # Invitations come by mail from members the guest played with (issue 42).
    if not notify.played_together(host, guest):
        played_together(host, guest)
    table = open_table(host, private=True)

    notify.invite(host, table.pk, guest.display_name)
    mailer.pump()
    return mailbox.to(guest.user.email)[-1]


def test_unsubscribe_by_the_link_and_by_one_click_post(mailbox, synthetic_turns):
    anna, boris, vera = speaker("Anna"), speaker("Boris"), speaker("Vera")
    mail = _invite_mail(mailbox, anna, boris)
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    header = mail["List-Unsubscribe"].strip().strip("<>")
    assert header in body(mail)
    anonymous = Client()
    page = anonymous.get(link_path(header))
    assert page.status_code == 200 and b"unsubscribe-button" in page.content
    done = anonymous.post(link_path(header))
    assert done.status_code == 200 and b"unsubscribed" in done.content
    assert Preference.objects.get(player=boris).kind == "invited"
    # Only that member and that kind: Vera still gets invitations, Boris still his turns.
    _invite_mail(mailbox, anna, vera)
    assert len(mailbox.to(vera.user.email)) == 1
    before = len(mailbox.to(boris.user.email))
    from notifications import services as notify

    notify.invite(anna, open_table(anna, private=True).pk, "Boris")
    turn(boris, open_table(anna).pk)
    mailer.pump()
    [latest] = mailbox.to(boris.user.email)[before:]
    assert "turn" in latest["Message-ID"]
    # One click, as a mail client does it: no session, no CSRF token.
    one_click = mailbox.to(vera.user.email)[-1]["List-Unsubscribe"].strip().strip("<>")
    posted = Client(enforce_csrf_checks=True).post(
        link_path(one_click),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert posted.status_code == 200
    assert Preference.objects.filter(
        player=vera, kind="invited", channel="mail", enabled=False
    ).exists()
    assert Preference.objects.count() == 2


@pytest.mark.parametrize("token", ["nonsense", "eyJwIjoxLCJrIjoidHVybiJ9:1abc:forged"])
def test_a_bad_unsubscribe_token_is_a_clear_400(token):
    page = Client().post(f"/notifications/unsubscribe/{token}/")
    assert page.status_code == 400 and b"unsubscribe-bad" in page.content
    assert Client().get(f"/notifications/unsubscribe/{token}/").status_code == 400
    assert not Preference.objects.exists()


# ---------------------------------------------------------------------------
# Faults: SMTP down then back; one refused address


def test_smtp_down_then_back_loses_nothing_sends_nothing_twice_and_warns_once(
    mailbox, caplog, synthetic_turns
):
    anna = speaker("Anna")
    guests = [speaker(name) for name in ("Boris", "Vera", "Gleb")]
    mailbox.stop()
    caplog.set_level(logging.INFO, logger="notifications.mailer")
    for guest in guests:
        turn(guest, open_table(anna).pk)
    for _ in range(4):
        mailer.pump()
        mailer._outage.retry_at = 0  # no waiting in the test: the outage is still on
    assert OutgoingMail.objects.filter(state="queued").count() == 3
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "not taking mail" in warnings[0].getMessage()
    mailbox.start()
    mailer._outage.retry_at = 0
    mailer.pump()
    mailbox.wait_for(3)
    mailer.pump()
    assert sorted(m["To"] for m in mailbox.messages) == sorted(g.user.email for g in guests)
    assert OutgoingMail.objects.filter(state="sent").count() == 3
    assert sum("takes mail again" in r.getMessage() for r in caplog.records) == 1


def test_a_refused_address_fails_alone(mailbox, synthetic_turns):
    anna = speaker("Anna")
    guests = [speaker(name) for name in ("Boris", "Vera", "Gleb")]
    mailbox.refuse = {"vera@example.com"}
    for guest in guests:
        turn(guest, open_table(anna).pk)
    mailer.pump()
    assert sorted(m["To"] for m in mailbox.messages) == ["boris@example.com", "gleb@example.com"]
    assert OutgoingMail.objects.get(player=guests[1]).state == "failed"
    mailer.pump()
    assert len(mailbox.messages) == 2
