"""How the house seats a club night's round: pure Python, no Django, no game named.

`seat_round` takes the members to seat, the table size range, who has met whom
(earlier rounds), how often each member has dealt (held seat 0: seat 0 deals and
plays first), and gives tables:

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
  without any such pair exists (an exact search, `_Search`, most-constrained
  member first, pruned by a pigeonhole bound -- members who all met one another
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

# Nodes one exact search may visit before it gives up (a round of 40 members is seated
# well inside a second: tests/bench/bench_seating.py).
NODE_BUDGET = 70_000
# Up to this many members the fewest repeats are found exactly (iterative deepening);
# beyond, by the local search.
EXACT_REPEATS_MAX = 12
LOCAL_STEPS = 6_000
RESTARTS = 4

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


class _Budget(Exception):
    """The search visited its budget of nodes without an answer."""


class _Search:
    """Partition members (indexes 0..n-1) into tables of the given member capacities.

    `allowance`: the most repeat weight the whole seating may have (0: no repeats).
    `dealers`: enforce the dealer rule (see module doc) for the `low` members.
    `ranked`: take members in index order (standings), not the most constrained first.
    """

    def __init__(
        self,
        n: int,
        caps: list[int],
        weight: list[list[int]],
        low: int,
        allowance: int,
        dealers: bool,
        ranked: bool,
        budget: int,
        shuffle: random.Random | None = None,
        games: int = 1,
    ) -> None:
        self.n = n
        self.games = games
        self.shuffle = shuffle
        self.caps = sorted(caps, reverse=True)
        self.weight = weight
        full = (1 << n) - 1
        self.unmet = [
            sum(1 << j for j in range(n) if j != i and weight[i][j] == 0) for i in range(n)
        ]
        self.full = full
        self.low = low  # bitmask of the least-dealt members
        self.low_count = bin(low).count("1")
        self.allowance = allowance
        self.dealers = dealers
        # Every table needs as many least-dealt members as it deals games (there are
        # enough), or else each of them needs a deal of their own (a table holds no more
        # of them than it deals games).
        self.need_all = self.low_count >= sum(quota(cap, games) for cap in caps)
        self.ranked = ranked
        self.budget = budget
        self.nodes = 0
        # Sets of members who all met one another (a cover of the "met" graph by cliques:
        # an earlier round's tables, roughly). A repeat-free table holds at most one
        # member of each, which bounds what the members left can still fill (`_covered`).
        self.cliques = _clique_covers(n, weight) if not allowance else []
        # Member sets (with the tables left) already shown to have no seating: the same
        # set is often reached by seating its complement in another way.
        self.failed: set[tuple[int, tuple[int, ...]]] = set()

    def run(self) -> list[list[int]] | None:
        result: list[list[int]] = []
        remaining = {}
        for cap in self.caps:
            remaining[cap] = remaining.get(cap, 0) + 1
        self.cap_kinds = sorted(remaining)
        if self._place(self.full, remaining, len(self.caps), 0, result):
            return result
        return None

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget

    def _anchor(self, free: int) -> int:
        if self.ranked:
            return (free & -free).bit_length() - 1
        if self.allowance:
            return (free & -free).bit_length() - 1
        best, best_count = -1, 1 << 30
        bits = free
        while bits:
            low_bit = bits & -bits
            i = low_bit.bit_length() - 1
            bits ^= low_bit
            count = (self.unmet[i] & free).bit_count()
            if count < best_count:
                best, best_count = i, count
        return best

    def _place(self, free: int, remaining: dict, tables_left: int, cost: int, out: list) -> bool:
        if not free:
            return True
        self._tick()
        if self.dealers:
            low_free = (free & self.low).bit_count()
            deals = sum(quota(cap, self.games) * left for cap, left in remaining.items())
            if self.need_all and low_free < deals:
                return False
            if not self.need_all and low_free > deals:
                return False
        if not self.allowance:
            key = (free, tuple(remaining[cap] for cap in self.cap_kinds))
            if key in self.failed:
                return False
            if not self._covered(free, remaining, tables_left):
                self.failed.add(key)
                return False
            if self._place_free(free, remaining, tables_left, cost, out):
                return True
            self.failed.add(key)
            return False
        return self._place_free(free, remaining, tables_left, cost, out)

    def _covered(self, free: int, remaining: dict, tables_left: int) -> bool:
        """The pigeonhole bound: each clique's members left need distinct tables, and the
        tables left need distinct cliques (a 0-1 seats-by-clique matrix must exist: the
        Gale-Ryser condition on the cliques' sizes and the tables' capacities)."""
        caps = sorted((cap for cap, left in remaining.items() for _ in range(left)), reverse=True)
        for cover in self.cliques:
            sizes = []
            for clique in cover:
                size = (clique & free).bit_count()
                if size > tables_left:
                    return False
                if size:
                    sizes.append(size)
            total = 0
            for k, cap in enumerate(caps, start=1):
                total += cap
                if total > sum(min(size, k) for size in sizes):
                    return False
        return True

    def _place_free(
        self, free: int, remaining: dict, tables_left: int, cost: int, out: list
    ) -> bool:
        if not self.allowance:
            # Everyone left must still have enough unmet members left to fill a table.
            need = min(cap for cap, left in remaining.items() if left) - 1
            bits = free
            while bits:
                low_bit = bits & -bits
                if (self.unmet[low_bit.bit_length() - 1] & free).bit_count() < need:
                    return False
                bits ^= low_bit
        anchor = self._anchor(free)
        rest = free & ~(1 << anchor)
        for cap in sorted(remaining, reverse=True):
            if not remaining[cap]:
                continue
            remaining[cap] -= 1
            for table, added in self._tables(anchor, rest, cap, cost):
                out.append(table)
                used = 0
                for member in table:
                    used |= 1 << member
                if self._place(free & ~used, remaining, tables_left - 1, cost + added, out):
                    remaining[cap] += 1
                    return True
                out.pop()
            remaining[cap] += 1
        return False

    def _tables(self, anchor: int, free: int, cap: int, cost: int):
        """Every table of `cap` members with `anchor` and members of `free`, within the
        allowance and the dealer rule, as (members, repeat weight added)."""
        anchor_low = self.low >> anchor & 1
        deals = quota(cap, self.games)
        cand = free if self.allowance else free & self.unmet[anchor]
        order = self._order(cand)
        if self.shuffle is not None:
            self.shuffle.shuffle(order)
        table = [anchor]

        def extend(start: int, cand: int, added: int, lows: int):
            if len(table) == cap:
                if self.dealers and self.need_all and lows < deals:
                    return
                yield list(table), added
                return
            need = cap - len(table)
            for k in range(start, len(order)):
                if len(order) - k < need:
                    return
                j = order[k]
                if not cand >> j & 1:
                    continue
                j_low = self.low >> j & 1
                if self.dealers and not self.need_all and j_low and lows >= deals:
                    continue
                extra = 0
                if self.allowance:
                    row = self.weight[j]
                    extra = sum(row[m] for m in table)
                    if cost + added + extra > self.allowance:
                        continue
                self._tick()
                table.append(j)
                next_cand = cand if self.allowance else cand & self.unmet[j]
                yield from extend(k + 1, next_cand, added + extra, lows + j_low)
                table.pop()

        yield from extend(0, cand, 0, anchor_low)

    @staticmethod
    def _order(bits: int) -> list[int]:
        order = []
        while bits:
            low_bit = bits & -bits
            order.append(low_bit.bit_length() - 1)
            bits ^= low_bit
        return order


def _clique_covers(n: int, weight: list[list[int]]) -> list[list[int]]:
    """Ways of grouping the members (bitmasks) so that the members of a group all met one
    another: greedily, each member joining the first group they can, taken in a few orders
    (each cover bounds the search on its own; together they prune more)."""
    met = [sum(1 << j for j in range(n) if j != i and weight[i][j]) for i in range(n)]
    orders = [
        sorted(range(n), key=lambda i: (-met[i].bit_count(), i)),
        sorted(range(n), key=lambda i: (met[i].bit_count(), i)),
    ]
    shuffled = list(range(n))
    random.Random(n).shuffle(shuffled)
    orders.append(shuffled)
    covers = []
    for order in orders:
        groups: list[int] = []
        for i in order:
            for k, group in enumerate(groups):
                if group & ~met[i] == 0:
                    groups[k] = group | 1 << i
                    break
            else:
                groups.append(1 << i)
        if groups not in covers:
            covers.append(groups)
    return covers


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
    groups, decided = _search_groups(n, caps, weight, low_mask, ranking is not None, budget, games)
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


def _search_groups(
    n: int,
    caps: list[int],
    weight: list[list[int]],
    low_mask: int,
    ranked: bool,
    budget: int,
    games: int = 1,
) -> tuple[list[list[int]] | None, bool]:
    """The exact search, the dealer rule always kept: no repeats, then, for small rounds, the
    fewest repeats by a growing allowance. Gives the groups (None: the local search takes
    over) and whether the repeat-free question was settled (a repeat-free seating found,
    or none exists) rather than left open by the budget (every search shares it)."""
    left = budget

    def attempt(allowance: int, cap: int, shuffle=None):
        nonlocal left
        search = _Search(
            n, caps, weight, low_mask, allowance, True, ranked, min(cap, left), shuffle, games
        )
        try:
            return search.run(), True
        except _Budget:
            return None, False
        finally:
            left -= search.nodes

    found, decided = attempt(0, left)
    if found is not None:
        return found, True
    if not decided:
        # Undecided: shorter searches in other orders (a seating is often found at once in
        # another order), then the local search.
        shuffle = random.Random(n * 7919 + low_mask)
        for _attempt in range(RESTARTS):
            if left <= 0:
                break
            found, _decided = attempt(0, left // 2 + 1, shuffle)
            if found is not None:
                return found, True
        return None, False
    if n <= EXACT_REPEATS_MAX:
        total = sum(sum(row) for row in weight) // 2
        for allowance in range(1, total + 1):
            found, decided = attempt(allowance, left)
            if found is not None:
                return found, True
            if not decided:
                break
    return None, True


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


def quota(cap: int, games: int) -> int:
    """Least-dealt members a table of `cap` members needs (or holds at most) to deal `games`:
    its members deal its first min(cap, games) games, house bots the rest (`dealers`)."""
    return min(cap, games)


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
