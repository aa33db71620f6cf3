"""What a live table page spends on each frame: a whole Golf match watched in Chromium.

Four seats played by the house (three bots and the seat of a member who left
at the deal) through a nine-round Golf match on one daphne process; a second member
watches the table page in Debian's Chromium (desktop size, the move log open)
while the browser records a performance trace from the deal to the end. The
page's main thread's CPU time (each task's thread time in the trace, so the
figure holds on a busy machine) is summed over the match and divided by the
frames the page drew; its longest task, and the last quarter of the frames
(where the move log is long): its share of the CPU, are printed too. `--tree` runs another
checkout (e.g. a worktree of main) in the same run, alternating, so a change
is compared with its baseline under the same load.

    .venv/bin/python tests/bench/bench_table_frames.py [--rounds 2] [--tree PATH ...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.support import server as support  # noqa: E402
from tests.support.server import DaphneServer, SiteDatabase  # noqa: E402
from tests.support.tables import run_django  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
# The house moves every BOT_DELAY seconds: fast enough for a match in about a
# minute, slow enough that every update is its own frame.
ENV = {"BOT_DELAY_SECONDS": "0.08"}

OPEN = """
from games import services
from tools import synthetic
from games.models import Variant
from club.models import Player
prefix = synthetic.new_prefix('frames')
host, watcher = synthetic.make_players(prefix, 2)
player = Player.objects.get(pk=host.player_id)
table, _ = services.create_table(player, Variant.objects.get(name='Golf'), 4)
services.add_bot(player, table.pk, 'heuristic')
services.add_bot(player, table.pk, 'random')
emit({'table': table.pk, 'host': host.player_id, 'watcher': watcher.session_key})
"""

# The last bot starts the match; the host then leaves it, so the house plays that seat too.
START = """
from games import services
from club.models import Player
host = Player.objects.get(pk=%d)
services.add_bot(host, %d, 'heuristic')
services.leave_table(host, %d)
emit(True)
"""


def main_thread_tasks(events: list[dict]) -> list[dict]:
    """The page's renderer main thread's top-level tasks (the busiest CrRendererMain)."""
    names = {
        (e["pid"], e["tid"]): e["args"]["name"]
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name"
    }
    tasks: dict[tuple, list[dict]] = {}
    scripts: set[tuple] = set()  # threads that ran the page's JavaScript
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        if e.get("name") == "RunTask" and e.get("ph") == "X":
            tasks.setdefault(key, []).append(e)
        elif e.get("name") in ("FunctionCall", "EventDispatch"):
            scripts.add(key)
    # A trace started after the page loaded may lack the threads' names.
    mains = [k for k in tasks if names.get(k) == "CrRendererMain"] or [
        k for k in tasks if k in scripts
    ]
    busiest = max((tasks[k] for k in mains), key=lambda ts: sum(t.get("tdur", 0) for t in ts))
    return sorted(busiest, key=lambda t: t["ts"])


def watch_match(tree: Path, tmp: Path) -> dict:
    support.use_checkout(tree)
    database = SiteDatabase(tmp)
    database.create()
    server = DaphneServer(database, tmp, env=ENV).start()
    try:
        ids = run_django(database, OPEN)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            context = browser.new_context(viewport={"width": 1350, "height": 940})
            context.add_cookies([{"name": "sessionid", "value": ids["watcher"], "url": server.url}])
            page = context.new_page()
            page.goto(f"{server.url}/tables/{ids['table']}/")
            page.wait_for_selector("#table-app[data-connected=true]")
            browser.start_tracing(
                page=page,
                categories=[
                    "devtools.timeline",
                    "disabled-by-default-devtools.timeline",
                    "toplevel",
                    "__metadata",
                ],
            )
            began = time.perf_counter()
            run_django(database, START % (ids["host"], ids["table"], ids["table"]))
            page.wait_for_selector(
                "#table-app[data-status=finished]", state="attached", timeout=600_000
            )
            page.wait_for_timeout(500)
            seconds = time.perf_counter() - began
            frames = int(page.get_attribute("#table-app", "data-version"))
            lines = page.locator("[data-testid=move-log] li").count()
            trace = json.loads(browser.stop_tracing())["traceEvents"]
            browser.close()
    finally:
        server.stop()
        database.drop()
    tasks = main_thread_tasks(trace)
    cpu = [t.get("tdur", 0) / 1000 for t in tasks]
    # The match's last quarter in time, where the move log is longest.
    start, end = tasks[0]["ts"], tasks[-1]["ts"]
    last = [t.get("tdur", 0) / 1000 for t in tasks if t["ts"] >= start + 3 * (end - start) / 4]
    return {
        "frames": frames,
        "lines": lines,
        "seconds": seconds,
        "cpu_ms": sum(cpu),
        "per_frame_ms": sum(cpu) / max(frames, 1),
        "last_quarter_share": sum(last) / max(sum(cpu), 1e-9),
        "longest_ms": max(cpu, default=0),
        "over_50": sum(1 for c in cpu if c > 50),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--tree", action="append", type=Path, help="other checkouts to compare")
    args = parser.parse_args()
    trees = [ROOT, *(args.tree or [])]
    tmp = Path(tempfile.mkdtemp(prefix="club-frames-"))
    results: dict[Path, list[dict]] = {tree: [] for tree in trees}
    for round_ in range(args.rounds):
        for tree in trees if round_ % 2 == 0 else list(reversed(trees)):
            r = watch_match(tree, tmp)
            results[tree].append(r)
            print(
                f"round {round_ + 1} {tree}: {r['frames']} frames, {r['lines']} log lines, "
                f"{r['seconds']:.0f} s; main thread {r['cpu_ms']:.0f} ms CPU = "
                f"{r['per_frame_ms']:.2f} ms a frame (the match's last quarter "
                f"{100 * r['last_quarter_share']:.0f}% of it); longest task "
                f"{r['longest_ms']:.0f} ms, {r['over_50']} over 50 ms",
                flush=True,
            )
    for tree, rows in results.items():
        per_frame = statistics.median(r["per_frame_ms"] for r in rows)
        longest = max(r["longest_ms"] for r in rows)
        print(f"{tree}: median {per_frame:.2f} ms CPU a frame, longest task {longest:.0f} ms")


if __name__ == "__main__":
    main()
