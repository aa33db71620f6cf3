"""Level ``search``: determinised Monte Carlo playouts.

For each decision the bot builds its :class:`~.knowledge.Knowledge` (own
hand, table, counts, pass inferences from the history), then repeats:

1. sample the hidden hands consistently with that knowledge (a
   determinisation, :meth:`Knowledge.sample`);
2. for every legal card, play it on that deal with the engine's fast path
   (:func:`devyatka.fast_apply`) and finish the game with a playout;
3. score the outcome for its own seat: classic, its place (D10-D12, with the
   table's pass rule from ``view["pass_rule"]``); Keft, 1 if it is the loser.

Every legal card is evaluated on the same sampled deals (common random
numbers), and the card with the best mean wins: lowest expected place in
classic, lowest probability of being the loser in Keft (expected out order
breaks near-ties).

Budget: ``playouts`` (per legal card) makes it count-based and reproducible
given the seed; ``budget_ms`` (default 200) caps the wall time of a decision.
With only a time budget the number of playouts depends on the machine's
speed and load, so decisions are NOT reproducible; pass ``playouts`` (and
``budget_ms=None``) when they must be, as the tests and benchmark do.
"""

from __future__ import annotations

import bisect
import random
import time
from collections.abc import Sequence
from typing import Any

from ..cards import INDEX36, POINTS36

# _advance is the engine's one core move function (documented there as shared
# with the bots' fast path): the policy playouts below play every card through
# it, so the rules stay written once.
from ..devyatka import (
    _CYCLES,
    FastState,
    _advance,
    fast_apply,
    playout_places,
    random_playout,
)
from .base import Bot
from .heuristic import choice_model
from .knowledge import BEYOND, NEXT, Knowledge

_POINTS = {1 << INDEX36[c]: p for c, p in POINTS36.items()}


def policy_playout(fs: FastState, rng: random.Random, eps: float = 0.0) -> tuple[list, list, list]:
    """Finish the game with a cheap version of the heuristic for every seat.

    Among the mover's legal cards it prefers, in order: one that frees a card
    of its own hand, one with its own cards farther out in the row, a six or
    an ace (frees nothing for anyone), anything else; random within the
    class (and a uniformly random legal card with probability ``eps``).
    Returns the final ``(masks, passes, out)``; ``fs`` is not changed.
    """
    n = fs.players
    masks = list(fs.masks)
    passes = list(fs.passes)
    out = list(fs.out)
    playable = fs.playable
    p = fs.to_move
    cycle = _CYCLES[n]
    need = n - 1 if fs.keft else 1
    rand = rng.random
    nxt = NEXT
    beyond = BEYOND
    advance = _advance
    while p >= 0:
        legal = masks[p] & playable
        if legal & (legal - 1):
            if not eps or rand() >= eps:
                h = masks[p]
                c3 = c2 = c1 = 0
                m = legal
                while m:
                    b = m & -m
                    m ^= b
                    nb = nxt[b]
                    if nb & h:
                        c3 |= b
                    elif beyond[b] & h:
                        c2 |= b
                    elif not nb:
                        c1 |= b
                legal = c3 or c2 or c1 or legal
            if legal & (legal - 1):
                k = int(rand() * legal.bit_count())
                while k:
                    legal &= legal - 1
                    k -= 1
        playable, p = advance(masks, playable, p, legal & -legal, cycle, need, passes, out, None)
    return masks, passes, out


def _points(mask: int) -> int:
    total = 0
    while mask:
        b = mask & -mask
        total += _POINTS[b]
        mask ^= b
    return total


class SearchBot(Bot):
    """Determinisation + playouts; see the module docstring."""

    level = "search"

    def __init__(
        self,
        seed: int | str | None = None,
        budget_ms: float | None = 200.0,
        playouts: int | None = None,
        min_playouts: int = 8,
        policy: str = "heuristic",
        eps: float = 0.0,
        infer: bool = True,
        model_eps: float = 0.2,
        pool_factor: int = 2,
    ) -> None:
        super().__init__(seed)
        if budget_ms is None and playouts is None:
            raise ValueError("The search bot needs budget_ms, playouts or both.")
        self.budget_ms = budget_ms
        self.playouts = playouts
        self.min_playouts = min_playouts
        if policy not in ("heuristic", "random"):
            raise ValueError("policy must be 'heuristic' or 'random'.")
        self.policy = policy
        self.eps = eps
        self.infer = infer
        self.model_eps = model_eps
        self.pool_factor = pool_factor
        self.last_playouts = 0  # playouts per card in the last decision (for benchmarks)

    def evaluate(
        self, view: dict[str, Any], history: Sequence[tuple[int, str]], legal: list[str]
    ) -> list[float]:
        """Per legal card, the mean score (lower is better); see the module docstring."""
        start = time.perf_counter()
        know = Knowledge(view, history)
        rng = self.rng_for(view, history)
        me = know.seat
        n = know.players
        keft = know.keft
        pass_rule = know.pass_rule
        bits = [1 << INDEX36[c] for c in legal]
        sums = [0.0] * len(bits)
        deadline = None if self.budget_ms is None else start + self.budget_ms / 1000.0
        limit = self.playouts
        done = 0
        infer = self.infer and bool(know.decisions)
        if infer:
            model = choice_model(keft, self.model_eps)
            pool: list[list[int]] = []
            cum: list[float] = []
            total = 0.0
        while True:
            if infer:
                for _ in range(self.pool_factor):
                    cand = know.sample(rng)
                    w = know.likelihood(cand, model)
                    if w > 0.0:
                        pool.append(cand)
                        total += w
                        cum.append(total)
                if not pool:
                    masks = know.sample(rng)
                else:
                    masks = pool[min(bisect.bisect(cum, rng.random() * total), len(pool) - 1)]
            else:
                masks = know.sample(rng)
            fs = FastState(n, keft, tuple(masks), know.playable, me, know.passes, know.out)
            for j, b in enumerate(bits):
                fs2 = fast_apply(fs, b)
                if self.policy == "random":
                    res = random_playout(fs2, rng)
                    if keft:
                        out = res.out
                        sums[j] += out.index(me) / n if me in out else n
                    else:
                        sums[j] += playout_places(res, pass_rule)[me]
                    continue
                masks2, passes2, out = policy_playout(fs2, rng, self.eps)
                if keft:
                    sums[j] += out.index(me) / n if me in out else n
                else:
                    sums[j] += _classic_place(me, masks2, passes2, pass_rule)
            done += 1
            if limit is not None and done >= limit:
                break
            if deadline is not None and done >= self.min_playouts:
                if time.perf_counter() >= deadline:
                    break
        self.last_playouts = done
        return [s / done for s in sums]

    def decide(
        self, view: dict[str, Any], history: Sequence[tuple[int, str]], legal: list[str]
    ) -> str:
        scores = self.evaluate(view, history, legal)
        best = min(range(len(legal)), key=scores.__getitem__)
        return legal[best]


def _classic_place(me: int, masks: list[int], passes: list[int], pass_rule: bool) -> int:
    """Place of ``me`` at the end of a classic game (D10-D12), as ``devyatka.places``."""
    mine = masks[me].bit_count()
    if not mine:
        return 1
    place = 1
    my_points = None
    for s, m in enumerate(masks):
        if s == me:
            continue
        c = m.bit_count()
        if c < mine:
            place += 1
        elif c == mine:
            if pass_rule and passes[s] != passes[me]:
                place += passes[s] < passes[me]
                continue
            if my_points is None:
                my_points = _points(masks[me])
            place += _points(m) < my_points
    return place
