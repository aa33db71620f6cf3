"""Devyatka engine benchmark: public immutable API vs the fast playout path.

Run from the repository root (no Django needed), either way:

    .venv/bin/python tests/bench/bench_devyatka.py
    .venv/bin/python -m tests.bench.bench_devyatka

Options: ``--players N`` (default 4), ``--quick`` (fewer games),
``--markdown`` (also print a section for docs/PERFORMANCE.md).
Single process, single core. Each figure is the best of ``--repeat`` runs.

Targets (4 players): fast path >= 10,000 random games/s; public ``play()``
<= 20 microseconds per move.
"""

from __future__ import annotations

import argparse
import datetime
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import devyatka as d  # noqa: E402
from tests.bench.common import machine  # noqa: E402

FAST_TARGET_GAMES_PER_S = 10_000
PLAY_TARGET_US_PER_MOVE = 20.0


def best_of(repeat: int, fn) -> float:
    """Smallest wall time of ``repeat`` calls of ``fn`` (seconds)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def record_games(players: int, options: d.Options, games: int) -> list[tuple[d.State, list[str]]]:
    rng = random.Random(1)
    out = []
    for seed in range(games):
        start = state = d.deal(players, seed, options)
        cards = []
        while not state.over:
            card = rng.choice(d.legal_moves(state))
            cards.append(card)
            state = d.play(state, card)
        out.append((start, cards))
    return out


def bench(players: int, games_public: int, games_fast: int, repeat: int) -> dict:
    res: dict = {}
    for label, options in (("classic", d.Options()), ("keft", d.Options(keft=True))):
        # 1. Whole random games through the public API: deal, legal_moves, play.
        def public_games(options=options):
            rng = random.Random(2)
            for seed in range(games_public):
                state = d.deal(players, seed, options)
                while not state.over:
                    state = d.play(state, rng.choice(d.legal_moves(state)))

        t = best_of(repeat, public_games)
        res[f"{label}_public_games_per_s"] = games_public / t

        # 2. play() alone: replay recorded games, timing only the play() calls' loop.
        recorded = record_games(players, options, games_public)
        moves = sum(len(cards) for _, cards in recorded)
        res[f"{label}_moves_per_game"] = moves / len(recorded)

        def replay_play(recorded=recorded):
            play = d.play
            for state, cards in recorded:
                for card in cards:
                    state = play(state, card)

        t = best_of(repeat, replay_play)
        res[f"{label}_play_us_per_move"] = t / moves * 1e6

        # 3. Fast path: random deal (masks) + random playout to the end.
        keft = options.keft

        def fast_games(keft=keft):
            rng = random.Random(3)
            for _ in range(games_fast):
                fs = d.fast_state(players, keft, d.random_deal_masks(players, rng))
                d.random_playout(fs, rng)

        t = best_of(repeat, fast_games)
        res[f"{label}_fast_games_per_s"] = games_fast / t

        # 4. Fast path, playouts only (the bot's inner loop: a position is given).
        starts = [d.to_fast(s) for s, _ in recorded[:100]]

        def fast_playouts(starts=starts):
            rng = random.Random(4)
            per = games_fast // len(starts)
            for fs in starts:
                for _ in range(per):
                    d.random_playout(fs, rng)

        t = best_of(repeat, fast_playouts)
        res[f"{label}_playouts_per_s"] = (games_fast // len(starts)) * len(starts) / t
    return res


def markdown(players: int, res: dict, info: dict, command: str) -> str:
    today = datetime.date.today().isoformat()
    lines = [
        "## Devyatka engine (tests/bench/bench_devyatka.py)",
        "",
        f"Measured {today} on {info['nproc']} CPUs ({info['cpu']}), {info['python']}, "
        f"single process / single core, {players} players, best of the repeats.",
        "",
        f"Command: `{command}`",
        "",
        "| path | classic | Keft | target |",
        "|---|---|---|---|",
        f"| public API, random full games (deal + legal_moves + play) | "
        f"{res['classic_public_games_per_s']:,.0f} games/s | "
        f"{res['keft_public_games_per_s']:,.0f} games/s | |",
        f"| public `play()` per move | {res['classic_play_us_per_move']:.1f} µs | "
        f"{res['keft_play_us_per_move']:.1f} µs | <= {PLAY_TARGET_US_PER_MOVE:.0f} µs |",
        f"| cards played per game (random play) | {res['classic_moves_per_game']:.1f} | "
        f"{res['keft_moves_per_game']:.1f} | |",
        f"| fast path, random deal + playout | {res['classic_fast_games_per_s']:,.0f} games/s | "
        f"{res['keft_fast_games_per_s']:,.0f} games/s | >= {FAST_TARGET_GAMES_PER_S:,} games/s |",
        f"| fast path, playout from a given position | "
        f"{res['classic_playouts_per_s']:,.0f} games/s | "
        f"{res['keft_playouts_per_s']:,.0f} games/s | |",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--quick", action="store_true", help="fewer games (smoke run)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--markdown", action="store_true", help="print a PERFORMANCE.md section")
    args = parser.parse_args(argv)
    games_public, games_fast = (200, 2_000) if args.quick else (2_000, 20_000)
    res = bench(args.players, games_public, games_fast, args.repeat)
    info = machine()
    print(f"Devyatka engine benchmark, {args.players} players; {info}")
    for key, value in res.items():
        print(f"  {key:32s} {value:12,.1f}")
    fast_ok = res["classic_fast_games_per_s"] >= FAST_TARGET_GAMES_PER_S
    play_ok = res["classic_play_us_per_move"] <= PLAY_TARGET_US_PER_MOVE
    print(f"  fast path >= {FAST_TARGET_GAMES_PER_S:,} games/s: {'yes' if fast_ok else 'NO'}")
    print(f"  play() <= {PLAY_TARGET_US_PER_MOVE} µs/move: {'yes' if play_ok else 'NO'}")
    if args.markdown:
        command = ".venv/bin/python tests/bench/bench_devyatka.py " + " ".join(
            argv if argv is not None else sys.argv[1:]
        )
        print()
        print(markdown(args.players, res, info, command.strip()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
