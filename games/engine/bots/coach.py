"""The coach: judge one decision of one seat from that seat's information set.

Pure Python, no Django, deterministic by its public salt. The site's analysis
(analysis/services.py) walks a finished game and asks the game's judge
(:func:`judge_devyatka`, :func:`judge_golf`: the entry declares which) about
every move a member chose; this module never sees the game's state, only
what the seat saw when it chose:

* ``view``: the engine's ``view(state, seat)`` at that moment (its own
  cards, the table, counts, what was turned up -- never another hand);
* ``history``: the public ``(seat, move)`` list before the decision
  (Devyatka's passes included: they tell which cards a seat did not hold).

For each legal move the coach deals the hidden cards at random, consistently
with all of that (the house bots' determinisation: Devyatka's
:meth:`.knowledge.Knowledge.sample`, which honours every count and every
pass inference; Golf's :func:`.golf.search.determinise`), plays the move on
every deal and finishes the game with the heuristic policy for every seat.
All moves share the same deals (common random numbers), so the difference
between two moves is measured far more precisely than either value. Golf
moves that are the same option up to the grid's symmetries (turning up one
face-down card or another, :func:`_golf_option`) share one set of playouts,
so they get the same value and are never told apart by noise. Golf's opening
flips (G3/G13, played by every seat at once) are judged like any move: the
seat's flip or ``ready``, then the heuristic finishes everyone's reveal
(two cards, in two columns) and plays the round. When
only two Devyatka hands hold cards the position is one of perfect
information for the seat (the other hand is every unseen card) and
:func:`.endgame.solve` gives the exact values (standard error 0).

The value of a move is in the measure the game declares (:data:`MEASURES`):

* ``place``: expected final place (classic Devyatka; lower is better);
* ``avoid_loss``: the chance not to be Keft's single loser (higher is better);
* ``match_total``: the expected Golf match total (lower is better): the
  total so far, plus this round's expected score with the move, plus
  :data:`GOLF_ROUND_MEAN` for each round still to come (the same for every
  move: later rounds are dealt afresh).

The verdict compares the move played with the best one by the *loss* (how
much worse the played move's value is, in the measure's units) and the
standard error of that loss (from the paired differences over the deals):

* a loss within ``NOISE_Z`` standard errors is noise: ``fine``;
* otherwise ``inaccuracy`` / ``mistake`` / ``blunder`` from the measure's
  thresholds (:class:`Measure`), and ``fine`` below the first;
* a decision with one legal move is ``forced`` and never flagged.

Budget: ``samples`` deals per decision (the site's ``ANALYSIS_SAMPLES``),
count-based, so the same decision always gets the same answer; the
generator of a decision is seeded by ``(salt, its index in the game, the
seat)`` only -- public facts -- so two games that differ only in cards the
seat never saw get identical judgements, whatever seeds dealt them. The
``salt`` is public too: the site passes the game's id, never the seed that
dealt it (which deals every hidden card, Golf's later rounds and stock).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import INDEX36
from ..devyatka import FastState, fast_apply
from .endgame import solve
from .golf.core import COL_OF, COLUMNS, FLIP, REVEAL_ORDER, Policy, Round, U, parse_move
from .golf.core import Knowledge as GolfKnowledge
from .golf.search import determinise
from .knowledge import Knowledge
from .search import classic_place, heuristic_playout

FINE = "fine"
FORCED = "forced"
INACCURACY = "inaccuracy"
MISTAKE = "mistake"
BLUNDER = "blunder"
#: Verdicts from best to worst; the flagged ones are the last three.
VERDICTS = (FORCED, FINE, INACCURACY, MISTAKE, BLUNDER)
FLAGGED = (INACCURACY, MISTAKE, BLUNDER)

#: A loss smaller than this many standard errors is not told apart from noise.
NOISE_Z = 2.5

#: The expected score of one Golf round still to be dealt, for the match
#: total only (it is the same for every move, so it never changes a verdict):
#: about what the heuristic bots score a round at 2-4 seats.
GOLF_ROUND_MEAN = 18.0


@dataclass(frozen=True)
class Measure:
    """How a game's outcome is judged: the value's meaning and the verdict thresholds.

    ``higher``: higher values are better. Thresholds are losses in the
    measure's units (places, probability, points) from which a significant
    loss is an inaccuracy, a mistake, a blunder.
    """

    key: str
    higher: bool
    inaccuracy: float
    mistake: float
    blunder: float


MEASURES: dict[str, Measure] = {
    # Expected final place: a tenth of a place is an inaccuracy, half a place a blunder.
    "place": Measure("place", higher=False, inaccuracy=0.1, mistake=0.25, blunder=0.5),
    # Chance to avoid the loss: 5 points of percentage, 15, 30.
    "avoid_loss": Measure("avoid_loss", higher=True, inaccuracy=0.05, mistake=0.15, blunder=0.3),
    # Expected match total in Golf points: 1.5, 4, 8 points.
    "match_total": Measure("match_total", higher=False, inaccuracy=1.5, mistake=4.0, blunder=8.0),
}


def decision_rng(salt: Any, index: int, seat: int) -> str:
    """The seed text of one decision: public facts only (never a card, never the deal's seed)."""
    return f"coach|{salt}|{index}|{seat}"


def _stats(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the mean."""
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, math.sqrt(var / n)


def verdict(measure: Measure, loss: float, loss_se: float, choices: int) -> str:
    """The verdict for a loss (>= 0, in the measure's units) with its standard error."""
    if choices < 2:
        return FORCED
    if loss <= 1e-12 or loss <= NOISE_Z * loss_se:
        return FINE
    if loss >= measure.blunder:
        return BLUNDER
    if loss >= measure.mistake:
        return MISTAKE
    if loss >= measure.inaccuracy:
        return INACCURACY
    return FINE


def _summarise(
    measure: Measure, legal: list[str], played: str, samples: list[list[float]]
) -> dict[str, Any]:
    """Per-move values and the verdict from per-move sample lists (same deals, same order)."""
    stats = {move: _stats(xs) for move, xs in zip(legal, samples, strict=True)}
    sign = -1.0 if measure.higher else 1.0  # sign * value: lower is better

    def key(i: int) -> tuple[float, int]:
        return (sign * stats[legal[i]][0], 0 if legal[i] == played else 1)

    best_i = min(range(len(legal)), key=key)
    best = legal[best_i]
    played_i = legal.index(played)
    diffs = [
        sign * (p - b) for p, b in zip(samples[played_i], samples[best_i], strict=True)
    ]  # > 0: the played move did worse on that deal
    loss, loss_se = _stats(diffs) if best != played else (0.0, 0.0)
    loss = max(0.0, loss)
    return {
        "played": played,
        "best": best,
        "values": {m: [round(v, 4), round(se, 4)] for m, (v, se) in stats.items()},
        "loss": round(loss, 4),
        "loss_se": round(loss_se, 4),
        "verdict": verdict(measure, loss, loss_se, len(legal)),
        "samples": len(samples[0]),
    }


# ---------------------------------------------------------------------------
# Devyatka and Keft


def _devyatka(
    view: dict[str, Any],
    history: Sequence[tuple[int, str]],
    played: str,
    rng: random.Random,
    samples: int,
) -> dict[str, Any]:
    legal = list(view["legal"])
    know = Knowledge(view, history)
    me, n, keft = know.seat, know.players, know.keft
    measure = MEASURES["avoid_loss" if keft else "place"]
    bits = [1 << INDEX36[c] for c in legal]
    if sum(1 for c in know.counts if c) == 2:
        # Two hands left: the other one is every unseen card; solve it exactly.
        solved = solve(know.hand, know.unknown)
        if solved is not None:
            wins = solved[0]
            if keft:
                vals = [1.0 if wins.get(b) else 0.0 for b in bits]
            else:
                vals = [1.0 if wins.get(b) else 2.0 for b in bits]
            result = _summarise(measure, legal, played, [[v] for v in vals])
            result["exact"] = True
            return result
    per_move: list[list[float]] = [[] for _ in bits]
    for _ in range(samples):
        masks = know.sample(rng)
        fs = FastState(n, keft, tuple(masks), know.playable, me, know.passes, know.out)
        for j, b in enumerate(bits):
            end_masks, end_passes, _out = heuristic_playout(fast_apply(fs, b), rng, 0.0, True)
            if keft:
                per_move[j].append(0.0 if end_masks[me] else 1.0)
            else:
                per_move[j].append(float(classic_place(me, end_masks, end_passes, know.pass_rule)))
    return _summarise(measure, legal, played, per_move)


# ---------------------------------------------------------------------------
# Golf


def _golf_option(kind: int, pos: int, grid: Sequence[int]) -> tuple:
    """What a Golf move does, up to the grid's symmetries (G2, G7-G11).

    Only columns score, so exchanging two cards of a column, or two columns,
    changes nothing. A move at position ``pos`` is the same option as one at
    another position when a symmetry of the seat's public grid maps one to the
    other: the same card there (face-down counts as one kind) and the same
    other two cards in its column. Turning up any one of nine face-down cards
    is one option; so is a swap onto either of two face-down cards of a column.
    """
    if pos < 0:
        return (kind,)
    a, b, c = COLUMNS[COL_OF[pos]]
    others = sorted(grid[q] for q in (a, b, c) if q != pos)
    return (kind, grid[pos], *others)


def _golf_reveal_rest(sim: Round, seat: int) -> None:
    """The heuristic's rest of the reveal phase for ``seat``: up to two cards face up,
    the second in another column than the first (then ``ready``)."""
    grid = sim.pub[seat]
    while sum(1 for r in grid if r != U) < 2:
        down = [p for p in REVEAL_ORDER if grid[p] == U]
        seen = {COL_OF[p] for p in range(9) if grid[p] != U}
        pos = next((p for p in down if COL_OF[p] not in seen), down[0])
        grid[pos] = sim.true[seat][pos]


def _golf(
    view: dict[str, Any],
    history: Sequence[tuple[int, str]],
    played: str,
    rng: random.Random,
    samples: int,
) -> dict[str, Any]:
    legal = list(view["legal"])
    kn = GolfKnowledge(view)
    me = kn.me
    reveal = view["phase"] == "reveal"
    policy = Policy(kn.three, kn.ev, kn.dist)
    base_total = view["totals"][me] + GOLF_ROUND_MEAN * (view["rounds"] - view["round"])
    parsed = [parse_move(m) for m in legal]
    # One playout per option (see _golf_option); moves of the same option share its samples.
    options: dict[tuple, int] = {}
    option_of = [
        options.setdefault(_golf_option(k, p, kn.grids[me]), j) for j, (k, p) in enumerate(parsed)
    ]
    per_option: dict[int, list[float]] = {j: [] for j in options.values()}
    for i in range(samples):
        seed = rng.random()
        base = determinise(kn, view, random.Random(seed))
        for j, values in per_option.items():
            kind, pos = parsed[j]
            sim = base.copy()
            play_rng = random.Random(f"{seed}|{i}")  # the same for every move (common numbers)
            if reveal:
                # G3/G13: this seat's flip or ready, then everyone still turning up
                # finishes as the heuristic does; play starts left of the dealer (G4).
                if kind == FLIP:
                    sim.pub[me][pos] = sim.true[me][pos]
                for seat in range(kn.n):
                    if not view["ready"][seat] and (seat != me or kind == FLIP):
                        _golf_reveal_rest(sim, seat)
                sim.to_move = (view["dealer"] + 1) % kn.n
                scores = sim.playout(policy, play_rng)
            elif sim.step(kind, pos, play_rng):
                scores = sim.scores()
            else:
                scores = sim.playout(policy, play_rng)
            values.append(base_total + scores[me])
    per_move = [per_option[j] for j in option_of]
    return _summarise(MEASURES["match_total"], legal, played, per_move)


def _prepared(
    view: dict[str, Any], played: str, salt: Any, index: int, samples: int
) -> tuple[random.Random, int]:
    """The decision's generator and sample count, once ``played`` is known to be legal.

    ``index``: the decision's position in the game (its move number), which
    with the public ``salt`` (the game's id on the site) and the seat seeds the
    sampling.
    """
    legal = list(view.get("legal") or ())
    if played not in legal:
        raise ValueError(f"{played!r} is not one of the seat's legal moves.")
    return random.Random(decision_rng(salt, index, view["seat"])), max(1, int(samples))


# A game's entry declares its judge (games.registry: Engine.judge); each takes
# (view, history, played, salt, index, samples) and returns a dict:
# ``played``, ``best``, ``values`` ({move: [value, standard error]}), ``loss``,
# ``loss_se``, ``verdict``, ``samples`` (and ``exact`` when solved).


def judge_devyatka(
    view: dict[str, Any],
    history: Sequence[tuple[int, str]],
    played: str,
    salt: Any,
    index: int,
    samples: int,
) -> dict[str, Any]:
    """Judge a Devyatka or Keft move ``played`` by the seat whose ``view`` this is."""
    rng, samples = _prepared(view, played, salt, index, samples)
    return _devyatka(view, history, played, rng, samples)


def judge_golf(
    view: dict[str, Any],
    history: Sequence[tuple[int, str]],
    played: str,
    salt: Any,
    index: int,
    samples: int,
) -> dict[str, Any]:
    """Judge a Golf move ``played`` by the seat whose ``view`` this is."""
    rng, samples = _prepared(view, played, salt, index, samples)
    return _golf(view, history, played, rng, samples)


__all__ = [
    "BLUNDER",
    "FINE",
    "FLAGGED",
    "FORCED",
    "INACCURACY",
    "MEASURES",
    "MISTAKE",
    "Measure",
    "VERDICTS",
    "judge_devyatka",
    "judge_golf",
    "verdict",
]
