"""Finished games replayed from their deal and move log, and their downloadable record.

Every step's state is rebuilt through the engine (nothing per move is stored
but the move); each step's view shows every card, since the game is over.
"""

from __future__ import annotations

import gzip
import json
import time

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Player
from games import registry, services
from games.engine import devyatka, golf
from games.models import Game, Move, Variant
from games.services import replays
from tests.integration.test_series import make_series
from tests.support.finished import finished_game, play_out
from tests.support.members import member

pytestmark = pytest.mark.django_db


def keft() -> Variant:
    return Variant.objects.get(name="Keft")


def golf_variant(rounds: int, name: str = "") -> Variant:
    return Variant.objects.create(
        name=name or f"Golf, {rounds} rounds",
        game="golf",
        options={"rounds": rounds},
        max_players=12,
    )


def client_for(player: Player | None) -> Client:
    client = Client()
    if player is not None:
        client.force_login(player.user)
    return client


def replay_of(game: Game, viewer: Player | None = None, **headers) -> dict:
    response = client_for(viewer).get(reverse("game_replay", args=[game.pk]), **headers)
    assert response.status_code == 200, response.content
    return response.json()


# ---------------------------------------------------------------- the steps


def test_devyatka_replay_steps_rebuild_every_hand_through_the_engine():
    game, players = finished_game(keft(), ["Anna", "Boris", "Vera"], seed=5)
    data = replay_of(game)
    steps = data["steps"]
    assert data["game"] == "devyatka" and data["variant"] == "Keft"
    assert [p["name"] for p in data["players"]] == ["Anna", "Boris", "Vera"]
    # Step 0 is the deal: every hand in full, 36 cards, nothing on the table.
    dealt = devyatka.deal(3, 5, devyatka.Options(keft=True))
    assert steps[0]["move"] is None
    assert steps[0]["view"]["hands"] == [list(h) for h in dealt.hands]
    assert sum(len(h) for h in steps[0]["view"]["hands"]) == 36
    # One step per chosen move; the passes it caused belong to it, never a step of their own.
    rows = list(game.moves.order_by("number").values_list("seat", "move"))
    chosen = [step for step in steps[1:]]
    assert all(step["move"] != "pass" for step in chosen)
    assert sum(1 + len(step.get("caused", [])) for step in chosen) == len(rows)
    assert any(step.get("caused") for step in chosen), "seed 5 makes somebody pass"
    # Each step is the engine's own state after that move, with every hand.
    state = dealt
    for step in chosen:
        assert step["seat"] == state.to_move
        state = devyatka.play(state, step["move"])
        assert step["view"]["hands"] == [list(h) for h in state.hands]
        assert step["view"]["passes"] == list(state.passes)
        assert step["view"]["to_move"] == state.to_move
    assert steps[-1]["view"]["over"] and data["result"]["loser"] == game.result["loser"]


def test_golf_replay_steps_show_face_down_cards_and_the_drawn_card():
    game, _ = finished_game(golf_variant(1), ["Anna", "Boris"], seed=5)
    steps = replay_of(game)["steps"]
    first = steps[0]["view"]
    # Every grid card is shown, face up or not; `up` says which are face up.
    assert all(len(grid) == 9 and all(grid) for grid in first["grids"])
    assert first["up"] == [0, 0] and first["phase"] == "reveal"
    draws = [i for i, step in enumerate(steps) if step["move"] == "draw"]
    assert draws, "seed 5 draws from the stock"
    drawn = steps[draws[0]]["view"]["drawn"]
    assert drawn and steps[draws[0] - 1]["view"]["drawn"] is None
    state = golf.deal(2, 5, golf.Options(rounds=1))
    for step in steps[1:]:
        state = golf.play(state, step["seat"], step["move"])
        assert step["view"]["grids"] == [list(g) for g in state.grids]
        assert step["view"]["up"] == list(state.up)
    assert steps[-1]["view"]["over"]


def test_replay_and_record_of_a_game_with_no_view_function_fall_back_to_the_spectator_view(
    monkeypatch,
):
    # The registry's replay_view is optional: a game without one replays with the public view.
    game, _ = finished_game(keft(), ["Anna", "Boris"], seed=3)
    engine = registry.engine
    plain = registry.Engine(**{**engine("devyatka").__dict__, "replay_view": None})
    monkeypatch.setattr(registry, "engine", lambda key: plain if key == "devyatka" else engine(key))
    steps = replays.replay(game)["steps"]
    assert steps[0]["view"]["hand"] is None and "hands" not in steps[0]["view"]


# ---------------------------------------------------------------- who may see it


def test_private_games_replay_and_record_are_404_to_outsiders():
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    table, _ = services.create_table(anna, keft(), 2, private=True)
    services.join_table(boris, table.pk, str(table.invite_token))
    play_out(table, seed=2)
    game = services.current_game(table)
    for name in ("game_replay", "game_record"):
        url = reverse(name, args=[game.pk])
        for outsider in (None, vera):
            response = client_for(outsider).get(url)
            assert response.status_code == 404
            assert response.json()["error"] == "not_found"
            assert "Boris" not in response.content.decode()
        for insider in (anna, boris):
            assert client_for(insider).get(url).status_code == 200
        assert client_for(vera).get(f"{url}?invite={table.invite_token}").status_code == 200


def test_an_unfinished_game_has_no_replay_nor_record():
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, keft(), 2)
    services.join_table(boris, table.pk)
    play_out(table, seed=4, stop_after=3)
    game = services.current_game(table)
    assert game.result is None
    for name in ("game_replay", "game_record"):
        response = client_for(anna).get(reverse(name, args=[game.pk]))
        assert response.status_code == 404
        assert response.json() == {
            "error": "not_finished",
            "message": "This game has not finished: its replay opens when it ends.",
        }
    # Its page sends you to the table, where the game is still being played.
    page = client_for(anna).get(reverse("game_detail", args=[game.pk]))
    assert page.status_code == 302 and page.url == reverse("table", args=[table.pk])


def test_a_missing_game_is_a_json_404():
    response = Client().get(reverse("game_replay", args=[999999]))
    assert response.status_code == 404 and response.json()["error"] == "not_found"


def test_a_move_log_that_no_longer_replays_is_refused_not_guessed():
    game, _ = finished_game(keft(), ["Anna", "Boris"], seed=8)
    last = game.moves.order_by("-number").first()
    Move.objects.filter(pk=last.pk).update(move="6C" if last.move != "6C" else "7C")
    response = Client().get(reverse("game_replay", args=[game.pk]))
    assert response.status_code == 409
    assert response.json()["error"] == "unreplayable"
    assert "cannot be replayed" in response.json()["message"]


def test_only_get_is_answered():
    game, _ = finished_game(keft(), ["Anna", "Boris"], seed=8)
    assert Client().post(reverse("game_replay", args=[game.pk])).status_code == 405


# ---------------------------------------------------------------- the record


def test_the_record_downloads_as_json_and_replays_to_the_recorded_result():
    game, _ = finished_game(golf_variant(2), ["Anna", "Boris", "Vera"], seed=21)
    response = Client().get(reverse("game_record", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment;") and f"game-{game.pk}-golf" in disposition
    record = json.loads(response.content)
    assert record["format"] == "card-club-game-record" and record["version"] == 1
    assert record["game"] == "golf" and record["options"] == {"column_rule": "pair", "rounds": 2}
    assert [p["name"] for p in record["players"]] == ["Anna", "Boris", "Vera"]
    assert record["seed"] == 21 and record["result"] == game.result
    assert record["deal"] == golf.to_json(golf.deal(3, 21, golf.Options(rounds=2)))
    # What docs/PROTOCOL.md tells an outside reader to do: deal, then apply the
    # moves that are not forced, in order.
    state = golf.deal(3, record["seed"], golf.options_from(record["options"]))
    for move in record["moves"]:
        if not move["forced"]:
            state = golf.play(state, move["seat"], move["move"])
    assert golf.result(state)["totals"] == record["result"]["totals"]


def test_a_devyatka_record_marks_the_passes_as_forced():
    game, _ = finished_game(keft(), ["Anna", "Boris", "Vera"], seed=5)
    record = Client().get(reverse("game_record", args=[game.pk])).json()
    moves = record["moves"]
    assert [m["n"] for m in moves] == list(range(1, len(moves) + 1))
    assert {m["move"] for m in moves if m["forced"]} == {"pass"}
    assert all(m["forced"] for m in moves if m["move"] == "pass")
    state = devyatka.start(record["deal"]["hands"], devyatka.Options(keft=True))
    for move in moves:
        if not move["forced"]:
            state = devyatka.play(state, move["move"])
    assert devyatka.loser(state) == record["result"]["loser"]


def test_replay_json_is_gzipped_and_a_browser_may_keep_it():
    game, _ = finished_game(keft(), ["Anna", "Boris"], seed=3)
    url = reverse("game_replay", args=[game.pk])
    response = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    data = json.loads(gzip.decompress(response.content))
    assert data["steps"][0]["step"] == 0
    assert "private" in response["Cache-Control"]
    again = Client().get(url, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and not again.content


# ---------------------------------------------------------------- fast enough


@pytest.mark.parametrize(
    ("variant", "names", "seed"),
    [
        pytest.param(lambda: golf_variant(9), ["A", "B", "C", "D"], 7, id="golf-9-rounds-4"),
        pytest.param(keft, ["A", "B", "C", "D", "E", "F"], 13, id="keft-6-players"),
    ],
)
def test_a_long_match_replays_quickly_and_compactly(variant, names, seed, capsys):
    game, _ = finished_game(variant(), [f"{n}-{seed}" for n in names], seed=seed)
    moves = game.moves.count()
    url = reverse("game_replay", args=[game.pk])
    client = Client()
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        timings.append(time.perf_counter() - start)
    raw = gzip.decompress(response.content)
    best = min(timings)
    with capsys.disabled():
        print(
            f"\n{game.game}, {len(names)} players, {moves} moves: replay.json "
            f"{len(raw) // 1024} KiB ({len(response.content) // 1024} KiB gzipped), "
            f"built and sent in {best * 1000:.0f} ms"
        )
    # Generous bounds for a loaded CI machine; a quiet one is ~10x faster.
    assert best < 1.5
    assert len(response.content) < 120_000


# ---------------------------------------------------------------- the pages


RANKS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def card_name(code: str) -> str:
    return f"{RANKS.get(code[0], code[0])} of {SUITS[code[1]]}"


def test_the_finished_game_page_shows_card_names_and_the_replay_shell():
    game, _ = finished_game(keft(), ["Anna", "Boris", "Vera"], seed=5)
    page = Client().get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'data-testid="replay"' in page and 'data-game="devyatka"' in page
    assert f'data-replay-url="{reverse("game_replay", args=[game.pk])}"' in page
    assert reverse("game_record", args=[game.pk]) in page
    # Keft has a single loser and no points: no Points column.
    assert ">Points<" not in page
    # Cards as symbols with their names, never raw codes.
    hands = devyatka.from_json(game.state).hands
    held = [c for hand in hands for c in hand]
    assert held
    for code in held:
        assert f'title="{card_name(code)}"' in page
        assert f">{code}<" not in page and f" {code} " not in page


def test_a_placement_game_page_keeps_its_points_column():
    game, _ = finished_game(Variant.objects.get(name="Devyatka"), ["Anna", "Boris"], seed=6)
    page = Client().get(reverse("game_detail", args=[game.pk])).content.decode()
    assert ">Points<" in page


def test_a_golf_match_page_shows_the_final_grids_as_cards():
    game, _ = finished_game(golf_variant(1), ["Anna", "Boris"], seed=5)
    page = Client().get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'data-testid="replay"' in page and 'data-game="golf"' in page
    grid = golf.from_json(game.state).last[0][0]
    for code in grid:
        assert f'title="{card_name(code)}"' in page and f"<td>{code}</td>" not in page


def test_player_and_series_pages_link_the_replay():
    series = make_series("Keft", min_games=1)
    game, (anna, _) = finished_game(series.variant, ["Anna", "Boris"], seed=9, series=series)
    replay = reverse("game_detail", args=[game.pk]) + "#replay"
    assert replay in Client().get(anna.get_absolute_url()).content.decode()
    assert replay in Client().get(series.get_absolute_url()).content.decode()


def test_the_state_frame_names_the_game_whose_page_has_the_replay():
    game, (anna, _) = finished_game(keft(), ["Anna", "Boris"], seed=9)
    frame = services.project(services.table_for_viewer(game.table_id, anna.pk), anna.pk)
    assert frame["table"]["game_id"] == game.pk
    assert frame["table"]["status"] == "finished"
