"""Golf at the club's tables, through the same services, runner and results as Devyatka.

The tables are game-agnostic: Golf's simultaneous reveal phase, its two-step
turns and its nine-round matches go through `play_move`, the house runner and
`GameResult` without any Golf code outside the engine and the registry.
"""

from __future__ import annotations

import asyncio

import pytest
from django.core.exceptions import ValidationError

from club.models import GameResult, Series
from club.standings import standings
from games import registry, runner, services
from games.engine import golf
from games.models import Game, Table, Variant
from tests.support.members import member

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("default_variants")]


def one_round_golf(**kwargs) -> Variant:
    return Variant.objects.create(
        name="Golf, one round", game="golf", options={"rounds": 1}, **kwargs
    )


def state_of(table: Table) -> golf.State:
    return golf.from_json(services.current_game(table).state)


def play_to_the_end(table: Table) -> Game:
    """Members send their first legal move; the house plays its seats when due."""
    for _ in range(2000):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return services.current_game(table)
        game = services.current_game(table)
        state = golf.from_json(game.state)
        seats = {s.position: s for s in table.seats.all()}
        moved = False
        for seat in registry.engine("golf").actors(state):
            if not (seats[seat].is_bot or seats[seat].resigned_at):
                legal = golf.legal_moves(state, seat)
                services.play_move(seats[seat].player_id, table.pk, legal[0], table.version)
                moved = True
                break
        if not moved:
            assert asyncio.run(runner.run_once()) >= 1, "the house must play its seats"
    raise AssertionError("the match did not end")


@pytest.fixture(autouse=True)
def _quick_house(settings):
    settings.BOT_DELAY_SECONDS = 0


def test_a_default_golf_variant_exists_for_a_new_site():
    variant = Variant.objects.get(name="Golf")
    assert (variant.min_players, variant.max_players) == (2, 12)
    assert variant.options == {"column_rule": "pair", "rounds": 9}


def test_g13_reveal_phase_is_played_by_everyone_at_once():
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, one_round_golf(), 2)
    services.join_table(boris, table.pk)
    table.refresh_from_db()
    assert state_of(table).phase == "reveal"
    # Boris flips before Anna, out of seat order: both may act in the reveal phase.
    services.play_move(boris.pk, table.pk, "flip 0", table.version)
    table.refresh_from_db()
    services.play_move(anna.pk, table.pk, "flip 8", table.version)
    table.refresh_from_db()
    update = services.play_move(boris.pk, table.pk, "ready", table.version)
    view = services.project(update.snapshot, boris.pk)["view"]
    assert view["ready"] == [False, True]
    assert view["legal"] == []
    anna_view = services.project(update.snapshot, anna.pk)["view"]
    assert "ready" in anna_view["legal"]
    assert anna_view["grids"][1][0] is not None  # a turned-up card is seen by all
    assert anna_view["drawn"] is None


def test_moves_of_the_wrong_seat_or_shape_change_nothing():
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, one_round_golf(), 2)
    services.join_table(boris, table.pk)
    table.refresh_from_db()
    for player, move, code in [
        (anna, "9D", "not_a_move"),
        (anna, "swap 4", "illegal_move"),
        (anna, "flip 9", "not_a_move"),
    ]:
        with pytest.raises(services.ServiceError) as error:
            services.play_move(player.pk, table.pk, move, table.version)
        assert error.value.code == code
    for player in (anna, boris):
        services.play_move(player.pk, table.pk, "ready", Table.objects.get(pk=table.pk).version)
    table.refresh_from_db()
    waiting = next(
        p
        for p in (anna, boris)
        if p.pk != services.current_game(table).players[state_of(table).to_move]
    )
    with pytest.raises(services.ServiceError) as error:
        services.play_move(waiting.pk, table.pk, "draw", table.version)
    assert error.value.code == "not_your_turn"
    assert services.current_game(table).version == 2  # the two readies, nothing else


def test_the_clock_covers_everyone_not_ready_in_the_reveal_phase(settings):
    anna = member("Anna")
    table, _ = services.create_table(anna, one_round_golf(turn_seconds=30), 3)
    services.add_bot(anna, table.pk, "random")
    services.add_bot(anna, table.pk, "heuristic")
    table.refresh_from_db()
    # The bots are due at once; Anna's clock runs.
    assert asyncio.run(runner.run_once()) >= 1
    played = 0
    while asyncio.run(runner.run_once()):
        played += 1
        assert played < 20
    state = state_of(table)
    assert state.phase == "reveal"
    assert state.ready[1] and state.ready[2] and not state.ready[0]
    table.refresh_from_db()
    assert table.turn_deadline is not None  # Anna's 30 s


def test_a_golf_match_with_members_and_a_bot_records_totals_and_places():
    anna, boris = member("Anna"), member("Boris")
    series = Series.objects.create(
        name="Golf cup", slug="golf-cup", variant=one_round_golf(), min_games=1
    )
    table, _ = services.create_table(anna, series.variant, 3, series=series)
    services.join_table(boris, table.pk)
    services.add_bot(anna, table.pk, "heuristic")
    game = play_to_the_end(table)
    assert game.result["places"] == list(golf.places(golf.from_json(game.state)))
    rows = {r.seat: r for r in GameResult.objects.filter(game=game)}
    assert [rows[s].score for s in range(3)] == game.result["totals"]
    assert [rows[s].place for s in range(3)] == game.result["places"]
    assert all(r.detail == {} for r in rows.values())
    names = {r.name for r in standings(series)}
    assert names == {"Anna", "Boris"}  # members only, as in every placement series


def test_a_golf_player_who_leaves_is_placed_last():
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    table, _ = services.create_table(anna, one_round_golf(), 3)
    services.join_table(boris, table.pk)
    services.join_table(vera, table.pk)
    services.leave_table(vera, table.pk)
    game = play_to_the_end(table)
    vera_seat = game.players.index(vera.pk)
    assert game.result["resigned"] == [vera_seat]
    assert game.result["places"][vera_seat] == 3


def test_a_finished_golf_match_page_renders(client):
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, one_round_golf(), 2)
    services.join_table(boris, table.pk)
    game = play_to_the_end(table)
    client.force_login(anna.user)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Anna" in page and "Boris" in page


def test_golf_standings_show_average_and_best_totals(client):
    anna, boris = member("Anna"), member("Boris")
    series = Series.objects.create(
        name="Golf cup", slug="golf-cup", variant=one_round_golf(), min_games=1
    )
    totals = []
    for _ in range(2):
        table, _ = services.create_table(anna, series.variant, 2, series=series)
        services.join_table(boris, table.pk)
        game = play_to_the_end(table)
        totals.append(game.result["totals"][game.players.index(anna.pk)])
    anna_row = next(r for r in standings(series) if r.name == "Anna")
    assert anna_row.average_score_text == f"{sum(totals) / 2:.1f}"
    assert anna_row.best_score == min(totals)
    page = client.get("/series/golf-cup/").content.decode()
    assert "Avg total" in page and "Best match" in page
    assert f'data-testid="best-total">{min(totals)}<' in page
    csv_lines = client.get("/series/golf-cup/standings.csv").content.decode().splitlines()
    assert csv_lines[0].endswith("average_total,best_total")


def test_a_loss_series_is_refused_for_golf():
    series = Series(
        name="Golf losses", slug="golf-losses", variant=Variant.objects.get(name="Golf")
    )
    series.scoring = Series.Scoring.LOSS
    with pytest.raises(ValidationError) as error:
        series.full_clean()
    assert "makes no sense" in str(error.value)


def test_reveal_moves_made_at_the_same_time_both_count_but_not_across_phases():
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, one_round_golf(), 2)
    services.join_table(boris, table.pk)
    table.refresh_from_db()
    seen = table.version  # both members saw this version of the reveal phase
    services.play_move(anna.pk, table.pk, "flip 0", seen)
    services.play_move(boris.pk, table.pk, "flip 4", seen)  # the table moved on: still counts
    services.play_move(anna.pk, table.pk, "ready", seen)
    with pytest.raises(services.ServiceError) as error:
        services.play_move(anna.pk, table.pk, "ready", seen)  # a double click
    assert error.value.code == "not_your_turn"  # Anna has nothing left to do in the reveal
    services.play_move(boris.pk, table.pk, "ready", seen)
    # The reveal is over: a move chosen in it is stale now, whatever it is.
    state = state_of(table)
    assert state.phase == "turn"
    mover = services.current_game(table).players[state.to_move]
    with pytest.raises(services.ServiceError) as error:
        services.play_move(mover, table.pk, "flip 8", seen)
    assert error.value.code == "stale_version"


def test_the_golf_table_page_links_its_stylesheet_before_anything_is_drawn(client):
    """The entry's stylesheets are in the page's head: a phone never sees an unstyled
    grid while golf.js would fetch them (the grid drawn in one column, once, in CI)."""
    anna = member("Anna")
    table, _ = services.create_table(anna, one_round_golf(), 2)
    client.force_login(anna.user)
    head = client.get(f"/tables/{table.pk}/").content.decode().split("</head>")[0]
    assert '<link rel="stylesheet" href="/static/css/golf.css">' in head
    devyatka = Variant.objects.filter(game="devyatka").first()
    other, _ = services.create_table(anna, devyatka, 2)
    head = client.get(f"/tables/{other.pk}/").content.decode().split("</head>")[0]
    assert "css/golf" not in head
