"""Other tables' moves with post-game analyses running vs none, in the same run.

    .venv/bin/python tests/bench/bench_analysis_load.py --rounds 3 --tables 30 --duration 40

One daphne process serves a fresh site database (SQLite, the embedded default,
unless DATABASE_URL points at PostgreSQL). Phases alternate: "none" (no
worker) and "two" (two `manage.py worker` processes at their default
priority: the search in a child process with a session and autogroup of its
own niced to 19 and SCHED_IDLE, analysis/search.py and priority.py), each running the analysis of a different four-member
Golf match (``--golf-rounds``, 9), long enough to last the phase).
In every phase the load tool (`python -m tools.loadtest`) plays `--tables` tables of four at one move
a second each and reports the move latency (send -> every seat has it). The
script checks that both analyses were still running at the end of each "two"
phase, then prints p50/p95/p99 per phase and per condition.
``--conditions none,two,two-nice,two-unniced`` adds phases whose two workers
only renice themselves to 10 and search themselves, in the benchmark's own
autogroup (the worker of issue 25's first session: ANALYSIS_WORKER_IDLE=0) or keep their
priority (ANALYSIS_WORKER_NICE=0), to see what each is worth.

Run it under the benchmarks' lock, the benchmark's own autogroup raised (its
daphne, load tool and workers share it; the "two" workers' search processes leave it)::

    flock /work/bench.lock sh -c 'echo -20 > /proc/self/autogroup;
        .venv/bin/python tests/bench/bench_analysis_load.py --conditions none,two,two-nice'

"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.support.server import BIN, DaphneServer, SiteDatabase  # noqa: E402
from tests.support.tables import run_django  # noqa: E402
from tests.support.worker import AnalysisWorker  # noqa: E402

MAKE_GAMES = """
from games.models import Variant
from tests.support.finished import finished_game
variant, _ = Variant.objects.get_or_create(
    name='Golf bench', defaults=dict(game='golf', options={{'rounds': {rounds}}}, max_players=12)
)
made = []
for k in range({start}, {stop}):
    game, players = finished_game(variant, [f'Bench{{k}}{{i}}' for i in range(4)], seed=100 + k)
    made.append({{'game': game.pk, 'player': players[0].pk}})
emit(made)
"""

ASK = """
from analysis import services
from club.models import Player
from games.models import Game
for pk, player in {pairs!r}:
    services.request(Game.objects.get(pk=pk), Player.objects.get(pk=player))
emit(True)
"""

STATUS = """
from analysis.models import GameAnalysis
emit([[a.game_id, a.status, a.done, a.total]
      for a in GameAnalysis.objects.filter(game_id__in={games!r})])
"""

# After a phase: its killed workers' analyses must not be resumed by the next
# phase's workers (recover_stale), or those would run other analyses than asked.
RETIRE = """
from analysis.models import GameAnalysis
GameAnalysis.objects.filter(status__in=['queued', 'running']).update(status='failed')
emit(True)
"""


def loadtest(database: SiteDatabase, server: DaphneServer, args, out: Path) -> dict:
    result = subprocess.run(
        [
            str(BIN / "python"),
            "-m",
            "tools.loadtest",
            "--url",
            server.url,
            "--tables",
            str(args.tables),
            "--seats",
            "4",
            "--think",
            "1.0",
            "--duration",
            str(args.duration),
            "--server-pid",
            str(server.process.pid),
            "--json",
            str(out),
        ],
        cwd=ROOT,
        env=database.env(),
        capture_output=True,
        text=True,
    )
    if result.returncode:
        raise RuntimeError(f"loadtest failed:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
    return json.loads(out.read_text())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3, help="none/two pairs of phases")
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--duration", type=float, default=40.0)
    parser.add_argument(
        "--golf-rounds", type=int, default=9, help="rounds of each analysed Golf match"
    )
    parser.add_argument(
        "--conditions",
        default="none,two",
        help="phases in each round: none, two (idle workers), two-nice (nice 10), two-unniced",
    )
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-analysis-"))
    database = SiteDatabase(tmp)
    database.create()
    server = DaphneServer(database, tmp).start()
    conditions = args.conditions.split(",")
    results: dict[str, list[dict]] = {c: [] for c in conditions}
    try:
        print("making the Golf matches to analyse ...", flush=True)
        busy = [c for c in conditions if c != "none"]
        games = []
        for start in range(0, 2 * args.rounds * len(busy), 2):  # two per shell: its timeout
            games += run_django(
                database, MAKE_GAMES.format(start=start, stop=start + 2, rounds=args.golf_rounds)
            )
        for r in range(args.rounds):
            for condition in conditions:
                workers = []
                pairs = []
                if condition != "none":
                    k = 2 * (r * len(busy) + busy.index(condition))
                    pairs = [(g["game"], g["player"]) for g in games[k : k + 2]]
                    env = {"ANALYSIS_SAMPLES": "48", "ANALYSIS_WORKER_NICE": "19"}
                    if condition == "two-nice":
                        env.update(ANALYSIS_WORKER_NICE="10", ANALYSIS_WORKER_IDLE="0")
                    if condition == "two-unniced":
                        env["ANALYSIS_WORKER_NICE"] = "0"
                    run_django(database, ASK.format(pairs=pairs))
                    workers = [AnalysisWorker(database, tmp, env).start() for _ in range(2)]
                    time.sleep(3)  # both workers have claimed their analysis
                report = loadtest(database, server, args, tmp / f"{condition}-{r}.json")
                if pairs:
                    states = run_django(database, STATUS.format(games=[p[0] for p in pairs]))
                    for w in workers:
                        w.kill()
                    run_django(database, RETIRE)
                    running = [s for s in states if s[1] == "running"]
                    report["analyses"] = states
                    print(f"  analyses at the end: {states}", flush=True)
                    if len(running) != 2:
                        print("  WARNING: not two analyses running through the phase", flush=True)
                lat = report["latency_ms"]
                print(
                    f"round {r + 1} {condition:>4}: moves {report['moves']}, p50 {lat['p50']} ms, "
                    f"p95 {lat['p95']} ms, p99 {lat['p99']} ms, errors {report.get('errors')}, "
                    f"load {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
                results[condition].append(report)
    finally:
        server.stop()
        database.drop()
    print()
    for condition, reports in results.items():
        p95 = [r["latency_ms"]["p95"] for r in reports]
        p50 = [r["latency_ms"]["p50"] for r in reports]
        print(
            f"{condition:>4}: p95 per phase {p95} (median {statistics.median(p95)} ms); "
            f"p50 per phase {p50}"
        )


if __name__ == "__main__":
    main()
