"""A new game needs no migration, and its entry passes the system check (issue 38).

`make test` runs `manage.py makemigrations --check --dry-run` for the shipped
games; this runs it in one `manage.py` process with the throwaway game
(tests/throwaway/) registered the way its tests register it, by the
EXTRA_GAMES setting alone. makemigrations runs every system check first, the
registry entries' included (games/checks.py), so one process proves both:
no model changes (the choices of the game, scoring and family fields are
read from the registry, not frozen into a migration), and a clean check.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The outcome does not depend on the pass's database: its own SQLite file.
pytestmark = pytest.mark.once


def test_makemigrations_finds_nothing_with_the_throwaway_game_installed(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "EXTRA_GAMES": "tests.throwaway.highcard.ENGINE",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "PYTHONWARNINGS": "ignore",
    }
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "makemigrations", "--check", "--dry-run"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "No changes detected", done.stdout
    assert "System check identified" not in done.stdout + done.stderr  # not even a warning
