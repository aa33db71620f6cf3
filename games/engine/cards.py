"""Card codes, decks and card points shared by every engine.

A card code is rank then suit, two characters: ``9D`` (nine of diamonds),
``TH`` (ten of hearts), ``AS`` (ace of spades).

* Ranks of the 36-card deck (Devyatka, Keft): ``6 7 8 9 T J Q K A``.
* Golf's 52-card deck adds ``2 3 4 5``.
* Suits: ``C D H S`` (clubs, diamonds, hearts, spades).

Each 36-card code also has an index 0..35, ``suit * 9 + rank`` with suit
C=0, D=1, H=2, S=3 and rank 6=0 .. A=8, so a set of cards is an integer
bitmask (bit ``1 << index``). Ascending index order is also the display
order (by suit, then rank), which :func:`sort_cards` produces.

Pure Python; no Django import anywhere below ``games.engine``.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "CDHS"
RANKS36 = "6789TJQKA"
RANKS52 = "23456789TJQKA"

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "A": "ace",
}

#: The 36-card deck in index order (clubs 6..A, diamonds 6..A, hearts, spades).
DECK36: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS36)
#: One 52-card deck in display order (clubs 2..A, diamonds, hearts, spades).
DECK52: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS52)

#: Code -> index 0..35 for the 36-card deck (bit ``1 << index`` in masks).
INDEX36: dict[str, int] = {code: i for i, code in enumerate(DECK36)}

_CARDS52 = frozenset(DECK52)
_SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}
_RANK_ORDER = {r: i for i, r in enumerate(RANKS52)}

#: Devyatka card points (D10): A=11, K=4, Q=3, J=2, T=10, 9..6 face value.
RANK_POINTS36 = {"6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
POINTS36: dict[str, int] = {code: RANK_POINTS36[code[0]] for code in DECK36}


def is_card(code: object) -> bool:
    """True if ``code`` is a valid card code of the 52-card deck (``"9D"``, ``"2C"``).

    Codes are exact: upper case, rank then suit, two characters.
    """
    return isinstance(code, str) and code in _CARDS52


def in_deck36(code: object) -> bool:
    """True if ``code`` is one of the 36 cards (6 to A) used by Devyatka and Keft."""
    return isinstance(code, str) and code in INDEX36


def rank(code: str) -> str:
    """The rank character of a card code (``"T"`` for ``"TH"``)."""
    return code[0]


def suit(code: str) -> str:
    """The suit letter of a card code (``"H"`` for ``"TH"``)."""
    return code[1]


def suit_name(suit_letter: str) -> str:
    """``"C"`` -> ``"clubs"`` and so on."""
    return SUIT_NAMES[suit_letter]


def card_name(code: str) -> str:
    """Words for a card: ``"TH"`` -> ``"ten of hearts"``."""
    return f"{RANK_NAMES[code[0]]} of {SUIT_NAMES[code[1]]}"


def card_index(code: str) -> int:
    """Index 0..35 of a 36-card code (``suit * 9 + rank``); KeyError otherwise."""
    return INDEX36[code]


def card_code(index: int) -> str:
    """The 36-card code for an index 0..35."""
    return DECK36[index]


def card_points(code: str) -> int:
    """Devyatka points of a card (D10): A=11, K=4, Q=3, J=2, T=10, 9..6 face value.

    Raises ValueError for anything that is not one of the 36 cards.
    """
    try:
        return POINTS36[code]
    except (KeyError, TypeError):
        raise ValueError(f"{code!r} is not a card of the 36-card deck.") from None


def sort_key(code: str) -> tuple[int, int]:
    """Display order: by suit (C, D, H, S), then rank (2 .. A)."""
    return (_SUIT_ORDER[code[1]], _RANK_ORDER[code[0]])


def sort_cards(codes: Iterable[str]) -> list[str]:
    """The cards sorted for display (by suit, then rank)."""
    return sorted(codes, key=sort_key)


def mask_of(codes: Iterable[str]) -> int:
    """Bitmask of 36-card codes (bit ``1 << index``)."""
    m = 0
    for code in codes:
        m |= 1 << INDEX36[code]
    return m


def cards_of(mask: int) -> list[str]:
    """The 36-card codes in a bitmask, in display order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(DECK36[low.bit_length() - 1])
        mask ^= low
    return out


def decks52(count: int) -> tuple[str, ...]:
    """``count`` 52-card decks as one tuple of codes (Golf's shoe: G1 uses two or three)."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"The number of decks must be a whole number >= 1, got {count!r}.")
    return DECK52 * count
