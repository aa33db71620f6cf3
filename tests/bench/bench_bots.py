"""House bot strength benchmark: duplicate deals, 95% confidence intervals.

Run from the repository root (no Django needed), either way:

    .venv/bin/python tests/bench/bench_bots.py
    .venv/bin/python -m tests.bench.bench_bots

Matchups (4 players unless ``--players``), each in classic Devyatka and Keft:

* ``heuristic`` vs 3 ``random``: classic win rate (first place) >= 35%,
  Keft loss rate <= 17% (chance: 25%);
* ``search`` vs 3 ``heuristic``: classic win rate >= 33%, Keft loss rate
  <= 22%, at <= 200 ms per move. The benchmark runs the search bot with a
  fixed number of sampled deals per decision (``--playouts``; reproducible) and
  reports the measured time per decision;
* with ``--reference``, also ``search`` vs 3 ``random`` and a *cheating* bot
  (it reads every hand and runs 30 random playouts per legal card; not a
  house bot) vs 3 ``random`` and vs 3 ``heuristic``: the stretch figures to
  compare with, measured against the same opponents.

Duplicate deals: deal ``k`` (``devyatka.deal(players, k)``) is played once
per seat rotation, the bot under test sitting in each seat in turn, so the
luck of the deal cancels. The confidence interval treats each deal (its
rotations together) as one sample: mean +- 1.96 * sd(per-deal rate) / sqrt(deals).

Options: ``--deals N`` (default 2,000, i.e. 8,000 games per matchup and
variant), ``--quick`` (100 deals, a smoke run), ``--workers`` (default 2
processes), ``--playouts`` (search: sampled deals per decision), ``--only``
(a matchup), ``--variant`` (classic or keft only), ``--search-options``
(extra SearchBot options as JSON) and ``--opponent-options`` (the
opponents' bot options as JSON), both for exploration, ``--markdown`` (print
a section for docs/PERFORMANCE.md). Besides the rates it reports the tested
seat's mean place. The full default run takes about 50 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.devyatka.bots import get_bot  # noqa: E402
from games.devyatka.bots.base import Bot  # noqa: E402
from games.engine import devyatka as d  # noqa: E402
from games.engine.cards import INDEX36  # noqa: E402
from tests.bench.common import machine  # noqa: E402

DEFAULT_PLAYOUTS = 400
LIVE_BUDGET_MS = 200.0

#: name -> (bot under test, its options, opponents' level, classic target, Keft target)
MATCHUPS = {
    "heuristic_vs_random": ("heuristic", {}, "random", 0.35, 0.17),
    "search_vs_heuristic": ("search", {}, "heuristic", 0.33, 0.22),
    "search_vs_random": ("search", {}, "random", None, None),
    "cheat_vs_random": ("cheat", {}, "random", None, None),
    "cheat_vs_heuristic": ("cheat", {}, "heuristic", None, None),
}
REFERENCE = ("search_vs_random", "cheat_vs_random", "cheat_vs_heuristic")


class CheatBot(Bot):
    """Reference only, NOT a house bot: it reads every hand (``state``) and runs
    ``playouts`` uniformly random playouts per legal card, choosing by expected
    place (classic) or loss probability (Keft)."""

    level = "cheat"
    sees_all = True

    def __init__(self, seed=None, playouts: int = 30) -> None:
        super().__init__(seed)
        self.playouts = playouts

    def choose_with_state(self, state: d.State, view: dict, history: list) -> str:
        legal = view["legal"]
        if len(legal) == 1:
            return legal[0]
        rng = self.rng_for(view, history)
        me = view["seat"]
        fs = d.to_fast(state)
        best, best_score = legal[0], None
        for card in legal:
            nxt = d.fast_apply(fs, 1 << INDEX36[card])
            total = 0.0
            for _ in range(self.playouts):
                res = d.random_playout(nxt, rng)
                if state.options.keft:
                    total += d.playout_loser(res) == me
                else:
                    total += d.playout_places(res, state.options.pass_rule)[me]
            if best_score is None or total < best_score:
                best, best_score = card, total
        return best


def make_bot(level: str, seed: str, options: dict) -> Bot:
    if level == "cheat":
        return CheatBot(seed, **options)
    return get_bot(level, seed=seed, **options)


def play_game(deal: int, players: int, options: d.Options, bots: list[Bot], timed: int):
    """Play one game; return (final state, [ms of each decision of seat ``timed``])."""
    state = d.deal(players, deal, options)
    history: list[tuple[int, str]] = []
    times = []
    while not state.over:
        seat = state.to_move
        view = d.view(state, seat)
        bot = bots[seat]
        t0 = time.perf_counter()
        if getattr(bot, "sees_all", False):
            card = bot.choose_with_state(state, view, history)
        else:
            card = bot.choose(view, history)
        if seat == timed and len(view["legal"]) > 1:
            times.append((time.perf_counter() - t0) * 1000.0)
        state, actions = d.apply(state, card)
        history.extend(actions)
    return state, times


def run_chunk(job: tuple) -> tuple[list[float], list[float], list[float]]:
    """Worker: play deals ``start..stop-1`` in every rotation; per-deal rates, times, places.

    The place (classic: D10-D12; Keft: 1 + how many went out before it) is
    the mean over the deal's rotations of the tested seat's place.
    """
    name, keft, start, stop, players, test_options, opp_options = job
    level, _, opp_level, _, _ = MATCHUPS[name]
    options = d.Options(keft=keft)
    rates, times, places = [], [], []
    for deal in range(start, stop):
        hits = 0
        place_sum = 0
        for rot in range(players):
            bots = [make_bot(opp_level, f"{deal}/{rot}/{s}", opp_options) for s in range(players)]
            bots[rot] = make_bot(level, f"{deal}/{rot}/test", test_options)
            state, t = play_game(deal, players, options, bots, rot)
            times.extend(t)
            if keft:
                hits += d.loser(state) == rot
                place_sum += state.out.index(rot) + 1 if rot in state.out else players
            else:
                place = d.places(state)[rot]
                hits += place == 1
                place_sum += place
        rates.append(hits / players)
        places.append(place_sum / players)
    return rates, times, places


def measure(
    name: str,
    keft: bool,
    deals: int,
    players: int,
    workers: int,
    test_options: dict,
    opp_options: dict | None = None,
) -> dict:
    chunk = max(1, min(25, deals // (4 * max(1, workers)) or 1))
    jobs = [
        (name, keft, s, min(deals, s + chunk), players, test_options, opp_options or {})
        for s in range(0, deals, chunk)
    ]
    rates: list[float] = []
    times: list[float] = []
    places: list[float] = []
    t0 = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for r, t, p in pool.imap_unordered(run_chunk, jobs):
                rates.extend(r)
                times.extend(t)
                places.extend(p)
    else:
        for job in jobs:
            r, t, p = run_chunk(job)
            rates.extend(r)
            times.extend(t)
            places.extend(p)
    wall = time.perf_counter() - t0
    n = len(rates)
    mean = sum(rates) / n
    sd = math.sqrt(sum((r - mean) ** 2 for r in rates) / (n - 1)) if n > 1 else 0.0
    times.sort()
    place = sum(places) / n
    place_sd = math.sqrt(sum((p - place) ** 2 for p in places) / (n - 1)) if n > 1 else 0.0
    return {
        "rate": mean,
        "ci": 1.96 * sd / math.sqrt(n),
        "place": place,
        "place_ci": 1.96 * place_sd / math.sqrt(n),
        "deals": n,
        "games": n * players,
        "ms_mean": sum(times) / len(times) if times else 0.0,
        "ms_p95": times[int(0.95 * (len(times) - 1))] if times else 0.0,
        "decisions": len(times),
        "wall_s": wall,
    }


def live_budget_check(players: int, positions: int = 30) -> dict:
    """How many sampled deals the live 200 ms budget buys on this machine."""
    rng = random.Random(11)
    counts, times = [], []
    for keft in (False, True):
        options = d.Options(keft=keft)
        found = 0
        deal = 0
        while found < positions // 2:
            state = d.deal(players, 10_000 + deal, options)
            deal += 1
            history: list[tuple[int, str]] = []
            bots = [get_bot("heuristic") for _ in range(players)]
            while not state.over:
                seat = state.to_move
                view = d.view(state, seat)
                if len(view["legal"]) > 1 and rng.random() < 0.3 and found < positions // 2:
                    bot = get_bot("search", seed=deal, budget_ms=LIVE_BUDGET_MS)
                    t0 = time.perf_counter()
                    bot.choose(view, history)
                    times.append((time.perf_counter() - t0) * 1000.0)
                    counts.append(bot.last_playouts)
                    found += 1
                card = bots[seat].choose(view, history)
                state, actions = d.apply(state, card)
                history.extend(actions)
    return {
        "playouts_mean": sum(counts) / len(counts),
        "playouts_min": min(counts),
        "ms_mean": sum(times) / len(times),
        "ms_max": max(times),
    }


def fmt_rate(r: dict) -> str:
    return f"{100 * r['rate']:.1f}% ± {100 * r['ci']:.1f}"


def verdict(rate: dict, target: float | None, keft: bool) -> str:
    if target is None:
        return ""
    if keft:
        ok = rate["rate"] <= target
        return f"<= {100 * target:.0f}%: {'met' if ok else 'NOT met'}"
    ok = rate["rate"] >= target
    return f">= {100 * target:.0f}%: {'met' if ok else 'NOT met'}"


def markdown(results: dict, args, info: dict, command: str, live: dict | None) -> str:
    today = datetime.date.today().isoformat()
    lines = [
        "## Bot strength (tests/bench/bench_bots.py)",
        "",
        f"Measured {today} on {info['nproc']} CPUs ({info['cpu']}), {info['python']}, "
        f"{args.workers} worker processes, {args.players} players. The machine was shared "
        "with other work, so times are noisy.",
        "",
        f"Command: `{command}`",
        "",
        f"Duplicate deals: each of {args.deals:,} deals is played once per seat rotation "
        f"({args.deals * args.players:,} games per row), the bot under test in each seat. "
        "Rates with a 95% confidence interval over deals. Classic: win rate (first place), "
        "higher is better; Keft: loss rate, lower is better (chance: 1 in "
        f"{args.players}).",
        "",
        "| matchup | classic win rate | target | classic mean place | Keft loss rate | target "
        "| ms/decision (mean / p95) |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, (level, _, opp, t_c, t_k) in MATCHUPS.items():
        if "classic" not in results.get(name, {}) or "keft" not in results[name]:
            continue
        c, k = results[name]["classic"], results[name]["keft"]
        label = f"{level} vs 3 {opp}" if args.players == 4 else f"{level} vs {opp}"
        if level == "search":
            label += f" ({args.playouts} sampled deals)"
        if level == "cheat":
            label += " (reference, sees all hands, 30 random playouts/card)"
        ms = (
            f"{c['ms_mean']:.1f} / {c['ms_p95']:.1f} · {k['ms_mean']:.1f} / {k['ms_p95']:.1f}"
            if level == "search"
            else ""
        )
        lines.append(
            f"| {label} | {fmt_rate(c)} | {verdict(c, t_c, False)} | "
            f"{c['place']:.2f} ± {c['place_ci']:.2f} | {fmt_rate(k)} | "
            f"{verdict(k, t_k, True)} | {ms} |"
        )
    if live:
        lines += [
            "",
            f"Live budget ({LIVE_BUDGET_MS:.0f} ms a move, `get_bot('search')` defaults): "
            f"{live['playouts_mean']:.0f} sampled deals per decision on average "
            f"(min {live['playouts_min']}), {live['ms_mean']:.0f} ms mean / "
            f"{live['ms_max']:.0f} ms max per decision.",
        ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="100 deals (smoke run)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS)
    parser.add_argument("--only", choices=sorted(MATCHUPS), action="append")
    parser.add_argument(
        "--search-options",
        type=json.loads,
        default={},
        help="extra SearchBot options as JSON, e.g. '{\"model_eps\": 0.05}' (exploration)",
    )
    parser.add_argument(
        "--opponent-options",
        type=json.loads,
        default={},
        help="options for the opponents' bots as JSON, e.g. the sheet tips alone: "
        "'{\"weights\": [40, 10, 8, 2, 0, 0]}' (exploration)",
    )
    parser.add_argument("--variant", choices=("classic", "keft"), help="only this variant")
    parser.add_argument("--reference", action="store_true", help="also run the cheating bot")
    parser.add_argument("--live", action="store_true", help="measure the 200 ms live budget")
    parser.add_argument("--markdown", action="store_true", help="print a PERFORMANCE.md section")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals = 100
    names = args.only or [n for n in MATCHUPS if args.reference or n not in REFERENCE]
    info = machine()
    print(f"Bot strength benchmark: {args.deals} deals x {args.players} rotations; {info}")
    results: dict = {}
    for name in names:
        level = MATCHUPS[name][0]
        opts = {"playouts": args.playouts, "budget_ms": None} if level == "search" else {}
        if level == "search":
            opts.update(args.search_options)
        results[name] = {}
        for keft in (False, True):
            if args.variant and args.variant != ("keft" if keft else "classic"):
                continue
            r = measure(
                name, keft, args.deals, args.players, args.workers, opts, args.opponent_options
            )
            results[name]["keft" if keft else "classic"] = r
            target = MATCHUPS[name][4 if keft else 3]
            print(
                f"  {name:22s} {'keft   ' if keft else 'classic'} "
                f"{'loss' if keft else 'win '} {fmt_rate(r):16s} {verdict(r, target, keft):18s}"
                f" mean place {r['place']:.3f} ± {r['place_ci']:.3f},"
                f" {r['games']} games, {r['wall_s']:.0f}s"
                + (
                    f", {r['ms_mean']:.1f} ms/decision (p95 {r['ms_p95']:.1f})"
                    if level == "search"
                    else ""
                ),
                flush=True,
            )
    live = live_budget_check(args.players) if args.live else None
    if live:
        print(f"  live 200 ms budget: {live}")
    if args.markdown:
        command = ".venv/bin/python tests/bench/bench_bots.py " + " ".join(
            argv if argv is not None else sys.argv[1:]
        )
        print()
        print(markdown(results, args, info, command.strip(), live))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
