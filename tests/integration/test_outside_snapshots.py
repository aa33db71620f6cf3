"""Nothing changes outside when variant options and results become data (issue 23).

tests/data/outside_snapshot.json was written by the code from before that
change (`SNAPSHOT_WRITE=1` runs this test in write mode) on the fixture of
tests/support/snapshots.py: standings numbers, standings CSVs, replay.json and
record.json of every game. The code of today must answer the same.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support import snapshots

SNAPSHOT = Path(__file__).resolve().parent.parent / "data" / "outside_snapshot.json"

# Nineteen games through the services, one a nine-round Golf match: minutes on a
# busy machine, so a wider guard than the suite's 300 s.
pytestmark = [pytest.mark.django_db, pytest.mark.timeout(900)]


def test_standings_csv_replays_and_records_match_the_snapshot_from_before():
    now = snapshots.outside(snapshots.build())
    if os.environ.get("SNAPSHOT_WRITE"):
        SNAPSHOT.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
    before = json.loads(SNAPSHOT.read_text())
    assert now["series"] == before["series"]
    assert len(now["games"]) == len(before["games"])
    for game_now, game_before in zip(now["games"], before["games"], strict=True):
        assert game_now == game_before, f"game with seed {game_now['seed']} differs"
