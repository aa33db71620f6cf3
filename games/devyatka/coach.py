"""The coach's judge of a Devyatka or Keft decision (games.engine.coach: the shared part).

The hidden hands are dealt as the house bots deal them
(:meth:`.bots.knowledge.Knowledge.sample`, which honours every count and
every pass inference: the history's passes tell which cards a seat did not
hold), each legal card is played on every deal and the game is finished by
heuristic playouts. When only two hands hold cards the position is one of
perfect information for the seat (the other hand is every unseen card) and
:func:`.bots.endgame.solve` gives the exact values (standard error 0).

Measures: ``place``, the expected final place (classic; lower is better), and
``avoid_loss``, the chance not to be Keft's single loser (higher is better).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.engine.cards import INDEX36
from games.engine.coach import Measure, prepared, summarise

from .bots.endgame import solve
from .bots.knowledge import Knowledge
from .bots.search import classic_place, heuristic_playout
from .engine import FastState, fast_apply

# Expected final place: a tenth of a place is an inaccuracy, half a place a blunder.
PLACE = Measure("place", higher=False, inaccuracy=0.1, mistake=0.25, blunder=0.5)
# Chance to avoid the loss: 5 points of percentage, 15, 30; shown as a whole percentage.
AVOID_LOSS = Measure(
    "avoid_loss",
    higher=True,
    inaccuracy=0.05,
    mistake=0.15,
    blunder=0.3,
    unit="percent",
    digits=0,
)
# The words for people (the label) are the entry's (games/devyatka/entry.py).
MEASURES = (PLACE, AVOID_LOSS)


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
    measure = AVOID_LOSS if keft else PLACE
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
            result = summarise(measure, legal, played, [[v] for v in vals])
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
    return summarise(measure, legal, played, per_move)


def judge_devyatka(
    view: dict[str, Any],
    history: Sequence[tuple[int, str]],
    played: str,
    salt: Any,
    index: int,
    samples: int,
) -> dict[str, Any]:
    """Judge a Devyatka or Keft move ``played`` by the seat whose ``view`` this is."""
    rng, samples = prepared(view, played, salt, index, samples)
    return _devyatka(view, history, played, rng, samples)
