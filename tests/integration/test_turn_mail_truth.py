"""What a "your turn" says must be true (issue 42), against a real SMTP server.

- Every "your turn" mail says until when, in the member's language and time zone
  (the one their browser last told the site), and its unsubscribe link opens in
  their language in a browser without the site's cookie.
- No "your turn" mail goes out for a move already made, or a seat the house took,
  by the time the mail is sent: it is checked again just before sending.
- A member with the table open (a socket to it) is not notified of their turn there.

Real games (Devyatka at 1 day a move) on a controlled clock (time-machine); the
mail pass is the worker's own (`notifications.mailer.pump`).
"""

from __future__ import annotations

import asyncio
import datetime
import re

import pytest
import time_machine
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import translation

from club.models import Player
from games import services
from games.models import Table, Variant
from notifications import mailer
from notifications.models import Notification
from tests.integration.mailbox import Mailbox, body
from tests.integration.test_table_ws import connect
from tests.support.members import member

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("default_variants")]

SITE = "http://club.test"
START = datetime.datetime(2026, 12, 6, 9, 0, tzinfo=datetime.UTC)

# language, time zone, what the mail says of a deadline at 2026-12-07 09:00 UTC.
UNTIL = [
    ("en", "Europe/London", "you have until 7 Dec 2026, 09:00 (Europe/London time)"),
    ("it", "Europe/Rome", "Scadenza: 7 dic 2026, alle 10:00 (ora di Europe/Rome)"),
    ("fr", "Europe/Paris", "Vous avez jusqu'au 7 déc 2026 à 10:00 (heure de Europe/Paris)"),
    ("ru", "Europe/Moscow", "Срок: до 7 декабря 2026, 12:00 (время: Europe/Moscow)"),
    ("es", "Europe/Madrid", "Tienes hasta el 7 dic 2026, 10:00 (hora de Europe/Madrid)"),
    ("ro", "Europe/Bucharest", "Ai timp până la 7 dec 2026, 11:00 (ora Europe/Bucharest)"),
]


@pytest.fixture
def mailbox(settings):
    box = Mailbox().start()
    for name, value in box.settings().items():
        setattr(settings, name, value)
    settings.SITE_URL = SITE
    settings.NOTIFY_MAIL_MINUTES = 60
    settings.ALLOWED_HOSTS = ["club.test", "testserver", "localhost"]
    mailer.reset()
    yield box
    box.stop()
    mailer.reset()


def speaker(name: str, language: str = "en", zone: str = "") -> Player:
    player = member(name)
    Player.objects.filter(pk=player.pk).update(language=language, time_zone=zone)
    player.refresh_from_db()
    return player


def to_move(table_id: int) -> int | None:
    table = Table.objects.get(pk=table_id)
    game = services.current_game(table)
    if table.status != Table.Status.PLAYING:
        return None
    engine = table.variant.engine
    return table.seats.get(position=engine.actors(engine.from_json(game.state))[0]).player_id


def play(player_id: int, table_id: int) -> None:
    """The member moves (the first legal move)."""
    table = Table.objects.get(pk=table_id)
    game = services.current_game(table)
    engine = table.variant.engine
    position = table.seats.get(player_id=player_id).position
    move = engine.view(engine.from_json(game.state), position)["legal"][0]
    services.play_move(player_id, table_id, move, table.version)


def table_waiting_for(guest: Player, host: Player) -> Table:
    """A turn-based table where it is `guest`'s turn (the host moved first if it was theirs)."""
    table, _ = services.create_table(host, Variant.objects.get(name="Devyatka"), 2, pace="1d")
    services.join_table(guest, table.pk)
    while to_move(table.pk) == host.pk:
        play(host.pk, table.pk)
    return Table.objects.get(pk=table.pk)


def turn_mails(box: Mailbox, player: Player) -> list:
    return [m for m in box.to(player.user.email) if "turn" in m["Message-ID"]]


def test_each_turn_mail_says_until_when_in_the_members_language_and_zone(mailbox, settings):
    with time_machine.travel(START, tick=False):
        host = speaker("Host")
        Player.objects.filter(pk=host.pk).update(language="en")
        members = {}
        for language, zone, _until in UNTIL:
            guest = speaker(f"Guest{language}", language, zone)
            members[language] = (guest, table_waiting_for(guest, host))
        mailer.pump()
    mailbox.wait_for(len(UNTIL))
    for language, _zone, until in UNTIL:
        guest, table = members[language]
        [mail] = turn_mails(mailbox, guest)
        text = " ".join(body(mail).split())
        assert until in text, (language, text)
        assert until in " ".join(mail["Subject"].split()), mail["Subject"]
        # The unsubscribe link, opened in a browser that never saw the site.
        url = mail["List-Unsubscribe"].strip().strip("<>")
        page = Client().get(url[len(SITE) :]).content.decode()
        assert f'<html lang="{language}"' in page, language
        with translation.override(language):
            stop = translation.gettext("Unsubscribe")
        assert f"<h1>{stop}</h1>" in page, language
        if language != "en":
            assert stop != "Unsubscribe", f"no {language} translation"


def test_no_turn_mail_for_a_move_made_or_a_seat_the_house_took_before_it_went_out(
    mailbox, settings
):
    settings.TURN_BASED_MISSED_MOVES = 1
    settings.BOT_DELAY_SECONDS = 0
    with time_machine.travel(START, tick=False) as clock:
        host = speaker("Host")
        quick, late = speaker("Quick", "fr", "Europe/Paris"), speaker("Late", "it", "Europe/Rome")
        first = table_waiting_for(quick, host)
        second = table_waiting_for(late, host)
        waiting = Notification.objects.filter(kind="turn", mail_state="pending")
        assert set(waiting.values_list("player_id", flat=True)) >= {quick.pk, late.pk}
        # Quick plays before the mail goes out (again if the host could only pass and the
        # turn came straight back: each new turn replaces the one before); Late's time
        # runs out: the house takes the seat.
        for _ in range(20):
            play(quick.pk, first.pk)
            if to_move(first.pk) != quick.pk:
                break
        assert to_move(first.pk) != quick.pk
        clock.shift(datetime.timedelta(days=1, minutes=1))
        for table_id in services.due_tables():
            turn = services.automatic_turn(table_id)
            if turn is not None and turn.table_id == second.pk:
                services.play_automatic(turn, services.choose_automatic_move(turn))
        assert Table.objects.get(pk=second.pk).seats.get(player=late).handed_over
        mailer.pump()
    mailer.pump()
    assert not turn_mails(mailbox, quick)
    assert not turn_mails(mailbox, late)
    # Late is told the truth instead: the house plays the seat to the end.
    [told] = [m for m in mailbox.wait_for(1) if m["To"] == late.user.email]
    handed = Notification.objects.get(player=late, kind="seat_to_house")
    assert f".n.{handed.pk}@" in told["Message-ID"] and handed.mail.state == "sent"
    stale = Notification.objects.filter(player__in=[quick, late], kind="turn")
    assert set(stale.values_list("mail_state", flat=True)) == {"skipped"}


@pytest.mark.asyncio
async def test_a_turn_played_at_the_open_table_is_not_notified(settings):
    host, guest, user = await database_sync_to_async(
        lambda: (h := speaker("Host"), g := speaker("Guest"), g.user)
    )()
    table = await database_sync_to_async(table_waiting_for)(guest, host)
    turns = database_sync_to_async(
        lambda: Notification.objects.filter(player=guest, kind="turn").count()
    )
    before = await turns()
    assert before == 1  # not at the table: told
    ws = await connect(table.pk, user)
    state = await ws.receive_json_from()
    assert state["type"] == "state"
    # Guest plays at the table; the host answers; the turn is Guest's again, on screen.
    await ws.send_json_to(
        {"type": "play", "move": state["view"]["legal"][0], "version": state["version"]}
    )
    assert (await ws.receive_json_from())["type"] == "state"
    for _ in range(10):
        if await database_sync_to_async(to_move)(table.pk) != host.pk:
            break
        await database_sync_to_async(play)(host.pk, table.pk)  # a service call: no frame sent
    assert await database_sync_to_async(to_move)(table.pk) == guest.pk
    assert await turns() == before
    await ws.disconnect()
    # Away from the table again: the next turn is notified.
    from games.models import Presence

    for _ in range(250):
        if not await database_sync_to_async(Presence.objects.exists)():
            break
        await asyncio.sleep(0.02)
    await database_sync_to_async(play)(guest.pk, table.pk)
    for _ in range(10):
        if await database_sync_to_async(to_move)(table.pk) != host.pk:
            break
        await database_sync_to_async(play)(host.pk, table.pk)
    assert await turns() == before + 1


def test_a_member_reads_a_turn_mails_deadline_as_the_browser_told_the_site(mailbox):
    """The browser's zone (static/js/time-zone.js's cookie) is kept on the profile."""
    guest = speaker("Guest", "ru")
    client = Client()
    client.force_login(guest.user)
    client.cookies["club_tz"] = "Asia/Tokyo"
    assert client.get("/").status_code == 200
    guest.refresh_from_db()
    assert guest.time_zone == "Asia/Tokyo"
    client.cookies["club_tz"] = "Not/AZone"
    client.get("/")
    guest.refresh_from_db()
    assert guest.time_zone == "Asia/Tokyo"  # nonsense is ignored
    with time_machine.travel(START, tick=False):
        table_waiting_for(guest, speaker("Host"))
        mailer.pump()
    [mail] = turn_mails(mailbox, guest)
    assert "до 7 декабря 2026, 18:00 (время: Asia/Tokyo)" in " ".join(body(mail).split())
    assert re.search(r"/tables/\d+/", body(mail))
