"""Golf house bot strength benchmark: duplicate deals, 95% confidence intervals.

Run from the repository root (no Django needed), either way:

    .venv/bin/python tests/bench/bench_golf_bots.py
    .venv/bin/python -m tests.bench.bench_golf_bots

Matchups, 4 players (``--players``), 9-round matches (``--rounds``), the
default column rule (``--rule``):

* ``a``: ``heuristic`` vs 3 ``random``; target: the heuristic wins >= 60%
  of the matches.
* ``b``: ``search`` vs 3 ``heuristic``; targets: the search bot's match
  win rate is above the fair share (1/players) and above a heuristic
  seat's, each by a margin its 95% interval excludes, and its mean total is
  lower than the heuristic seats' (interval on the difference below 0).
  The search runs count-based (``--samples`` deals per decision, ``--width``
  candidate moves, no time cap unless ``--budget-ms``), so a run is
  reproducible; the time per decision is reported.

Duplicate deals: deal ``k`` is ``golf.deal(players, k)`` -- the seed fixes
every round's shoe and every G14 reshuffle -- and is played once per seat
rotation, the bot under test sitting in each seat in turn, so the luck of
the cards cancels. Match wins are shares (a tie for first splits the win).
Each deal (its rotations together) is one sample: the intervals are mean
+- 1.96 * sd(per-deal value) / sqrt(deals). A heuristic seat's win rate is
(1 - search's) / (players - 1) per deal, so "search above a heuristic
seat" is tested on the per-deal difference.

Options: ``--deals-a`` (default 100), ``--deals-b`` (default 48),
``--samples``, ``--width``, ``--budget-ms``, ``--workers`` (default 2
processes), ``--only a|b``, ``--markdown`` (print a section for
docs/PERFORMANCE.md). The default run takes about 15-20 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import datetime
import math
import multiprocessing
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import golf  # noqa: E402
from games.golf.bots import choose  # noqa: E402
from tests.bench.common import machine  # noqa: E402

BENCH_SAMPLES = 24
BENCH_WIDTH = 3

#: name -> (bot under test, opponents' level)
MATCHUPS = {"a": ("heuristic", "random"), "b": ("search", "heuristic")}


def play_match(
    deal: int, players: int, options: golf.Options, levels: list[str], search: dict, timed: int
) -> tuple[golf.State, list[float]]:
    """One match; the final state and the ms of each choice of seat ``timed``."""
    state = golf.deal(players, deal, options)
    history: list[tuple[int, str]] = []
    times: list[float] = []
    while not state.over:
        if state.phase == "reveal":
            seat = next(s for s in range(players) if golf.legal_moves(state, s))
        else:
            seat = state.to_move
        view = golf.view(state, seat)
        level = levels[seat]
        seed = f"{deal}/{seat}/{level}"
        t0 = time.perf_counter()
        if level == "search":
            move = choose(level, view, history, seed, **search)
        else:
            move = choose(level, view, history, seed)
        if seat == timed and len(view["legal"]) > 1:
            times.append((time.perf_counter() - t0) * 1000.0)
        state = golf.play(state, seat, move)
        history.append((seat, move))
    return state, times


def run_deal(job: tuple) -> dict:
    """Worker: one deal in every rotation; the tested bot's per-deal figures."""
    name, deal, players, rounds, rule, search = job
    level, opp = MATCHUPS[name]
    options = golf.Options(column_rule=rule, rounds=rounds)
    win = 0.0
    total_diff = 0.0
    total = 0.0
    times: list[float] = []
    for rot in range(players):
        levels = [opp] * players
        levels[rot] = level
        state, t = play_match(deal, players, options, levels, search, rot)
        times.extend(t)
        places = golf.places(state)
        firsts = [s for s in range(players) if places[s] == 1]
        if rot in firsts:
            win += 1.0 / len(firsts)
        tot = golf.totals(state)
        total += tot[rot]
        total_diff += tot[rot] - (sum(tot) - tot[rot]) / (players - 1)
    return {
        "deal": deal,
        "win": win / players,
        "total": total / players,
        "total_diff": total_diff / players,
        "times": times,
    }


def interval(values: list[float]) -> tuple[float, float]:
    """(mean, half-width of the 95% interval) over per-deal values."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("inf")
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, 1.96 * sd / math.sqrt(n)


def measure(name: str, deals: int, args: argparse.Namespace, search: dict) -> dict:
    jobs = [(name, k, args.players, args.rounds, args.rule, search) for k in range(deals)]
    rows: list[dict] = []
    t0 = time.perf_counter()
    step = max(1, deals // 10)

    def progress(row: dict) -> None:
        rows.append(row)
        if len(rows) % step == 0 or len(rows) == deals:
            win, _ = interval([r["win"] for r in rows])
            el = time.perf_counter() - t0
            print(
                f"  [{name}] {len(rows)}/{deals} deals, win {win:.3f}, {el:.0f} s elapsed",
                file=sys.stderr,
                flush=True,
            )

    if args.workers > 1:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            for row in pool.imap_unordered(run_deal, jobs):
                progress(row)
    else:
        for job in jobs:
            progress(run_deal(job))
    wall = time.perf_counter() - t0
    rows.sort(key=lambda r: r["deal"])
    n = args.players
    win = interval([r["win"] for r in rows])
    opp_win = interval([(1 - r["win"]) / (n - 1) for r in rows])
    margin = interval([r["win"] - (1 - r["win"]) / (n - 1) for r in rows])
    total = interval([r["total"] for r in rows])
    diff = interval([r["total_diff"] for r in rows])
    times = sorted(t for r in rows for t in r["times"])
    return {
        "name": name,
        "deals": deals,
        "matches": deals * n,
        "win": win,
        "opp_win": opp_win,
        "margin": margin,
        "total": total,
        "opp_total": total[0] - diff[0],
        "total_diff": diff,
        "ms_mean": sum(times) / len(times) if times else 0.0,
        "ms_p95": times[int(0.95 * (len(times) - 1))] if times else 0.0,
        "ms_max": times[-1] if times else 0.0,
        "wall": wall,
    }


def pm(x: tuple[float, float], pct: bool = True) -> str:
    if pct:
        return f"{100 * x[0]:.1f}% ± {100 * x[1]:.1f}"
    return f"{x[0]:.1f} ± {x[1]:.1f}"


def verdicts(res: dict, players: int) -> list[tuple[str, bool]]:
    win, wh = res["win"]
    if res["name"] == "a":
        return [("heuristic wins >= 60% of matches", win - wh >= 0.60)]
    fair = 1 / players
    return [
        (f"search wins above the fair share {100 * fair:.0f}%", win - wh > fair),
        (
            "search wins above a heuristic seat",
            res["margin"][0] - res["margin"][1] > 0,
        ),
        (
            "search has the lower mean total",
            res["total_diff"][0] + res["total_diff"][1] < 0,
        ),
    ]


def report(res: dict, players: int) -> str:
    level, opp = MATCHUPS[res["name"]]
    lines = [
        f"({res['name']}) {level} vs {players - 1} {opp}: {res['deals']} deals x {players} "
        f"rotations = {res['matches']} matches, {res['wall']:.0f} s",
        f"    {level} match wins {pm(res['win'])}; one {opp} seat {pm(res['opp_win'])}; "
        f"difference {pm(res['margin'])}",
        f"    mean total {level} {res['total'][0]:.1f}, one {opp} seat {res['opp_total']:.1f}; "
        f"difference {pm(res['total_diff'], pct=False)}",
        f"    {level} ms per decision: mean {res['ms_mean']:.1f}, p95 {res['ms_p95']:.1f}, "
        f"max {res['ms_max']:.1f}",
    ]
    for text, ok in verdicts(res, players):
        lines.append(f"    target: {text}: {'MET' if ok else 'NOT MET'} (by the 95% interval)")
    return "\n".join(lines)


def markdown(results: list[dict], args: argparse.Namespace, command: str) -> str:
    info = machine()
    n = args.players
    out = [
        "## Golf bots (tests/bench/bench_golf_bots.py)",
        "",
        f"Measured {datetime.date(2026, 11, 30).isoformat()} on {info['nproc']} CPUs "
        f"({info['cpu']}), {info['python']}, {args.workers} worker processes; {n} players, "
        f'{args.rounds}-round matches, column rule "{args.rule}". Duplicate deals: each deal '
        f"(`golf.deal({n}, k)`, k = 0, 1, ...) is played {n} times with the bot under test in "
        "each seat; ties for first split the win; ± is the 95% interval over deals.",
        "",
        f"Command: `{command}`",
        "",
        "| matchup | matches | bot's match wins | an opponent seat's | difference "
        "| mean total: bot / opponent (difference) | ms per decision (mean / p95 / max) |",
        "|---|---|---|---|---|---|---|",
    ]
    for res in results:
        level, opp = MATCHUPS[res["name"]]
        out.append(
            f"| ({res['name']}) {level} vs {n - 1} {opp} | {res['matches']} "
            f"| {pm(res['win'])} | {pm(res['opp_win'])} | {pm(res['margin'])} "
            f"| {res['total'][0]:.1f} / {res['opp_total']:.1f} "
            f"({pm(res['total_diff'], pct=False)}) "
            f"| {res['ms_mean']:.1f} / {res['ms_p95']:.1f} / {res['ms_max']:.1f} |"
        )
    out.append("")
    for res in results:
        for text, ok in verdicts(res, n):
            out.append(f"- ({res['name']}) {text}: {'met' if ok else '**not met**'}.")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals-a", type=int, default=100)
    parser.add_argument("--deals-b", type=int, default=48)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--rule", choices=golf.COLUMN_RULES, default="pair")
    parser.add_argument("--samples", type=int, default=BENCH_SAMPLES)
    parser.add_argument("--width", type=int, default=BENCH_WIDTH)
    parser.add_argument(
        "--budget-ms", type=float, default=None, help="time cap per decision (default: none)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=sorted(MATCHUPS), action="append")
    parser.add_argument("--markdown", action="store_true", help="print a PERFORMANCE.md section")
    args = parser.parse_args(argv)
    command = ".venv/bin/python tests/bench/bench_golf_bots.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    search = {"budget_ms": args.budget_ms, "samples": args.samples, "width": args.width}
    print(
        f"Golf bots: {args.players} players, {args.rounds} rounds, rule {args.rule}, "
        f"search samples={args.samples} width={args.width} budget_ms={args.budget_ms}",
        flush=True,
    )
    results = []
    for name in args.only or sorted(MATCHUPS):
        deals = args.deals_a if name == "a" else args.deals_b
        res = measure(name, deals, args, search)
        results.append(res)
        print(report(res, args.players), flush=True)
    if args.markdown:
        print()
        print(markdown(results, args, command.strip()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
