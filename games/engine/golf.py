"""Nine-card Golf (RULES.md section 3). For now only the scoring of a grid.

Pure Python, no Django. Cards use the shared codes (``AS``, ``TD``, ``2C``);
Golf plays with 52-card decks, so ranks 2 to A. A grid is nine codes in
row-major order; its columns are positions {0, 3, 6}, {1, 4, 7}, {2, 5, 8}
(G2).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .cards import is_card

#: G7 card values by rank: A=1, 2=-2, 3..10 face value, J=10, Q=10, K=0.
RANK_VALUES = {
    "A": 1,
    "2": -2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "T": 10,
    "J": 10,
    "Q": 10,
    "K": 0,
}

COLUMNS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))
#: G11: "pair" (default) -- two or three of a rank in a column score 0;
#: "three" -- the "column match needs three" variant.
COLUMN_RULES = ("pair", "three")


def card_value(code: str) -> int:
    """G7 value of one card; ValueError if ``code`` is not a card."""
    if not is_card(code):
        raise ValueError(f"{code!r} is not a card.")
    return RANK_VALUES[code[0]]


def score_grid(cards: Sequence[str], column_rule: str = "pair") -> int:
    """Score a 3x3 grid of nine card codes, row-major (G2, G7, G8, G11).

    ``column_rule="pair"``: in each column, cards whose rank appears two or
    three times score 0 (a pair scores 0 for both cards, the third card of
    another rank still counts). ``column_rule="three"``: only a full column
    of one rank scores 0. Raises ValueError for anything but nine valid
    codes (duplicates are fine: Golf uses two or three decks) or an unknown
    rule.
    """
    if column_rule not in COLUMN_RULES:
        raise ValueError(f"Unknown column rule {column_rule!r}; use 'pair' or 'three'.")
    if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
        raise ValueError("A grid is a list of nine card codes.")
    if len(cards) != 9:
        raise ValueError(f"A grid has nine cards, got {len(cards)}.")
    for code in cards:
        if not is_card(code):
            raise ValueError(f"{code!r} is not a card.")
    total = 0
    for column in COLUMNS:
        ranks = [cards[i][0] for i in column]
        counts = Counter(ranks)
        for r in ranks:
            n = counts[r]
            if n == 3 or (n == 2 and column_rule == "pair"):
                continue
            total += RANK_VALUES[r]
    return total
