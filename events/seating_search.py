"""The exact search behind events.seating: pure Python, no Django, no game named.

`search_groups` partitions a round's members into tables of given member capacities,
keeping the dealer rule (`quota`; events.seating's docstring states it), with no repeated
tablemates while that is possible and, for small rounds, the fewest repeats otherwise:
`_Search` takes the most-constrained member first, pruned by a pigeonhole bound (members
who all met one another need distinct tables) and by the member sets already shown to have
no seating, within a node budget shared by every attempt.
"""

from __future__ import annotations

import random

# Nodes one exact search may visit before it gives up (a round of 40 members is seated
# well inside a second: tests/bench/bench_seating.py).
NODE_BUDGET = 70_000
# Up to this many members the fewest repeats are found exactly (iterative deepening);
# beyond, by the local search.
EXACT_REPEATS_MAX = 12
# Shorter searches in other orders when the first one runs out of budget.
RESTARTS = 4


def quota(cap: int, games: int) -> int:
    """Least-dealt members a table of `cap` members needs (or holds at most) to deal `games`:
    its members deal its first min(cap, games) games, house bots the rest (events.seating
    `dealers`)."""
    return min(cap, games)


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


def search_groups(
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
