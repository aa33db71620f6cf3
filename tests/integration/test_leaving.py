"""Leaving the club (issue 45): a member closes their account, or an admin does.

Their own data goes, their games stay under "Former member N": every standings figure
is the same before and after, and no page, CSV, record, replay, socket frame or admin
list shows the old name or address.
"""

from __future__ import annotations

import datetime
import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat.models import ChatMessage
from club import leaving
from club.models import AccountClosure, FreedIdentity, Player
from club.standings import standings
from games import services
from games.models import Absence, Game, Table, Variant
from games.services import ServiceError
from notifications.models import Notification, Preference
from tests.integration.test_series import finish_game, make_players, make_series

pytestmark = pytest.mark.django_db

OLD_NAME = "Borislav"
OLD_ADDRESS = "borislav@ex.com"


def client_for(player: Player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def figures(series) -> list[tuple]:
    """Every figure of the standings, by player id (names left out: one changes)."""
    return [
        (r.player_id, r.rank, r.games, r.wins, r.losses, r.place_sum, r.half_points)
        for r in standings(series)
    ]


def page_figures(html: str) -> list[str]:
    """The standings table's cells except the names, as the page shows them."""
    body = html[html.index("<tbody") : html.index("</tbody>")]
    cells = re.findall(r'<td class="num[^"]*">(.*?)</td>', body, re.S)
    return [re.sub(r"\s+", " ", c).strip() for c in cells]


def club_with_games():
    anna, boris, vera = make_players("Anna", OLD_NAME, "Vera")
    series = make_series("Keft", min_games=1)
    games = []
    for order in ((anna, boris, vera), (vera, boris, anna), (boris, anna)):
        table, _ = services.create_table(
            order[0], Variant.objects.get(name="Keft"), len(order), series=series
        )
        for player in order[1:]:
            services.join_table(player, table.pk)
        games.append(finish_game(table))
    return series, games, (anna, boris, vera)


def shows_nothing_of_boris(text: str) -> bool:
    return OLD_NAME not in text and OLD_ADDRESS not in text and "borislav" not in text


def test_closing_keeps_every_figure_and_no_page_shows_the_old_name_or_address():
    series, games, (anna, boris, vera) = club_with_games()
    Absence.objects.create(
        player=boris, starts=timezone.now(), ends=timezone.now() + datetime.timedelta(days=2)
    )
    Preference.objects.create(player=boris, kind="turn", channel="mail", enabled=False)
    Notification.objects.create(player=boris, kind="game_finished", game_id=games[0].pk)
    ChatMessage.objects.create(room="lobby", author=boris, text="hello from Borislav")
    EmailAddress.objects.create(user=boris.user, email=OLD_ADDRESS, primary=True, verified=True)
    # Anna's invitation from Boris names him in its data.
    Notification.objects.create(player=anna, kind="invited", data={"by": OLD_NAME})
    before = figures(series)
    series_page = reverse("series_detail", args=[series.slug])
    before_page = page_figures(Client().get(series_page).content.decode())
    member = client_for(boris)
    assert member.get(reverse("account_close")).status_code == 200

    response = member.post(reverse("account_close"), {"password": "pw"})

    assert response.status_code == 302 and response["Location"] == reverse("home")
    boris.refresh_from_db()
    closure = AccountClosure.objects.get(player=boris)
    assert boris.display_name == closure.label == f"Former member {closure.pk}"
    assert closure.by == AccountClosure.By.SELF and closure.closed_by is None
    assert figures(series) == before
    assert page_figures(Client().get(series_page).content.decode()) == before_page
    # Deleted: what was Boris's alone; his games and results stay.
    assert not EmailAddress.objects.filter(user=boris.user).exists()
    assert not Absence.objects.filter(player=boris).exists()
    assert not Preference.objects.filter(player=boris).exists()
    assert not Notification.objects.filter(player=boris).exists()
    assert not ChatMessage.objects.filter(author=boris).exists()
    assert boris.results.count() == 3
    user = get_user_model().objects.get(pk=boris.user_id)
    assert not user.is_active and not user.has_usable_password() and user.email == ""
    assert not Session.objects.exists()
    # Signed out, and cannot sign in again.
    assert member.get(reverse("account_close"))["Location"].startswith(reverse("account_login"))
    login = Client().post(reverse("account_login"), {"login": OLD_ADDRESS, "password": "pw"})
    assert "_auth_user_id" not in login.client.session
    # Nothing shows the old name or address: pages, CSV, records, replays, admin lists.
    admin = get_user_model().objects.create_superuser("root", "root@ex.com", "pw")
    staff = Client()
    staff.force_login(admin)
    anon = Client()
    urls = [
        series_page,
        reverse("series_csv", args=[series.slug]),
        reverse("player", args=[boris.pk]),
        reverse("player", args=[anna.pk]),
        reverse("ratings"),
        reverse("home"),
    ]
    for game in games:
        urls += [
            reverse("game_detail", args=[game.pk]),
            reverse("game_replay", args=[game.pk]),
            reverse("game_record", args=[game.pk]),
        ]
    for url in urls:
        response = anon.get(url)
        assert response.status_code == 200, url
        assert shows_nothing_of_boris(response.content.decode()), url
    assert closure.label in anon.get(series_page).content.decode()
    for url in (
        reverse("admin:club_player_changelist"),
        reverse("admin:club_player_change", args=[boris.pk]),
        reverse("admin:auth_user_changelist"),
        reverse("admin:account_emailaddress_changelist"),
        reverse("admin:club_accountclosure_changelist"),
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[games[0].pk]),
        reverse("admin:games_table_changelist"),
        reverse("admin:index"),
    ):
        response = staff.get(url)
        assert response.status_code == 200, url
        assert shows_nothing_of_boris(response.content.decode()), url
    anna_page = client_for(anna).get(reverse("notifications")).content.decode()
    assert OLD_NAME not in anna_page and closure.label in anna_page
    # The name and address are kept only as keyed hashes.
    for row in FreedIdentity.objects.all():
        assert OLD_NAME.lower() not in row.digest and "@" not in row.digest


def test_a_wrong_password_closes_nothing():
    (boris,) = make_players(OLD_NAME)
    response = client_for(boris).post(reverse("account_close"), {"password": "not it"})
    assert response.status_code == 200
    assert "That is not your password: nothing was changed." in response.content.decode()
    boris.refresh_from_db()
    assert boris.display_name == OLD_NAME and boris.user.is_active
    assert not AccountClosure.objects.exists() and not FreedIdentity.objects.exists()


def test_closing_twice_is_refused_and_changes_nothing():
    (boris,) = make_players(OLD_NAME)
    closure = leaving.close_account(boris)
    with pytest.raises(ServiceError) as error:
        leaving.close_account(boris)
    assert error.value.code == "already_closed"
    assert AccountClosure.objects.get() == closure
    assert FreedIdentity.objects.filter(kind="email").count() == 1  # once


def test_the_only_active_superuser_cannot_close_their_account():
    root = get_user_model().objects.create_superuser("root", "root@ex.com", "pw")
    client = client_for(root.player)
    page = client.get(reverse("account_close")).content.decode()
    assert "only active superuser" in page and 'data-testid="close-form"' not in page
    response = client.post(reverse("account_close"), {"password": "pw"})
    assert response.status_code == 200 and "only active superuser" in response.content.decode()
    root.refresh_from_db()
    assert root.is_active and not AccountClosure.objects.exists()
    get_user_model().objects.create_superuser("root2", "root2@ex.com", "pw")
    assert client.post(reverse("account_close"), {"password": "pw"}).status_code == 302
    assert AccountClosure.objects.filter(player=root.player).exists()


def test_a_running_seat_goes_to_the_house_and_the_game_ends_as_a_resignation(
    django_capture_on_commit_callbacks,
):
    anna, boris = make_players("Anna", OLD_NAME)
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2)
    services.join_table(boris, table.pk)
    leaving.close_account(boris)
    table.refresh_from_db()
    seat = table.seats.get(player=boris)
    assert seat.resigned_at is not None
    game = services.current_game(table)
    assert seat.position in game.resigned
    # The house plays the resigned seat (here: the rest of the game at once).
    with django_capture_on_commit_callbacks(execute=True):
        services.play_out(table.pk)
    assert game.results.get(player=boris).resigned
    # Anna is told the game finished; the closed account is told nothing more.
    assert Notification.objects.filter(player=anna, kind="game_finished").exists()
    assert not Notification.objects.filter(player=boris).exists()
    assert Game.objects.get(pk=game.pk).result is not None
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


def test_an_open_table_seat_is_given_up():
    anna, boris = make_players("Anna", OLD_NAME)
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 3)
    services.join_table(boris, table.pk)
    leaving.close_account(boris)
    assert not table.seats.filter(player=boris).exists()


def signup(name: str, address: str) -> tuple[int, str]:
    response = Client().post(
        reverse("account_signup"),
        {
            "email": address,
            "display_name": name,
            "password1": "a-long-pass-9",
            "password2": "a-long-pass-9",
        },
    )
    return response.status_code, response.content.decode()


def test_the_name_and_address_are_free_again_only_after_the_delay(settings):
    settings.ACCOUNT_REUSE_DAYS = 30
    (boris,) = make_players(OLD_NAME)
    leaving.close_account(boris)
    status, page = signup(OLD_NAME, "someone@ex.com")
    assert status == 200 and "belonged to a member who left the club" in page
    status, page = signup("Someone", OLD_ADDRESS.upper())
    assert status == 200 and "That address belonged to a member who left the club" in page
    assert not Player.objects.filter(display_name="Someone").exists()
    # A look-alike of the name is refused too; "Former member N" is nobody's to take.
    assert Player.objects.display_name_taken("BORISLAV")
    assert Player.objects.display_name_taken("Former member 1")
    # An e-mail change to the address is refused the same way.
    (anna,) = make_players("Anna")
    response = client_for(anna).post(
        reverse("account_email"), {"action_add": "", "email": OLD_ADDRESS}
    )
    assert "That address belonged to a member who left the club" in response.content.decode()
    assert not EmailAddress.objects.filter(email=OLD_ADDRESS).exists()
    # Past the delay both are free.
    FreedIdentity.objects.update(freed_at=timezone.now() - datetime.timedelta(days=31))
    status, _page = signup(OLD_NAME, OLD_ADDRESS)
    assert status == 302
    assert Player.objects.filter(display_name=OLD_NAME, user__email=OLD_ADDRESS).exists()


def test_admin_closes_an_account_after_confirming_and_the_record_says_who():
    anna, boris = make_players("Anna", OLD_NAME)
    admin = get_user_model().objects.create_superuser("root", "root@ex.com", "pw")
    staff = Client()
    staff.force_login(admin)
    url = reverse("admin:club_player_changelist")
    data = {"action": "close_accounts", "_selected_action": [boris.pk]}
    confirm = staff.post(url, data)
    assert confirm.status_code == 200 and "Yes, close them" in confirm.content.decode()
    assert not AccountClosure.objects.exists()
    done = staff.post(url, {**data, "confirm": "yes"})
    assert done.status_code == 302
    closure = AccountClosure.objects.get()
    assert closure.player == boris and closure.by == "admin" and closure.closed_by == admin
    listing = staff.get(reverse("admin:club_accountclosure_changelist")).content.decode()
    assert closure.label in listing and OLD_NAME not in listing
    # A staff member without the permission is not offered the action.
    clerk = get_user_model().objects.create_user("clerk", "clerk@ex.com", "pw", is_staff=True)
    from django.contrib.auth.models import Permission

    clerk.user_permissions.add(Permission.objects.get(codename="view_player"))
    clerk.user_permissions.add(Permission.objects.get(codename="change_player"))
    desk = Client()
    desk.force_login(clerk)
    assert "close_accounts" not in desk.get(url).content.decode()
    refused = desk.post(
        url, {"action": "close_accounts", "_selected_action": [anna.pk], "confirm": "yes"}
    )
    assert refused.status_code in (200, 302)
    assert not AccountClosure.objects.filter(player=anna).exists()


def _session_cookie(player: Player) -> bytes:
    return f"sessionid={client_for(player).cookies['sessionid'].value}".encode()


async def _socket(path: str, player: Player):
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from club.asgi import application

    cookie = await database_sync_to_async(_session_cookie)(player)
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)]
    )
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
async def test_open_sockets_close_and_the_table_hears_the_new_name():
    from channels.db import database_sync_to_async

    from chat import broadcast as chat_broadcast
    from chat import services as chat_services

    @database_sync_to_async
    def seated():
        anna, boris = make_players("Anna", OLD_NAME)
        table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2)
        services.join_table(boris, table.pk)
        return anna, boris, table

    anna, boris, table = await seated()
    path = f"/ws/tables/{table.pk}/"
    his_table, his_lobby = await _socket(path, boris), await _socket("/ws/lobby/", boris)
    hers = await _socket(path, anna)
    her_chat = await _socket("/ws/lobby/?chat=1", anna)
    for socket in (his_table, hers):
        assert (await socket.receive_json_from())["type"] == "state"
    assert (await her_chat.receive_json_from())["type"] == "chat_history"
    # Boris's message, on Anna's open lobby chat.
    said = await database_sync_to_async(chat_services.send)("lobby", boris.pk, "hello all")
    await chat_broadcast.publish_message(said)
    assert (await her_chat.receive_json_from())["message"]["name"] == OLD_NAME
    closure = await database_sync_to_async(leaving.close_account)(boris)
    for socket in (his_table, his_lobby):
        frames = []
        while True:
            message = await socket.output_queue.get()
            if message["type"] == "websocket.close":
                assert message["code"] == 4410
                break
            frames.append(message["text"])
        assert any('"code": "account_closed"' in f for f in frames)
        assert all(OLD_NAME not in f for f in frames)
    frame = await hers.receive_json_from()
    while frame.get("type") != "state":
        frame = await hers.receive_json_from()
    text = str(frame)
    assert OLD_NAME not in text and closure.label in text
    # The message left Anna's open chat as a moderator's hiding would take it away.
    frame = await her_chat.receive_json_from()
    while frame["type"] == "tables":  # her home page's table list, told too
        frame = await her_chat.receive_json_from()
    assert frame == {"type": "chat_hidden", "id": said["id"]}
    await hers.disconnect()
    await her_chat.disconnect()


@pytest.mark.usefixtures("default_variants")
def test_club_night_entries_and_waiting_duplicate_tables_are_withdrawn():
    from duplicate.models import GatheringMember
    from duplicate.services import gather
    from events.models import Entry
    from events.services import sign_up
    from tests.integration.test_events_pages import night
    from tests.support.duplicate import board, make_series, open_round

    anna, boris = make_players("Anna", OLD_NAME)
    event = night()
    sign_up(boris, event.pk)
    sign_up(anna, event.pk)
    series = make_series("Devyatka", seats=3, shared_tables=True)
    round_ = open_round(series, boards=1)
    gather(boris, board(round_, 1).pk)
    leaving.close_account(boris)
    assert Entry.objects.get(event=event, player=boris).status == Entry.Status.WITHDRAWN
    assert Entry.objects.get(event=event, player=anna).status == Entry.Status.SIGNED_UP
    assert not GatheringMember.objects.filter(player=boris).exists()


def test_a_member_without_a_password_closes_by_the_mailed_link():
    from notifications.models import OutgoingMail

    anna, boris = make_players("Anna", OLD_NAME)
    boris.user.set_unusable_password()
    boris.user.save()
    member = client_for(boris)
    page = member.get(reverse("account_close")).content.decode()
    assert 'data-testid="close-mail-form"' in page and 'name="password"' not in page
    assert member.post(reverse("account_close")).status_code == 302
    assert not AccountClosure.objects.exists()  # nothing closes before the link is opened
    mail = OutgoingMail.objects.get(address="borislav@ex.com")
    link = re.search(r"http://\S+/account/close/(\S+)/", mail.body)
    path = reverse("account_close_confirm", args=[link.group(1)])
    # Anna cannot use Boris's link, nor a forged one.
    assert client_for(anna).get(path).status_code == 404
    assert member.get(reverse("account_close_confirm", args=["forged"])).status_code == 404
    assert member.get(path).status_code == 200
    assert member.post(path).status_code == 302
    assert AccountClosure.objects.get().player == boris


CLOSE_IN_A_CLUB = """
from club import leaving
from club.models import Player, Series
from games.models import Variant
from tests.support.finished import play_game
from tools import synthetic

people = [Player.objects.get(pk=p.player_id) for p in synthetic.make_players('drill', 3)]
keft = Variant.objects.get(name='Keft')
series = Series.objects.create(name='Drill', slug='drill', variant=keft, min_games=1)
play_game(keft, people, seed=21, series=series)
play_game(keft, people[::-1], seed=22, series=series)
leaving.close_account(people[1])
emit(people[1].pk)
"""

AFTER_RESTORE = """
from allauth.account.models import EmailAddress
from club.models import AccountClosure, FreedIdentity, Player, Series
from club.standings import standings

player = Player.objects.select_related('user').get(pk=%(pk)d)
closure = AccountClosure.objects.get(player=player)
emit({
    'name': player.display_name,
    'label': closure.label,
    'active': player.user.is_active,
    'email': player.user.email,
    'addresses': EmailAddress.objects.filter(user=player.user).count(),
    'freed': FreedIdentity.objects.count(),
    'taken': Player.objects.display_name_taken('drill-0001'),
    'figures': [
        [r.player_id, r.name, r.rank, r.games, r.losses]
        for r in standings(Series.objects.get(slug='drill'))
    ],
})
"""


@pytest.mark.server
@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_restore_drill_the_closure_and_the_anonymisation_hold(database, tmp_path):
    from tests.integration.test_backup import backup, restore_into
    from tests.support.tables import run_django

    pk = run_django(database, CLOSE_IN_A_CLUB)
    before = run_django(database, AFTER_RESTORE % {"pk": pk})
    assert before["name"] == before["label"] and not before["active"] and before["taken"]
    made = backup(database, tmp_path / "backups")
    (tmp_path / "restored").mkdir()
    restored = restore_into(tmp_path / "restored", made)
    try:
        after = run_django(restored, AFTER_RESTORE % {"pk": pk})
    finally:
        restored.drop()
    assert after == before
    assert after["email"] == "" and after["addresses"] == 0 and after["freed"] >= 3
    assert all("drill-0001" not in str(row) for row in after["figures"])


@pytest.mark.usefixtures("default_variants")
def test_duplicate_matchpoints_and_the_traveller_are_unchanged_and_show_a_former_member():
    from duplicate.models import Round
    from duplicate.services import close_round
    from tests.support.duplicate import finish, make_series, open_round, start

    people = make_players("Anna", OLD_NAME, "Vera")
    series = make_series("Devyatka", seats=3, min_boards=1)
    round_ = open_round(series, boards=1)
    for n, player in enumerate(people):
        finish(start(player, round_, 1), pick=lambda legal, n=n: legal[n % len(legal)])
    close_round(round_.pk)
    round_ = Round.objects.get(pk=round_.pk)
    urls = [
        reverse("duplicate_series", args=[series.slug]),
        reverse("duplicate_csv", args=[series.slug]),
        reverse("duplicate_round", args=[series.slug, round_.number]),
    ]

    def shown() -> list[str]:
        pages = [Client().get(url).content.decode() for url in urls]
        # Per-response tokens aside, only the name may differ.
        same = [re.sub(r'(csrfmiddlewaretoken" value|nonce)="[^"]*"', "", p) for p in pages]
        return [re.sub(r"\b(Borislav|Former member \d+)\b", "X", p) for p in same], pages

    before, pages = shown()
    assert OLD_NAME in pages[0]
    closure = leaving.close_account(people[1])
    after, pages = shown()
    assert after == before  # every percentage, rank and matchpoint as it was
    for page in pages:
        assert shows_nothing_of_boris(page)
    assert closure.label in pages[0]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
def test_a_finished_club_nights_standings_are_unchanged_but_for_the_name():
    import time_machine

    from events import running
    from events.models import Event
    from events.services import sign_up
    from tests.integration.test_events_running import START, house_turns, night

    with time_machine.travel(START - datetime.timedelta(days=1), tick=False) as clock:
        event = night(pace="1d", rounds=2, min_seats=3, max_seats=3)
        people = make_players("Anna", OLD_NAME, "Vera", "Gleb", "Ilya", "Olga")
        for person in people:
            sign_up(person, event.pk)
        clock.move_to(START)
        with services.seeded_deals(45):
            for _step in range(300):
                running.nights_duty()
                house_turns()
                if Event.objects.get(pk=event.pk).status == Event.Status.FINISHED:
                    break
                clock.shift(datetime.timedelta(hours=6))
        assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
        urls = [
            reverse("event_detail", args=[event.slug]),
            reverse("event_live", args=[event.slug]),
        ]

        def entries(match: re.Match) -> str:
            # Entries made at one frozen moment tie on their time: any order of them is one.
            return "".join(sorted(re.findall(r"<li>.*?</li>", match.group(0))))

        def shown():
            pages = [Client().get(url).content.decode() for url in urls]
            same = [re.sub(r'(csrfmiddlewaretoken" value|nonce)="[^"]*"', "", p) for p in pages]
            same = [re.sub(r"\b(Borislav|Former member \d+)\b", "X", p) for p in same]
            return [re.sub(r'event-entries">.*?</ul>', entries, p) for p in same], pages

        before, pages = shown()
        assert OLD_NAME in pages[0]
        closure = leaving.close_account(people[1])
        after, pages = shown()
    assert after == before
    assert all(shows_nothing_of_boris(page) for page in pages)
    assert closure.label in pages[0]


@pytest.mark.usefixtures("default_variants")
def test_a_duplicate_board_being_played_goes_to_the_house():
    from tests.support.duplicate import make_series, open_round, start

    (boris,) = make_players(OLD_NAME)
    round_ = open_round(make_series("Devyatka", seats=3), boards=1)
    play = start(boris, round_, 1)
    leaving.close_account(boris)
    seat = Table.objects.get(pk=play.table_id).seats.get(player=boris)
    assert seat.resigned_at is not None
