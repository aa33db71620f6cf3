"""`make audit`: Lighthouse 12.2.3 on every kind of page of the demo club, desktop and phone.

Builds the demo club (`demo_data`) in a site of its own (SQLite, one daphne
process, the production static path: collected, hashed, compressed files),
signs Anna in for the pages that need a member, and runs Lighthouse from
var/audit/ (`make audit` installs it there with npm; var/ is git-ignored)
with Debian's Chromium. Prints one line per page and form factor: the four
category scores, Cumulative Layout Shift and Total Blocking Time, and keeps
each report's JSON in var/audit/reports/.

    .venv/bin/python tests/bench/audit.py [--only NAME ...] [--form desktop|mobile]

Lighthouse's phone run simulates a mid-range phone (4x CPU slowdown): on a
shared, busy machine its Total Blocking Time is inflated, since it is read
from the wall-clock length of the page's main-thread tasks, and another
process's turn on the CPU counts as the page's. So the script also prints
"CPU TBT": the same sum over the main thread's tasks after the first
contentful paint, max(0, k x CPU time - 50 ms) with k the slowdown Lighthouse
simulates (1 desktop, 4 phone), from each task's thread CPU time in the
trace Lighthouse recorded: what the page itself costs, whatever else the
machine runs. And Lighthouse's own benchmark index of the machine at the time
(higher is faster; a quiet run here gives ~1,000-1,500). Compare figures
taken in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.support.server import DaphneServer, SiteDatabase  # noqa: E402
from tests.support.tables import run_django  # noqa: E402

LIGHTHOUSE = ROOT / "var" / "audit" / "node_modules" / ".bin" / "lighthouse"
REPORTS = ROOT / "var" / "audit" / "reports"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# As the machine's notes say: without the background-networking flags Chromium
# keeps trying hosts this closed network refuses.
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-quic "
    "--no-first-run --disable-background-networking --disable-component-update --disable-sync"
)
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]

SETUP = """
from club.models import Player
from games import services
from tools import synthetic
from games.models import Game, Table, Variant

anna = Player.objects.get(display_name="Anna")
golf, _ = services.quick_game(anna, Variant.objects.get(name="Golf"))
mine = Table.objects.playing().filter(created_by=anna, variant__game="devyatka").first()
def finished(slug):
    return Game.objects.filter(table__series__slug=slug, finished__isnull=False).latest("finished").pk
emit({
    "session": synthetic.session_for(anna.user),
    "anna": anna.pk,
    "devyatka_table": mine.pk,
    "golf_table": golf.pk,
    "devyatka_game": finished("winter-nines"),
    "golf_game": finished("golf-ladder"),
})
"""


def pages(ids: dict) -> list[tuple[str, str, bool]]:
    """(name, path, signed in as Anna)."""
    return [
        ("front", "/", False),
        ("home", "/", True),
        ("lobby", "/tables/", True),
        ("notification-settings", "/notifications/settings/", True),
        ("series-list", "/series/", False),
        ("series", "/series/winter-nines/", False),
        ("ratings", "/ratings/", False),
        ("player", f"/players/{ids['anna']}/", False),
        ("rules", "/rules/", False),
        ("sign-in", "/accounts/login/", False),
        ("game-devyatka", f"/games/{ids['devyatka_game']}/", False),
        ("game-golf", f"/games/{ids['golf_game']}/", False),
        ("table-devyatka", f"/tables/{ids['devyatka_table']}/", True),
        ("table-golf", f"/tables/{ids['golf_table']}/", True),
    ]


def lighthouse(url: str, form: str, cookie: str | None, out: Path) -> dict:
    command = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        "--save-assets",  # the trace, for the CPU time of each task
        f"--chrome-flags={CHROME_FLAGS}",
        f"--only-categories={','.join(CATEGORIES)}",
    ]
    if form == "desktop":
        command.append("--preset=desktop")
    if cookie:
        command.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
    for _attempt in range(3):
        # A busy machine sometimes loses the trace (NO_NAVSTART): run that page again.
        done = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM})
        if done.returncode == 0:
            break
    else:
        raise RuntimeError(f"Lighthouse failed three times on {url}")
    report = json.loads(out.read_text())
    audits = report["audits"]
    trace = out.with_name(out.stem + "-0.trace.json")
    return {
        "cpu_tbt": cpu_blocking_time(trace, 4 if form == "mobile" else 1),
        "benchmark": report["environment"]["benchmarkIndex"],
        **{c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES},
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "tbt": audits["total-blocking-time"]["numericValue"],
        "lcp": audits["largest-contentful-paint"]["numericValue"],
        "failed": sorted(
            key
            for c in ("accessibility", "seo")
            for ref in report["categories"][c]["auditRefs"]
            if ref["weight"] and (audits[(key := ref["id"])]["score"] or 0) < 1
        ),
    }


def cpu_blocking_time(trace: Path, slowdown: int) -> float:
    """Total Blocking Time from the tasks' CPU time (see the module's docstring), in ms.

    The page's main thread is the one that painted its first content; its
    top-level tasks that end after that paint count, each for what exceeds
    50 ms once its CPU time is multiplied by the simulated slowdown.
    """
    events = json.loads(trace.read_text())["traceEvents"]
    fcp = next(e for e in events if e["name"] == "firstContentfulPaint")
    thread = (fcp["pid"], fcp["tid"])
    blocking = 0.0
    for e in events:
        if e["name"] != "RunTask" or e.get("ph") != "X" or (e["pid"], e["tid"]) != thread:
            continue
        if e["ts"] + e.get("dur", 0) <= fcp["ts"] or "tdur" not in e:
            continue
        blocking += max(0.0, slowdown * e["tdur"] / 1000 - 50)
    return blocking


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="page names to audit (default: all)")
    parser.add_argument("--form", choices=["desktop", "mobile"], action="append")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit(f"no Lighthouse at {LIGHTHOUSE}: run `make audit` (it installs it with npm)")
    REPORTS.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="club-audit-"))
    database = SiteDatabase(tmp)
    database.create()
    database.manage("demo_data")
    server = DaphneServer(database, tmp).start()
    try:
        ids = run_django(database, SETUP)
        cookie = f"sessionid={ids['session']}"
        print(
            f"{'page':16} {'form':8} perf a11y  bp  seo   CLS     TBT ms  CPU TBT  LCP ms"
            "  bench  failing"
        )
        for name, path, signed_in in pages(ids):
            if args.only and name not in args.only:
                continue
            for form in args.form or ["desktop", "mobile"]:
                out = REPORTS / f"{name}-{form}.json"
                try:
                    r = lighthouse(server.url + path, form, cookie if signed_in else None, out)
                except RuntimeError as exc:
                    print(f"{name:16} {form:8} {exc}", flush=True)
                    continue
                print(
                    f"{name:16} {form:8} {r['performance']:4} {r['accessibility']:4} "
                    f"{r['best-practices']:4} {r['seo']:4} {r['cls']:6.3f} {r['tbt']:8.0f} "
                    f"{r['cpu_tbt']:8.0f} {r['lcp']:7.0f} {r['benchmark']:6.0f}"
                    f"  {' '.join(r['failed'])}",
                    flush=True,
                )
    finally:
        server.stop()
        database.drop()


if __name__ == "__main__":
    main()
