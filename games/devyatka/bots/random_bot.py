"""Level ``random``: any legal card, from a seeded random generator."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import Bot


class RandomBot(Bot):
    """Plays a uniformly random legal card (deterministic given the seed)."""

    level = "random"

    def decide(
        self, view: dict[str, Any], history: Sequence[tuple[int, str]], legal: list[str]
    ) -> str:
        return legal[int(self.rng_for(view, history).random() * len(legal))]
