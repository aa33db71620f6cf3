"""A finished game's decisions and their judgements: pure, no Django.

:func:`decisions` walks a game from its first state through its logged moves
with the game's engine (games.registry) and lists every move a judged seat
chose, those made while every seat plays at once included (an opening where
everyone turns cards up): not the moves the rules made by themselves (a pass), not
the moves the house made for the seat (``auto``). Each decision carries only what that seat knew then: its view
(``engine.view(state, seat)``, never the state) and the public history.
:func:`judge` hands one decision to the game's coach
(games/engine/coach.py and each game's coach.py). Nothing here reads a hidden card, which the
honesty tests check by swapping hidden cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.registry import Engine


@dataclass(frozen=True)
class Decision:
    index: int  # the move's number in the log (the decision's public position)
    step: int  # the replay step the move makes (its position is step - 1)
    seat: int
    view: dict
    history: tuple[tuple[int, str | None], ...]  # as the seat knew it (`seen_by`)
    played: str


def decisions(
    engine: Engine, state: Any, rows: Sequence[tuple[int, int, str, bool]], seats: Iterable[int]
) -> list[Decision]:
    """The judged seats' own decisions in a game, from its first state and its move rows.

    ``rows``: the logged moves in order as ``(number, seat, move, auto)``,
    the automatic moves (those a chosen move caused) included. Raises the
    engine's IllegalMove or ValueError if the log does not replay.
    """
    judged = set(seats)
    out: list[Decision] = []
    history: list[tuple[int, str]] = []
    i = 0
    step = 0
    while i < len(rows):
        number, seat, move, auto = rows[i]
        step += 1
        if seat in judged and not auto:
            view = engine.view(state, seat)
            out.append(
                Decision(number, step, seat, view, seen_by(engine, state, seat, history), move)
            )
        state, actions = engine.apply(state, seat, move)
        history.extend((s, m) for s, m in actions)
        i += max(1, len(actions))
    return out


def seen_by(
    engine: Engine, state: Any, seat: int, history: Sequence[tuple[int, str]]
) -> tuple[tuple[int, str | None], ...]:
    """The history as ``seat`` knew it then: a move the rules keep face down from it (a
    pick made while it still chooses, the entry's ``hidden_moves``) is ``None``."""
    hidden = engine.hidden_entries(state, seat, [mover for mover, _move in history])
    return tuple((mover, None if i in hidden else move) for i, (mover, move) in enumerate(history))


def judge(engine: Engine, decision: Decision, salt: Any, samples: int) -> dict | None:
    """The coach's judgement of one decision (None: not judged), with where it was made.

    ``salt`` seeds the coach's sampling with the decision's index and seat: a public
    fact (the site passes the game's id), never the seed that dealt the game.
    """
    if engine.judge is None:
        return None
    got = engine.judge(
        decision.view, list(decision.history), decision.played, salt, decision.index, samples
    )
    if got is None:
        return None
    return {"n": decision.index, "step": decision.step, "seat": decision.seat, **got}
