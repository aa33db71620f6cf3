"""The common bot interface: ``choose(view, history) -> card``."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


class Bot:
    """Base class of the house bots.

    ``choose(view, history)`` gets exactly what one seat may know: its
    ``devyatka.view(state, seat)`` and the public history, a list of
    ``(seat, move)`` from the start of the game (``move`` a card code or
    ``"pass"``). It returns one of ``view["legal"]``.

    Every decision draws from its own generator seeded by the bot's seed and
    the decision point (seat, history length, own hand), so a decision is a
    pure function of ``(seed, view, history)``: the same question asked twice
    (e.g. by a runner that restarted) gets the same answer, whatever was asked
    before. With ``seed=None`` the generator is seeded from the OS.
    """

    level = "base"

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed

    def rng_for(self, view: dict[str, Any], history: Sequence[tuple[int, str]]) -> random.Random:
        if self.seed is None:
            return random.Random()
        hand = ",".join(view.get("hand") or ())
        return random.Random(f"{self.level}|{self.seed}|{view.get('seat')}|{len(history)}|{hand}")

    def choose(self, view: dict[str, Any], history: Sequence[tuple[int, str]] = ()) -> str:
        """The card to play; one of ``view["legal"]`` (ValueError if there is none)."""
        legal = list(view.get("legal") or ())
        if not legal:
            raise ValueError("No legal card: it is not this seat's turn or the game is over.")
        if len(legal) == 1:
            return legal[0]
        return self.decide(view, history, legal)

    def decide(
        self, view: dict[str, Any], history: Sequence[tuple[int, str]], legal: list[str]
    ) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"
