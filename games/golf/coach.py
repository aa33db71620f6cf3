"""The coach's judge of a Golf decision (games.engine.coach: the shared part).

The hidden cards are dealt as the house bots deal them
(:func:`.bots.search.determinise`), each legal move is played on every deal
and the round is finished by the heuristic policy. Moves that are the same
option up to the grid's symmetries (turning up one face-down card or another,
:func:`_golf_option`) share one set of playouts, so they get the same value
and are never told apart by noise. The opening flips (G3/G13, played by every
seat at once) are judged like any move: the seat's flip or ``ready``, then
the heuristic finishes everyone's reveal (two cards, in two columns) and
plays the round.

Measure: ``match_total``, the expected match total (lower is better): the
total so far, plus this round's expected score with the move, plus
:data:`GOLF_ROUND_MEAN` for each round still to come (the same for every
move: later rounds are dealt afresh).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.engine.coach import Measure, prepared, summarise

from .bots.core import COL_OF, COLUMNS, FLIP, REVEAL_ORDER, Policy, Round, U, parse_move
from .bots.core import Knowledge as GolfKnowledge
from .bots.search import determinise

#: The expected score of one Golf round still to be dealt, for the match
#: total only (it is the same for every move, so it never changes a verdict):
#: about what the heuristic bots score a round at 2-4 seats.
GOLF_ROUND_MEAN = 18.0

# Expected match total in Golf points: 1.5, 4, 8 points; shown with one decimal.
MATCH_TOTAL = Measure(
    "match_total", higher=False, inaccuracy=1.5, mistake=4.0, blunder=8.0, digits=1
)
# The words for people (the label) are the entry's (games/golf/entry.py).
MEASURES = (MATCH_TOTAL,)


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
    return summarise(MATCH_TOTAL, legal, played, per_move)


def judge_golf(
    view: dict[str, Any],
    history: Sequence[tuple[int, str]],
    played: str,
    salt: Any,
    index: int,
    samples: int,
) -> dict[str, Any]:
    """Judge a Golf move ``played`` by the seat whose ``view`` this is."""
    rng, samples = prepared(view, played, salt, index, samples)
    return _golf(view, history, played, rng, samples)
