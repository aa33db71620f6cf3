"""How the house seats a club night's round: pure Python, no Django, no game named.

`seat_round` takes the members to seat, the table size range, who has met whom
(earlier rounds), how often each member has dealt (held seat 0: seat 0 deals; who
moves first is each game's own rule), and gives tables:

* sizes within min..max for any number of members >= 1: the fewest tables, as
  even as can be; when the members cannot fill them, house bots take the seats
  left over (spread over the tables), so nobody sits out;
* seat 0 of each table to a member who has dealt least, so that over the night
  the members' counts differ by at most one: a rule every seating keeps (each
  table holds one of the least-dealt members, or, when they are fewer than the
  tables, they sit at distinct tables), and one that can always be kept. A round
  of several games passes seat 0 round the whole table from game to game, house
  bots included (`dealers`, `game_seats`): its members sit first, least-dealt
  ones first, and the bots last, so the dealer of game k is the table's seat
  k mod its size. The rule then counts games: a table of c members dealing g
  games holds at least min(c, g) least-dealt members (at most that many when they
  are too few to go round), its first seats go to them, and the bots deal the
  games its members do not. No member deals twice in a round as long as the
  games a round are no more than the seats at a table (models.Event.clean refuses
  more: a full table would have a member deal twice, and tables of different
  sizes would then spread the counts by more than one);
* within that rule, no two members who met before at one table while a seating
  without any such pair exists (an exact search, events.seating_search, most-
  constrained member first, pruned by a pigeonhole bound -- members who all met one another
  need distinct tables -- and by the member sets already shown to have no
  seating, with a node budget); otherwise the fewest repeats (the same search
  with a growing allowance of repeats for small rounds, a seeded local search
  beyond). A round the budget leaves undecided (`Seating.decided` False) goes to
  the local search; tests/unit/test_seating.py's simulation of 200 nights has
  none;
* optionally grouped by standings: members are taken in the order of their place
  in the night, so tables hold neighbours in the standings.

All randomness comes from `seed`: the same inputs seat the same way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from events.seating_search import NODE_BUDGET, quota, search_groups

# Steps of the local search (rounds the exact search leaves open, large rounds' repeats).
LOCAL_STEPS = 6_000

BOT = None  # a house bot's seat in a table's list


@dataclass(frozen=True)
class Seating:
    """Tables in seat order: member ids, `None` for a house bot's seat; seat 0 deals."""

    tables: tuple[tuple[int | None, ...], ...]
    repeats: int  # pairs of members at one table who had met before (each time counted)
    # The exact search settled whether a repeat-free seating exists (found one, or proved
    # there is none: then `repeats` is the fewest the house found); False: its node budget
    # ran out first.
    decided: bool = True

    @property
    def bots(self) -> int:
        return sum(1 for table in self.tables for seat in table if seat is BOT)


def table_sizes(members: int, low: int, high: int) -> list[int]:
    """Seats per table for this many members: the fewest tables within low..high, as even as
    can be (larger ones first); bots make up what members cannot fill."""
    if members < 1:
        return []
    if not 1 <= low <= high:
        raise ValueError("table sizes need 1 <= min <= max")
    count = math.ceil(members / high)
    seats = max(members, count * low)
    base, extra = divmod(seats, count)
    return [base + 1 if i < extra else base for i in range(count)]


def member_capacities(members: int, low: int, high: int) -> list[int]:
    """Members per table: `table_sizes` less the bots, spread one by one from the last table."""
    sizes = table_sizes(members, low, high)
    caps = list(sizes)
    bots = sum(sizes) - members
    index = len(caps) - 1
    while bots:
        caps[index] -= 1
        bots -= 1
        index = index - 1 if index > 0 else len(caps) - 1
    return caps


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def count_repeats(
    tables: Sequence[Sequence[int | None]], met: Mapping[tuple[int, int], int]
) -> int:
    total = 0
    for table in tables:
        people = [p for p in table if p is not BOT]
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                total += met.get(pair_key(a, b), 0)
    return total


def seat_round(
    members: Sequence[int],
    low: int,
    high: int,
    met: Mapping[tuple[int, int], int] | None = None,
    dealt: Mapping[int, int] | None = None,
    seed: int = 0,
    ranking: Sequence[int] | None = None,
    budget: int = NODE_BUDGET,
    games: int = 1,
) -> Seating:
    """Seat `members` (ids) at tables of `low`..`high` seats; see the module's docstring.

    `met`: times each pair (`pair_key`) sat at one table before; `dealt`: times each
    member held seat 0 of a game; `ranking`: members in the order of the night's standings
    to group tables by them (None: mixed); `games`: games each table plays this round (no
    more than `low`), seat 0 passing round the whole table from game to game (`dealers`,
    `game_seats`): each table's first `games` seats deal them, its members before its bots.
    """
    met = met or {}
    dealt = dealt or {}
    if not members:
        return Seating((), 0)
    rng = random.Random(seed)
    people = list(dict.fromkeys(members))
    if ranking is not None:
        place = {p: i for i, p in enumerate(ranking)}
        people.sort(key=lambda p: (place.get(p, len(place)), p))
    else:
        people.sort()
        rng.shuffle(people)
    n = len(people)
    caps = member_capacities(n, low, high)
    weight = [[met.get(pair_key(a, b), 0) if a != b else 0 for b in people] for a in people]
    least = min(dealt.get(p, 0) for p in people)
    low_mask = sum(1 << i for i, p in enumerate(people) if dealt.get(p, 0) == least)
    groups, decided = search_groups(n, caps, weight, low_mask, ranking is not None, budget, games)
    if groups is None:
        groups = _local_search(n, caps, weight, low_mask, ranking is not None, rng, games)
    sizes = table_sizes(n, low, high)
    tables = []
    for group in sorted(groups, key=lambda g: min(g) if ranking is not None else 0):
        ids = [people[i] for i in group]
        tables.append(_seat_order(ids, dealt, rng, games))
    # Bots fill each table up to its size (tables of equal capacity are interchangeable).
    tables.sort(key=len, reverse=True)
    by_cap = sorted(zip(caps, sizes, strict=True), key=lambda cs: cs[0], reverse=True)
    seated = []
    for table, (_cap, size) in zip(tables, by_cap, strict=True):
        seated.append(tuple(table) + (BOT,) * (size - len(table)))
    if ranking is not None:
        place = {p: i for i, p in enumerate(ranking)}
        seated.sort(key=lambda t: min(place.get(p, len(place)) for p in t if p is not BOT))
    final = tuple(seated)
    return Seating(final, count_repeats(final, met), decided)


def _local_search(
    n: int,
    caps: list[int],
    weight: list[list[int]],
    low_mask: int,
    ranked: bool,
    rng: random.Random,
    games: int = 1,
) -> list[list[int]]:
    """The fewest repeats the local search finds: swaps between tables that keep the dealer
    rule, accepting no worse (and, now and then, slightly worse) seatings."""
    count = len(caps)
    lows = [i for i in range(n) if low_mask >> i & 1]
    others = [i for i in range(n) if not low_mask >> i & 1]
    deals = [quota(cap, games) for cap in caps]
    need_all = len(lows) >= sum(deals)
    groups: list[list[int]] = [[] for _ in caps]
    # Least-dealt members first, one per table in turn: the dealer rule holds from the start.
    order = lows + others
    if not ranked:
        rng.shuffle(lows)
        rng.shuffle(others)
        order = lows + others
    table = 0
    for member in order:
        while len(groups[table]) >= caps[table]:
            table = (table + 1) % count
        groups[table].append(member)
        table = (table + 1) % count
    if ranked:
        groups = _ranked_fill(order, caps, low_mask, deals)

    def lows_in(group: list[int]) -> int:
        return sum(1 for m in group if low_mask >> m & 1)

    def table_cost(group: list[int]) -> int:
        cost = 0
        for i, a in enumerate(group):
            row = weight[a]
            for b in group[i + 1 :]:
                cost += row[b]
        cost *= 1000
        if ranked:
            cost += max(group) - min(group)
        return cost

    costs = [table_cost(g) for g in groups]
    total = sum(costs)
    best, best_total = [list(g) for g in groups], total
    temperature = 600.0
    for step in range(LOCAL_STEPS):
        if best_total < 1000 and not ranked:
            break
        t1, t2 = rng.randrange(count), rng.randrange(count)
        if t1 == t2:
            continue
        g1, g2 = groups[t1], groups[t2]
        i1, i2 = rng.randrange(len(g1)), rng.randrange(len(g2))
        a, b = g1[i1], g2[i2]
        g1[i1], g2[i2] = b, a
        ok = True
        if (low_mask >> a & 1) != (low_mask >> b & 1):
            l1, l2 = lows_in(g1), lows_in(g2)
            q1, q2 = deals[t1], deals[t2]
            ok = (l1 >= q1 and l2 >= q2) if need_all else (l1 <= q1 and l2 <= q2)
        if ok:
            c1, c2 = table_cost(g1), table_cost(g2)
            delta = c1 + c2 - costs[t1] - costs[t2]
            if delta <= 0 or rng.random() < math.exp(-delta / max(temperature, 1e-9)):
                costs[t1], costs[t2] = c1, c2
                total += delta
                if total < best_total:
                    best, best_total = [list(g) for g in groups], total
                temperature *= 0.999
                continue
        g1[i1], g2[i2] = a, b
        temperature *= 0.999
        if step % 500 == 0:
            temperature = max(temperature, 50.0)
    return best


def _ranked_fill(
    order: list[int], caps: list[int], low_mask: int, deals: list[int]
) -> list[list[int]]:
    """Tables of neighbours in the standings (members in rank order, tables filled in turn),
    then the dealer rule mended by swapping least-dealt members in (`deals`: games each
    table's members deal)."""
    ranked = sorted(order)
    groups, start = [], 0
    for cap in caps:
        groups.append(ranked[start : start + cap])
        start += cap

    def lows(g: list[int]) -> list[int]:
        return [m for m in g if low_mask >> m & 1]

    def spare(t: int) -> int:
        return len(lows(groups[t])) - deals[t]

    tables = range(len(groups))
    for _ in range(len(order)):
        rich = max(tables, key=spare)
        poor = min(tables, key=spare)
        if spare(rich) <= 0 or spare(poor) >= 0:
            break  # no table short of least-dealt members (enough of them), or none over
        give = lows(groups[rich])[-1]
        take = next(m for m in reversed(groups[poor]) if not low_mask >> m & 1)
        g1, g2 = groups[rich], groups[poor]
        g1[g1.index(give)], g2[g2.index(take)] = take, give
    return groups


def dealers(table: Sequence[int | None], games: int) -> list[int | None]:
    """Who holds seat 0 in each of the round's games at this seated table: every seat in
    turn from seat 0 on, house bots included (`BOT`: a bot deals that game). The members sit
    first (its least-dealt ones first, bots last), and a night deals no more games a round
    than a table has seats (models.Event.clean), so no member deals twice in a round."""
    return [table[k % len(table)] for k in range(games)]


def game_seats(table: Sequence[int | None], game: int) -> tuple[int | None, ...]:
    """The table's seats for its `game`-th game of the round (0 first): turned round so that
    `dealers(table, ...)[game]` holds seat 0, everyone keeping their neighbours."""
    shift = game % len(table)
    return tuple(table[shift:]) + tuple(table[:shift])


def _seat_order(
    ids: list[int], dealt: Mapping[int, int], rng: random.Random, games: int = 1
) -> list[int]:
    """Seat 0 to a least-dealt member of the table (with several games, the table's first
    seats to its least-dealt members, one game each); the others in a seeded random order."""
    if games > 1:
        order = sorted(ids)
        rng.shuffle(order)
        order.sort(key=lambda p: dealt.get(p, 0))
        first = order[: quota(len(ids), games)]
        rest = sorted(order[len(first) :])
        rng.shuffle(rest)
        return [*first, *rest]
    least = min(dealt.get(p, 0) for p in ids)
    candidates = sorted(p for p in ids if dealt.get(p, 0) == least)
    dealer = candidates[rng.randrange(len(candidates))]
    rest = sorted(p for p in ids if p != dealer)
    rng.shuffle(rest)
    return [dealer, *rest]
