"""Card codes, decks, points and display order (games.engine.cards)."""

import pytest

from games.engine import cards


def test_deck36_has_36_distinct_codes_six_to_ace():
    assert len(cards.DECK36) == 36
    assert len(set(cards.DECK36)) == 36
    assert {c[0] for c in cards.DECK36} == set("6789TJQKA")
    assert {c[1] for c in cards.DECK36} == set("CDHS")


def test_deck52_has_52_distinct_codes():
    assert len(set(cards.DECK52)) == 52
    assert set(cards.DECK36) < set(cards.DECK52)


def test_codes_are_rank_then_suit():
    assert cards.rank("9D") == "9"
    assert cards.suit("9D") == "D"
    assert cards.card_name("TH") == "ten of hearts"
    assert cards.card_name("AS") == "ace of spades"


def test_suit_names():
    assert cards.SUIT_NAMES == {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    assert cards.suit_name("D") == "diamonds"


@pytest.mark.parametrize("code", ["9D", "TH", "AS", "6C", "2C", "5S"])
def test_is_card_accepts_valid_codes(code):
    assert cards.is_card(code)


@pytest.mark.parametrize("code", ["1X", "10D", "9d", "D9", "", "XX", None, 9, "9DD"])
def test_is_card_rejects_garbage(code):
    assert not cards.is_card(code)


def test_in_deck36():
    assert cards.in_deck36("6C")
    assert not cards.in_deck36("5C")
    assert not cards.in_deck36("2H")


def test_index_is_suit_times_nine_plus_rank():
    assert cards.card_index("6C") == 0
    assert cards.card_index("AC") == 8
    assert cards.card_index("9D") == 12
    assert cards.card_index("AS") == 35
    for i, code in enumerate(cards.DECK36):
        assert cards.card_index(code) == i
        assert cards.card_code(i) == code


@pytest.mark.parametrize(
    ("code", "points"),
    [("AS", 11), ("KH", 4), ("QD", 3), ("JC", 2), ("TS", 10), ("9D", 9), ("8H", 8), ("7C", 7)]
    + [("6S", 6)],
)
def test_card_points(code, points):
    assert cards.card_points(code) == points


def test_card_points_total_is_60_per_suit():
    assert sum(cards.card_points(c) for c in cards.DECK36) == 4 * 60


@pytest.mark.parametrize("code", ["2C", "XX", None])
def test_card_points_rejects_non_deck36(code):
    with pytest.raises(ValueError):
        cards.card_points(code)


def test_sort_cards_by_suit_then_rank():
    assert cards.sort_cards(["AS", "6S", "TD", "9D", "KC", "2C", "JH"]) == [
        "2C",
        "KC",
        "9D",
        "TD",
        "JH",
        "6S",
        "AS",
    ]


def test_display_order_matches_index_order():
    assert cards.sort_cards(reversed(cards.DECK36)) == list(cards.DECK36)


def test_masks_round_trip():
    hand = ["9D", "6C", "AS", "TH"]
    m = cards.mask_of(hand)
    assert m == (1 << 12) | 1 | (1 << 35) | (1 << 22)
    assert cards.cards_of(m) == cards.sort_cards(hand)
