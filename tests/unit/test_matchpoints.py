"""Matchpoints (club.standings) with each game's "beat" from the registry, on hand-made boards."""

from __future__ import annotations

import pytest

from club.standings import (
    DuplicateRow,
    duplicate_key,
    matchpoint_percent,
    matchpoints,
    rank_rows,
)
from games import registry


def outcome(**figures) -> dict:
    base = {
        "place": 1,
        "lost": False,
        "out_position": None,
        "cards_left": 0,
        "card_points": 0,
        "passes": 0,
        "score": None,
    }
    return base | figures


def board_points(game: str, options: dict, outcomes: list[dict]) -> list[int]:
    key = registry.engine(game).duplicate_key(options)
    return matchpoints([key(o) for o in outcomes])


def test_two_per_entrant_beaten_one_per_tie():
    assert matchpoints([(1,), (2,), (2,), (3,)]) == [6, 3, 3, 0]
    assert matchpoints([(5,)]) == [0]
    assert matchpoints([]) == []
    assert matchpoints([(1,), (1,), (1,)]) == [2, 2, 2]


def test_percent_of_the_maximum():
    assert matchpoint_percent(6, 4) == 100.0
    assert matchpoint_percent(3, 4) == 50.0
    assert matchpoint_percent(0, 4) == 0.0
    assert matchpoint_percent(0, 1) == 50.0  # nobody to be compared with


def test_devyatka_placement_then_the_tie_breaks():
    outcomes = [
        outcome(place=1),  # went out first
        outcome(place=2, cards_left=3, card_points=20),
        outcome(place=2, cards_left=3, card_points=12),  # same place and cards, fewer points
        outcome(place=2, cards_left=5, card_points=2),  # more cards left: beaten on cards
        outcome(place=1),  # ties with the first
        outcome(place=3, cards_left=1, card_points=0),  # a worse place beats nobody placed better
    ]
    assert board_points("devyatka", {"keft": False}, outcomes) == [9, 4, 6, 2, 9, 0]


def test_devyatka_pass_rule_counts_passes_before_card_points():
    outcomes = [
        outcome(place=2, cards_left=3, passes=1, card_points=30),
        outcome(place=2, cards_left=3, passes=2, card_points=5),
    ]
    assert board_points("devyatka", {"pass_rule": True}, outcomes) == [2, 0]
    assert board_points("devyatka", {"pass_rule": False}, outcomes) == [0, 2]


def test_keft_not_losing_beats_losing_then_going_out_earlier():
    outcomes = [
        outcome(place=2, lost=True),
        outcome(place=1, out_position=1),
        outcome(place=1, out_position=3),
        outcome(place=1, out_position=1),
        outcome(place=2, lost=True),
    ]
    assert board_points("devyatka", {"keft": True}, outcomes) == [1, 7, 4, 7, 1]


def test_golf_lower_match_total_wins():
    outcomes = [outcome(score=s) for s in (23, 17, 23, 40)]
    assert board_points("golf", {"rounds": 9}, outcomes) == [3, 6, 3, 0]
    assert [round(matchpoint_percent(p, 4), 1) for p in (3, 6, 3, 0)] == [50.0, 100.0, 50.0, 0.0]


def test_standings_rank_by_average_percentage_after_the_minimum():
    rows = [
        DuplicateRow(1, "Anna", games=2, percent_sum=150.0),  # 75%
        DuplicateRow(2, "Boris", games=3, percent_sum=225.0),  # 75%, more boards
        DuplicateRow(3, "Vera", games=1, percent_sum=100.0),  # too few boards
        DuplicateRow(4, "Gleb", games=2, percent_sum=50.0),
    ]
    ranked = rank_rows(rows, duplicate_key, 2)
    assert [(r.name, r.rank) for r in ranked] == [
        ("Boris", 1),
        ("Anna", 2),
        ("Gleb", 3),
        ("Vera", None),
    ]
    assert ranked[0].percent_text == "75.00"


@pytest.mark.parametrize("game", ["devyatka", "golf"])
def test_every_game_declares_duplicate_support(game):
    engine = registry.engine(game)
    assert engine.duplicate and engine.duplicate_key is not None
