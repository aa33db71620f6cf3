"""Small template helpers for the per-game pages (templates/games/detail/)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import pgettext, pgettext_lazy

register = template.Library()


@register.filter
def index(items: Any, i: int) -> Any:
    """`items[i]`, or "" when there is no such entry: `{{ names|index:seat }}`."""
    try:
        return items[i]
    except (IndexError, KeyError, TypeError):
        return ""


SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
# The same words as static/js/cards.js, from the same catalog entries.
SUIT_NAMES = {
    "C": pgettext_lazy("suit", "clubs"),
    "D": pgettext_lazy("suit", "diamonds"),
    "H": pgettext_lazy("suit", "hearts"),
    "S": pgettext_lazy("suit", "spades"),
}
SUITS_OF = {
    "C": pgettext_lazy("of suit", "clubs"),
    "D": pgettext_lazy("of suit", "diamonds"),
    "H": pgettext_lazy("of suit", "hearts"),
    "S": pgettext_lazy("of suit", "spades"),
}
RANK_LABELS = {"T": "10"}
# Digits stay digits ("7 of diamonds"), as before; court cards and aces by name.
RANK_NAMES = {
    "T": "10",
    "J": pgettext_lazy("rank", "jack"),
    "Q": pgettext_lazy("rank", "queen"),
    "K": pgettext_lazy("rank", "king"),
    "A": pgettext_lazy("rank", "ace"),
}


@register.filter
def card(code: Any) -> str:
    """A card code (`7D`, `TH`) as people write it (7♦, 10♥), coloured and named for hover.

    The same names as static/js/cards.js; anything that is not a card code is shown as is.
    """
    code = str(code or "")
    rank, suit = code[:-1], code[-1:]
    if suit not in SUIT_SYMBOLS or not rank:
        return code
    name = pgettext("card name", "%(rank)s of %(suit)s") % {
        "rank": RANK_NAMES.get(rank, rank),
        "suit": SUITS_OF[suit],
    }
    return format_html(
        '<span class="card-text suit-{}" title="{}">{}{}</span>',
        suit,
        name,
        RANK_LABELS.get(rank, rank),
        SUIT_SYMBOLS[suit],
    )


@register.filter
def cards(codes: Any) -> str:
    """Several card codes, each as `card` shows it, separated by spaces."""
    return format_html_join(" ", "{}", ((card(c),) for c in codes or []))


@register.filter
def suit(letter: Any) -> str:
    """A suit letter as its symbol and name: ♣ Clubs."""
    letter = str(letter)
    if letter not in SUIT_SYMBOLS:
        return letter
    return f"{SUIT_SYMBOLS[letter]} {str(SUIT_NAMES[letter]).capitalize()}"


@register.filter
def seated(table: Any, user: Any) -> bool:
    """Whether `user` (a request's user) holds a seat at `table` (its seats prefetched)."""
    player = getattr(user, "player", None) if getattr(user, "is_authenticated", False) else None
    return player is not None and any(s.player_id == player.pk for s in table.seats.all())
