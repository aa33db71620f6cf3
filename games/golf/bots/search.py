"""Level ``search``: determinised sampling plus heuristic playouts.

For one decision in the turn phase:

1. **Candidates.** Every legal move is rated by the heuristic
   (:func:`option_gains`); the ``width`` best are kept, the heuristic's own
   choice first (turning up one face-down card or another counts as one
   option). When the heuristic rates its choice ``clear_margin`` points
   above the next, that move is played without playouts.
2. **Determinise.** The ranks the seat has not seen (:class:`.core.Knowledge`:
   the G1 decks minus every card its view shows) are shuffled into the
   hidden places: face-down cards of every grid (its own included), the
   discard pile below its top, a drawn card held by another seat, and the
   stock. Only the view is used, never the state.
3. **Play out.** On that one deal, each candidate is played and the rest of
   the round is finished with every seat on the heuristic policy
   (:class:`.core.Policy`, the heuristic bot's own rules, on what each seat
   can see in the playout). All candidates share the deal (common random
   numbers).
4. **Score** for this seat: its round score minus the mean of the others'
   (G9 penalty included); in the match's last round, also ``last_weight``
   points times (1 - its share of first place on the match totals).

The candidate with the lowest mean wins (ties: the heuristic's order); the
heuristic's own move gets ``prefer`` points of credit, since the best of
several noisy means flatters itself.

Budget: at most ``samples`` deals (count-based, reproducible for a seed),
stopping early once ``budget_ms`` of wall time is spent (the clock is read
before each deal; at least one deal is always played out). With a large
``budget_ms`` a decision depends only on the seed, the view and the
history length.
"""

from __future__ import annotations

import random
import time
from typing import Any

from .core import (
    DISCARD,
    DRAW,
    FLIP,
    SWAP,
    TAKE,
    Knowledge,
    Policy,
    Round,
    U,
    best_flip,
    move_str,
    parse_move,
)

DEFAULT_SAMPLES = 48
DEFAULT_WIDTH = 3
LAST_WEIGHT = 15.0
#: When the heuristic rates its best move this many points above the next,
#: the search plays it without playouts.
CLEAR_MARGIN = 6.0
#: Points of mean outcome another move must gain over the heuristic's own
#: move to replace it (the sampled means are noisy; the best of several noisy
#: means flatters itself).
PREFER = 0.5


def option_gains(policy: Policy, kn: Knowledge, legal: list[str]) -> dict[str, float]:
    """The heuristic's gain for each legal turn-phase move (higher is better).

    Turning up different face-down cards rates the same; the heuristic's
    pick (:func:`.core.best_flip`) is ranked first, a G5c flip just below
    the discard-and-flip of the same card, and the heuristic's own move
    above any move rated the same.
    """
    g = kn.grids[kn.me]
    others = [kn.grids[o] for o in range(kn.n) if o != kn.me]
    down = sum(1 for r in g if r == U)
    final = kn.final_turn
    flip_pos = best_flip(g)
    take = policy.gains(g, kn.top, final, others) if kn.top is not None else None
    swap = policy.gains(g, kn.drawn, final, others) if kn.drawn is not None else None
    flip = policy.flip_gain(g, down, final, others) if down else 0.0
    out: dict[str, float] = {}
    for move in legal:
        kind, pos = parse_move(move)
        if kind == DRAW:
            out[move] = policy.draw_gain(g, down, final, others)
        elif kind == TAKE and take is not None:
            out[move] = take[pos]
        elif kind == SWAP and swap is not None:
            out[move] = swap[pos]
        elif kind in (FLIP, DISCARD):
            # Another face-down card is the same option seen from here: rank it out.
            out[move] = flip - (0.0 if pos == flip_pos else 100.0) - (0.01 if kind == FLIP else 0)
        else:
            out[move] = -1e9
    kind, pos = policy.choose(g, kn.top, kn.drawn, final, others)
    mine = move_str(kind, pos)
    if mine in out:
        out[mine] += 1e-6
    return out


def determinise(kn: Knowledge, view: dict[str, Any], rng: random.Random) -> Round:
    """One full round consistent with the view, hidden ranks shuffled."""
    pool = [r for r, k in enumerate(kn.unseen) for _ in range(k)]
    rng.shuffle(pool)
    r = Round.__new__(Round)
    r.n = kn.n
    r.three = kn.three
    r.pub = [list(g) for g in kn.grids]
    true = []
    for g in kn.grids:
        t = list(g)
        for i in range(9):
            if t[i] == U:
                t[i] = pool.pop() if pool else 5
        true.append(t)
    r.true = true
    below = [pool.pop() for _ in range(min(len(pool), max(0, kn.discard_count - 1)))]
    r.discard = below + ([kn.top] if kn.top is not None else [])
    r.to_move = view["to_move"]
    r.drawn = kn.drawn
    if r.drawn is None and r.to_move is not None and kn.holding[r.to_move]:
        r.drawn = pool.pop() if pool else 5
    r.stock = pool  # whatever is left, top card last
    r.went_out = kn.went_out
    return r


def objective(kn: Knowledge, view: dict[str, Any], scores: list[int], last_weight: float) -> float:
    me = kn.me
    n = kn.n
    mine = scores[me]
    value = mine - (sum(scores) - mine) / (n - 1)
    if last_weight and view["round"] >= view["rounds"]:
        totals = [t + s for t, s in zip(view["totals"], scores, strict=True)]
        best = min(totals)
        if totals[me] == best:
            value -= last_weight / totals.count(best)
        value += last_weight
    return value


def search_move(
    view: dict[str, Any],
    rng: random.Random,
    budget_ms: float | None = 200,
    samples: int = DEFAULT_SAMPLES,
    width: int = DEFAULT_WIDTH,
    last_weight: float = LAST_WEIGHT,
    clear_margin: float = CLEAR_MARGIN,
    prefer: float = PREFER,
) -> tuple[str, dict[str, Any]]:
    """The search bot's move in the turn phase and what it did (``samples``,
    ``playouts``, ``candidates``, ``means``, ``ms``)."""
    t0 = time.perf_counter()
    legal = list(view["legal"])
    kn = Knowledge(view)
    policy = Policy(kn.three, kn.ev, kn.dist)
    gains = option_gains(policy, kn, legal)
    order = sorted(legal, key=lambda m: -gains[m])  # stable: legal order breaks ties
    cands = order[: max(1, width)]
    if len(cands) > 1 and gains[cands[0]] - gains[cands[1]] >= clear_margin:
        cands = cands[:1]  # the heuristic's pick is clearly best: no playouts
    parsed = [parse_move(m) for m in cands]
    sums = [0.0] * len(cands)
    done = 0
    deadline = None if budget_ms is None else t0 + budget_ms / 1000.0
    while done < samples and len(cands) > 1:
        if done and deadline is not None and time.perf_counter() >= deadline:
            break
        base = determinise(kn, view, rng)
        for i, (kind, pos) in enumerate(parsed):
            sim = base.copy()
            if sim.step(kind, pos, rng):
                scores = sim.scores()
            else:
                scores = sim.playout(policy, rng)
            sums[i] += objective(kn, view, scores, last_weight)
        done += 1
    means = [s / max(1, done) for s in sums]
    means[0] -= prefer  # cands[0] is the heuristic's own move
    best = min(range(len(cands)), key=lambda i: (means[i], i))
    info = {
        "samples": done,
        "skipped": len(cands) == 1,
        "playouts": done * len(cands),
        "candidates": cands,
        "means": dict(zip(cands, means, strict=True)),
        "ms": (time.perf_counter() - t0) * 1000.0,
    }
    return cands[best], info


__all__ = ["DEFAULT_SAMPLES", "DEFAULT_WIDTH", "determinise", "option_gains", "search_move"]
