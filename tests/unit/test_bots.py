"""House bots: legality, no peeking at hidden hands, the determinisation sampler,
the heuristic's tips, the exact endgame, and the registry.

Positions are real games played through the public engine API; the rules
the tests re-derive (what was playable when someone passed) come from
``devyatka.rows`` alone, independently of the bots' own rule helpers.
"""

import itertools
import random
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.devyatka.bots import BOTS, get_bot
from games.devyatka.bots import knowledge as kn
from games.devyatka.bots.endgame import solve
from games.devyatka.bots.heuristic import HeuristicBot
from games.devyatka.bots.search import SearchBot, classic_place, heuristic_playout
from games.engine import devyatka as d
from games.engine.cards import INDEX36, cards_of, mask_of

RANKS = "6789TJQKA"
CLASSIC = d.Options()
KEFT = d.Options(keft=True)

players_st = st.integers(min_value=2, max_value=6)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)
options_st = st.builds(d.Options, keft=st.booleans(), pass_rule=st.booleans())


def fast_search(seed=1, playouts=3):
    """A count-based search bot (reproducible, quick)."""
    return SearchBot(seed=seed, budget_ms=None, playouts=playouts)


def play_to(players, seed, options, moves, chooser=None):
    """Deal and play ``moves`` cards (random, or ``chooser(view, history)``).

    Returns ``(state, history)``; history is the public list of (seat, move).
    """
    rng = random.Random(seed)
    state = d.deal(players, seed, options)
    history = []
    for _ in range(moves):
        if state.over:
            break
        if chooser is None:
            card = rng.choice(d.legal_moves(state))
        else:
            card = chooser(d.view(state, state.to_move), history)
        state, actions = d.apply(state, card)
        history.extend(actions)
    return state, history


def playable_by_the_book(state: d.State) -> set[str]:
    """Cards anyone could legally play in ``state`` (D3, D5, D8), from rows() alone."""
    rows = d.rows(state)
    if rows["D"] is None:
        return {"9D"}
    out = set()
    for s, ends in rows.items():
        if ends is None:
            out.add("9" + s)
            continue
        lo, hi = RANKS.index(ends[0][0]), RANKS.index(ends[1][0])
        if lo > 0:
            out.add(RANKS[lo - 1] + s)
        if hi < 8:
            out.add(RANKS[hi + 1] + s)
    return out


def pass_facts(players, seed, options, moves):
    """Play randomly; return (state, history, [(seat, cards playable when it passed)])."""
    rng = random.Random(seed)
    state = d.deal(players, seed, options)
    history, facts = [], []
    for _ in range(moves):
        if state.over:
            break
        state, actions = d.apply(state, rng.choice(d.legal_moves(state)))
        history.extend(actions)
        # Passes follow the card, so the table they saw is the table after it.
        playable = playable_by_the_book(state)
        for seat, move in actions[1:]:
            assert move == d.PASS
            facts.append((seat, playable))
    return state, history, facts


def position(cards_by_seat, to_move=0, options=CLASSIC):
    """A position from explicit hands; every card in no hand is on the table."""
    hands = [c.split() for c in cards_by_seat]
    return d.from_hands_unchecked(hands, options, to_move=to_move)


# --------------------------------------------------------------------------
# Legality.
# --------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(players=players_st, seed=seed_st, options=options_st, levels=st.randoms())
def test_bots_only_choose_legal_moves(players, seed, options, levels):
    """Whole games where every move comes from a bot of a random level."""
    bots = {
        "random": get_bot("random", seed=seed),
        "heuristic": get_bot("heuristic", seed=seed),
        "search": get_bot("search", seed=seed, playouts=2, budget_ms=None),
    }
    assert set(bots) == set(BOTS)
    state = d.deal(players, seed, options)
    history = []
    while not state.over:
        view = d.view(state, state.to_move)
        card = bots[levels.choice(sorted(bots))].choose(view, history)
        assert card in view["legal"]
        state, actions = d.apply(state, card)
        history.extend(actions)


@settings(max_examples=25, deadline=None)
@given(players=players_st, seed=seed_st, options=options_st, moves=st.integers(0, 40))
def test_every_level_chooses_legal_from_random_positions(players, seed, options, moves):
    state, history = play_to(players, seed, options, moves)
    if state.over:
        return
    view = d.view(state, state.to_move)
    for level in BOTS:
        extra = {"playouts": 3, "budget_ms": None} if level == "search" else {}
        assert get_bot(level, seed=seed, **extra).choose(view, history) in view["legal"]


def test_one_legal_card_is_returned_at_once():
    class Boom(SearchBot):
        def decide(self, view, history, legal):  # pragma: no cover - must not run
            raise AssertionError("searched a forced move")

    view = {"legal": ["9D"], "hand": ["9D", "AS"], "seat": 0}
    assert Boom(seed=1).choose(view, []) == "9D"
    for level in BOTS:
        assert get_bot(level, seed=1).choose(view, []) == "9D"


def test_no_legal_card_is_an_error():
    state = d.deal(4, 3)
    not_to_move = (state.to_move + 1) % 4
    with pytest.raises(ValueError):
        get_bot("heuristic").choose(d.view(state, not_to_move), [])


def test_registry():
    assert sorted(BOTS) == ["heuristic", "random", "search"]
    assert isinstance(get_bot("search", seed=5, budget_ms=50), SearchBot)
    assert get_bot("search", seed=5, budget_ms=50).budget_ms == 50
    with pytest.raises(ValueError, match="Unknown bot level"):
        get_bot("grandmaster")
    with pytest.raises(ValueError):
        SearchBot(budget_ms=None, playouts=None)


def test_no_django_below_the_engine():
    code = (
        "import sys, games.devyatka.bots, games.devyatka.bots.search, games.devyatka.coach;"
        "import games.golf.bots, games.golf.coach, games.engine.devyatka, games.engine.golf;"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --------------------------------------------------------------------------
# Determinism and no peeking.
# --------------------------------------------------------------------------


def strings_in(obj) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set(map(str, obj)).union(*(strings_in(v) for v in obj.values()))
    if isinstance(obj, list | tuple):
        return set().union(*(strings_in(v) for v in obj))
    return set()


def scrambled(state: d.State, seat: int, seed: int) -> d.State:
    """The same position for ``seat``, the other hands' cards dealt afresh (same counts)."""
    rng = random.Random(seed)
    hidden = [c for s in range(state.players) if s != seat for c in state.hands[s]]
    rng.shuffle(hidden)
    hands, pos = [], 0
    for s in range(state.players):
        if s == seat:
            hands.append(list(state.hands[s]))
        else:
            k = len(state.hands[s])
            hands.append(hidden[pos : pos + k])
            pos += k
    return d.from_hands_unchecked(hands, state.options, state.to_move, state.passes, state.out)


@pytest.mark.parametrize("options", [CLASSIC, KEFT], ids=["classic", "keft"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_search_never_reads_hidden_hands(options, seed):
    heur = HeuristicBot()
    state, history = play_to(4, seed, options, 10, heur.choose)
    while len(d.legal_moves(state)) < 2:  # find a real decision
        state, actions = d.apply(state, heur.choose(d.view(state, state.to_move), history))
        history.extend(actions)
    seat = state.to_move
    other = scrambled(state, seat, seed + 100)
    assert other.hands != state.hands  # the hidden cards really differ
    view_a, view_b = d.view(state, seat), d.view(other, seat)
    assert view_a == view_b  # ... yet the seat sees exactly the same
    shown = strings_in(view_a)
    for s in range(4):  # and the view holds no card of another hand
        if s != seat:
            assert not set(state.hands[s]) & shown
    choice_a = SearchBot(seed=7, budget_ms=None, playouts=40).choose(view_a, history)
    choice_b = SearchBot(seed=7, budget_ms=None, playouts=40).choose(view_b, history)
    assert choice_a == choice_b
    scores_a = SearchBot(seed=7, budget_ms=None, playouts=40).evaluate(
        view_a, history, view_a["legal"]
    )
    scores_b = SearchBot(seed=7, budget_ms=None, playouts=40).evaluate(
        view_b, history, view_b["legal"]
    )
    assert scores_a == scores_b


def decision_point(players, seed, options, moves):
    """A position after ``moves`` random cards where the mover has a real choice."""
    state, history = play_to(players, seed, options, moves)
    while len(d.legal_moves(state)) < 2:
        state, actions = d.apply(state, d.legal_moves(state)[0])
        history.extend(actions)
    return state, history


def test_decisions_are_reproducible_given_the_seed():
    state, history = decision_point(4, 11, CLASSIC, 8)
    view = d.view(state, state.to_move)
    bot = SearchBot(seed=3, budget_ms=None, playouts=25)
    first = bot.evaluate(view, history, view["legal"])
    other, other_history = decision_point(4, 12, KEFT, 5)
    bot.choose(d.view(other, other.to_move), other_history)  # an unrelated question between
    assert bot.evaluate(view, history, view["legal"]) == first
    fresh = SearchBot(seed=3, budget_ms=None, playouts=25)
    assert fresh.evaluate(view, history, view["legal"]) == first
    for level in ("random", "heuristic"):
        picks = {get_bot(level, seed=9).choose(view, history) for _ in range(5)}
        assert len(picks) == 1


def test_time_budget_is_respected():
    state, history = decision_point(4, 5, CLASSIC, 4)
    bot = get_bot("search", seed=1, budget_ms=30)
    t0 = time.perf_counter()
    assert bot.choose(d.view(state, state.to_move), history) in d.legal_moves(state)
    assert time.perf_counter() - t0 < 1.0
    assert bot.last_playouts >= bot.min_playouts


# --------------------------------------------------------------------------
# The knowledge and the determinisation sampler.
# --------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(players=players_st, seed=seed_st, options=options_st, moves=st.integers(0, 45))
def test_sampler_respects_everything_known(players, seed, options, moves):
    state, history, facts = pass_facts(players, seed, options, moves)
    if state.over:
        return
    seat = state.to_move
    view = d.view(state, seat)
    know = kn.Knowledge(view, history)
    assert know.history_ok
    own = mask_of(state.hands[seat])
    table = kn.FULL & ~sum(mask_of(h) for h in state.hands)
    assert know.hand == own and know.table == table
    assert know.playable == d.fast_state(players, options.keft, state.masks, seat).playable
    # The pass inferences are sound: the real hidden hands satisfy them.
    for s in range(players):
        assert not state.masks[s] & know.forbidden[s]
    rng = random.Random(seed)
    for _ in range(20):
        masks = know.sample(rng)
        assert masks[seat] == own
        seen = 0
        for s in range(players):
            assert masks[s].bit_count() == len(state.hands[s])  # right counts
            assert not masks[s] & seen  # nobody shares a card
            seen |= masks[s]
            if s != seat:
                assert not masks[s] & (own | table)  # no own or table card
        assert seen == kn.FULL & ~table  # every hidden card is dealt
        for s, playable in facts:  # a seat that passed held nothing playable then
            if s != seat:
                assert not set(cards_of(masks[s])) & playable, (s, playable)


def test_sampler_uses_pass_inferences_in_a_constructed_game():
    # Seat 1 passes right after 9D: it holds no 8D, TD nor any other nine.
    hands = [
        "9D 6C 7C 8C 6S 7S 8S 6H 7H",
        "TC JC QC KC AC TS JS QS KS",
        "8D 7D 6D JD QD KD AD 8H AS",
        "TD 9C 9S 9H TH JH QH KH AH",
    ]
    state = d.start([h.split() for h in hands], CLASSIC)
    state, history = d.apply(state, "9D")
    assert history == [(0, "9D"), (1, d.PASS)] and state.to_move == 2
    know = kn.Knowledge(d.view(state, 2), history)
    # Seat 2 holds 8D itself; the rest is what it learnt about seat 1.
    assert set(cards_of(know.forbidden[1])) == {"TD", "9C", "9H", "9S"}
    assert not know.forbidden[0] and not know.forbidden[3]
    rng = random.Random(0)
    for _ in range(200):
        masks = know.sample(rng)
        assert not set(cards_of(masks[1])) & {"TD", "9C", "9H", "9S"}
        assert (masks[0] | masks[3]) & mask_of(["TD", "9C", "9H", "9S"]) == mask_of(
            ["TD", "9C", "9H", "9S"]
        )


def test_checked_assignment_finds_the_only_consistent_deal():
    # Seat 1 and seat 2 have each passed on half of the hidden cards: one deal fits.
    state, history = play_to(3, 4, CLASSIC, 3)
    view = d.view(state, state.to_move)
    know = kn.Knowledge(view, history)
    seats = [s for s in range(3) if s != know.seat]
    hidden = kn.bits_of(know.unknown)
    first = sum(hidden[: view["counts"][seats[0]]])
    know.forbidden = tuple(
        (know.unknown & ~first) if s == seats[0] else first if s == seats[1] else 0
        for s in range(3)
    )
    rng = random.Random(1)
    caps = [view["counts"][s] for s in seats]
    got = know._assign_checked(rng, seats, caps, know.unknown)
    assert got == [first, know.unknown & ~first]
    for _ in range(5):
        masks = know.sample(rng)
        assert masks[seats[0]] == first


def test_inconsistent_history_is_ignored_not_fatal():
    state, history = play_to(4, 21, CLASSIC, 12)
    view = d.view(state, state.to_move)
    know = kn.Knowledge(view, history[:-3] + [(0, "AS"), (1, "pass")])
    assert not know.history_ok and not any(know.forbidden)
    masks = know.sample(random.Random(2))
    assert [m.bit_count() for m in masks] == view["counts"]
    assert get_bot("search", seed=1, playouts=3, budget_ms=None).choose(view, []) in view["legal"]


def test_rule_helpers_match_the_engine():
    rng = random.Random(3)
    for _ in range(150):
        players = rng.randint(2, 6)
        state, _ = play_to(players, rng.randrange(10**6), CLASSIC, rng.randint(0, 30))
        if state.over:
            continue
        table = kn.FULL & ~sum(state.masks)
        assert kn.playable_of(table) == state.playable
        assert kn.table_of_rows(d.view(state, None)["rows"]) == table
        fs = d.to_fast(state)
        for bit in kn.bits_of(d.fast_legal(fs)):  # what a card frees (NEXT)
            after = d.fast_apply(fs, bit)
            if after.to_move >= 0:
                assert after.playable == (fs.playable ^ bit) | kn.NEXT[bit]


def test_likelihood_prefers_the_hands_that_explain_the_plays():
    # A heuristic player's card plays are likelier under its real hand than under most others.
    heur = HeuristicBot()
    better = 0
    for seed in range(20):
        state, history = play_to(4, seed, CLASSIC, 16, heur.choose)
        if state.over:
            continue
        know = kn.Knowledge(d.view(state, state.to_move), history)
        from games.devyatka.bots.heuristic import choice_model

        model = choice_model(False, 0.2)
        true_w = know.likelihood(state.masks, model)
        rng = random.Random(seed)
        mean_w = sum(know.likelihood(know.sample(rng), model) for _ in range(50)) / 50
        better += true_w >= mean_w
    assert better >= 15


def test_search_tells_a_random_player_from_a_heuristic_one():
    """Seat 1 plays at random, seats 2 and 3 like the heuristic: seat 0 learns which is which."""
    random_seat, heuristic_seats = [], []
    for seed in range(12):
        bots = [None, get_bot("random", seed=seed), HeuristicBot(), HeuristicBot()]
        state = d.deal(4, seed, CLASSIC)
        history = []
        while not state.over:
            seat = state.to_move
            view = d.view(state, seat)
            if seat == 0:
                if len(history) > 16 and len(view["legal"]) > 1:
                    bot = SearchBot(seed=seed, budget_ms=None, playouts=1, warmup=60)
                    bot.evaluate(view, history, view["legal"])
                    random_seat.append(bot.last_like_heuristic[1])
                    heuristic_seats.extend(bot.last_like_heuristic[2:])
                card = HeuristicBot().choose(view, history)
            else:
                card = bots[seat].choose(view, history)
            state, actions = d.apply(state, card)
            history.extend(actions)
    assert random_seat and heuristic_seats
    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    assert mean(heuristic_seats) > mean(random_seat) + 0.2


def test_seat_likelihoods_factorise_by_seat():
    heur = HeuristicBot()
    state, history = play_to(4, 8, KEFT, 20, heur.choose)
    know = kn.Knowledge(d.view(state, state.to_move), history)
    from games.devyatka.bots.heuristic import choice_model

    model = choice_model(True, 0.2)
    rng = random.Random(1)
    for _ in range(10):
        masks = know.sample(rng)
        lm, lr = know.seat_likelihoods(masks, model)
        assert lm[know.seat] == lr[know.seat] == 1.0
        product = 1.0
        for x in lm:
            product *= x
        assert product == pytest.approx(know.likelihood(masks, model))
        assert all(0.0 < x <= 1.0 for x in lm + lr)


def hidden_deals(know):
    """Every deal of the unknown cards that keeps the counts and the pass inferences."""
    seats = [s for s in range(know.players) if s != know.seat and know.counts[s]]

    def deal(i, left):
        if i == len(seats):
            yield {}
            return
        s = seats[i]
        allowed = kn.bits_of(left & ~know.forbidden[s])
        for combo in itertools.combinations(allowed, know.counts[s]):
            hand = sum(combo)
            for rest in deal(i + 1, left & ~hand):
                yield {s: hand, **rest}

    own = {know.seat: know.hand}
    return [
        tuple({**own, **d_}.get(s, 0) for s in range(know.players)) for d_ in deal(0, know.unknown)
    ]


def test_mcmc_keeps_the_counts_and_every_pass_inference():
    for seed in range(40):
        players = 3 + seed % 4
        options = KEFT if seed % 3 == 0 else CLASSIC
        state, history, facts = pass_facts(players, seed, options, 8 + seed % 20)
        if state.over:
            continue
        seat = state.to_move
        know = kn.Knowledge(d.view(state, seat), history)
        rng = random.Random(seed)
        masks = know.sample(rng)
        # Any weight will do for the constraints; this one favours some hands over others.
        weights = know.mcmc(rng, masks, lambda s, h: 1.0 + (h % 7), 0)
        for _ in range(30):
            weights = know.mcmc(rng, masks, lambda s, h: 1.0 + (h % 7), 5, weights)
            assert masks[seat] == state.masks[seat]
            seen = 0
            for s in range(players):
                assert masks[s].bit_count() == len(state.hands[s])
                assert not masks[s] & seen
                seen |= masks[s]
                if s != seat:
                    assert not masks[s] & know.forbidden[s]
                    assert weights[s] == 1.0 + (masks[s] % 7)
            assert seen == kn.FULL & ~know.table
            for s, playable in facts:
                if s != seat:
                    assert not set(cards_of(masks[s])) & playable


def test_mcmc_is_deterministic_given_the_seed():
    state, history = play_to(4, 31, CLASSIC, 14, HeuristicBot().choose)
    know = kn.Knowledge(d.view(state, state.to_move), history)
    from games.devyatka.bots.heuristic import choice_model

    model = choice_model(False, 0.02, lowest=True)

    def weight(s, hand):
        return know.seat_likelihood(s, hand, model)[0]

    runs = []
    for _ in range(2):
        rng = random.Random(5)
        masks = know.sample(rng)
        know.mcmc(rng, masks, weight, 300)
        runs.append(masks)
    assert runs[0] == runs[1]


def test_mcmc_samples_the_target_distribution():
    """A late 3-player position with few hidden deals: chain frequencies match the target."""
    for seed in range(200):
        state, history = play_to(3, seed, CLASSIC, 22)
        if state.over or len(d.legal_moves(state)) < 1:
            continue
        know = kn.Knowledge(d.view(state, state.to_move), history)
        deals = hidden_deals(know)
        if 4 <= len(deals) <= 40:
            break
    else:  # pragma: no cover - the seeds above always give one
        pytest.fail("no small position found")
    others = [s for s in range(3) if s != know.seat]

    def weight(s, hand):  # an arbitrary positive target, factorised by seat
        return 1.0 + (hand * (s + 3)) % 11

    target = {}
    for deal_ in deals:
        w = 1.0
        for s in others:
            w *= weight(s, deal_[s])
        target[deal_] = w
    total = sum(target.values())
    rng = random.Random(9)
    masks = know.sample(rng)
    weights = know.mcmc(rng, masks, weight, 100)
    counts = dict.fromkeys(target, 0)
    draws = 20_000
    for _ in range(draws):
        weights = know.mcmc(rng, masks, weight, 3, weights)
        counts[tuple(masks)] += 1
    for deal_, w in target.items():
        assert counts[deal_] / draws == pytest.approx(w / total, abs=0.02)


def test_choice_model_with_lowest_picks_the_heuristics_own_card():
    from games.devyatka.bots.heuristic import best_card, best_set, choice_model

    rng = random.Random(2)
    checked = 0
    for _ in range(200):
        masks = d.random_deal_masks(4, rng)
        hand = masks[0]
        table = 0
        legal = hand & rng.getrandbits(36)
        if legal.bit_count() < 2:
            continue
        model = choice_model(False, 0.1, lowest=True)
        probs = {b: model(b, legal, hand, table) for b in kn.bits_of(legal)}
        assert sum(probs.values()) == pytest.approx(1.0)
        chosen = best_card(legal, hand, table, False)
        assert max(probs, key=probs.get) == chosen
        if best_set(legal, hand, table, False).bit_count() > 1:
            checked += 1
    assert checked  # ties did occur, and the model followed the bot's tie-break


# --------------------------------------------------------------------------
# The heuristic's tips.
# --------------------------------------------------------------------------

# In these positions every card in no hand is on the table: clubs and spades
# complete, and the diamond and heart rows the comments say.


def test_heuristic_frees_its_own_next_card():
    # 9D and 9H on the table. 8D frees my 7D; 8H would free the other's 7H.
    state = position(
        [
            "8D 7D 8H",
            "6D TD JD QD KD AD 6H 7H TH JH QH KH AH",
        ]
    )
    assert sorted(d.legal_moves(state)) == ["8D", "8H"]
    assert get_bot("heuristic").choose(d.view(state, 0), []) == "8D"


def test_heuristic_holds_a_blocker_and_plays_a_safe_ace():
    # Diamonds 8D-KD and 9H on the table: AD is safe, 8H would let 7H and 6H out.
    state = position(["AD 8H QH", "6D 7D 6H 7H TH JH KH AH"])
    assert sorted(d.legal_moves(state)) == ["8H", "AD"]
    assert get_bot("heuristic").choose(d.view(state, 0), []) == "AD"


def test_heuristic_plays_a_safe_six_rather_than_open_a_bare_nine():
    # Diamonds 7D-AD on the table, hearts unopened: 6D is safe, 9H would open hearts.
    state = position(["9H 6D", "6H 7H 8H TH JH QH KH AH"], options=KEFT)
    assert sorted(d.legal_moves(state)) == ["6D", "9H"]
    assert get_bot("heuristic").choose(d.view(state, 0), []) == "6D"


def test_heuristic_opens_a_nine_with_a_follow_up():
    state = position(["9H 8H 6D", "6H 7H TH JH QH KH AH"])
    assert sorted(d.legal_moves(state)) == ["6D", "9H"]
    assert get_bot("heuristic").choose(d.view(state, 0), []) == "9H"


def test_heuristic_opens_up_the_way_to_its_buried_cards():
    # 8H lets the other's 7H out but my 6H follows: better than the safe AD.
    state = position(["AD 8H 6H", "6D 7D 7H TH JH QH KH AH"])
    assert sorted(d.legal_moves(state)) == ["8H", "AD"]
    assert get_bot("heuristic").choose(d.view(state, 0), []) == "8H"


# --------------------------------------------------------------------------
# Search: playouts, scoring and the exact endgame.
# --------------------------------------------------------------------------


def test_heuristic_playouts_follow_the_rules_and_score_like_the_engine():
    rng = random.Random(4)
    for seed in range(60):
        players = 2 + seed % 5
        keft = seed % 2 == 1
        fs = d.fast_state(players, keft, d.random_deal_masks(players, rng))
        masks, passes, out = heuristic_playout(fs, rng, eps=0.3)
        assert all(m & ~m0 == 0 for m, m0 in zip(masks, fs.masks, strict=True))
        assert len(out) == (players - 1 if keft else 1)
        assert [s for s in range(players) if not masks[s]] == sorted(out)
        if not keft:
            res = d.PlayoutResult(
                tuple(m.bit_count() for m in masks),
                tuple(sum(d.card_points(c) for c in cards_of(m)) for m in masks),
                tuple(passes),
                tuple(out),
            )
            for pass_rule in (False, True):
                expected = d.playout_places(res, pass_rule)
                got = tuple(classic_place(s, masks, passes, pass_rule) for s in range(players))
                assert got == expected


def test_heuristic_playout_with_exact_ties_replays_the_heuristic_bots_game():
    heur = HeuristicBot()
    for seed in range(30):
        options = KEFT if seed % 2 else CLASSIC
        players = 3 + seed % 4
        state = d.deal(players, seed, options)
        fs = d.to_fast(state)
        history = []
        while not state.over:
            card = heur.choose(d.view(state, state.to_move), history)
            state, actions = d.apply(state, card)
            history.extend(actions)
        masks, passes, out = heuristic_playout(fs, random.Random(seed), lowest=True)
        assert list(masks) == list(state.masks)
        assert list(passes) == list(state.passes) and list(out) == list(state.out)


def end_score(me: int, keft: bool, players: int):
    """A playout end's score for seat ``me`` (lower is better): Keft out order, classic place."""

    def score(masks, passes, out):
        if keft:
            return out.index(me) if me in out else players
        return classic_place(me, masks, passes, False)

    return score


def test_looking_ahead_never_scores_worse_than_the_plain_heuristic_playout():
    # With exact ties and no random seats the playouts are deterministic: the
    # look-ahead tries the heuristic's own card among the others and keeps the best.
    from games.devyatka.bots.search import lookahead_playout

    rng = random.Random(6)
    for seed in range(40):
        players = 3 + seed % 3
        keft = seed % 2 == 1
        fs = d.fast_state(players, keft, d.random_deal_masks(players, rng))
        me = (fs.to_move + 1) % players

        score = end_score(me, keft, players)

        plain = score(*heuristic_playout(fs, rng, lowest=True))
        eps = [0.0] * players
        for depth in (1, 2, 9):
            assert lookahead_playout(fs, rng, eps, True, me, score, depth) <= plain


def test_both_samplers_choose_legal_cards():
    for seed in range(6):
        state, history = decision_point(4, 40 + seed, KEFT if seed % 2 else CLASSIC, 12)
        view = d.view(state, state.to_move)
        for sampler in ("mh", "is"):
            bot = SearchBot(seed=seed, budget_ms=None, playouts=5, sampler=sampler)
            assert bot.choose(view, history) in view["legal"]
    with pytest.raises(ValueError):
        SearchBot(playouts=5, sampler="gibbs")


def brute_force_wins(state: d.State) -> bool:
    """Public-API minimax: does the player to move go out before the other?"""
    me = state.to_move
    for card in d.legal_moves(state):
        nxt = d.play(state, card)
        if nxt.over:
            if nxt.out[-1] == me:
                return True
            continue
        if nxt.to_move == me:
            if brute_force_wins(nxt):
                return True
        elif not brute_force_wins(nxt):
            return True
    return False


@settings(max_examples=40, deadline=None)
@given(seed=seed_st, keep=st.integers(3, 7))
def test_endgame_solver_matches_brute_force(seed, keep):
    # A two-player game played at random down to ``2 * keep`` cards in hand.
    rng = random.Random(seed)
    state = d.deal(2, seed)
    while sum(len(h) for h in state.hands) > 2 * keep:
        state = d.play(state, rng.choice(d.legal_moves(state)))
        if state.over:
            return
    me = state.to_move
    mine, theirs = state.masks[me], state.masks[1 - me]
    wins, nodes = solve(mine, theirs)
    assert nodes >= 0
    assert set(wins) == {1 << INDEX36[c] for c in d.legal_moves(state)}
    for card in d.legal_moves(state):
        nxt = d.play(state, card)
        if nxt.over:
            expected = True
        elif nxt.to_move == me:
            expected = brute_force_wins(nxt)
        else:
            expected = not brute_force_wins(nxt)
        assert wins[1 << INDEX36[card]] == expected, card


def test_search_takes_the_forced_win_in_two_hand_endgames():
    """Keft games of 4 down to two hands: whenever some card forces the win, it is played."""
    heur = HeuristicBot()
    checked = 0
    for seed in range(60):
        state = d.deal(4, seed, KEFT)
        history = []
        while not state.over:
            view = d.view(state, state.to_move)
            card = heur.choose(view, history)
            if len(view["legal"]) > 1 and sum(1 for c in view["counts"] if c) == 2:
                me = state.to_move
                theirs = next(s for s in range(4) if s != me and state.masks[s])
                wins, _ = solve(state.masks[me], state.masks[theirs])
                winners = {c for c in view["legal"] if wins[1 << INDEX36[c]]}
                if winners and len(winners) < len(view["legal"]):
                    bot = SearchBot(seed=seed, budget_ms=None, playouts=4)
                    assert bot.choose(view, history) in winners
                    checked += 1
            state, actions = d.apply(state, card)
            history.extend(actions)
    assert checked >= 5


def test_future_choices_per_information_set_lie_between_heuristic_and_clairvoyant():
    # Deterministic playouts (exact ties, no random seats). Depth 1: the future
    # self plays the heuristic, whose card only depends on what the seat sees,
    # so it is one card per information set. Depth 2: the best single card per
    # information set, never worse than the heuristic's. The look-ahead playout
    # picks the best card per deal (as if the deal were known): never worse.
    from games.devyatka.bots.search import info_set_values, lookahead_playout

    rng = random.Random(11)
    for seed in range(30):
        players = 3 + seed % 3
        keft = seed % 2 == 1
        fs = d.fast_state(players, keft, d.random_deal_masks(players, rng))
        for _ in range(rng.randrange(3, 9)):  # into the game, where choices are wider
            legal = fs.masks[fs.to_move] & fs.playable
            fs = d.fast_apply(fs, rng.choice([b for i in range(36) if (b := 1 << i) & legal]))
        me = fs.to_move
        others = sum(m for s, m in enumerate(fs.masks) if s != me)
        hidden = [b for i in range(36) if (b := 1 << i) & others]
        particles = []
        for _ in range(12):  # deals that agree with everything ``me`` knows
            rng.shuffle(hidden)
            masks, k = list(fs.masks), 0
            for s in range(players):
                if s != me:
                    c = fs.masks[s].bit_count()
                    masks[s] = sum(hidden[k : k + c])
                    k += c
            particles.append((masks, [0.0] * players))

        score = end_score(me, keft, players)

        args = (me, keft, fs.playable, fs.passes, fs.out, rng, True, score)
        heuristic = info_set_values(particles, *args, 1, 1)
        per_set = info_set_values(particles, *args, 2, 1)
        assert (
            set(per_set) == set(heuristic)
            and len(per_set) == (fs.masks[me] & fs.playable).bit_count()
        )
        for b, value in per_set.items():
            afters = [d.fast_apply(fs._replace(masks=tuple(m)), b) for m, _ in particles]
            plain = sum(score(*heuristic_playout(a, rng, lowest=True)) for a in afters)
            clairvoyant = sum(
                lookahead_playout(a, rng, [0.0] * players, True, me, score, 1) for a in afters
            )
            assert heuristic[b] == pytest.approx(plain / len(particles))
            assert clairvoyant / len(particles) <= value + 1e-9
            assert value <= heuristic[b] + 1e-9
