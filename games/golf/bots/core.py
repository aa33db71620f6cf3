"""Shared pieces of the Golf bots: ranks as small ints, column tables, what a
seat knows from its view, the heuristic policy and a fast round simulator.

Everything here works on a compact internal form, never on the engine's
state: a grid is a list of nine rank indexes (``0..12`` for ``A 2 3 .. K``,
``U`` = 13 for a card this seat cannot see), suits are dropped (they never
score). The heuristic policy sees only such *public* grids, the discard top
and its own drawn card, so the same code drives the house bot (from a view)
and every player of a search playout (from a simulated round).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import repeat
from operator import mul
from typing import Any

from .. import engine

RANKS = "A23456789TJQK"
RIDX = {r: i for i, r in enumerate(RANKS)}
VAL = [engine.RANK_VALUES[r] for r in RANKS]  # G7: A=1, 2=-2, 3..10, J=Q=10, K=0
U = 13  # a face-down card (unknown to the seat)
COLUMNS = engine.COLUMNS
COL_OF = [0, 1, 2, 0, 1, 2, 0, 1, 2]
W = (196, 14, 1)  # column index = a * 196 + b * 14 + c, each 0..13

# Move kinds (strings only at the interface).
DRAW, TAKE, FLIP, SWAP, DISCARD, READY = range(6)
KIND_NAMES = ("draw", "take", "flip", "swap", "discard", "ready")


def move_str(kind: int, pos: int) -> str:
    return KIND_NAMES[kind] if kind in (DRAW, READY) else f"{KIND_NAMES[kind]} {pos}"


def parse_move(move: str) -> tuple[int, int]:
    name, _, pos = move.partition(" ")
    return KIND_NAMES.index(name), int(pos) if pos else -1


def _column_tables(three: bool) -> tuple[list[int], list[int]]:
    """Per column index: points of its known cards (G8/G11 among them) and unknowns."""
    known, unknown = [0] * 2744, [0] * 2744
    for a in range(14):
        for b in range(14):
            for c in range(14):
                idx = a * 196 + b * 14 + c
                ranks = [r for r in (a, b, c) if r != U]
                unknown[idx] = 3 - len(ranks)
                if len(ranks) == 3 and a == b == c:
                    continue
                pts = 0
                for r in ranks:
                    if not three and ranks.count(r) >= 2:
                        continue
                    pts += VAL[r]
                known[idx] = pts
    return known, unknown


_TABLES = {False: _column_tables(False), True: _column_tables(True)}


def cost_table(three: bool, ev: float) -> list[float]:
    """Expected points per column index, a face-down card counted at ``ev``."""
    known, unknown = _TABLES[three]
    return [k + u * ev for k, u in zip(known, unknown, strict=True)]


def exact_score(grid: Sequence[int], three: bool) -> int:
    """G7/G8/G11 score of a fully known internal grid."""
    known = _TABLES[three][0]
    return (
        known[grid[0] * 196 + grid[3] * 14 + grid[6]]
        + known[grid[1] * 196 + grid[4] * 14 + grid[7]]
        + known[grid[2] * 196 + grid[5] * 14 + grid[8]]
    )


def grid_cost(g: Sequence[int], cost: list[float]) -> float:
    return (
        cost[g[0] * 196 + g[3] * 14 + g[6]]
        + cost[g[1] * 196 + g[4] * 14 + g[7]]
        + cost[g[2] * 196 + g[5] * 14 + g[8]]
    )


# --------------------------------------------------------------------------
# What a seat knows (from its view only).
# --------------------------------------------------------------------------


class Knowledge:
    """A seat's knowledge from its ``golf.view``: public grids, the unseen ranks.

    ``unseen[r]``: copies of rank ``r`` the seat has not seen on the table
    (the G1 decks minus every face-up card, the discard top and its own
    drawn card); they are the face-down cards of every grid, the discard
    pile below its top, another seat's drawn card and the stock. ``ev`` is
    their mean value, ``dist`` the ``(rank, probability)`` pairs.
    """

    def __init__(self, view: dict[str, Any]) -> None:
        self.n = n = view["players"]
        self.me = view["seat"]
        self.three = view["column_rule"] == "three"
        self.phase = view["phase"]
        self.grids = [[U if c is None else RIDX[c[0]] for c in g] for g in view["grids"]]
        top = view["discard"]
        self.top = RIDX[top[0]] if top else None
        drawn = view["drawn"]
        self.drawn = RIDX[drawn[0]] if drawn else None
        self.went_out = view["went_out"]
        self.final_turn = self.went_out is not None
        self.stock = view["stock"]
        self.discard_count = view["discard_count"]
        self.holding = list(view["holding"])
        unseen = [4 * engine.decks_for(n)] * 13
        for g in self.grids:
            for r in g:
                if r != U:
                    unseen[r] -= 1
        for r in (self.top, self.drawn):
            if r is not None:
                unseen[r] -= 1
        self.unseen = [max(0, k) for k in unseen]
        total = sum(self.unseen) or 1
        self.ev = sum(k * VAL[r] for r, k in enumerate(self.unseen)) / total
        self.dist = [(r, k / total) for r, k in enumerate(self.unseen) if k]


# --------------------------------------------------------------------------
# The heuristic policy.
# --------------------------------------------------------------------------

#: Value of turning up one more card outside a final turn (the round ends
#: sooner and the seat knows more).
TEMPO = 0.6
#: Value of ending the round oneself (the others lose their chances to improve).
GO_BONUS = 1.5
#: What a seat typically gains in its final turn (for the G9 risk estimate).
IMPROVE = 2.0
#: Standard deviation of one unknown card's value (about 3.8 for G7 values).
CARD_SD = 3.8
PENALTY = 10


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x * 0.7071067811865476))


def others_estimates(
    others: Sequence[Sequence[int]], cost: list[float]
) -> list[tuple[float, float]]:
    """Per other grid: (expected final points, variance) for the G9 risk estimate.

    Expected points less :data:`IMPROVE` (its final turn), spread from its
    face-down cards.
    """
    out = []
    for g in others:
        u = 0
        for r in g:
            if r == U:
                u += 1
        out.append((grid_cost(g, cost) - IMPROVE, 4.0 + u * CARD_SD * CARD_SD))
    return out


def penalty_risk(score: float, unknown_mine: int, ests: Sequence[tuple[float, float]]) -> float:
    """P(some other seat scores strictly less than ``score``) if this seat goes out now.

    ``score`` is this seat's expected score (``unknown_mine`` cards of it
    still face down); ``ests`` from :func:`others_estimates`.
    """
    p_not = 1.0
    own_var = unknown_mine * CARD_SD * CARD_SD
    for est, var in ests:
        p_not *= 1.0 - _phi((score - 0.5 - est) / math.sqrt(var + own_var))
    return 1.0 - p_not


class Policy:
    """The heuristic player: expected points with face-down cards at ``ev``.

    Each option is scored by its *gain*: expected points saved on the grid,
    plus :data:`TEMPO` per card turned up outside a final turn, plus, for
    an option that turns up the ninth card (going out, G6), :data:`GO_BONUS`
    less the expected G9 penalty (:func:`penalty_risk`). A swap is rated as
    the new column against the old one, a face-down card counted at ``ev``,
    so a card completing a column match (G8/G11) saves its partners' points.
    Taking the discard (G5b) is compared with the expected best use of a
    card drawn from the unseen ranks (``dist``); turning up a card (G5c) is
    never better than drawing and then discarding, so it is not chosen.
    """

    __slots__ = ("cost", "dist", "memo", "penalty", "probs", "three")

    def __init__(self, three: bool, ev: float, dist: Sequence[tuple[int, float]]) -> None:
        self.three = three
        self.cost = cost_table(three, ev)
        self.dist = list(dist)
        probs = [0.0] * 13
        for r, p in dist:
            probs[r] = p
        self.probs = probs
        self.memo: dict[tuple, float] = {}
        #: Weight of the G9 penalty risk; 0 lets a seat go out whatever the risk.
        self.penalty = PENALTY

    def go_out_gain(
        self, score: float, unknown_mine: int, others: Sequence[Sequence[int]]
    ) -> float:
        """GO_BONUS less the expected G9 penalty, going out at ``score``."""
        return GO_BONUS - self.penalty * penalty_risk(
            score, unknown_mine, others_estimates(others, self.cost)
        )

    def gains(
        self, g: list[int], rank: int, final: bool, others: Sequence[Sequence[int]]
    ) -> list[float]:
        """Gain of putting a card of ``rank`` at each position 0..8 (swap or take)."""
        cost = self.cost
        out = [0.0] * 9
        down = 0
        for r in g:
            if r == U:
                down += 1
        for a, b, c in COLUMNS:
            ga, gb, gc = g[a], g[b], g[c]
            idx = ga * 196 + gb * 14 + gc
            before = cost[idx]
            out[a] = before - cost[idx + (rank - ga) * 196]
            out[b] = before - cost[idx + (rank - gb) * 14]
            out[c] = before - cost[idx + (rank - gc)]
        if not final and down:
            total = grid_cost(g, cost) if down == 1 else 0.0
            for pos in range(9):
                if g[pos] == U:
                    out[pos] += TEMPO
                    if down == 1:
                        out[pos] += self.go_out_gain(total - out[pos] + TEMPO, 0, others)
        return out

    def best_place(
        self, g: list[int], rank: int, final: bool, others: Sequence[Sequence[int]]
    ) -> tuple[float, int]:
        """(gain, position) of the best place for a card of ``rank``; lowest position on ties."""
        out = self.gains(g, rank, final, others)
        best = max(out)
        return best, out.index(best)

    def flip_gain(
        self, g: list[int], down: int, final: bool, others: Sequence[Sequence[int]]
    ) -> float:
        """Gain of turning up a face-down card (after a discard, or G5c)."""
        if final:
            return 0.0
        if down == 1:
            return TEMPO + self.go_out_gain(grid_cost(g, self.cost), 1, others)
        return TEMPO

    def draw_gain(
        self, g: list[int], down: int, final: bool, others: Sequence[Sequence[int]]
    ) -> float:
        """Expected gain of drawing: the best use of each unseen rank, weighted.

        Memoised by grid when it does not depend on the others (not one card
        from going out).
        """
        key = None
        if down != 1 or final:
            key = (*g, final)
            hit = self.memo.get(key)
            if hit is not None:
                return hit
        cost = self.cost
        flip = self.flip_gain(g, down, final, others)
        per_slot = []
        going_out = None
        for a, b, c in COLUMNS:
            ga, gb, gc = g[a], g[b], g[c]
            idx = ga * 196 + gb * 14 + gc
            before = cost[idx]
            for old, w in ((ga, 196), (gb, 14), (gc, 1)):
                base = idx - old * w
                bb = before
                if old == U and not final:
                    if down == 1:
                        going_out = (base, w, before)
                        continue
                    bb += TEMPO
                # gain of each rank 0..12 here: before - cost[base + rank * w]
                per_slot.append(map(bb.__sub__, cost[base : base + 13 * w : w]))
        best = list(map(max, *per_slot, repeat(flip, 13)))
        if going_out is not None:
            base, w, before = going_out
            total = grid_cost(g, cost)
            ests = others_estimates(others, cost)
            for r in range(13):
                if self.probs[r]:
                    gain = before - cost[base + r * w]
                    gain += TEMPO + GO_BONUS - self.penalty * penalty_risk(total - gain, 0, ests)
                    if gain > best[r]:
                        best[r] = gain
        value = sum(map(mul, self.probs, best))
        if key is not None:
            self.memo[key] = value
        return value

    def choose(
        self,
        g: list[int],
        top: int | None,
        drawn: int | None,
        final: bool,
        others: Sequence[Sequence[int]],
    ) -> tuple[int, int]:
        """(kind, position) for a seat to move in the turn phase."""
        down = 0
        for r in g:
            if r == U:
                down += 1
        if drawn is not None:
            gain, pos = self.best_place(g, drawn, final, others)
            if down and self.flip_gain(g, down, final, others) >= gain:
                return DISCARD, best_flip(g)
            return SWAP, pos
        draw = self.draw_gain(g, down, final, others)
        if top is not None:
            gain, pos = self.best_place(g, top, final, others)
            if gain > draw:
                return TAKE, pos
        return DRAW, -1


def best_flip(g: Sequence[int]) -> int:
    """The face-down card to turn up: in the column with the most known cards
    (what it reveals settles that column), lowest position first."""
    best, bpos = -1, -1
    for pos in range(9):
        if g[pos] == U:
            a, b, c = COLUMNS[COL_OF[pos]]
            known = (g[a] != U) + (g[b] != U) + (g[c] != U)
            if known > best:
                best, bpos = known, pos
    return bpos


#: Reveal phase (G3/G13): the heuristic turns up these two, in different columns.
REVEAL_ORDER = (0, 4, 8, 1, 5, 6, 2, 3, 7)


def reveal_move(grid: Sequence[int], legal: Sequence[str]) -> str:
    """Turn up two cards in different columns, then ``ready``."""
    if sum(1 for r in grid if r != U) < 2:
        for pos in REVEAL_ORDER:
            if grid[pos] == U and f"flip {pos}" in legal:
                return f"flip {pos}"
    return "ready" if "ready" in legal else legal[0]


# --------------------------------------------------------------------------
# The round simulator (for the search bot's playouts).
# --------------------------------------------------------------------------


class Round:
    """A fully determined round in the turn phase, mutable and cheap to copy.

    ``true``: every grid's real ranks; ``pub``: the same with face-down
    cards as ``U`` (what every seat sees); ``stock`` top card last;
    ``discard`` top card last.
    """

    __slots__ = (
        "discard",
        "drawn",
        "n",
        "pub",
        "stock",
        "three",
        "to_move",
        "true",
        "went_out",
    )

    def copy(self) -> Round:
        r = Round.__new__(Round)
        r.n = self.n
        r.three = self.three
        r.true = [list(g) for g in self.true]
        r.pub = [list(g) for g in self.pub]
        r.stock = list(self.stock)
        r.discard = list(self.discard)
        r.drawn = self.drawn
        r.to_move = self.to_move
        r.went_out = self.went_out
        return r

    def step(self, kind: int, pos: int, rng: Any) -> bool:
        """Apply a move of ``to_move``; True when the round has ended."""
        s = self.to_move
        if kind == DRAW:
            self.drawn = self.stock.pop()
            if not self.stock:  # G14
                rest = self.discard[:-1]
                rng.shuffle(rest)
                self.stock = rest
                self.discard = self.discard[-1:]
            return False
        true, pub = self.true[s], self.pub[s]
        if kind == TAKE:
            card = self.discard.pop()
            self.discard.append(true[pos])
            true[pos] = pub[pos] = card
        elif kind == SWAP:
            self.discard.append(true[pos])
            true[pos] = pub[pos] = self.drawn
            self.drawn = None
        elif kind == DISCARD:
            self.discard.append(self.drawn)
            self.drawn = None
            pub[pos] = true[pos]
        else:  # FLIP
            pub[pos] = true[pos]
        if self.went_out is None and U not in pub:
            self.went_out = s
        nxt = (s + 1) % self.n
        self.to_move = nxt
        return nxt == self.went_out

    def scores(self) -> list[int]:
        """Round scores (G7-G9, G11, G12) once the round has ended."""
        raw = [exact_score(g, self.three) for g in self.true]
        w = self.went_out
        if w is not None and any(x < raw[w] for x in raw):
            raw[w] += PENALTY
        return raw

    def playout(self, policy: Policy, rng: Any, max_turns: int = 2000) -> list[int]:
        """Play the round to its end with every seat on ``policy``; the scores."""
        n = self.n
        pub = self.pub
        for _ in range(max_turns):
            s = self.to_move
            others = [pub[o] for o in range(n) if o != s]
            g = pub[s]
            kind, pos = policy.choose(
                g, self.discard[-1], self.drawn, self.went_out is not None, others
            )
            if self.step(kind, pos, rng):
                return self.scores()
        # A round that never ends (cannot happen with this policy): count it as is.
        for s in range(n):
            pub[s][:] = self.true[s]
        return self.scores()
