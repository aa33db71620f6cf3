"""The engine contract's name for Golf's engine (DESIGN.md): `from games.engine
import golf` gives games/golf/engine.py itself, the same module object."""

import sys

from games.golf import engine

sys.modules[__name__] = engine
