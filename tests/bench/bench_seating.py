"""Club night seating benchmark (events/seating.py, pure Python): how long the house takes
to seat one round, from 10 to 100 members, over a night of 5 rounds.

Run from the repository root (no Django needed):

    .venv/bin/python tests/bench/bench_seating.py [--nights 20]

Each size is seated over `--nights` nights of 5 rounds (tables of 3 to 6, earlier rounds'
tablemates and dealers carried over); printed: the median and worst time of one round,
and how many rounds had repeated tablemates. Target: a round of 40 members in <= 1 s.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from events.seating import BOT, pair_key, seat_round  # noqa: E402
from tests.bench.common import machine  # noqa: E402


def night(members: int, seed: int) -> tuple[list[float], int]:
    people = list(range(1, members + 1))
    met: dict = {}
    dealt: dict = {}
    times, repeated = [], 0
    for round_number in range(5):
        start = time.perf_counter()
        seating = seat_round(people, 3, 6, met, dealt, seed=seed * 10 + round_number)
        times.append(time.perf_counter() - start)
        repeated += seating.repeats > 0
        for table in seating.tables:
            dealt[table[0]] = dealt.get(table[0], 0) + 1
            seated = [p for p in table if p is not BOT]
            for a, b in itertools.combinations(seated, 2):
                met[pair_key(a, b)] = met.get(pair_key(a, b), 0) + 1
    return times, repeated


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nights", type=int, default=20)
    args = parser.parse_args()
    print(machine())
    print("members | median round | worst round | rounds with repeats")
    for members in (10, 20, 30, 40, 60, 100):
        times, repeated = [], 0
        for seed in range(args.nights):
            night_times, night_repeated = night(members, seed)
            times += night_times
            repeated += night_repeated
        print(
            f"{members:7d} | {statistics.median(times) * 1000:9.1f} ms | "
            f"{max(times) * 1000:8.1f} ms | {repeated}/{len(times)}"
        )


if __name__ == "__main__":
    main()
