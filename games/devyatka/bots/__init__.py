"""House bots for Devyatka and Keft. Pure Python, no Django.

Usage (what the site's background runner calls)::

    from games.devyatka.bots import get_bot

    bot = get_bot("search", seed=123, budget_ms=200)
    card = bot.choose(view, history)   # view = devyatka.view(state, seat)

``history`` is the public move list from the start of the game, ``(seat,
move)`` with ``move`` a card code or ``"pass"`` -- the actions returned by
:func:`games.engine.devyatka.apply`, concatenated. A bot sees nothing else:
no other hand ever reaches it. With one legal card it answers at once.

Levels (``BOTS``): ``random`` (any legal card), ``heuristic`` (the rule
sheets' tips, well under a millisecond a move) and ``search`` (hidden hands
sampled consistently with the view and the history, each legal card scored
by heuristic playouts; ``budget_ms`` per move, 200 by default, which makes
it time-dependent; pass ``playouts=N, budget_ms=None`` for a count-based
budget that is reproducible given the seed). All are deterministic given
the seed: each decision draws from a generator seeded by (seed, seat,
history length, hand). Shared pieces: :mod:`.knowledge` (what a seat knows,
the determinisation sampler), :mod:`.endgame` (exact two-hand play).
"""

from __future__ import annotations

from typing import Any

from .base import Bot
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .search import SearchBot

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}

__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "SearchBot", "get_bot"]


def get_bot(level: str, seed: int | str | None = None, **options: Any) -> Bot:
    """A bot of ``level`` (``"random"``, ``"heuristic"`` or ``"search"``).

    ``seed`` makes its choices reproducible; extra keyword options go to the
    bot (``search``: ``budget_ms``, ``playouts``). Unknown level: ValueError.
    """
    try:
        cls = BOTS[level]
    except KeyError:
        raise ValueError(f"Unknown bot level {level!r}; choose from {sorted(BOTS)}.") from None
    return cls(seed=seed, **options)
