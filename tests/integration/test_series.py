"""House series: results written with the last move, standings, pages, admin validation."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.text import slugify

from club.models import GameResult, Series
from club.standings import standings
from games import services
from games.engine import devyatka
from games.models import MIN_TURN_SECONDS, Game, Table, Variant

pytestmark = pytest.mark.django_db


def make_players(*names):
    players = []
    for name in names:
        user = get_user_model().objects.create_user(name.lower(), f"{name.lower()}@ex.com", "pw")
        user.player.display_name = name
        user.player.save()
        players.append(user.player)
    return players


def make_series(variant_name="Keft", **kwargs) -> Series:
    variant = Variant.objects.get(name=variant_name)
    series = Series(
        name=f"{variant_name} cup", slug=slugify(f"{variant_name} cup"), variant=variant
    )
    for key, value in kwargs.items():
        setattr(series, key, value)
    series.full_clean()
    series.save()
    return series


def play_game(players, variant_name="Keft", series=None, pick=lambda legal: legal[0]) -> Game:
    variant = Variant.objects.get(name=variant_name)
    table, _ = services.create_table(players[0], variant, len(players), series=series)
    for player in players[1:]:
        services.join_table(player, table.pk)
    return finish_game(table, pick)


def finish_game(table: Table, pick=lambda legal: legal[0]) -> Game:
    """Play the table's game to the end: members pick a card, house bots play their own."""
    while True:
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return services.current_game(table)
        game = services.current_game(table)
        state = devyatka.from_json(game.state)
        if table.seats.get(position=state.to_move).is_bot:
            turn = services.automatic_turn(table.pk)
            services.play_automatic(turn, services.choose_automatic_move(turn))
        else:
            mover = game.players[state.to_move]
            services.play_move(mover, table.pk, pick(devyatka.legal_moves(state)), table.version)


def test_s2_scoring_follows_the_variant_by_default():
    assert make_series("Keft").scoring == Series.Scoring.LOSS
    assert make_series("Devyatka").scoring == Series.Scoring.PLACEMENT


def test_loss_scoring_needs_a_single_loser_variant():
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as error:
        make_series("Devyatka", scoring=Series.Scoring.LOSS)
    assert "single-loser" in str(error.value)
    assert not Series.objects.exists()


def test_series_cannot_end_before_it_starts():
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as error:
        make_series(starts=datetime.date(2026, 5, 2), ends=datetime.date(2026, 5, 1))
    assert "end before it starts" in str(error.value)


def test_finishing_a_series_game_writes_one_result_per_seat():
    series = make_series("Keft")
    players = make_players("Anna", "Boris", "Vera")
    game = play_game(players, series=series)
    results = list(GameResult.objects.filter(game=game).order_by("seat"))
    assert [r.player_id for r in results] == game.players
    assert all(r.series == series for r in results)
    assert sum(r.lost for r in results) == 1
    loser = game.result["loser"]
    assert results[loser].lost and results[loser].detail["out_position"] is None
    assert sorted(r.detail["out_position"] for r in results if not r.lost) == [1, 2]


def test_results_cannot_be_written_twice():
    players = make_players("Anna", "Boris")
    game = play_game(players, "Devyatka")
    result = GameResult.objects.filter(game=game).first()
    result.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        result.save()


def test_aborted_table_records_nothing():
    series = make_series("Keft")
    anna, boris = make_players("Anna", "Boris")
    table, _ = services.create_table(anna, series.variant, 2, series=series)
    services.join_table(boris, table.pk)
    services.abort_table(table.pk, "Fire drill")
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED and table.abort_reason == "Fire drill"
    assert not GameResult.objects.exists()
    with pytest.raises(services.ServiceError) as error:
        services.play_move(anna.pk, table.pk, "9D", table.version)
    assert error.value.code == "game_over"


def test_loss_standings_count_losses_and_respect_minimum():
    series = make_series("Keft", min_games=2)
    anna, boris, vera = make_players("Anna", "Boris", "Vera")
    games = [play_game([anna, boris], series=series) for _ in range(3)]
    games.append(play_game([anna, vera], series=series))
    rows = {r.name: r for r in standings(series)}
    anna_losses = sum(g.players[g.result["loser"]] == anna.pk for g in games)
    assert rows["Anna"].games == 4
    assert rows["Anna"].losses == anna_losses
    assert rows["Anna"].recent.count("L") == anna_losses
    assert rows["Vera"].games == 1 and rows["Vera"].rank is None  # under the minimum
    assert rows["Anna"].rank is not None and rows["Boris"].rank is not None


def test_house_bots_play_series_games_but_only_members_are_ranked(settings):
    settings.BOT_DELAY_SECONDS = 0
    series = make_series("Devyatka")
    (anna,) = make_players("Anna")
    table, _ = services.create_table(anna, series.variant, 3, series=series)
    services.add_bot(anna, table.pk, "random")
    services.add_bot(anna, table.pk, "random")  # the same house player, twice
    game = finish_game(table)
    assert GameResult.objects.filter(game=game).count() == 3
    rows = standings(series)
    assert [r.name for r in rows] == ["Anna"]
    anna_place = game.result["places"][0]
    assert rows[0].games == 1 and rows[0].place_sum == anna_place


def test_placement_standings_with_pass_rule_places():
    variant = Variant.objects.create(name="Devyatka passes", options={"pass_rule": True})
    series = make_series("Devyatka passes", min_games=1)
    players = make_players("Anna", "Boris", "Vera", "Gleb")
    game = play_game(players, "Devyatka passes", series=series)
    state = devyatka.from_json(game.state)
    assert state.options.pass_rule
    assert game.result["places"] == list(devyatka.places(state))
    rows = {r.player_id: r for r in standings(series)}
    for seat, player_id in enumerate(game.players):
        place = game.result["places"][seat]
        others = [p for i, p in enumerate(game.result["places"]) if i != seat]
        expected = sum(1 for p in others if p > place) + 0.5 * sum(1 for p in others if p == place)
        assert rows[player_id].points == expected
        assert rows[player_id].wins == (1 if place == 1 else 0)
    assert variant.pk == series.variant_id


def test_series_pages_and_csv(client, django_assert_max_num_queries):
    series = make_series("Keft", min_games=1)
    players = make_players("Anna", "Boris", "Vera")
    for _ in range(3):
        play_game(players, series=series)
    url = reverse("series_detail", args=[series.slug])
    with django_assert_max_num_queries(8):
        response = client.get(url)
    assert response.status_code == 200
    content = response.content.decode()
    assert "Anna" in content and "Loss rate" in content
    listing = client.get(reverse("series_list")).content.decode()
    assert series.name in listing
    rows = list(
        csv.reader(
            io.StringIO(client.get(reverse("series_csv", args=[series.slug])).content.decode())
        )
    )
    assert rows[0] == ["rank", "player", "games", "losses", "loss_rate"]
    assert {r[1] for r in rows[1:]} == {"Anna", "Boris", "Vera"}
    assert sum(int(r[3]) for r in rows[1:]) == 3


def test_series_page_query_count_does_not_grow_with_games(client, django_assert_max_num_queries):
    series = make_series("Devyatka", min_games=1)
    players = make_players("Anna", "Boris", "Vera", "Gleb")
    for _ in range(6):
        play_game(players, "Devyatka", series=series)
    with django_assert_max_num_queries(8):
        assert client.get(reverse("series_detail", args=[series.slug])).status_code == 200


def test_unknown_series_is_404(client):
    assert client.get("/series/no-such-series/").status_code == 404
    assert client.get("/series/no-such-series/standings.csv").status_code == 404


def test_profile_shows_series_lines_and_recent_games(client):
    series = make_series("Keft", min_games=1)
    players = make_players("Anna", "Boris")
    game = play_game(players, series=series)
    content = client.get(players[0].get_absolute_url()).content.decode()
    assert series.name in content
    assert reverse("game_detail", args=[game.pk]) in content
    final = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Lost" in final and "Boris" in final


def test_table_in_series_must_match_variant():
    series = make_series("Keft")
    (anna,) = make_players("Anna")
    with pytest.raises(services.ServiceError) as error:
        services.create_table(anna, Variant.objects.get(name="Devyatka"), 2, series=series)
    assert error.value.code == "bad_series"
    assert not Table.objects.exists()


def test_admin_refuses_bad_series_and_variant(admin_client):
    devyatka_variant = Variant.objects.get(name="Devyatka")
    response = admin_client.post(
        "/admin/club/series/add/",
        {
            "name": "Bad",
            "slug": "bad",
            "variant": devyatka_variant.pk,
            "scoring": "loss",
            "starts": "2026-01-01",
            "min_games": 3,
            "active": "on",
            "results-TOTAL_FORMS": 0,
            "results-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 200
    assert "single-loser" in response.content.decode()
    assert not Series.objects.exists()
    response = admin_client.post(
        "/admin/games/variant/add/",
        {"name": "Broken", "game": "devyatka", "min_players": 1, "max_players": 9},
    )
    assert response.status_code == 200
    assert "needs 2 to 6 players" in response.content.decode()
    response = admin_client.post(
        "/admin/games/variant/add/",
        {
            "name": "Keft with passes",
            "game": "devyatka",
            "keft": "on",
            "pass_rule": "on",
            "min_players": 2,
            "max_players": 6,
        },
    )
    assert response.status_code == 200
    assert "Keft has a single loser" in response.content.decode()
    assert not Variant.objects.filter(name__in=["Broken", "Keft with passes"]).exists()


def test_admin_sets_a_variants_turn_clock(admin_client):
    variant = Variant.objects.get(name="Devyatka")
    url = f"/admin/games/variant/{variant.pk}/change/"
    form = {
        "name": variant.name,
        "game": variant.game,
        "min_players": variant.min_players,
        "max_players": variant.max_players,
        "active": "on",
    }
    before = variant.turn_seconds
    for too_short in (0, 1, MIN_TURN_SECONDS - 1):
        response = admin_client.post(url, {**form, "turn_seconds": too_short})
        assert response.status_code == 200
        assert f"at least {MIN_TURN_SECONDS} seconds" in response.content.decode()
        variant.refresh_from_db()
        assert variant.turn_seconds == before
    for seconds in (MIN_TURN_SECONDS, 30):
        response = admin_client.post(url, {**form, "turn_seconds": seconds}, follow=True)
        assert "was changed successfully" in response.content.decode()
        variant.refresh_from_db()
        assert variant.turn_seconds == seconds
    response = admin_client.post(url, {**form, "turn_seconds": ""}, follow=True)
    assert "was changed successfully" in response.content.decode()
    variant.refresh_from_db()
    assert variant.turn_seconds is None  # empty: no clock


def test_admin_abort_action_ends_table_and_tells_players(admin_client):
    anna, boris, vera = make_players("Anna", "Boris", "Vera")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 3)
    services.join_table(boris, table.pk)
    services.join_table(vera, table.pk)
    response = admin_client.post(
        "/admin/games/table/",
        {"action": "abort", "_selected_action": [table.pk], "apply": "1", "reason": "Server move"},
        follow=True,
    )
    assert "Aborted 1 table" in response.content.decode()
    table.refresh_from_db()
    assert table.status == "aborted" and table.abort_reason == "Server move"
    message = services.project(services.table_for_viewer(table.pk, anna.pk), anna.pk)
    assert message["table"]["status"] == "aborted"
    assert message["table"]["abort_reason"] == "Server move"
    assert not GameResult.objects.exists()


def test_admin_pages_render(admin_client):
    series = make_series("Keft", min_games=1)
    game = play_game(make_players("Anna", "Boris"), series=series)
    for url in (
        "/admin/games/variant/",
        "/admin/games/table/",
        f"/admin/games/game/{game.pk}/change/",
        f"/admin/club/series/{series.pk}/change/",
        "/admin/club/player/",
    ):
        assert admin_client.get(url).status_code == 200, url


def test_home_lists_open_tables_and_running_series(client):
    series = make_series("Keft")
    (anna,) = make_players("Anna")
    table, _ = services.create_table(anna, series.variant, 3, series=series)
    private, _ = services.create_table(anna, series.variant, 2, private=True)
    content = client.get("/").content.decode()
    assert table.get_absolute_url() in content and "1/3 seated" in content
    assert private.get_absolute_url() not in content
    assert series.get_absolute_url() in content
