"""Outages under load: a 5 s Redis outage and a PostgreSQL restart at 40 tables x 4 seats.

Starts its own Redis and PostgreSQL cluster (tests/support/services.py) and two
daphne processes on them, then runs `python -m tools.loadtest` (40 tables x 4 seats,
a move per table about every second, each table's seats spread over both
processes) three times, alternating: no outage (the baseline), Redis killed
(SIGKILL) 10 s into play and started again 5 s later, and PostgreSQL
restarted (`pg_ctl stop -m fast`, then start) 10 s into play. For each it
prints and records:

- moves accepted during the outage (the mover had its answer),
- errors by code (as the load tool counts them),
- time to converge: from the service's return to each table's next move
  seen by all four seats (median and worst over the tables),
- moves lost: versions some socket received that the database lacks (must be 0),
- tracebacks and warnings in the servers' logs.

    .venv/bin/python tests/bench/bench_outage.py [--rounds 1] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.support.outages import Site, start_site, stop_site  # noqa: E402
from tests.support.server import BIN  # noqa: E402

TABLES, SEATS, THINK, DURATION = 40, 4, 1.0, 40.0
OUTAGE_AT = 10.0  # seconds into play
REDIS_DOWN_FOR = 5.0


def moves_so_far(site: Site) -> int:
    try:
        return site.database.query("SELECT count(*) FROM games_move")[0][0]
    except Exception:  # noqa: BLE001 - the database may be the one that is down
        return -1


def run_once(site: Site, scenario: str, work: Path) -> dict:
    report_path = work / f"report-{scenario}-{time.monotonic_ns()}.json"
    offsets = [s.log_path.stat().st_size for s in site.servers]
    before = moves_so_far(site)
    command = [
        str(BIN / "python"), "-m", "tools.loadtest",
        *[arg for s in site.servers for arg in ("--url", s.url)],
        "--tables", str(TABLES), "--seats", str(SEATS), "--think", str(THINK),
        "--duration", str(DURATION), "--timeout", "30", "--json", str(report_path),
        "--connect-concurrency", "4",
    ]  # fmt: skip
    tool = subprocess.Popen(
        command,
        cwd=ROOT,
        env=site.database.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    # Play has begun once moves reach the database.
    while moves_so_far(site) <= before:
        if tool.poll() is not None:
            raise RuntimeError(tool.stdout.read())
        time.sleep(0.1)
    time.sleep(OUTAGE_AT)
    down = up = None
    if scenario == "redis":
        site.redis.kill()
        down = time.monotonic()
        time.sleep(REDIS_DOWN_FOR)
        site.redis.start()
        up = time.monotonic()
    elif scenario == "postgres":
        down = time.monotonic()
        site.cluster.stop("fast")
        site.cluster.start()
        up = time.monotonic()
    output, _ = tool.communicate(timeout=DURATION + 120)
    if tool.returncode != 0:
        raise RuntimeError(output)
    report = json.loads(report_path.read_text())
    logs = [
        s.log_path.read_bytes()[offset:].decode(errors="replace")
        for s, offset in zip(site.servers, offsets, strict=True)
    ]
    result = {
        "scenario": scenario,
        "moves": report["moves"],
        "errors": report["errors"],
        "lost": report["lost_versions"],
        "broken_tables": report["broken_tables"],
        "tracebacks": sum(log.count("Traceback") for log in logs),
        "warnings": [sum(" WARNING " in line for line in log.splitlines()) for log in logs],
        "p50_ms": report["latency_ms"]["p50"],
        "p99_ms": report["latency_ms"]["p99"],
    }
    if down is not None:
        result["outage_seconds"] = round(up - down, 2)
        result["accepted_during"] = sum(1 for t in report["acks"] if down <= t <= up)
        first_after: dict[int, float] = {}
        for table, at in report["completions"]:
            if at >= up and table not in first_after:
                first_after[table] = at - up
        waits = sorted(first_after.values())
        result["converged_tables"] = len(waits)
        result["converge_p50_s"] = round(statistics.median(waits), 2) if waits else None
        result["converge_max_s"] = round(waits[-1], 2) if waits else None
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-outage-"))
    site = start_site(work, env={"CHANNEL_LAYER_TIMEOUT": "2"})  # the default
    results = []
    try:
        for _ in range(args.rounds):
            for scenario in ("none", "redis", "postgres"):
                result = run_once(site, scenario, work)
                print(json.dumps(result), flush=True)
                results.append(result)
    finally:
        stop_site(site)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
