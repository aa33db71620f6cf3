"""The coach: judge one decision of one seat from that seat's information set.

Pure Python, no Django, deterministic by its public salt. The site's analysis
(analysis/services.py) walks a finished game and asks the game's judge (each
game's coach.py, games/<game>/coach.py; the entry declares it) about every
move a member chose. A judge never sees the game's state, only what the seat
saw when it chose:

* ``view``: the engine's ``view(state, seat)`` at that moment (its own
  cards, the table, counts, what was turned up -- never another hand);
* ``history``: the public ``(seat, move)`` list before the decision.

A judge deals the hidden cards at random for each legal move, consistently
with all of that (its game's house-bot determinisation), plays the move on
every deal and finishes the game with a heuristic policy for every seat. All
moves share the same deals (common random numbers), so the difference between
two moves is measured far more precisely than either value.

This module is what every judge shares: the value of a move is in a
:class:`Measure` the game declares (its entry's ``measures``); the verdict
compares the move played with the best one by the *loss* (how much worse the
played move's value is, in the measure's units) and the standard error of
that loss (from the paired differences over the deals):

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
dealt it.

A judge takes (view, history, played, salt, index, samples) and returns a
dict: ``played``, ``best``, ``values`` ({move: [value, standard error]}),
``loss``, ``loss_se``, ``verdict``, ``samples`` (and ``exact`` when solved).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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


#: How a measure's values are written (:attr:`Measure.unit`): a plain number in the
#: game's own units (places, points), or a chance from 0 to 1 shown as a percentage.
UNITS = ("number", "percent")


@dataclass(frozen=True)
class Measure:
    """How a game's outcome is judged: the value's meaning and the verdict thresholds.

    ``key`` names it (stored with an analysis: at most 20 characters).
    ``higher``: higher values are better. Thresholds are losses in the
    measure's units (places, probability, points) from which a significant
    loss is an inaccuracy, a mistake, a blunder.

    How people see it (the analysis chart and table, static/js/analysis.js),
    declared with the game's entry (the engine knows no language): ``label``
    (words for people, a lazy translation: the chart's title), ``unit`` (one
    of :data:`UNITS`: a "percent" measure is a chance from 0 to 1, its chart's
    axis spans 0 to 100%) and ``digits``, the decimals shown (of the
    percentage for a "percent" measure).
    """

    key: str
    higher: bool
    inaccuracy: float
    mistake: float
    blunder: float
    label: Any = ""
    unit: str = "number"
    digits: int = 2

    @property
    def better(self) -> str:
        """ "higher" or "lower": which values are better."""
        return "higher" if self.higher else "lower"


def decision_rng(salt: Any, index: int, seat: int) -> str:
    """The seed text of one decision: public facts only (never a card, never the deal's seed)."""
    return f"coach|{salt}|{index}|{seat}"


def mean_and_error(xs: Sequence[float]) -> tuple[float, float]:
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


def summarise(
    measure: Measure, legal: list[str], played: str, samples: list[list[float]]
) -> dict[str, Any]:
    """Per-move values and the verdict from per-move sample lists (same deals, same order)."""
    stats = {move: mean_and_error(xs) for move, xs in zip(legal, samples, strict=True)}
    sign = -1.0 if measure.higher else 1.0  # sign * value: lower is better

    def key(i: int) -> tuple[float, int]:
        return (sign * stats[legal[i]][0], 0 if legal[i] == played else 1)

    best_i = min(range(len(legal)), key=key)
    best = legal[best_i]
    played_i = legal.index(played)
    diffs = [
        sign * (p - b) for p, b in zip(samples[played_i], samples[best_i], strict=True)
    ]  # > 0: the played move did worse on that deal
    loss, loss_se = mean_and_error(diffs) if best != played else (0.0, 0.0)
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


def prepared(
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


__all__ = [
    "BLUNDER",
    "FINE",
    "FLAGGED",
    "FORCED",
    "INACCURACY",
    "MISTAKE",
    "Measure",
    "UNITS",
    "VERDICTS",
    "decision_rng",
    "prepared",
    "mean_and_error",
    "summarise",
    "verdict",
]
