"""Level ``heuristic``: the rule sheets' strategy tips made concrete, classic and Keft.

Each legal card gets a score from what its play does to the row it extends
(for a nine: to both sides of the new row). Walking outward from the card:

* ``own_run``: how many of my own cards follow it directly (playing 8D with
  7D and 6D in hand frees my own next cards, and gives nobody anything);
* ``give``: the next card is someone else's, so my play hands an opponent a
  move (a blocker released: "hold the card the others wait for");
* ``released``: the run of other players' cards this unblocks, up to my
  next own card in that row (they stay blocked behind me after that);
* ``later``: my cards farther out, behind the released run: they only come
  back to me if I open the way, so some of the penalty is worth paying.

Sixes and aces end their row, so they score zero on all of these: safe tempo
moves when everything else would help the others. A nine with no follow-up
in hand opens two ends for the others and scores badly ("open a new suit
only if you can continue it"); with its neighbour in hand it scores well.

The score is a weighted sum (``CLASSIC_WEIGHTS``, ``KEFT_WEIGHTS``: free own
next card, own run, give, released, later, card points), tuned with the
duplicate-deal benchmark against random play (``tests/bench/bench_bots.py``).
Tuning made ``later`` the strongest term -- open the way to your own buried
cards even at the price of releasing a card -- and left card points at 0.
Equal scores go to the lowest card in display order, so the bot is
deterministic. :func:`best_set` is memoised on the card's suit (a score only
depends on that suit's cards in hand and elsewhere), which makes it cheap
enough to be the search bot's playout policy and opponent model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.cards import DECK36, INDEX36, POINTS36

from .base import Bot
from .knowledge import FULL, mask_of_codes, table_of_rows


def _chains_of(index: int) -> tuple[tuple[int, ...], ...]:
    """The rows' cards beyond ``index``, outward from it (two chains for a nine)."""
    s, r = divmod(index, 9)
    base = 9 * s
    down = tuple(1 << (base + k) for k in range(r - 1, -1, -1))
    up = tuple(1 << (base + k) for k in range(r + 1, 9))
    if r == 3:
        return (down, up)
    return (down,) if r < 3 else (up,)


CHAINS = {1 << i: _chains_of(i) for i in range(36)}
POINTS_OF_BIT = {1 << INDEX36[c]: p for c, p in POINTS36.items()}

#: Weights: free own card, own run length, give, released run, own cards later, points.
CLASSIC_WEIGHTS = (40, 10, 8, 2, 48, 0)
KEFT_WEIGHTS = (40, 10, 8, 2, 24, 0)


def features(bit: int, hand: int, unknown: int) -> tuple[int, int, int, int, int]:
    """(first is own, own_run, give, released, later) summed over the card's chains."""
    first_own = own_run = give = released = later = 0
    for chain in CHAINS[bit]:
        k = 0
        n = len(chain)
        while k < n and chain[k] & hand:
            k += 1
        if k:
            first_own += 1
            own_run += k
            continue
        if k < n and chain[k] & unknown:
            give += 1
            while k < n and chain[k] & unknown:
                released += 1
                k += 1
            while k < n:
                if chain[k] & hand:
                    later += 1
                k += 1
    return first_own, own_run, give, released, later


def score(bit: int, hand: int, unknown: int, weights: Sequence[int]) -> int:
    w_free, w_run, w_give, w_rel, w_later, w_pts = weights
    first_own, own_run, give, released, later = features(bit, hand, unknown)
    return (
        w_free * first_own
        + w_run * own_run
        - w_give * give
        - w_rel * released
        + w_later * later
        + w_pts * POINTS_OF_BIT[bit]
    )


_BASE_OF_BIT = {1 << i: i - i % 9 for i in range(36)}
_INDEX_OF_BIT = {1 << i: i for i in range(36)}
_CACHES: dict[tuple[int, ...], dict[int, int]] = {}
_CACHE_LIMIT = 400_000


def best_set(legal: int, hand: int, table: int, keft: bool, weights=None) -> int:
    """The mask of the legal cards with the best score (ties: all of them).

    A card's score depends only on its own suit's cards in hand and in the
    other hands, so scores are memoised on that (a dict per weight set):
    this is also the playout policy of the search bot.
    """
    if weights is None:
        weights = KEFT_WEIGHTS if keft else CLASSIC_WEIGHTS
    cache = _CACHES.get(weights)
    if cache is None or len(cache) > _CACHE_LIMIT:
        cache = _CACHES[weights] = {}
    unknown = FULL & ~hand & ~table
    best = 0
    best_score = -(1 << 30)
    base_of = _BASE_OF_BIT
    index_of = _INDEX_OF_BIT
    m = legal
    while m:
        b = m & -m
        m ^= b
        base = base_of[b]
        key = index_of[b] << 18 | ((hand >> base) & 0x1FF) << 9 | ((unknown >> base) & 0x1FF)
        sc = cache.get(key)
        if sc is None:
            sc = cache[key] = score(b, hand, unknown, weights)
        if sc > best_score:
            best, best_score = b, sc
        elif sc == best_score:
            best |= b
    return best


def best_card(legal: int, hand: int, table: int, keft: bool, weights=None) -> int:
    """The bit of the best-scoring legal card (ties: the lowest card index)."""
    best = best_set(legal, hand, table, keft, weights)
    return best & -best


def choice_model(keft: bool, eps: float, lowest: bool = False):
    """An opponent model: P(card | legal cards, hand, table) for a heuristic-like player.

    With probability ``1 - eps`` it plays one of this bot's best cards, else
    any legal card; used by the search bot to weigh sampled hands. With
    ``lowest`` the best card is exactly the heuristic bot's own choice, the
    lowest card index among equal scores (:func:`best_card`), which makes
    the model sharper; otherwise any of the best cards is equally likely.
    """

    def model(bit: int, legal: int, hand: int, table: int) -> float:
        p = eps / legal.bit_count()
        best = best_set(legal, hand, table, keft)
        if lowest:
            if best & -best == bit:
                p += 1.0 - eps
        elif best & bit:
            p += (1.0 - eps) / best.bit_count()
        return p

    return model


class HeuristicBot(Bot):
    """Scores each legal card with the sheets' tips; deterministic (the seed breaks no ties)."""

    level = "heuristic"

    def __init__(self, seed: int | str | None = None, weights: Sequence[int] | None = None) -> None:
        super().__init__(seed)
        self.weights = tuple(weights) if weights is not None else None

    def decide(
        self, view: dict[str, Any], history: Sequence[tuple[int, str]], legal: list[str]
    ) -> str:
        hand = mask_of_codes(view["hand"])
        table = table_of_rows(view["rows"])
        bit = best_card(mask_of_codes(legal), hand, table, bool(view.get("keft")), self.weights)
        return DECK36[bit.bit_length() - 1]
