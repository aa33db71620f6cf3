"""Pure-Python game engines. Nothing below this package imports Django.

Each engine module (``devyatka``, later ``golf``) is a set of pure functions
over an immutable, JSON-serialisable state; see ``DESIGN.md`` ("The engine
contract"). ``ENGINES`` maps a variant's game name to its engine module and
is built on first use, so importing ``games.engine.cards`` stays cheap.
"""

from __future__ import annotations

from types import ModuleType


def __getattr__(name: str) -> dict[str, ModuleType]:
    if name == "ENGINES":
        from . import devyatka

        # Golf joins once it has the full engine shape (deal, play, view, ...).
        return {"devyatka": devyatka}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
