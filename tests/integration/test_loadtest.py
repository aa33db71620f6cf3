"""The load tool (`python -m tools.loadtest`) against a real daphne process: it plays, reports, and cleans up.

A smoke test of the tool (docs/PERFORMANCE.md), not a benchmark: it asserts
nothing about speed, only that moves were made and seen by every seat
without errors, and that the synthetic players and tables are gone after.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.server import DaphneServer, SiteDatabase
from tests.support.tables import run_django

pytestmark = [pytest.mark.server, pytest.mark.timeout(180)]


@pytest.mark.parametrize("variant", ["Devyatka", "Golf"])
def test_loadtest_plays_reports_and_cleans_up(database: SiteDatabase, tmp_path: Path, variant: str):
    server = DaphneServer(database, tmp_path).start()
    report_path = tmp_path / "report.json"
    try:
        output = database.loadtest(
            "--url",
            server.url,
            "--tables",
            "3",
            "--seats",
            "3",
            "--variant",
            variant,
            "--think",
            "0.05",
            "--duration",
            "4",
            "--timeout",
            "30",
            "--server-pid",
            str(server.process.pid),
            "--json",
            str(report_path),
        )
    finally:
        server.stop()
    report = json.loads(report_path.read_text())
    assert report["moves"] > 0, output
    assert report["errors"] == {}, output
    assert report["broken_tables"] == 0
    assert report["latency_ms"]["p50"] > 0
    # The HTTP prober's page views and table posts all answered as for a browser.
    http = report["http_ms"]
    assert http["failures"] == {}, output
    for kind in ("page", "join", "leave", "bot_add", "bot_remove"):
        assert http[kind]["n"] > 0 and http[kind]["p50"] > 0, (kind, output)
    assert "moves" in output and "latency" in output
    left = run_django(
        database,
        "from django.contrib.auth import get_user_model\n"
        "from games.models import Table\n"
        "emit([get_user_model().objects.filter(username__startswith='load-').count(),\n"
        "      Table.objects.count()])\n",
    )
    assert left == [0, 0]


def test_loadtest_rematches_over_the_socket(database: SiteDatabase, tmp_path: Path):
    """`--again socket`: finished games are dealt again through the table socket's `again` frame."""
    server = DaphneServer(database, tmp_path).start()
    report_path = tmp_path / "report.json"
    try:
        output = database.loadtest(
            "--url", server.url, "--tables", "2", "--seats", "2",
            "--think", "0.15", "--duration", "12", "--timeout", "30", "--again", "socket",
            "--probe-interval", "0", "--json", str(report_path),
        )  # fmt: skip
    finally:
        server.stop()
    report = json.loads(report_path.read_text())
    assert report["errors"] == {}, output
    assert report["deals"] > 0, output
    assert report["again_via"] == "socket"
    assert "again" not in report["http_ms"]  # no form post was needed
