"""The engine contract's name for Devyatka's engine (DESIGN.md): `from games.engine
import devyatka` gives games/devyatka/engine.py itself, the same module object."""

import sys

from games.devyatka import engine

sys.modules[__name__] = engine
