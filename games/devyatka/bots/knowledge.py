"""What a seat knows, and hidden hands sampled consistently with it.

A bot sees only ``devyatka.view(state, seat)`` and the public move history,
a list of ``(seat, move)`` from the start of the game where ``move`` is a card
code or ``"pass"`` (exactly the actions :func:`devyatka.apply` returns).
:class:`Knowledge` turns those two into bitmasks (see
:mod:`games.engine.cards`: bit ``1 << (suit * 9 + rank)``):

* ``hand``: own cards; ``table``: cards in the rows (from ``view["rows"]``);
* ``unknown``: every other card, the ones in the other hands;
* ``counts``: cards per seat (``view["counts"]``);
* ``forbidden[seat]``: unknown cards that seat is known NOT to hold. A seat
  that passed had no legal card at that moment (D7, D8): none of the cards
  playable then (the nine of each unopened suit after 9D, and the card next
  to each row end). Hands only shrink, so it never holds them later either.
  The row ends over time are rebuilt by replaying the history.

:meth:`Knowledge.sample` deals the unknown cards to the other seats with the
right counts and never gives a seat a forbidden card (a determinisation):
the most constrained cards first, each to a seat drawn in proportion to the
room left in its hand, falling back to a step-by-step check of Hall's
condition if that runs into a dead end, so a consistent deal is always found.
Without constraints this is a uniformly random deal of the unknown cards.

``decisions`` keeps the other seats' card plays with what was playable then
(``seat_decisions``: the same, per seat); :meth:`Knowledge.likelihood` and
:meth:`Knowledge.seat_likelihood` say how well a sampled deal explains them
under an opponent model. :meth:`Knowledge.mcmc` walks from a consistent deal
to deals in proportion to a per-seat weight (Metropolis-Hastings over card
swaps between two other seats, never breaking a count or a pass
inference): the search bot's posterior over the hidden hands.

Pure Python, no Django. :func:`playable_of` is the engine's own rule
(:func:`devyatka.playable_from_table`); ``NEXT`` (what a card frees) mirrors
the engine's table and is cross-checked against it in the unit tests.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.engine.cards import INDEX36, SUITS

from .. import engine as devyatka

FULL = (1 << 36) - 1
NINE_D = 1 << INDEX36["9D"]
NINES = sum(1 << INDEX36["9" + s] for s in SUITS)
#: 6s and aces: the ends of the rows; playing one makes nothing playable.
ROW_ENDS = sum(1 << (9 * s) for s in range(4)) | sum(1 << (9 * s + 8) for s in range(4))
BITS = tuple(1 << i for i in range(36))
PASS = "pass"


def _next_of(index: int) -> int:
    """Cards that become playable once card ``index`` is played (D4, D5, D8)."""
    s, r = divmod(index, 9)
    base = 9 * s
    if r == 3:
        m = (1 << (base + 2)) | (1 << (base + 4))
        if index == INDEX36["9D"]:
            m |= NINES & ~NINE_D
        return m
    if r < 3:
        return (1 << (base + r - 1)) if r > 0 else 0
    return (1 << (base + r + 1)) if r < 8 else 0


def _beyond_of(index: int) -> int:
    """Cards of the same suit that can only come after this one, farther from the nine.

    For a nine: the rest of its suit (both sides).
    """
    s, r = divmod(index, 9)
    base = 9 * s
    if r == 3:
        return (0x1FF << base) & ~(1 << index)
    if r < 3:
        return sum(1 << (base + k) for k in range(r))
    return sum(1 << (base + k) for k in range(r + 1, 9))


#: bit -> cards its play makes playable (for 9D also the other three nines).
NEXT: dict[int, int] = {1 << i: _next_of(i) for i in range(36)}
#: bit -> cards farther out in the same row (they wait behind this card).
BEYOND: dict[int, int] = {1 << i: _beyond_of(i) for i in range(36)}
#: index -> bit, and bit -> index.
INDEX_OF_BIT: dict[int, int] = {1 << i: i for i in range(36)}


def bits_of(mask: int) -> list[int]:
    """The single-card bits of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def playable_of(table: int) -> int:
    """Cards playable now given the cards on the table (D3, D5, D8): the engine's own rule."""
    return devyatka.playable_from_table(table)


def mask_of_codes(codes: Sequence[str]) -> int:
    m = 0
    for code in codes:
        m |= 1 << INDEX36[code]
    return m


def table_of_rows(rows: dict[str, Any]) -> int:
    """The table mask from ``view["rows"]`` ({"C": [low, high] or None, ...})."""
    table = 0
    for s, letter in enumerate(SUITS):
        ends = rows.get(letter)
        if not ends:
            continue
        lo = INDEX36[ends[0]] - 9 * s
        hi = INDEX36[ends[1]] - 9 * s
        for r in range(lo, hi + 1):
            table |= 1 << (9 * s + r)
    return table


class Knowledge:
    """A seat's knowledge at its turn, built from its view and the public history."""

    __slots__ = (
        "players",
        "seat",
        "keft",
        "pass_rule",
        "hand",
        "table",
        "playable",
        "unknown",
        "counts",
        "passes",
        "out",
        "to_move",
        "forbidden",
        "history_ok",
        "decisions",
        "seat_decisions",
    )

    def __init__(self, view: dict[str, Any], history: Sequence[tuple[int, str]] = ()) -> None:
        n = int(view["players"])
        seat = view["seat"]
        self.players = n
        self.seat = seat
        self.keft = bool(view.get("keft", False))
        self.pass_rule = bool(view.get("pass_rule", False))
        self.hand = mask_of_codes(view["hand"] or ())
        self.table = table_of_rows(view["rows"])
        self.playable = playable_of(self.table)
        self.unknown = FULL & ~self.table & ~self.hand
        self.counts = tuple(int(c) for c in view["counts"])
        self.passes = tuple(int(p) for p in view["passes"])
        self.out = tuple(int(s) for s in view["out"])
        self.to_move = view.get("to_move")
        forbidden = [0] * n
        moves: list[tuple[int, int, int, int]] = []
        ok = True
        table = 0
        playable = NINE_D
        try:
            for who, move in history:
                if move == PASS:
                    forbidden[who] |= playable
                    continue
                bit = 1 << INDEX36[move]
                if not playable & bit or table & bit:
                    ok = False
                    break
                if who != seat and bit != NINE_D:
                    moves.append((who, bit, playable, table))
                table |= bit
                playable = (playable ^ bit) | NEXT[bit]
        except (KeyError, IndexError, TypeError, ValueError):
            ok = False
        if ok and table != self.table:
            ok = False  # history and view disagree: trust the view, infer nothing
        if not ok:
            forbidden = [0] * n
            moves = []
        self.history_ok = ok
        # The other seats' card plays, newest first, as (seat, card, playable
        # then, table then, cards that seat played from then on): its hand at
        # that moment was its hand now plus the last of these (see likelihood).
        decisions = []
        since = [0] * n
        for who, bit, playable_then, table_then in reversed(moves):
            since[who] |= bit
            decisions.append((who, bit, playable_then, table_then, since[who]))
        self.decisions = tuple(decisions)
        by_seat: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        for who, bit, playable_then, table_then, since_then in decisions:
            by_seat[who].append((bit, playable_then, table_then, since_then))
        #: per seat, its card plays as (card, playable then, table then, played since).
        self.seat_decisions = tuple(tuple(d) for d in by_seat)
        unknown = self.unknown
        forbidden = [f & unknown for f in forbidden]
        if seat is not None:
            forbidden[seat] = 0
        self.forbidden = tuple(forbidden)
        if ok and not self._feasible(list(self._others()), unknown, self._caps()):
            # Cannot happen with a true history; never let bad input wedge the sampler.
            self.forbidden = (0,) * n
            self.history_ok = False

    # ------------------------------------------------------------------

    def _others(self) -> list[int]:
        return [s for s in range(self.players) if s != self.seat and self.counts[s] > 0]

    def _caps(self) -> list[int]:
        return [self.counts[s] for s in self._others()]

    def allowed(self, seat: int) -> int:
        """Unknown cards ``seat`` may hold."""
        return self.unknown & ~self.forbidden[seat]

    def _feasible(self, seats: list[int], cards: int, caps: list[int]) -> bool:
        """Hall's condition: the cards can be dealt to ``seats`` with capacities ``caps``."""
        k = len(seats)
        if sum(caps) != cards.bit_count():
            return False
        allow = [self.allowed(s) for s in seats]
        for subset in range(1, (1 << k) - 1):
            outside = 0
            cap = 0
            for i in range(k):
                if subset >> i & 1:
                    cap += caps[i]
                else:
                    outside |= allow[i]
            if (cards & ~outside).bit_count() > cap:
                return False
        return True

    def likelihood(self, masks: Sequence[int], model: Any) -> float:
        """How likely the other seats' card plays are if ``masks`` are the hands now.

        ``model(bit, legal, hand, table)`` gives the probability that a player
        holding ``hand`` chose card ``bit`` among its ``legal`` cards with
        ``table`` on the table. Forced plays (one legal card) count 1.
        """
        w = 1.0
        for who, bit, playable, table, since in self.decisions:
            hand = masks[who] | since
            legal = hand & playable
            if legal != bit:
                w *= model(bit, legal, hand, table)
        return w

    def seat_likelihoods(self, masks: Sequence[int], model: Any) -> tuple[list[float], list[float]]:
        """Per seat, the likelihood of its card plays under ``model`` and under random play.

        Returns ``(model_likelihood, random_likelihood)``, lists over seats; a
        random player picks each legal card with probability 1 / (legal cards).
        A seat's plays depend only on its own hand, so the two factorise by seat.
        """
        n = self.players
        lm = [1.0] * n
        lr = [1.0] * n
        for who, bit, playable, table, since in self.decisions:
            hand = masks[who] | since
            legal = hand & playable
            if legal != bit:
                lm[who] *= model(bit, legal, hand, table)
                lr[who] /= legal.bit_count()
        return lm, lr

    def seat_likelihood(self, seat: int, hand: int, model: Any) -> tuple[float, float]:
        """One seat's ``(model, random)`` likelihood of its card plays if it holds ``hand`` now."""
        lm = 1.0
        lr = 1.0
        for bit, playable, table, since in self.seat_decisions[seat]:
            held = hand | since
            legal = held & playable
            if legal != bit:
                lm *= model(bit, legal, held, table)
                lr /= legal.bit_count()
        return lm, lr

    def mcmc(
        self,
        rng: random.Random,
        masks: list[int],
        weight_of: Any,
        steps: int,
        weights: list[float] | None = None,
    ) -> list[float]:
        """Metropolis-Hastings over the hidden deal: ``steps`` card swaps, ``masks`` in place.

        The target is proportional to the product over the other seats of
        ``weight_of(seat, hand)`` (e.g. the likelihood of the seat's plays).
        A step picks two other seats holding cards and one card of each at
        random (a symmetric proposal) and swaps them, unless that gives a seat
        a card it is known not to hold; it is accepted with probability
        min(1, new / old) of the two seats' weights (the others do not change).
        Counts and every hard constraint are kept, so a chain started from
        :meth:`sample` stays consistent. Returns the per-seat weights
        (``weights``, if given, are those of ``masks`` already).
        """
        seats = self._others()
        n = self.players
        if weights is None:
            weights = [1.0] * n
            for s in seats:
                weights[s] = weight_of(s, masks[s])
        k = len(seats)
        if k < 2:
            return weights
        forbidden = self.forbidden
        cards = [bits_of(masks[s]) if s in seats else [] for s in range(n)]
        rand = rng.random
        for _ in range(steps):
            i = int(rand() * k)
            j = int(rand() * (k - 1))
            if j >= i:
                j += 1
            a = seats[i]
            b = seats[j]
            ca = cards[a]
            cb = cards[b]
            ia = int(rand() * len(ca))
            ib = int(rand() * len(cb))
            x = ca[ia]
            y = cb[ib]
            if x & forbidden[b] or y & forbidden[a]:
                continue
            ha = masks[a] ^ x ^ y
            hb = masks[b] ^ x ^ y
            wa = weight_of(a, ha)
            wb = weight_of(b, hb)
            new = wa * wb
            old = weights[a] * weights[b]
            if new >= old or rand() * old < new:
                masks[a] = ha
                masks[b] = hb
                weights[a] = wa
                weights[b] = wb
                ca[ia] = y
                cb[ib] = x
        return weights

    def sample(self, rng: random.Random) -> list[int]:
        """Hand masks for every seat: own hand as is, the unknown cards dealt at random.

        Each other seat gets exactly its count of cards, none on the table or
        in own hand, and none it is known not to hold (pass inferences).
        """
        masks = [0] * self.players
        if self.seat is not None:
            masks[self.seat] = self.hand
        seats = self._others()
        caps = [self.counts[s] for s in seats]
        unknown = self.unknown
        constrained = 0
        for s in seats:
            constrained |= self.forbidden[s]
        if constrained:
            got = self._assign_constrained(rng, seats, caps, constrained)
            if got is None:
                got = self._assign_checked(rng, seats, caps, constrained)
            for i, m in enumerate(got):
                masks[seats[i]] |= m
                unknown &= ~m
        cards = bits_of(unknown)
        rng.shuffle(cards)
        pos = 0
        for i, s in enumerate(seats):
            c = caps[i]
            m = 0
            for b in cards[pos : pos + c]:
                m |= b
            masks[s] |= m
            pos += c
        return masks

    def _assign_constrained(
        self,
        rng: random.Random,
        seats: list[int],
        caps: list[int],
        constrained: int,
        tries: int = 8,
    ) -> list[int] | None:
        """Deal the constrained cards first (most constrained first), weighted by room left.

        Mutates ``caps`` on success; returns per-seat masks, or None after ``tries`` dead ends.
        """
        allow = [self.allowed(s) for s in seats]
        k = len(seats)
        order = bits_of(constrained)
        order.sort(key=lambda b: sum(1 for a in allow if a & b))
        rand = rng.random
        for _ in range(tries):
            room = list(caps)
            got = [0] * k
            for b in order:
                total = 0
                for i in range(k):
                    if allow[i] & b:
                        total += room[i]
                if not total:
                    break
                x = rand() * total
                pick = -1
                for i in range(k):
                    if allow[i] & b and room[i]:
                        pick = i
                        x -= room[i]
                        if x < 0:
                            break
                got[pick] |= b
                room[pick] -= 1
            else:
                caps[:] = room
                return got
        return None

    def _assign_checked(
        self, rng: random.Random, seats: list[int], caps: list[int], constrained: int
    ) -> list[int]:
        """Like :meth:`_assign_constrained`, but keep Hall's condition at every step."""
        allow = [self.allowed(s) for s in seats]
        k = len(seats)
        order = bits_of(constrained)
        order.sort(key=lambda b: sum(1 for a in allow if a & b))
        remaining = self.unknown
        got = [0] * k
        for b in order:
            cands = [i for i in range(k) if allow[i] & b and caps[i]]
            rng.shuffle(cands)
            cands.sort(key=lambda i: -caps[i] * rng.random())
            for i in cands:
                caps[i] -= 1
                if self._feasible(seats, remaining & ~b, caps):
                    got[i] |= b
                    remaining &= ~b
                    break
                caps[i] += 1
            else:  # pragma: no cover - the initial check guarantees a way
                raise AssertionError("no consistent deal of the hidden cards")
        return got
