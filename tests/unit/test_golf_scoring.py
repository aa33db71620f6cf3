"""Golf grid scoring: G7 card values, G8 column matches, G11 both column rules."""

import pytest

from games.engine import golf

# Grids are row-major; columns are positions {0,3,6}, {1,4,7}, {2,5,8}.


@pytest.mark.parametrize(
    ("rank", "value"),
    [("A", 1), ("2", -2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7), ("8", 8)]
    + [("9", 9), ("T", 10), ("J", 10), ("Q", 10), ("K", 0)],
)
def test_g7_card_values(rank, value):
    assert golf.card_value(rank + "H") == value


def test_g7_a_grid_without_matches_is_the_sum_of_its_values():
    grid = ["AC", "2D", "3H", "4S", "5C", "6D", "7H", "8S", "9C"]
    assert golf.score_grid(grid) == 1 - 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9
    grid = ["TC", "JD", "QH", "KS", "AC", "2D", "3H", "4S", "5C"]
    assert golf.score_grid(grid) == 10 + 10 + 10 + 0 + 1 - 2 + 3 + 4 + 5


def test_g8_same_rank_in_a_column_scores_zero():
    # Column 0: 5C 5D 9H -> the fives score 0, the nine counts.
    grid = ["5C", "KD", "KH", "5D", "QS", "QC", "9H", "9S", "JD"]
    assert golf.score_grid(grid) == 9 + (0 + 10 + 9) + (0 + 10 + 10)


def test_g8_twos_included_a_pair_of_twos_scores_zero_not_minus_four():
    grid = ["2C", "AC", "AD", "2D", "3C", "3D", "KH", "4C", "4D"]
    assert golf.score_grid(grid) == 0 + (1 + 3 + 4) + (1 + 3 + 4)


def test_g8_same_rank_in_a_row_does_not_match():
    grid = ["5C", "5D", "5H", "AC", "2D", "3H", "4S", "6D", "7H"]
    assert golf.score_grid(grid) == (5 + 1 + 4) + (5 - 2 + 6) + (5 + 3 + 7)


def test_g8_two_decks_identical_cards_match():
    grid = ["QS", "AC", "AD", "QS", "3C", "3D", "8H", "4C", "4D"]
    assert golf.score_grid(grid) == 8 + 8 + 8


def test_g11_pair_rule_pair_scores_zero_and_third_card_counts():
    grid = ["5C", "KD", "KH", "5D", "QS", "QC", "9H", "9S", "JD"]
    assert golf.score_grid(grid, column_rule="pair") == 9 + 19 + 20


def test_g11_three_of_a_rank_score_zero_under_both_rules():
    grid = ["7C", "AC", "AD", "7D", "3C", "3D", "7H", "4C", "4D"]
    assert golf.score_grid(grid, column_rule="pair") == 16
    assert golf.score_grid(grid, column_rule="three") == 16


def test_g11_three_rule_a_pair_alone_counts_in_full():
    grid = ["5C", "KD", "KH", "5D", "QS", "QC", "9H", "9S", "JD"]
    assert golf.score_grid(grid, column_rule="three") == (5 + 5 + 9) + 19 + 20
    twos = ["2C", "AC", "AD", "2D", "3C", "3D", "KH", "4C", "4D"]
    assert golf.score_grid(twos, column_rule="three") == -4 + 8 + 8


def test_g11_all_zero_grid():
    grid = ["9C", "JD", "2H", "9D", "JS", "2S", "9H", "JC", "2D"]
    assert golf.score_grid(grid) == 0
    assert golf.score_grid(grid, column_rule="three") == 0


def test_score_grid_accepts_a_tuple():
    assert golf.score_grid(tuple(["KC"] * 9)) == 0


@pytest.mark.parametrize(
    ("cards", "rule"),
    [
        (["AC"] * 8, "pair"),
        (["AC"] * 10, "pair"),
        (["AC"] * 8 + ["1X"], "pair"),
        (["AC"] * 8 + ["ac"], "pair"),
        (["AC"] * 8 + [None], "pair"),
        ("AC" * 9, "pair"),
        (None, "pair"),
        (["AC"] * 9, "pairs"),
        (["AC"] * 9, None),
    ],
)
def test_score_grid_validates_input(cards, rule):
    with pytest.raises(ValueError):
        golf.score_grid(cards, column_rule=rule)


def test_card_value_rejects_garbage():
    with pytest.raises(ValueError):
        golf.card_value("ZZ")
