"""Level ``search``: determinised Monte Carlo playouts with inference.

For each decision the bot builds its :class:`~.knowledge.Knowledge` from its
view and the public history (own hand, table, counts, and the pass
inferences: a seat that passed held none of the cards playable then), then
repeats until its budget is spent:

1. **Determinise.** Deal the hidden cards consistently with all of that
   (:meth:`Knowledge.sample`) and, with ``infer`` (default), in proportion
   to how well the deal explains the other seats' card plays so far. Two
   opponent types explain plays: *heuristic-like* (the heuristic bot's own
   card -- its lowest-index best card -- with probability 1 - ``model_eps``,
   else any legal card; :func:`.heuristic.choice_model`) and *random* (any
   legal card). With ``adaptive`` (default) a seat is heuristic-like with
   prior probability ``prior_heuristic`` and its weight is the mixture of
   the two; otherwise it is heuristic-like for sure.

   ``sampler="mh"`` (default): Metropolis-Hastings over the hidden deal
   (:meth:`Knowledge.mcmc`): ``chains`` chains start from
   :meth:`Knowledge.sample`, each runs ``burn`` card swaps between two
   opponents (a swap that breaks a pass inference is refused; it is
   accepted with the ratio of the two seats' weights), then every round
   takes the next chain's state after ``thin`` more swaps. A seat's weight
   depends on its own hand alone and is memoised per (seat, hand). Each
   round also draws each seat's type from its posterior given the deal.
   ``sampler="is"`` (the earlier method): importance weights over deals
   from :meth:`Knowledge.sample`, types judged once from ``warmup`` deals,
   the round's deal drawn from a growing pool (``pool_factor`` per round).
2. **Play out.** For every legal card, play it on that deal with the
   engine's fast path (:func:`devyatka.fast_apply`) and finish the game with
   ``policy="heuristic"``: every seat plays the heuristic's card (memoised;
   with ``exact_ties``, default, its lowest-index best card exactly as the
   heuristic bot, else random among the best; a uniformly random legal card
   with probability ``playout_eps``), except that a seat drawn as random
   this round plays at random. With ``lookahead`` = k (default 1), at its
   own next k choices in the playout the bot tries each legal card with a
   heuristic playout on the same deal and plays the best
   (:func:`lookahead_playout`): its future self plays better than the
   heuristic, as the real bot will. More than one look-ahead made it worse
   (it then leans on knowing the sampled deal). ``policy="random"``:
   uniformly random play (:func:`devyatka.random_playout`).
   With ``tree`` = k (default 3) the rounds only sample deals, and the
   cards are then rated over all of them at once (:func:`info_set_values`):
   each card is played on every deal up to the bot's next choice, the deals
   are grouped by what it will then see, and for a group of at least
   ``min_group`` deals its future self takes the one card that is best over
   the whole group, down to k choices deep; deeper, and in smaller groups,
   heuristic playouts finish the game. The look-ahead above may pick a
   different card on each deal, as if it knew the deal; this may not, so
   a card is not rated up for information the bot will never have.
   ``tree=0`` keeps the per-round playouts with ``lookahead``.
3. **Score** the end for its own seat: classic, its place (D10-D12, with the
   table's pass rule from ``view["pass_rule"]``) plus ``win_weight`` if it
   is not first; Keft, 1 if it is the loser (plus a small tie-break for
   going out earlier).

All legal cards are evaluated on the same sampled deals (common random
numbers). The card with the best mean wins: in classic the lowest
expected place + ``win_weight`` x P(not first) (``win_weight=0``: expected
place alone; large: the likeliest win, expected place breaking ties), in
Keft the lowest probability of being the loser.

When only two hands hold cards (Keft endgames, two-player tables) the game
is one of perfect information; :func:`.endgame.solve` then searches it
exactly and a card that forces the win is always taken.

Budget: ``playouts`` (rounds: sampled deals, i.e. playouts per legal card)
makes a decision count-based and reproducible given the seed; ``budget_ms``
(default 200) caps its wall time (at least ``min_playouts`` rounds run; with
``tree``, deals are sampled for ``TREE_SAMPLE_SHARE`` of it, then trees over
``TREE_FIRST_DEALS`` deals, twice that, and so on, while the next one fits;
the last is used). With only the time budget -- the default,
``get_bot("search", seed=..., budget_ms=200)`` -- the number of playouts
depends on the machine's speed and load, so
decisions are NOT reproducible; pass ``playouts=N, budget_ms=None`` when
they must be (the tests and the benchmark do).
"""

from __future__ import annotations

import bisect
import random
import time
from collections.abc import Sequence
from typing import Any

from games.engine.cards import INDEX36, POINTS36

# advance is the engine's one core move function, shared with the bots' fast
# path: the heuristic playouts below play every card through it, so the rules
# stay written once.
from ..engine import (
    CYCLES,
    FastState,
    advance,
    fast_apply,
    playout_places,
    random_playout,
)
from .base import Bot
from .endgame import solve
from .heuristic import best_set, choice_model
from .knowledge import FULL, Knowledge

_POINTS = {1 << INDEX36[c]: p for c, p in POINTS36.items()}

#: Keft: weight of going out early (per place in the out order, divided by the
#: player count) next to 1 for losing; only separates near-equal cards.
KEFT_ORDER_WEIGHT = 0.05

#: With ``tree`` and a time budget: the share of the budget spent sampling
#: deals (a deal costs about a tenth of what the tree then spends on it), and
#: the deals of the first tree; each later tree doubles them while the budget
#: allows (see :meth:`SearchBot.evaluate`).
TREE_SAMPLE_SHARE = 0.1
TREE_FIRST_DEALS = 50


def heuristic_playout(
    fs: FastState,
    rng: random.Random,
    eps: float | Sequence[float] = 0.0,
    lowest: bool = False,
) -> tuple[list[int], list[int], list[int]]:
    """Finish the game with every seat playing the heuristic bot's card.

    Each mover plays one of :func:`.heuristic.best_set` for its hand (random
    among equal scores; with ``lowest`` the lowest card index, exactly as
    the heuristic bot), or with probability ``eps`` (one number, or one per
    seat) a uniformly random legal card. Returns the final ``(masks, passes,
    out)``; ``fs`` is not changed.
    """
    masks = list(fs.masks)
    passes = list(fs.passes)
    out = list(fs.out)
    n = fs.players
    eps_of = [eps] * n if isinstance(eps, int | float) else list(eps)
    _play(fs.keft, masks, passes, out, fs.playable, fs.to_move, rng, eps_of, lowest, -1)
    return masks, passes, out


def _play(
    keft: bool,
    masks: list[int],
    passes: list[int],
    out: list[int],
    playable: int,
    p: int,
    rng: random.Random,
    eps_of: Sequence[float],
    lowest: bool,
    stop: int,
) -> tuple[int, int]:
    """The heuristic playout loop on mutable lists; returns ``(playable, to_move)``.

    Stops early, before the move, when seat ``stop`` is to move with a choice.
    """
    n = len(masks)
    cycle = CYCLES[n]
    need = n - 1 if keft else 1
    rand = rng.random
    step = advance
    best = best_set
    while p >= 0:
        legal = masks[p] & playable
        if legal & (legal - 1):
            if p == stop:
                return playable, p
            e = eps_of[p]
            if not e or (e < 1.0 and rand() >= e):
                held = 0
                for m in masks:
                    held |= m
                legal = best(legal, masks[p], FULL & ~held, keft)
                if lowest:
                    legal &= -legal
            if legal & (legal - 1):
                k = int(rand() * legal.bit_count())
                while k:
                    legal &= legal - 1
                    k -= 1
        playable, p = step(masks, playable, p, legal & -legal, cycle, need, passes, out, None)
    return playable, p


def lookahead_playout(
    fs: FastState,
    rng: random.Random,
    eps_of: Sequence[float],
    lowest: bool,
    me: int,
    score: Any,
    depth: int = 1,
) -> float:
    """A heuristic playout in which seat ``me`` looks one move ahead at its choices.

    Play goes as in :func:`heuristic_playout`, except at ``me``'s next
    ``depth`` moves with two or more legal cards: there each card is tried
    with a heuristic playout on this deal and the best by ``score(masks,
    passes, out)`` (lower is better) is played. Returns the end's score.
    """
    masks = list(fs.masks)
    passes = list(fs.passes)
    out = list(fs.out)
    keft = fs.keft
    n = len(masks)
    cycle = CYCLES[n]
    need = n - 1 if keft else 1
    playable, p = fs.playable, fs.to_move
    while True:
        stop = me if depth > 0 else -1
        playable, p = _play(keft, masks, passes, out, playable, p, rng, eps_of, lowest, stop)
        if p < 0:
            return score(masks, passes, out)
        depth -= 1
        legal = masks[me] & playable
        best = best_bit = None
        while legal:
            b = legal & -legal
            legal ^= b
            m2, pa2, o2 = list(masks), list(passes), list(out)
            pl2, p2 = advance(m2, playable, me, b, cycle, need, pa2, o2, None)
            _play(keft, m2, pa2, o2, pl2, p2, rng, eps_of, lowest, -1)
            v = score(m2, pa2, o2)
            if best is None or v < best:
                best, best_bit = v, b
        if not depth:
            return best
        playable, p = advance(masks, playable, me, best_bit, cycle, need, passes, out, None)


def info_set_values(
    particles: Sequence[tuple[Sequence[int], Sequence[float]]],
    me: int,
    keft: bool,
    playable: int,
    passes: Sequence[int],
    out: Sequence[int],
    rng: random.Random,
    lowest: bool,
    score: Any,
    depth: int,
    min_group: int,
    cards: int | None = None,
) -> dict[int, float]:
    """Per card of ``me`` (its legal ``cards``): the mean end score over ``particles``.

    ``particles`` are sampled deals ``(masks, eps_of)`` that agree on all
    that ``me`` knows. Each card is played on every deal and the others play
    on (heuristic, ``eps_of`` per seat) up to ``me``'s next choice. There
    the deals are grouped by what ``me`` then sees (the table, passes, the
    out order and the hand counts): one group is one information set of its
    future self. With ``depth`` > 1 and at least ``min_group`` deals in a
    group, that future self picks the one card with the best mean over the
    group (recursively, ``depth - 1``); otherwise each deal is finished by a
    heuristic playout. Unlike :func:`lookahead_playout`, which picks the best
    card per deal as if the deal were known, a future choice here may only
    use what the seat will know, so a card is not rated up for information
    the bot will never have. Lower scores are better.
    """
    n = len(particles[0][0])
    cycle = CYCLES[n]
    need = n - 1 if keft else 1
    if cards is None:
        cards = particles[0][0][me] & playable
    values = {}
    while cards:
        b = cards & -cards
        cards ^= b
        groups: dict[tuple | None, list] = {}
        for masks, eps_of in particles:
            m = list(masks)
            pa = list(passes)
            o = list(out)
            pl, p = advance(m, playable, me, b, cycle, need, pa, o, None)
            pl, p = _play(keft, m, pa, o, pl, p, rng, eps_of, lowest, me)
            key = None if p < 0 else (pl, tuple(pa), tuple(o), tuple(x.bit_count() for x in m))
            groups.setdefault(key, []).append((m, eps_of, pa, o, pl, p))
        total = 0.0
        for key, members in groups.items():
            if key is not None and depth > 1 and len(members) >= min_group:
                _, _, pa, o, pl, _ = members[0]
                sub = [(m, e) for m, e, _, _, _, _ in members]
                below = info_set_values(
                    sub, me, keft, pl, pa, o, rng, lowest, score, depth - 1, min_group
                )
                total += min(below.values()) * len(members)
                continue
            for m, e, pa, o, pl, p in members:
                if key is not None:
                    _play(keft, m, pa, o, pl, p, rng, e, lowest, -1)
                total += score(m, pa, o)
        values[b] = total / len(particles)
    return values


def _points(mask: int) -> int:
    total = 0
    while mask:
        b = mask & -mask
        total += _POINTS[b]
        mask ^= b
    return total


def classic_place(me: int, masks: Sequence[int], passes: Sequence[int], pass_rule: bool) -> int:
    """Place of ``me`` at the end of a classic game (D10-D12), as ``devyatka.places``."""
    mine = masks[me].bit_count()
    if not mine:
        return 1
    place = 1
    my_points = None
    for s, m in enumerate(masks):
        if s == me:
            continue
        c = m.bit_count()
        if c < mine:
            place += 1
        elif c == mine:
            if pass_rule and passes[s] != passes[me]:
                place += passes[s] < passes[me]
                continue
            if my_points is None:
                my_points = _points(masks[me])
            place += _points(m) < my_points
    return place


class SearchBot(Bot):
    """Determinisation + inference + heuristic playouts; see the module docstring."""

    level = "search"

    def __init__(
        self,
        seed: int | str | None = None,
        budget_ms: float | None = 200.0,
        playouts: int | None = None,
        *,
        min_playouts: int = 8,
        policy: str = "heuristic",
        playout_eps: float = 0.0,
        infer: bool = True,
        model_eps: float = 0.02,
        pool_factor: int = 3,
        warmup: int = 24,
        adaptive: bool = True,
        prior_heuristic: float = 0.7,
        endgame: bool = True,
        sampler: str = "mh",
        chains: int = 2,
        burn: int = 150,
        thin: int = 5,
        exact_ties: bool = True,
        win_weight: float = 4.0,
        lookahead: int = 1,
        tree: int = 3,
        min_group: int = 8,
    ) -> None:
        super().__init__(seed)
        if budget_ms is None and playouts is None:
            raise ValueError("The search bot needs budget_ms, playouts or both.")
        if policy not in ("heuristic", "random"):
            raise ValueError("policy must be 'heuristic' or 'random'.")
        self.budget_ms = budget_ms
        self.playouts = playouts
        self.min_playouts = min_playouts
        self.policy = policy
        self.playout_eps = playout_eps
        self.infer = infer
        self.model_eps = model_eps
        self.pool_factor = max(1, pool_factor)
        self.warmup = warmup
        self.adaptive = adaptive
        self.prior_heuristic = prior_heuristic
        self.endgame = endgame
        if sampler not in ("mh", "is"):
            raise ValueError("sampler must be 'mh' or 'is'.")
        self.sampler = sampler
        self.chains = max(1, chains)
        self.burn = burn
        self.thin = thin
        self.exact_ties = exact_ties
        self.win_weight = win_weight
        self.lookahead = lookahead
        self.tree = tree
        self.min_group = max(1, min_group)
        self.last_playouts = 0  # rounds (playouts per card) of the last evaluation
        self.last_like_heuristic: list[float] = []  # per seat, P(plays like the heuristic)

    def evaluate(
        self, view: dict[str, Any], history: Sequence[tuple[int, str]], legal: list[str]
    ) -> list[float]:
        """Per card of ``legal``, the mean score over the playouts (lower is better).

        Classic: expected place, plus ``win_weight`` x P(not first). Keft:
        ``players`` x P(loser) plus the small out-order tie-break.
        """
        start = time.perf_counter()
        know = Knowledge(view, history)
        rng = self.rng_for(view, history)
        me = know.seat
        n = know.players
        keft = know.keft
        pass_rule = know.pass_rule
        bits = [1 << INDEX36[c] for c in legal]
        sums = [0.0] * len(bits)
        deadline = None if self.budget_ms is None else start + self.budget_ms / 1000.0
        limit = self.playouts
        heuristic = self.policy == "heuristic"
        eps = self.playout_eps
        lowest = self.exact_ties
        win_weight = self.win_weight
        order_weight = KEFT_ORDER_WEIGHT / n
        lookahead = self.lookahead if heuristic else 0
        tree = self.tree if heuristic else 0
        end = deadline
        if tree and deadline is not None:
            # The deals are sampled first and the trees are built over them at
            # the end, so sampling stops early enough to leave them the rest.
            deadline = start + TREE_SAMPLE_SHARE * self.budget_ms / 1000.0
        particles: list[tuple[list[int], list[float]]] = []

        def score_end(end_masks: list[int], end_passes: list[int], out: list[int]) -> float:
            if keft:
                return out.index(me) * order_weight if me in out else n
            place = classic_place(me, end_masks, end_passes, pass_rule)
            return place + win_weight if place > 1 else place

        infer = self.infer and bool(know.decisions)
        others = [s for s in range(n) if s != me]
        rand = rng.random
        # P(a seat plays like the heuristic rather than at random); 1 = no doubt.
        like_heuristic = [1.0] * n
        type_sums = [0.0] * n
        mh = infer and self.sampler == "mh"
        if mh:
            prior = self.prior_heuristic if self.adaptive else 1.0
            model = choice_model(keft, self.model_eps, lowest)
            cache: dict[tuple[int, int], tuple[float, float]] = {}

            def seat_terms(s: int, hand: int) -> tuple[float, float]:
                """(weight, P(heuristic type)) of seat ``s`` holding ``hand``."""
                key = (s, hand)
                got = cache.get(key)
                if got is None:
                    lm, lr = know.seat_likelihood(s, hand, model)
                    w = prior * lm + (1.0 - prior) * lr
                    got = cache[key] = (w, prior * lm / w if w > 0.0 else prior)
                return got

            def weight_of(s: int, hand: int) -> float:
                return seat_terms(s, hand)[0]

            chains = []
            for _ in range(self.chains):
                masks = know.sample(rng)
                weights = know.mcmc(rng, masks, weight_of, self.burn)
                chains.append((masks, weights))
        elif infer:
            model = choice_model(keft, self.model_eps, lowest)
            pool: list[list[int]] = []
            cum: list[float] = []
            total = 0.0
            first = [know.sample(rng) for _ in range(self.warmup)]
            scored = [(cand, *know.seat_likelihoods(cand, model)) for cand in first]
            if self.adaptive:
                # Each seat's type, by how well each explains its plays over deals
                # from the prior (a seat's plays depend on its own hand alone).
                prior = self.prior_heuristic
                for s in others:
                    em = sum(lm[s] for _, lm, _ in scored)
                    er = sum(lr[s] for _, _, lr in scored)
                    denom = prior * em + (1.0 - prior) * er
                    like_heuristic[s] = prior * em / denom if denom > 0.0 else prior

            def weight(lm: list[float], lr: list[float]) -> float:
                w = 1.0
                for s in others:
                    h = like_heuristic[s]
                    w *= h * lm[s] + (1.0 - h) * lr[s]
                return w

            for cand, lm, lr in scored:
                w = weight(lm, lr)
                if w > 0.0:
                    pool.append(cand)
                    total += w
                    cum.append(total)
        eps_of = [eps] * n
        mixed_types = any(like_heuristic[s] < 1.0 for s in others)
        done = 0
        while True:
            if mh:
                masks, weights = chains[done % len(chains)]
                know.mcmc(rng, masks, weight_of, self.thin, weights)
                for s in others:  # this round's type for each seat, given the deal
                    h = seat_terms(s, masks[s])[1] if masks[s] else 1.0
                    type_sums[s] += h
                    eps_of[s] = eps if h >= 1.0 or rand() < h else 1.0
            else:
                if infer:
                    for _ in range(self.pool_factor):
                        cand = know.sample(rng)
                        w = weight(*know.seat_likelihoods(cand, model))
                        if w > 0.0:
                            pool.append(cand)
                            total += w
                            cum.append(total)
                    if pool:
                        pick = bisect.bisect(cum, rand() * total)
                        masks = pool[min(pick, len(pool) - 1)]
                    else:
                        masks = know.sample(rng)
                else:
                    masks = know.sample(rng)
                if mixed_types:  # draw each seat's type for this round's playouts
                    for s in others:
                        eps_of[s] = eps if rand() < like_heuristic[s] else 1.0
            if tree:  # the deal is kept for the tree, which rates the cards at the end
                particles.append((list(masks), list(eps_of)))
                bits_now: list[int] = []
            else:
                bits_now = bits
                fs = FastState(n, keft, tuple(masks), know.playable, me, know.passes, know.out)
            for j, b in enumerate(bits_now):
                after = fast_apply(fs, b)
                if lookahead:
                    sums[j] += lookahead_playout(
                        after, rng, eps_of, lowest, me, score_end, lookahead
                    )
                elif heuristic:
                    sums[j] += score_end(*heuristic_playout(after, rng, eps_of, lowest))
                else:
                    res = random_playout(after, rng)
                    if keft:
                        sums[j] += score_end([], [], list(res.out))
                    else:
                        place = playout_places(res, pass_rule)[me]
                        sums[j] += place + win_weight if place > 1 else place
            done += 1
            if limit is not None and done >= limit:
                break
            if deadline is not None and done >= self.min_playouts:
                if time.perf_counter() >= deadline:
                    break
        self.last_playouts = done
        if mh:
            like_heuristic = [1.0 if s == me else type_sums[s] / done for s in range(n)]
        self.last_like_heuristic = like_heuristic
        if tree:
            args = (me, keft, know.playable, know.passes, know.out, rng, lowest, score_end)
            args += (tree, self.min_group, sum(bits))
            used = len(particles) if end is None else min(len(particles), TREE_FIRST_DEALS)
            t0 = time.perf_counter()
            values = info_set_values(particles[:used], *args)
            took = time.perf_counter() - t0
            # Time-capped: a tree over twice the deals takes about twice as long
            # (a little more: bigger groups are searched deeper), so double the
            # deals while the next tree still fits in the budget.
            while end is not None and used < len(particles):
                more = min(len(particles), 2 * used)
                if time.perf_counter() + 1.25 * took * more / used > end:
                    break
                t0 = time.perf_counter()
                values = info_set_values(particles[:more], *args)
                took = time.perf_counter() - t0
                used = more
            self.last_playouts = used
            return [values[b] for b in bits]
        return [s / done for s in sums]

    def decide(
        self, view: dict[str, Any], history: Sequence[tuple[int, str]], legal: list[str]
    ) -> str:
        if self.endgame and sum(1 for c in view["counts"] if c) == 2:
            know = Knowledge(view, history)
            solved = solve(know.hand, know.unknown)
            if solved is not None:
                wins = solved[0]
                winners = [c for c in legal if wins.get(1 << INDEX36[c])]
                if len(winners) == 1:
                    return winners[0]
                if winners:  # each forces the win; the playouts pick among them
                    legal = winners
        scores = self.evaluate(view, history, legal)
        best = min(range(len(legal)), key=scores.__getitem__)
        return legal[best]
