"""Standings arithmetic (RULES.md S2, S3): pure functions, no database."""

from __future__ import annotations

from club.standings import Row, half_points, loss_key, placement_key, rank_rows


def test_s3_one_point_per_opponent_below():
    assert half_points(1, [1, 2, 3, 4]) == 6  # 3 points
    assert half_points(4, [1, 2, 3, 4]) == 0


def test_s3_half_point_per_opponent_sharing_the_place():
    places = [1, 2, 2, 4]
    assert [half_points(p, places) for p in places] == [6, 3, 3, 0]  # 3, 1.5, 1.5, 0
    assert half_points(1, [1, 1]) == 1  # a shared first in a 2-player game: 1/2 each


def test_s3_points_in_a_game_sum_to_pairs():
    for places in ([1, 2, 2, 4], [1, 1, 3], [1, 2, 3, 4, 5, 6], [1, 2, 2, 2]):
        n = len(places)
        assert sum(half_points(p, places) for p in places) == n * (n - 1)


def test_s2_loss_series_ranked_by_loss_rate_then_more_games():
    rows = [
        Row(1, "Anna", games=10, losses=2),
        Row(2, "Boris", games=5, losses=1),
        Row(3, "Vera", games=4, losses=0),
        Row(4, "Gleb", games=2, losses=0),
    ]
    ranked = rank_rows(rows, loss_key, min_games=3)
    assert [(r.name, r.rank) for r in ranked] == [
        ("Vera", 1),
        ("Anna", 2),  # 0.2, more games than Boris
        ("Boris", 3),
        ("Gleb", None),  # under the minimum: listed below, unranked
    ]


def test_s2_equal_rate_and_games_share_the_rank():
    rows = [
        Row(1, "A", games=4, losses=1),
        Row(2, "B", games=4, losses=1),
        Row(3, "C", games=4, losses=2),
    ]
    assert [r.rank for r in rank_rows(rows, loss_key, 0)] == [1, 1, 3]


def test_s3_placement_ranked_by_points_per_game_then_games():
    rows = [
        Row(1, "Anna", games=2, half_points=6),  # 1.5 per game
        Row(2, "Boris", games=4, half_points=12),  # 1.5 per game, more games
        Row(3, "Vera", games=3, half_points=12),  # 2 per game
        Row(4, "Gleb", games=1, half_points=6),  # under minimum
    ]
    ranked = rank_rows(rows, placement_key, min_games=2)
    assert [(r.name, r.rank) for r in ranked] == [
        ("Vera", 1),
        ("Boris", 2),
        ("Anna", 3),
        ("Gleb", None),
    ]
    assert ranked[0].points == 6 and ranked[0].points_per_game == 2


def test_unranked_sorted_by_games_played():
    rows = [Row(1, "A", games=1), Row(2, "B", games=2)]
    assert [r.name for r in rank_rows(rows, placement_key, min_games=5)] == ["B", "A"]
