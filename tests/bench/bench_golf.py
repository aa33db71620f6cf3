"""Golf engine benchmark: random matches through the public API, against a plain version.

Run from the repository root (no Django needed), either way:

    .venv/bin/python tests/bench/bench_golf.py
    .venv/bin/python -m tests.bench.bench_golf

Options: ``--players N`` (default 4), ``--rounds R`` (default 9), ``--matches M``,
``--quick`` (fewer matches), ``--repeat K``, ``--markdown`` (also print a section
for docs/PERFORMANCE.md). Single process, single core; each figure is the best
of ``--repeat`` runs.

Both engines play the same random matches with the same driver (the same seeds,
the same random choices among the sorted legal moves), and the benchmark checks
that they end with the same totals. The plain version below (:class:`Plain`) is
a straightforward implementation of RULES.md G1-G16 with the same public shape
(``deal``, ``legal_moves``, ``play`` returning a new state): a dict of lists
copied on every move, legal moves built and sorted on each call, moves parsed
with ``split``, rounds scored with the validating ``golf.score_grid``. The unit
tests also use it as an independent oracle (tests/unit/test_golf_properties.py).

Target: the engine plays at least 1.5x as many matches per second as the plain
version.
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

from games.engine import golf  # noqa: E402
from tests.bench.common import machine  # noqa: E402

TARGET_RATIO = 1.5


# --------------------------------------------------------------------------
# The plain reference version.
# --------------------------------------------------------------------------


class Plain:
    """A plain Golf engine over dicts of lists (same rules, same deal and shuffles).

    ``deal(players, seed, rounds, column_rule)`` -> state dict;
    ``legal_moves(state, seat)`` -> sorted list; ``play(state, seat, move)`` ->
    a new state (ValueError on an illegal move). ``state["phase"]``,
    ``state["to_move"]`` and ``state["scores"]`` (per round, per seat) as in
    the engine.
    """

    @staticmethod
    def shoe(players: int, seed, round_no: int) -> list[str]:
        decks = 2 if players <= 8 else 3
        cards = []
        for _ in range(decks):
            for suit in "CDHS":
                for rank in "23456789TJQKA":
                    cards.append(rank + suit)
        rand = random.Random(f"golf:{seed}:{round_no}:0").random
        return sorted(cards, key=lambda _: rand())

    @staticmethod
    def deal_round(state: dict, shoe: list[str]) -> None:
        n = state["players"]
        dealer = (state["round"] - 1) % n
        state["dealer"] = dealer
        state["grids"] = [[None] * 9 for _ in range(n)]
        state["up"] = [[False] * 9 for _ in range(n)]
        k = 0
        for pos in range(9):
            for i in range(1, n + 1):
                state["grids"][(dealer + i) % n][pos] = shoe[k]
                k += 1
        state["discard"] = [shoe[k]]
        state["stock"] = shoe[k + 1 :]
        state["phase"] = "reveal"
        state["ready"] = [False] * n
        state["to_move"] = None
        state["drawn"] = None
        state["went_out"] = None
        state["reshuffles"] = 0

    @classmethod
    def deal(cls, players: int, seed, rounds: int = 9, column_rule: str = "pair") -> dict:
        state = {
            "players": players,
            "seed": seed,
            "rounds": rounds,
            "column_rule": column_rule,
            "round": 1,
            "scores": [],
        }
        cls.deal_round(state, cls.shoe(players, seed, 1))
        return state

    @staticmethod
    def copy(state: dict) -> dict:
        new = dict(state)
        new["grids"] = [list(g) for g in state["grids"]]
        new["up"] = [list(u) for u in state["up"]]
        new["stock"] = list(state["stock"])
        new["discard"] = list(state["discard"])
        new["ready"] = list(state["ready"])
        new["scores"] = [list(r) for r in state["scores"]]
        return new

    @staticmethod
    def legal_moves(state: dict, seat: int) -> list[str]:
        moves = []
        down = [i for i in range(9) if not state["up"][seat][i]]
        if state["phase"] == "reveal":
            if not state["ready"][seat]:
                moves.append("ready")
                if 9 - len(down) < 2:
                    moves += [f"flip {i}" for i in down]
        elif state["phase"] == "turn" and state["to_move"] == seat:
            if state["drawn"] is None:
                moves.append("draw")
                moves += [f"flip {i}" for i in down]
                moves += [f"take {i}" for i in range(9)]
            else:
                moves += [f"swap {i}" for i in range(9)]
                moves += [f"discard {i}" for i in down]
        return sorted(moves)

    @classmethod
    def play(cls, state: dict, seat: int, move: str) -> dict:
        if move not in cls.legal_moves(state, seat):
            raise ValueError(f"illegal move {move!r} for seat {seat}")
        s = cls.copy(state)
        parts = move.split()
        kind = parts[0]
        pos = int(parts[1]) if len(parts) > 1 else None
        n = s["players"]
        if s["phase"] == "reveal":
            if kind == "flip":
                s["up"][seat][pos] = True
            else:
                s["ready"][seat] = True
                if all(s["ready"]):
                    s["phase"] = "turn"
                    s["to_move"] = (s["dealer"] + 1) % n
            return s
        grid = s["grids"][seat]
        if kind == "draw":
            s["drawn"] = s["stock"].pop(0)
            if not s["stock"]:
                s["reshuffles"] += 1
                rand = random.Random(f"golf:{s['seed']}:{s['round']}:{s['reshuffles']}").random
                s["stock"] = sorted(s["discard"][:-1], key=lambda _: rand())
                s["discard"] = s["discard"][-1:]
            return s
        if kind == "take":
            card = s["discard"].pop()
            s["discard"].append(grid[pos])
            grid[pos] = card
            s["up"][seat][pos] = True
        elif kind == "swap":
            s["discard"].append(grid[pos])
            grid[pos] = s["drawn"]
            s["up"][seat][pos] = True
            s["drawn"] = None
        elif kind == "discard":
            s["discard"].append(s["drawn"])
            s["drawn"] = None
            s["up"][seat][pos] = True
        else:  # flip
            s["up"][seat][pos] = True
        if s["went_out"] is None and all(s["up"][seat]):
            s["went_out"] = seat
        nxt = (seat + 1) % n
        if nxt != s["went_out"]:
            s["to_move"] = nxt
            return s
        raw = [golf.score_grid(g, s["column_rule"]) for g in s["grids"]]
        out = s["went_out"]
        if min(raw) < raw[out]:
            raw[out] += 10
        s["scores"].append(raw)
        if s["round"] == s["rounds"]:
            s["phase"] = "over"
            s["to_move"] = None
            return s
        s["round"] += 1
        cls.deal_round(s, cls.shoe(n, s["seed"], s["round"]))
        return s


# --------------------------------------------------------------------------
# The benchmark.
# --------------------------------------------------------------------------


def random_match(deal, legal_moves, play, phase_of, players: int, seed: int):
    """One random match: in the reveal phase the seats act in order, each choosing
    among its sorted legal moves until it is ready; then the seat to move does."""
    rand = random.Random(seed).random
    state = deal(seed)
    moves = 0
    while True:
        phase, to_move = phase_of(state)
        if phase == "over":
            return state, moves
        if phase == "reveal":
            for seat in range(players):
                legal = legal_moves(state, seat)
                while legal:
                    state = play(state, seat, legal[int(rand() * len(legal))])
                    moves += 1
                    legal = legal_moves(state, seat)
        else:
            legal = legal_moves(state, to_move)
            state = play(state, to_move, legal[int(rand() * len(legal))])
            moves += 1


def engine_match(players: int, rounds: int, seed: int):
    options = golf.Options(rounds=rounds)
    return random_match(
        lambda s: golf.deal(players, s, options),
        golf.legal_moves,
        golf.play,
        lambda st: (st.phase, st.to_move),
        players,
        seed,
    )


def plain_match(players: int, rounds: int, seed: int):
    return random_match(
        lambda s: Plain.deal(players, s, rounds),
        Plain.legal_moves,
        Plain.play,
        lambda st: (st["phase"], st["to_move"]),
        players,
        seed,
    )


def best_of(repeat: int, fn) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def bench(players: int, rounds: int, matches: int, repeat: int) -> dict:
    # Same matches, same results: the comparison is fair.
    moves = 0
    for seed in range(matches):
        e, m = engine_match(players, rounds, seed)
        p, _ = plain_match(players, rounds, seed)
        assert [list(r) for r in golf.round_scores(e)] == p["scores"], seed
        moves += m
    t_engine = best_of(repeat, lambda: [engine_match(players, rounds, s) for s in range(matches)])
    t_plain = best_of(repeat, lambda: [plain_match(players, rounds, s) for s in range(matches)])
    return {
        "moves_per_match": moves / matches,
        "engine_matches_per_s": matches / t_engine,
        "plain_matches_per_s": matches / t_plain,
        "engine_us_per_move": t_engine / moves * 1e6,
        "plain_us_per_move": t_plain / moves * 1e6,
        "ratio": t_plain / t_engine,
    }


def markdown(players: int, rounds: int, matches: int, res: dict, info: dict, command: str) -> str:
    ok = "yes" if res["ratio"] >= TARGET_RATIO else "NO"
    lines = [
        "## Golf engine (tests/bench/bench_golf.py)",
        "",
        f"Measured {datetime.date.today().isoformat()} on {info['nproc']} CPUs ({info['cpu']}), {info['python']}, "
        f"single process / single core, {players} players, {rounds} rounds, "
        f"{matches} random matches (seeds 0-{matches - 1}), best of the repeats.",
        "",
        f"Command: `{command}`",
        "",
        "| engine (public API: deal + legal_moves + play) | matches/s | µs per move |",
        "|---|---|---|",
        f"| `games.engine.golf` | {res['engine_matches_per_s']:,.0f} | "
        f"{res['engine_us_per_move']:.1f} |",
        f"| plain reference (`Plain` in the benchmark) | {res['plain_matches_per_s']:,.0f} | "
        f"{res['plain_us_per_move']:.1f} |",
        "",
        f"Speed-up {res['ratio']:.2f}x (target >= {TARGET_RATIO}x: {ok}); "
        f"{res['moves_per_match']:.0f} moves per random match. Both play the same matches "
        "(checked: same round scores).",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--matches", type=int, default=None)
    parser.add_argument("--quick", action="store_true", help="fewer matches (smoke run)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--markdown", action="store_true", help="print a PERFORMANCE.md section")
    args = parser.parse_args(argv)
    matches = args.matches or (30 if args.quick else 300)
    res = bench(args.players, args.rounds, matches, args.repeat)
    info = machine()
    print(f"Golf engine benchmark, {args.players} players, {args.rounds} rounds; {info}")
    for key, value in res.items():
        print(f"  {key:24s} {value:12,.2f}")
    ok = res["ratio"] >= TARGET_RATIO
    print(f"  engine >= {TARGET_RATIO}x plain: {'yes' if ok else 'NO'}")
    if args.markdown:
        command = ".venv/bin/python tests/bench/bench_golf.py " + " ".join(
            argv if argv is not None else sys.argv[1:]
        )
        print()
        print(markdown(args.players, args.rounds, matches, res, info, command.strip()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
