"""The house's seating of a club night (events/seating.py, pure: no database).

Sizes within min..max for any number of members with bots filling the rest; no
repeated tablemates while a repeat-free seating exists (checked exhaustively on
small rounds, and by an independent search on a simulation of 200 nights);
the fewest repeats otherwise (exhaustively on small rounds); seat 0 (who deals and
moves first) balanced to a spread of at most one per member over the night.
Timing is not asserted here: tests/bench/bench_seating.py measures it.
"""

from __future__ import annotations

import itertools
import random

import pytest

from events.seating import (
    BOT,
    dealers,
    game_seats,
    member_capacities,
    pair_key,
    seat_round,
    table_sizes,
)


def record(seating, met: dict, dealt: dict) -> None:
    for table in seating.tables:
        dealt[table[0]] = dealt.get(table[0], 0) + 1
        people = [p for p in table if p is not BOT]
        for a, b in itertools.combinations(people, 2):
            met[pair_key(a, b)] = met.get(pair_key(a, b), 0) + 1


def check_shape(seating, members: list[int], low: int, high: int) -> None:
    seated = [p for t in seating.tables for p in t if p is not BOT]
    assert sorted(seated) == sorted(members), "every member seated exactly once"
    for table in seating.tables:
        assert low <= len(table) <= high
        assert table[0] is not BOT, "a member deals at every table"
        assert any(p is not BOT for p in table)


@pytest.mark.parametrize("low,high", [(2, 2), (2, 6), (3, 4), (3, 6), (4, 6), (5, 6), (2, 12)])
def test_sizes_within_range_for_any_number(low: int, high: int) -> None:
    for n in range(1, 61):
        sizes = table_sizes(n, low, high)
        caps = member_capacities(n, low, high)
        assert all(low <= s <= high for s in sizes)
        assert sum(caps) == n and all(1 <= c <= s for c, s in zip(caps, sizes, strict=True))
        # Bots only when the members cannot fill the fewest tables themselves.
        if sum(sizes) > n:
            assert len(sizes) * low > n
        seating = seat_round(list(range(n)), low, high, seed=n)
        check_shape(seating, list(range(n)), low, high)
        assert seating.bots == sum(sizes) - n


def test_one_member_gets_a_table_of_bots() -> None:
    seating = seat_round([7], 3, 5)
    assert seating.tables == ((7, BOT, BOT),)


def _partitions(people: list[int], caps: list[int]):
    """Every way to seat `people` at tables of these member counts (tables unordered)."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for cap in sorted(set(caps)):
        left = list(caps)
        left.remove(cap)
        for others in itertools.combinations(rest, cap - 1):
            remaining = [p for p in rest if p not in others]
            for tail in _partitions(remaining, left):
                yield [[first, *others], *tail]


def _balanced(groups, dealt: dict) -> bool:
    least = min(dealt.get(p, 0) for g in groups for p in g)
    lows = [sum(1 for p in g if dealt.get(p, 0) == least) for g in groups]
    if sum(lows) >= len(groups):
        return all(lows)
    return all(count <= 1 for count in lows)


def _cost(groups, met: dict) -> int:
    return sum(met.get(pair_key(a, b), 0) for g in groups for a, b in itertools.combinations(g, 2))


@pytest.mark.parametrize("seed", range(60))
def test_small_rounds_exhaustively(seed: int) -> None:
    """On small rounds (up to 12 members, tables of 2 to 6) every seating is tried: the
    house's has the fewest repeats there are (zero whenever a repeat-free one exists) among
    those that keep seat 0 balanced, and the house always settles the repeat-free question."""
    rng = random.Random(seed)
    n = rng.randint(4, 12)
    low = rng.randint(2, 4)
    high = rng.randint(low, 6)
    members = list(range(1, n + 1))
    met: dict = {}
    dealt: dict = {}
    for round_number in range(4):
        seating = seat_round(members, low, high, met, dealt, seed=seed * 10 + round_number)
        check_shape(seating, members, low, high)
        caps = member_capacities(n, low, high)
        options = [g for g in _partitions(members, caps) if _balanced(g, dealt)]
        best = min(_cost(g, met) for g in options)
        assert seating.repeats == best, (round_number, seating, best)
        assert seating.decided
        record(seating, met, dealt)
    assert max(dealt.get(m, 0) for m in members) - min(dealt.get(m, 0) for m in members) <= 1


def _repeat_free_exists(members, caps, met, dealt, budget=15_000) -> bool | None:
    """An independent search (plain depth-first, lowest member first): does a repeat-free
    seating keeping seat 0 balanced exist? None: undecided within the budget."""
    least = min(dealt.get(p, 0) for p in members)
    low = {p for p in members if dealt.get(p, 0) == least}
    need_all = len(low) >= len(caps)
    nodes = 0

    class Out(Exception):
        pass

    def ok_table(table) -> bool:
        lows = sum(1 for p in table if p in low)
        return lows >= 1 if need_all else lows <= 1

    def place(free: list[int], caps: list[int]) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise Out
        if not free:
            return True
        first, rest = free[0], free[1:]
        unmet = [p for p in rest if pair_key(first, p) not in met]
        for cap in sorted(set(caps), reverse=True):
            left = list(caps)
            left.remove(cap)

            def grow(table, start, cap=cap, left=left):
                nonlocal nodes
                if len(table) == cap:
                    if ok_table(table) and place([p for p in rest if p not in table], left):
                        return True
                    return False
                for k in range(start, len(unmet)):
                    p = unmet[k]
                    if all(pair_key(p, q) not in met for q in table):
                        nodes += 1
                        if grow([*table, p], k + 1):
                            return True
                return False

            if grow([first], 0):
                return True
        return False

    try:
        return place(sorted(members), caps)
    except Out:
        return None


def test_simulation_of_200_nights() -> None:
    """200 nights of 9 to 40 members, 5 rounds, tables of 3 to 6 (both shipped games' own
    limits include that range): every round is either seated repeat-free or the house's
    exact search proves no balanced repeat-free seating exists (none left open by its node
    budget); the independent search never finds one where the house proved there is none;
    seat 0 spread is at most 1 in every night."""
    rng = random.Random(20261206)
    undecided = decided_none = repeat_free = 0
    for night in range(200):
        n = rng.randint(9, 40)
        low = rng.randint(3, 5)
        high = rng.randint(low, 6)
        members = rng.sample(range(1, 500), n)
        met: dict = {}
        dealt: dict = {}
        for round_number in range(5):
            seating = seat_round(members, low, high, met, dealt, seed=night * 100 + round_number)
            check_shape(seating, members, low, high)
            assert seating.decided, (night, round_number, "left open by the budget")
            if seating.repeats == 0:
                repeat_free += 1
            else:
                exists = _repeat_free_exists(members, member_capacities(n, low, high), met, dealt)
                assert exists is not True, (night, round_number, "a repeat-free seating exists")
                if exists is None:
                    undecided += 1
                else:
                    decided_none += 1
            record(seating, met, dealt)
        spread = max(dealt.get(m, 0) for m in members) - min(dealt.get(m, 0) for m in members)
        assert spread <= 1, night
    print(
        f"\n1000 rounds: {repeat_free} repeat-free, {decided_none} with repeats where the "
        f"independent search agrees none is repeat-free, {undecided} with repeats proved "
        "unavoidable by the house where the independent search ran out of budget"
    )
    assert repeat_free + decided_none + undecided == 1000


@pytest.mark.parametrize("games", [2, 3])
@pytest.mark.parametrize("ranked", [False, True])
def test_seat_zero_balanced_per_game_over_the_night(games: int, ranked: bool) -> None:
    """A round of several games passes seat 0 round each whole table, house bots included
    (`game_seats`, `dealers`): over the night, the times each member moved first (held seat
    0 of a game) differ by at most one, tables with fewer members than games (bots deal the
    rest) among them. Every night a club may hold: no more games a round than the fewest
    seats at a table (models.Event.clean refuses more)."""
    rng = random.Random(games * 10 + ranked)
    tiny = [(n, low, high) for n in range(1, 5) for low, high in ((3, 3), (3, 6), (4, 5), (6, 6))]
    shapes = [shape for shape in tiny if shape[1] >= games]
    while len(shapes) < 60:
        n = rng.randint(3, 30)
        low = rng.randint(games, 4)
        shapes.append((n, low, rng.randint(max(low, 3), 6)))
    short = 0
    for night, (n, low, high) in enumerate(shapes, start=1):
        members = list(range(1, n + 1))
        met: dict = {}
        first: dict = {}
        for round_number in range(5):
            ranking = sorted(members, key=lambda m: (-first.get(m, 0), m)) if ranked else None
            seating = seat_round(
                members, low, high, met, first, seed=night, ranking=ranking, games=games
            )
            check_shape(seating, members, low, high)
            for table in seating.tables:
                people = [p for p in table if p is not BOT]
                short += len(people) < games
                in_turn = dealers(table, games)
                for game in range(games):
                    seats = game_seats(table, game)
                    assert seats[0] == in_turn[game] == table[game % len(table)]
                    assert seats == tuple(table[game:]) + tuple(table[:game])
                    if seats[0] is not BOT:
                        first[seats[0]] = first.get(seats[0], 0) + 1
                assert len([d for d in in_turn if d is not BOT]) == len(
                    set(d for d in in_turn if d is not BOT)
                ), "no member deals twice in a round"
                for a, b in itertools.combinations(people, 2):
                    met[pair_key(a, b)] = met.get(pair_key(a, b), 0) + 1
            counts = [first.get(m, 0) for m in members]
            assert max(counts) - min(counts) <= 1, (night, round_number, seating, first)
    assert short, "some tables had fewer members than games (bots dealt)"


def test_grouping_by_standings_puts_neighbours_together() -> None:
    members = list(range(1, 17))
    ranking = list(reversed(members))  # 16 first, 1 last
    seating = seat_round(members, 4, 4, ranking=ranking, seed=3)
    assert [sorted(t) for t in seating.tables] == [
        [13, 14, 15, 16],
        [9, 10, 11, 12],
        [5, 6, 7, 8],
        [1, 2, 3, 4],
    ]


def test_same_inputs_same_seating() -> None:
    members = list(range(1, 30))
    met = {pair_key(1, 2): 1, pair_key(3, 4): 2}
    first = seat_round(members, 3, 6, met, {1: 1}, seed=9)
    again = seat_round(members, 3, 6, dict(met), {1: 1}, seed=9)
    assert first == again
