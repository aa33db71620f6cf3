"""The home page: a member's own club (tables, invitations, series, ratings, games, quick game)."""

from __future__ import annotations

import datetime
import io

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.asgi import application
from club.models import Player
from games import registry, services
from games.broadcast import publish_sync
from games.models import Game, Table, Variant


@pytest.fixture
def small_club(db):
    """The demo club with three series games (one a series) and its live tables."""
    call_command("demo_data", "--games", "3", stdout=io.StringIO())


def signed_in(name: str) -> Client:
    client = Client()
    client.force_login(Player.objects.get(display_name=name).user)
    return client


def test_member_home_puts_their_turn_first_and_shows_their_club(small_club):
    page = signed_in("Anna").get("/")
    content = page.content.decode()
    rows = page.context["tables"]
    assert [r.your_turn for r in rows] == sorted((r.your_turn for r in rows), reverse=True)
    assert rows[0].your_turn and 'data-testid="your-turn"' in content
    # Anna's table with Boris waits for Boris; the private one waits for a third player.
    assert any(r.waiting_for == "Boris" for r in rows)
    # (the duplicate series' boards are played at private tables too, never open ones)
    private = Table.objects.open().get(private=True)
    assert private.invite_url() in content  # her invitation, with its link
    assert 'data-testid="my-series"' in content
    assert 'data-testid="my-ratings"' in content
    for result in page.context["last_games"]:
        assert f"{result.game.get_absolute_url()}#replay" in content
    for game, _ in registry.game_choices():
        assert f'data-testid="quick-{game}"' in content


def test_series_line_counts_games_to_the_minimum(small_club):
    lines = signed_in("Anna").get("/").context["series_lines"]
    for line in lines:
        games = line.row.games if line.row else 0
        assert line.to_minimum == max(0, line.series.min_games - games)
        assert (line.row.rank is None) == (line.to_minimum > 0)


def test_new_member_sees_empty_states_with_one_action(db):
    user = get_user_model().objects.create_user("nina", "nina@example.com", "pw")
    client = Client()
    client.force_login(user)
    content = client.get("/").content.decode()
    assert 'data-testid="my-tables-empty"' in content
    assert "Start a quick game" in content
    assert "No rating yet" in content
    assert "No finished games yet" in content


def test_stranger_sees_live_numbers_and_series_leaders(small_club):
    page = Client().get("/")
    numbers = page.context["numbers"]
    # Anna's turn, Boris's turn and the turn-based table where Anna is to move.
    assert numbers.tables_playing == Table.objects.playing().count() == 3
    week = timezone.now() - datetime.timedelta(days=7)
    # The demo's games are spread over two weeks: some this week, some before.
    assert numbers.games_this_week == Game.objects.filter(finished__gte=week).count()
    assert 0 < numbers.games_this_week < Game.objects.filter(result__isnull=False).count()
    content = page.content.decode()
    assert 'data-testid="club-numbers"' in content
    for series, rows in page.context["leaders"]:
        assert series.get_absolute_url() in content
        for row in rows:
            assert row.name in content


def test_quick_game_deals_a_table_with_house_bots_at_once(db):
    user = get_user_model().objects.create_user("nina", "nina@example.com", "pw")
    client = Client()
    client.force_login(user)
    golf = Variant.objects.get(name="Golf")
    response = client.post("/tables/quick/", {"variant": golf.pk})
    table = Table.objects.get(created_by=user.player)
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.status == Table.Status.PLAYING and table.variant == golf
    seats = list(table.seats.order_by("position"))
    assert [s.is_bot for s in seats] == [False, True, True]
    assert {s.player.bot_level for s in seats[1:]} == {"heuristic"}


@pytest.mark.parametrize("variant", ["", "abc", "²", "99999999999999999999", "0"])
def test_quick_game_with_a_bad_variant_changes_nothing(db, variant):
    user = get_user_model().objects.create_user("nina", "nina@example.com", "pw")
    client = Client()
    client.force_login(user)
    response = client.post("/tables/quick/", {"variant": variant}, follow=True)
    assert response.status_code == 200
    assert "Choose a game" in response.content.decode()
    assert not Table.objects.exists()


def test_quick_game_needs_a_member_and_a_post(db):
    assert Client().post("/tables/quick/", {"variant": 1}).status_code == 302  # to sign in
    assert not Table.objects.exists()
    user = get_user_model().objects.create_user("nina", "nina@example.com", "pw")
    client = Client()
    client.force_login(user)
    assert client.get("/tables/quick/").status_code == 405


def test_home_tables_fragment_is_the_members_own(small_club):
    signed_out = Client().get("/home/tables/")
    assert signed_out.status_code == 204 and not signed_out.content  # no sign-in page in home
    fragment = signed_in("Anna").get("/home/tables/")
    assert fragment.status_code == 200
    assert 'data-testid="your-turn"' in fragment.content.decode()
    assert "<html" not in fragment.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_lobby_socket_tells_a_member_when_their_table_changes(default_variants):
    def setup():
        users = [
            get_user_model().objects.create_user(n, f"{n}@example.com", "pw")
            for n in ("nina", "oleg")
        ]
        client = Client()
        client.force_login(users[0])
        return users, f"sessionid={client.cookies['sessionid'].value}".encode()

    (nina, oleg), cookie = await database_sync_to_async(setup)()
    mine = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)]
    )
    stranger = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://localhost")]
    )
    assert (await mine.connect())[0] and (await stranger.connect())[0]

    def play_once():
        variant = Variant.objects.get(name="Devyatka")
        table, update = services.create_table(nina.player, variant, 2)
        updates = [update, *services.join_table(oleg.player, table.pk)]
        publish_sync(updates)
        table.refresh_from_db()
        game = services.current_game(table)
        engine = registry.engine(game.game)
        state = engine.from_json(game.state)
        seat = engine.actors(state)[0]
        move = engine.choose_move("random", engine.view(state, seat), [], 1, 10)
        publish_sync([services.play_move(game.players[seat], table.pk, move, table.version)])
        return table.pk

    table_id = await database_sync_to_async(play_once)()
    frames = []
    while not await mine.receive_nothing(timeout=0.2):
        frames.append(await mine.receive_json_from())
    assert {"type": "tables", "table": table_id} in frames
    # A move is not a lobby change: the stranger hears only the table's opening and start.
    others = []
    while not await stranger.receive_nothing(timeout=0.2):
        others.append(await stranger.receive_json_from())
    assert others and all(f == {"type": "lobby"} for f in others)
    await mine.disconnect()
    await stranger.disconnect()


def test_empty_lists_say_what_to_do(db):
    user = get_user_model().objects.create_user("nina", "nina@example.com", "pw")
    client = Client()
    client.force_login(user)
    for path in ("/tables/", "/ratings/", "/series/", user.player.get_absolute_url()):
        content = client.get(path).content.decode()
        assert 'data-testid="empty-action"' in content, path
    for path in ("/ratings/", "/series/", user.player.get_absolute_url()):
        # A visitor is asked to join; another member's empty page asks nothing of you.
        assert 'data-testid="empty-action"' in Client().get(path).content.decode(), path
    other = get_user_model().objects.create_user("olga", "olga@example.com", "pw")
    client.force_login(other)
    assert (
        'data-testid="empty-action"'
        not in client.get(user.player.get_absolute_url()).content.decode()
    )
    staff = get_user_model().objects.create_user("sam", "sam@example.com", "pw", is_staff=True)
    client.force_login(staff)
    assert reverse("admin:club_series_add") in client.get("/series/").content.decode()


def test_every_page_of_the_demo_club_answers(small_club):
    anna = signed_in("Anna")
    game = Game.objects.filter(result__isnull=False).first()
    table = Table.objects.playing().filter(created_by__display_name="Anna").first()
    for path in (
        "/",
        "/tables/",
        "/series/",
        "/series/winter-nines/",
        "/ratings/",
        f"/games/{game.pk}/",
        table.get_absolute_url(),
        "/rules/",
    ):
        assert anna.get(path).status_code == 200, path
        assert Client().get(path).status_code in (200, 302), path


def test_quick_game_buttons_pick_the_variant_named_like_the_game_in_any_language(db):
    from django.utils import translation

    from club.home import quick_variants

    # Each game's own variant is copied under a newer id and the old row renamed,
    # so another variant of that game comes first by id: the name must decide.
    for key, _ in registry.game_choices():
        default = Variant.objects.filter(game=key, name=str(registry.engine(key).label)).first()
        if default is not None:
            Variant.objects.filter(pk=default.pk).update(name=f"Early {key}")
            default.pk = None
            default.save()
    with translation.override("en"):
        english = [v.name for v in quick_variants()]
    with translation.override("ru"):
        russian = [v.name for v in quick_variants()]
    assert russian == english
    assert all(not name.startswith("Early") for name in russian)


def test_home_and_the_lobby_mark_your_turn_in_a_rematch(db, default_variants):
    """A rematch deals a new game at the same table: whose turn it is comes from that one
    (home read the first, finished game and marked nobody), and the lobby marks the
    reader's own table as home does (issue 42, A16)."""
    from tests.support.finished import play_game

    users = [get_user_model().objects.create_user(n, f"{n}@example.com", "pw") for n in "ab"]
    players = [Player.objects.get(user=u) for u in users]
    first = play_game(Variant.objects.get(name="Devyatka"), players, seed=3)
    for player in players:
        services.play_again(player, first.table_id)
    table = Table.objects.get(pk=first.table_id)
    game = services.current_game(table)
    assert table.status == Table.Status.PLAYING and game.number == first.number + 1
    engine = registry.engine(game.game)
    [mover] = [game.players[a] for a in engine.actors(engine.from_json(game.state))]
    for player in players:
        client = Client()
        client.force_login(player.user)
        [row] = client.get("/").context["tables"]
        assert row.your_turn == (player.pk == mover)
        for address in (reverse("lobby"), reverse("lobby_list")):
            page = client.get(address)
            assert page.context["your_turn"] == ({table.pk} if player.pk == mover else set())
            marked = 'class="table-item your-turn"' in page.content.decode()
            assert marked == (player.pk == mover), (address, player)
    # A visitor's lobby marks nothing.
    assert Client().get(reverse("lobby_list")).context["your_turn"] == set()
