"""A new game is data + one registry entry: the proof (issue 23).

The throwaway game of tests/throwaway/ (two players, hidden hands, one option)
is registered by this test's settings only. It is played through the real
stack with nothing else changed: a variant made in Django admin with its
option, a series made in admin, a table opened in the lobby, two members
playing over websockets (Channels' WebsocketCommunicator on the real ASGI
app) to the end; then the standings, the CSV, the ratings, replay.json,
record.json, the game page (the generic template) and the player page. The
last test checks that no module outside the test package names the game.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from club.asgi import application
from club.models import GameResult, Series
from club.standings import standings
from games import registry
from games.models import Game, Table, Variant
from games.services.house import public_history
from ratings.models import Rating
from tests.support.members import member
from tests.throwaway import highcard

ROOT = Path(__file__).resolve().parents[2]
ENTRY = "tests.throwaway.highcard.ENGINE"


@pytest.fixture
def throwaway(settings):
    settings.EXTRA_GAMES = [ENTRY]
    return highcard.KEY


def make_member(name: str, **extra):
    return member(name, **extra).user


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def admin_makes_variant_and_series() -> tuple[Variant, Series]:
    """Django admin: choose the game, set its option (a bad value first), then a series."""
    admin = signed_in(make_member("Root", is_staff=True, is_superuser=True))
    choose = admin.get("/admin/games/variant/add/")
    assert choose.status_code == 200
    assert f'<option value="{highcard.KEY}">High card</option>' in choose.content.decode()
    form = admin.get(f"/admin/games/variant/add/?game={highcard.KEY}")
    page = form.content.decode()
    assert 'name="cards"' in page and "How many cards each player is dealt" in page
    assert 'name="keft"' not in page and 'name="rounds"' not in page  # only this game's
    data = {"name": "Quick high card", "game": highcard.KEY, "active": "on"}
    data |= {"min_players": 2, "max_players": 2, "turn_seconds": ""}
    refused = admin.post(f"/admin/games/variant/add/?game={highcard.KEY}", {**data, "cards": 9})
    assert refused.status_code == 200
    assert "High card deals 1 to 6 cards each, not 9." in refused.content.decode()
    assert not Variant.objects.filter(name="Quick high card").exists()
    made = admin.post(f"/admin/games/variant/add/?game={highcard.KEY}", {**data, "cards": 2})
    assert made.status_code == 302, made.content.decode()
    variant = Variant.objects.get(name="Quick high card")
    assert (variant.game, variant.options) == (highcard.KEY, {"cards": 2})

    series = {
        "name": "High card cup",
        "slug": "high-card-cup",
        "variant": variant.pk,
        "starts": "2026-01-01",
        "min_games": 1,
        "active": "on",
        "results-TOTAL_FORMS": 0,
        "results-INITIAL_FORMS": 0,
    }
    refused = admin.post("/admin/club/series/add/", {**series, "scoring": "loss"})
    assert refused.status_code == 200 and "single-loser" in refused.content.decode()
    made = admin.post("/admin/club/series/add/", {**series, "scoring": ""})
    assert made.status_code == 302, made.content.decode()
    return variant, Series.objects.get(slug="high-card-cup")


def lobby_opens_table(variant: Variant, series: Series) -> tuple[Table, list]:
    anna, boris = make_member("Anna"), make_member("Boris")
    lobby = signed_in(anna).get("/tables/")
    assert "Quick high card" in lobby.content.decode()
    response = signed_in(anna).post(
        "/tables/", {"variant": variant.pk, "seats": 2, "series": series.pk}
    )
    assert response.status_code == 302, response.content.decode()
    table = Table.objects.get(variant=variant)
    assert signed_in(boris).post(f"/tables/{table.pk}/join/").status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return table, [anna, boris]


def cookie(user) -> bytes:
    return f"sessionid={signed_in(user).cookies['sessionid'].value}".encode()


async def connect(table_id: int, user) -> WebsocketCommunicator:
    headers = [
        (b"origin", b"http://localhost"),
        (b"cookie", await database_sync_to_async(cookie)(user)),
    ]
    ws = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected
    return ws


def hands(table_id: int) -> list[list[int]]:
    return Game.objects.get(table_id=table_id).state["hands"]


async def state_at(ws: WebsocketCommunicator, version: int) -> dict:
    """The socket's state frames up to the one of `version`."""
    while True:
        message = await ws.receive_json_from(timeout=10)
        if message["type"] == "state" and message["version"] >= version:
            return message


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("default_variants")
async def test_a_game_registered_by_settings_alone_plays_through_the_whole_site(throwaway):
    variant, series = await database_sync_to_async(admin_makes_variant_and_series)()
    table, users = await database_sync_to_async(lobby_opens_table)(variant, series)
    sockets = [await connect(table.pk, user) for user in users]
    states = [await ws.receive_json_from(timeout=10) for ws in sockets]
    moves = 0
    while not states[0]["view"]["over"]:
        dealt = await database_sync_to_async(hands)(table.pk)
        for seat, state in enumerate(states):
            view = state["view"]
            # Hidden information stays on the server: one's own hand, the other's count.
            assert view["hand"] == dealt[seat] and "hands" not in view
            assert isinstance(view["picked"][1 - seat], bool)
        seat = next(s for s, state in enumerate(states) if state["view"]["legal"])
        other_card = next(str(r) for r in highcard.RANKS if r not in dealt[seat])
        await sockets[seat].send_json_to(
            {"type": "play", "move": other_card, "version": states[seat]["version"]}
        )
        error = await sockets[seat].receive_json_from(timeout=10)
        assert error["type"] == "error" and error["code"] == "illegal_move"
        move = min(states[seat]["view"]["legal"], key=int)
        await sockets[seat].send_json_to(
            {"type": "play", "move": move, "version": states[seat]["version"]}
        )
        # The mover's own next frame says which version the move made. Reading it from the
        # database here instead would race the move: the read can come before its commit.
        mine = await state_at(sockets[seat], states[seat]["version"] + 1)
        version = mine["version"]
        states[seat] = mine
        states[1 - seat] = await state_at(sockets[1 - seat], version)
        moves += 1
        # The pick is face down for the other seat until both have picked; never for its own.
        other = states[1 - seat]
        face_down = other["view"]["picked"][seat] is True
        assert [e["move"] for e in other["events"]] == [None if face_down else move]
        assert [e["move"] for e in states[seat]["events"]] == [move]
        if face_down:  # a resync's full log hides it too
            await sockets[1 - seat].send_json_to({"type": "sync"})
            log = (await state_at(sockets[1 - seat], version))["log"]
            assert log[-1]["seat"] == seat and log[-1]["move"] is None
    for ws in sockets:
        await ws.disconnect()
    assert moves == 4  # two cards each
    await database_sync_to_async(check_everything_after)(table, series, users)


def check_everything_after(table: Table, series: Series, users: list) -> None:
    game = Game.objects.get(table=table)
    assert game.game == highcard.KEY and game.options == {"cards": 2}
    results = {r.seat: r for r in GameResult.objects.filter(game=game)}
    tricks = game.result["tricks"]
    for seat in (0, 1):
        assert results[seat].series_id == series.pk
        assert results[seat].score == tricks[1 - seat]  # tricks lost: lower is better
        assert results[seat].detail == {"tricks": tricks[seat]}
        assert results[seat].place == game.result["places"][seat]

    rows = {row.name: row for row in standings(Series.objects.get(pk=series.pk))}
    assert set(rows) == {"Anna", "Boris"} and all(r.games == 1 for r in rows.values())
    assert sorted(r.half_points for r in rows.values()) in ([0, 2], [1, 1])
    client = signed_in(users[0])
    text = client.get(f"/series/{series.slug}/standings.csv").content.decode()
    lines = list(csv.reader(io.StringIO(text)))
    assert lines[0][-1] == "average_lost_tricks" and {line[1] for line in lines[1:]} == {
        "Anna",
        "Boris",
    }
    page = client.get(f"/series/{series.slug}/").content.decode()
    assert "Avg tricks lost" in page

    ratings = Rating.objects.filter(family=highcard.KEY)
    assert ratings.count() == 2 and all(r.games == 1 for r in ratings)
    assert client.get(f"/ratings/{highcard.KEY}/").status_code == 200

    replay = json.loads(client.get(f"/games/{game.pk}/replay.json").content)
    assert replay["game"] == highcard.KEY and len(replay["steps"]) == 5
    assert replay["steps"][-1]["view"]["over"]
    record = json.loads(client.get(f"/games/{game.pk}/record.json").content)
    assert record["options"] == {"cards": 2} and len(record["moves"]) == 4

    detail = client.get(f"/games/{game.pk}/")
    assert [t.name for t in detail.templates][0] == "games/detail/generic.html"
    assert "Tricks lost" in detail.content.decode() and "Boris" in detail.content.decode()
    # The table page names the generic renderer and gives it the entry's words.
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'data-renderer="generic"' in page
    assert '<script id="game-labels" type="application/json">' in page
    assert '"counts": "Cards in hand"' in page
    profile = client.get(f"/players/{users[0].player.pk}/").content.decode()
    assert "of 2" in profile and "Quick high card" in profile


def test_no_module_outside_the_test_package_names_the_throwaway_game():
    # Its key, its label and its module; "high card" alone is ordinary card talk.
    names = [highcard.KEY, '"High card"', "tests.throwaway", "tests/throwaway"]
    suffixes = {".py", ".html", ".js", ".css", ".txt", ".toml", ".cfg", ".ini"}
    named = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if parts[0] in ("tests", ".venv", ".git", "node_modules", "var") or path.is_dir():
            continue
        if path.suffix not in suffixes:
            continue
        text = path.read_text(errors="ignore")
        named += [f"{path.relative_to(ROOT)}: {n}" for n in names if n in text]
    assert named == []


def test_a_face_down_pick_is_hidden_from_the_house_until_both_have_picked(throwaway):
    engine = registry.engine(highcard.KEY)
    state = engine.deal(2, 7, engine.options({"cards": 2}))
    card = engine.view(state, 0)["legal"][0]
    state, _ = engine.apply(state, 0, card)
    history = [(0, card)]
    assert public_history(engine, state, 1, history) == [(0, None)]  # the bot at seat 1
    assert public_history(engine, state, 0, history) == history
    reply = engine.view(state, 1)["legal"][0]
    state, _ = engine.apply(state, 1, reply)
    history.append((1, reply))
    assert public_history(engine, state, 0, history) == history  # the trick is over
    assert public_history(engine, state, 1, history) == history


BOARD_SEED = 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")  # and the house bots
def test_the_throwaway_game_is_played_on_a_duplicate_board_and_analysed(throwaway, settings):
    """Duplicate play and the analysis, through the entry's declarations alone: the same
    hands for every entrant, the traveller in the entry's words, the entry's own coach."""
    from django.core.management import call_command
    from django.urls import reverse

    from analysis.coaching import decisions
    from analysis.models import GameAnalysis
    from duplicate import standings as duplicate_standings
    from tests.support.duplicate import board, finish, make_series, open_round, start

    settings.ANALYSIS_SAMPLES = 4
    settings.ANALYSIS_WORKER_NICE = 0
    variant = Variant.objects.create(
        name="Quick high card", game=highcard.KEY, options={"cards": 3}, max_players=2
    )
    series = make_series(variant, seats=2, level="random")
    round_ = open_round(series, boards=1)
    # The board's secret seed, fixed: a deal where Anna's highest card is her one best first
    # pick (on some deals her two highest both beat every unseen card and tie).
    type(board(round_, 1)).objects.filter(round=round_).update(seed=BOARD_SEED)
    anna, boris = member("Anna"), member("Boris")
    # Anna picks her lowest card every trick, Boris his highest; the house its lowest.
    anna_play = finish(start(anna, round_, 1), pick=lambda legal: min(legal, key=int))
    boris_play = finish(start(boris, round_, 1), pick=lambda legal: max(legal, key=int))
    games = [anna_play.game, boris_play.game]
    assert anna_play.seat == boris_play.seat and games[0].seed == games[1].seed
    first_hands = [
        registry.engine(highcard.KEY).deal(2, g.seed, highcard.Options(3)).hands for g in games
    ]
    assert first_hands[0] == first_hands[1]  # a duplicate board: the same cards for both

    # The traveller: both results in the entry's words, Boris (highest cards) on top.
    seat = anna_play.seat
    results = {g.pk: GameResult.objects.get(game=g, seat=seat) for g in games}
    texts = {
        g.pk: f"place {results[g.pk].place} · {results[g.pk].score} tricks lost" for g in games
    }
    entries = duplicate_standings.traveller(series, board(round_, 1).pk)
    assert {e.game_id: e.text for e in entries} == texts
    best = min(games, key=lambda g: (results[g.pk].place, results[g.pk].score))
    assert max(entries, key=lambda e: e.matchpoints).game_id == best.pk
    page = signed_in(anna.user).get(board(round_, 1).get_absolute_url()).content.decode()
    assert all(text in page for text in texts.values())

    # The analysis of Anna's board, asked for by her (an open board is hers alone).
    game = games[0]
    client = signed_in(anna.user)
    asked = client.post(reverse("analysis_ask", args=[game.pk]), HTTP_ACCEPT="application/json")
    assert asked.status_code == 202, asked.content
    call_command("worker", batch=True, interval=0)
    analysis = GameAnalysis.objects.get(game=game)
    assert analysis.status == GameAnalysis.Status.DONE
    assert analysis.measure == highcard.TRICK_ODDS.key == "trick_odds"
    # Every pick of hers judged, in the entry's measure: the chance to take the trick.
    engine = registry.engine(highcard.KEY)
    rows = list(game.moves.order_by("number").values_list("number", "seat", "move", "auto"))
    state = engine.deal(2, game.seed, engine.options(game.options))
    mine = decisions(engine, state, rows, [seat])
    assert [d["n"] for d in analysis.decisions] == [d.index for d in mine]
    assert len(mine) == 3 and analysis.decisions[-1]["verdict"] == "forced"
    first = analysis.decisions[0]
    assert first["best"] == max(mine[0].view["legal"], key=int)
    assert first["verdict"] in ("inaccuracy", "mistake", "blunder")  # her lowest card
    # A face-down pick is not in the history a coach is given: whoever picks second in a
    # trick was told only that the other had picked.
    both = decisions(engine, state, rows, [0, 1])
    hidden = [d for d in both if d.history and d.history[-1][1] is None]
    assert len(hidden) == 3  # one seat picked second in each trick
    for d in both:
        shown = [move for _seat, move in d.history if move is not None]
        assert sorted(map(int, shown)) == sorted(sum(d.view["played"], []))
    status = client.get(reverse("analysis_status", args=[game.pk])).json()
    assert (
        status["measure"] == "trick_odds" and status["decisions"][0]["verdict"] == first["verdict"]
    )
    panel = client.get(reverse("analysis_panel", args=[game.pk])).content.decode()
    label = "Chance to take the trick (higher is better)"
    assert f'<title id="ac-title">{label}</title>' in panel and f"{label}." in panel
    assert 'data-measure-unit="percent"' in panel and 'data-measure-digits="0"' in panel
    # Values as percentages, as the measure declares (the table's "expected" column).
    value = first["values"][first["played"]][0]
    assert f"{100 * value:.0f}% ± 0%" in panel
