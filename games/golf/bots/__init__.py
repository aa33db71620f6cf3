"""House bots for nine-card Golf (RULES.md section 3). Pure Python, no Django.

The one entry point the site calls::

    from games.golf.bots import choose

    move = choose(level, view, history, seed, budget_ms=200)

* ``level``: ``"random"``, ``"heuristic"`` or ``"search"`` (:data:`LEVELS`);
  anything else raises ValueError.
* ``view``: ``golf.view(state, seat)`` for the acting seat -- the only
  position information a bot gets (it never sees the state).
* ``history``: the public ``(seat, move)`` pairs of the match so far. The
  bots use it only to seed each decision (its length) and to count their
  own turns in the current round (:data:`STALL_TURNS`); everything they
  reason about is in the view.
* ``seed``: makes every decision reproducible: a decision draws from a
  generator seeded by (level, seed, seat, history length, round, phase),
  so the same question gets the same answer.
* ``budget_ms``: wall-time cap per decision for ``search`` (default 200);
  the other levels answer in well under a millisecond.

Returns one of ``view["legal"]``; ValueError if the list is empty. The
reveal phase (G3/G13) is played by every seat at once: ask whenever the
seat has legal moves; each level turns up at most two cards (``flip N``)
and then says ``ready``.

Levels:

* ``random``: uniform over the legal moves.
* ``heuristic`` (:class:`.core.Policy`): reveal phase, turn up two cards in
  different columns, then ``ready``. In play, face-down cards count at the
  mean value of the ranks the seat has not seen; a card goes where it saves
  the most expected points (column matches included), a card turned up is
  worth a little tempo, the discard is taken when it beats the expected
  value of a drawn card, and going out (turning up the ninth card) is
  weighed against the estimated risk of the G9 penalty (after
  :data:`STALL_TURNS` turns of its own in a round it goes out anyway, so
  bots cannot stall a round forever).
* ``search`` (:mod:`.search`): determinised sampling of the hidden cards
  consistent with the view, heuristic playouts of the rest of the round
  for the best few moves, the best mean round score relative to the
  others. ``search_move(view, rng, budget_ms, samples=...)`` exposes the
  count-based setting and the sample counts (the benchmark and tests use it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .core import Knowledge, Policy, move_str, reveal_move
from .search import DEFAULT_SAMPLES, DEFAULT_WIDTH, search_move

LEVELS = ("random", "heuristic", "search")
DEFAULT_BUDGET_MS = 200

__all__ = [
    "DEFAULT_BUDGET_MS",
    "DEFAULT_SAMPLES",
    "DEFAULT_WIDTH",
    "LEVELS",
    "STALL_TURNS",
    "choose",
    "decision_rng",
    "heuristic_move",
    "search_move",
]


def decision_rng(level: str, view: dict[str, Any], history: Sequence, seed: Any) -> random.Random:
    """The generator of one decision: a pure function of what the seat knows."""
    key = (
        f"golf|{level}|{seed}|{view.get('seat')}|{len(history)}|{view.get('round')}|"
        f"{view.get('phase')}|{view.get('drawn')}"
    )
    return random.Random(key)


#: After this many turns of its own in one round a seat stops fearing the G9
#: penalty, so bots that all avoid going out cannot stall a round forever.
STALL_TURNS = 40


def turns_this_round(view: dict[str, Any], history: Sequence[Sequence[Any]]) -> int:
    """How many turns the view's seat has had in the current round (from the history)."""
    seat = view.get("seat")
    turns = 0
    for s, move in reversed(history):
        if move == "ready":
            break
        if s == seat and move != "draw":
            turns += 1
    return turns


def heuristic_move(view: dict[str, Any], history: Sequence[Sequence[Any]] = ()) -> str:
    """The heuristic bot's move (deterministic: no randomness needed)."""
    legal = list(view["legal"])
    kn = Knowledge(view)
    if view["phase"] != "turn":
        return reveal_move(kn.grids[kn.me], legal)
    policy = Policy(kn.three, kn.ev, kn.dist)
    if turns_this_round(view, history) >= STALL_TURNS:
        policy.penalty = 0
    others = [kn.grids[o] for o in range(kn.n) if o != kn.me]
    kind, pos = policy.choose(kn.grids[kn.me], kn.top, kn.drawn, kn.final_turn, others)
    move = move_str(kind, pos)
    return move if move in legal else legal[0]


def choose(
    level: str,
    view: dict[str, Any],
    history: Sequence[Sequence[Any]] = (),
    seed: int | str | None = 0,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
    **options: Any,
) -> str:
    """One move for the seat whose ``view`` this is; see the module docstring.

    Extra keyword ``options`` go to :func:`.search.search_move` (``samples``,
    ``width``, ``last_weight``) for level ``search``.
    """
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; choose from {list(LEVELS)}.")
    legal = list(view.get("legal") or ())
    if not legal:
        raise ValueError("This seat has no move to make.")
    if len(legal) == 1:
        return legal[0]
    if level == "random":
        rng = decision_rng(level, view, history, seed)
        return legal[int(rng.random() * len(legal))]
    if level == "heuristic" or view["phase"] != "turn":
        return heuristic_move(view, history)
    rng = decision_rng(level, view, history, seed)
    if turns_this_round(view, history) >= STALL_TURNS:
        return heuristic_move(view, history)
    move, _ = search_move(view, rng, budget_ms, **options)
    return move
