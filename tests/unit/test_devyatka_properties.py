"""Property tests: random deals, random legal play, 2-6 players, classic and Keft,
with and without the pass rule. The rules are re-derived here independently
(from the rows on the table) and compared with the engine at every step."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import devyatka as d
from games.engine.cards import DECK36, INDEX36, card_points

RANKS = "6789TJQKA"

players_st = st.integers(min_value=2, max_value=6)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)
options_st = st.builds(d.Options, keft=st.booleans(), pass_rule=st.booleans())

SETTINGS = settings(max_examples=150, deadline=None)


def table_cards(state: d.State) -> set[str]:
    """The cards in the rows, from rows() alone."""
    cards = set()
    for s, ends in d.rows(state).items():
        if ends:
            lo, hi = RANKS.index(ends[0][0]), RANKS.index(ends[1][0])
            assert lo <= 3 <= hi, "every row is built around its nine"
            cards |= {RANKS[r] + s for r in range(lo, hi + 1)}
    return cards


def legal_by_the_book(state: d.State, hand) -> list[str]:
    """D3/D5 re-derived from the rows: which of ``hand`` may be played now."""
    row = d.rows(state)
    if row["D"] is None:
        return ["9D"] if "9D" in hand else []
    legal = []
    for card in hand:
        r, s = RANKS.index(card[0]), card[1]
        ends = row[s]
        if ends is None:
            ok = r == 3
        else:
            ok = r == RANKS.index(ends[0][0]) - 1 or r == RANKS.index(ends[1][0]) + 1
        if ok:
            legal.append(card)
    return sorted(legal, key=INDEX36.__getitem__)


def strings_in(obj) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(strings_in(v) for v in obj.values()), set(obj))
    if isinstance(obj, list | tuple):
        return set().union(set(), *(strings_in(v) for v in obj))
    return set()


def expected_places(state: d.State) -> list[int]:
    n = state.players
    left = [len(h) for h in state.hands]
    points = [sum(card_points(c) for c in h) for h in state.hands]
    if state.options.pass_rule:
        keys = [(left[i], state.passes[i], points[i]) for i in range(n)]
    else:
        keys = [(left[i], points[i]) for i in range(n)]
    order = sorted(range(n), key=keys.__getitem__)
    places = [0] * n
    for pos, seat in enumerate(order):
        if pos and keys[seat] == keys[order[pos - 1]]:
            places[seat] = places[order[pos - 1]]
        else:
            places[seat] = pos + 1
    return places


def check_state(state: d.State) -> None:
    on_table = table_cards(state)
    in_hands = [c for h in state.hands for c in h]
    assert len(in_hands) == len(set(in_hands))
    assert not on_table & set(in_hands)
    assert on_table | set(in_hands) == set(DECK36)  # every card in exactly one place
    for hand in state.hands:
        assert list(hand) == sorted(hand, key=INDEX36.__getitem__)
    assert d.from_json(json.loads(json.dumps(d.to_json(state)))) == state
    if not state.over:
        mover = state.to_move
        assert state.hands[mover], "an empty hand never moves"
        assert d.legal_moves(state) == legal_by_the_book(state, state.hands[mover])
        assert d.legal_moves(state), "D13: the player to move always has a card"
        for seat in range(state.players):
            v = d.view(state, seat)
            others = set(in_hands) - set(state.hands[seat])
            assert not strings_in(v) & others, "a view shows another seat's card"
            assert v["legal"] == (d.legal_moves(state) if seat == mover else [])
        assert not strings_in(d.view(state, None)) & set(in_hands)


def next_with_cards(state: d.State, seat: int) -> int:
    n = state.players
    for k in range(1, n + 1):
        p = (seat + k) % n
        if state.hands[p]:
            return p
    raise AssertionError("nobody holds cards")


def play_random(players: int, seed: int, options: d.Options, move_seed: int):
    rng = random.Random(move_seed)
    state = d.deal(players, seed, options)
    history = []
    for _ in range(37):  # the game always ends: one card leaves a hand per move
        check_state(state)
        if state.over:
            return state, history
        card = rng.choice(d.legal_moves(state))
        new, actions = d.apply(state, card)
        history.append((state, card, new, actions))
        state = new
    raise AssertionError("the game did not end within 36 moves")


@SETTINGS
@given(players_st, seed_st, options_st, seed_st)
def test_random_games_keep_every_invariant(players, seed, options, move_seed):
    final, history = play_random(players, seed, options, move_seed)
    for before, card, after, actions in history:
        seat = before.to_move
        assert card in legal_by_the_book(before, before.hands[seat])
        assert actions[0] == (seat, card)
        # the played card is now on the table and nowhere else
        assert card in table_cards(after)
        # passes: clockwise, only players with cards and no legal card, counted
        expected_passes = list(before.passes)
        p = seat
        for who, what in actions[1:]:
            assert what == d.PASS
            assert who == next_with_cards(after, p)
            hand = after.hands[who]
            assert hand and not legal_by_the_book(after, hand)
            assert not any(c[0] == "9" for c in hand), "D8: a nine holder never passes"
            expected_passes[who] += 1
            p = who
        assert list(after.passes) == expected_passes
        if not after.over:
            assert after.to_move == next_with_cards(after, p)
    # the end
    assert final.over and final.to_move is None
    assert d.legal_moves(final) == []
    with_cards = [s for s in range(players) if final.hands[s]]
    assert set(final.out) == {s for s in range(players) if not final.hands[s]}
    if options.keft:
        assert len(final.out) == players - 1
        assert with_cards == [d.loser(final)]
        places = [0] * players
        for i, s in enumerate(final.out):
            places[s] = i + 1
        places[d.loser(final)] = players
        assert list(d.places(final)) == places
    else:
        assert len(final.out) == 1
        assert len(with_cards) == players - 1
        assert list(d.places(final)) == expected_places(final)
        assert d.places(final)[final.out[0]] == 1
    res = d.result(final)
    assert json.loads(json.dumps(res)) == res
    v = d.view(final, None)
    assert v["result"]["hands"] == [list(h) for h in final.hands]


@SETTINGS
@given(players_st, seed_st, options_st)
def test_same_seed_same_deal(players, seed, options):
    a = d.deal(players, seed, options)
    b = d.deal(players, seed, options)
    assert a == b
    assert d.deal(players, str(seed), options) == d.deal(players, str(seed), options)


def public_playout(state: d.State, rng: random.Random) -> d.State:
    """The fast path's documented policy, played through the public API."""
    while not state.over:
        legal = d.legal_moves(state)
        card = legal[int(rng.random() * len(legal))] if len(legal) > 1 else legal[0]
        state = d.play(state, card)
    return state


@SETTINGS
@given(players_st, seed_st, options_st, seed_st, st.integers(min_value=0, max_value=30))
def test_fast_playout_agrees_with_public_play(players, seed, options, move_seed, skip):
    state = d.deal(players, seed, options)
    rng = random.Random(move_seed)
    for _ in range(skip):  # start from a mid-game position too
        if state.over:
            break
        state = d.play(state, rng.choice(d.legal_moves(state)))
    fast = d.to_fast(state)
    assert (
        d.fast_state(
            players,
            options.keft,
            state.masks,
            state.to_move if not state.over else -1,
            state.passes,
            state.out,
        )
        == fast
    )
    res = d.random_playout(fast, random.Random(move_seed))
    final = public_playout(state, random.Random(move_seed))
    assert res.cards_left == tuple(len(h) for h in final.hands)
    assert res.points == tuple(sum(card_points(c) for c in h) for h in final.hands)
    assert res.passes == final.passes
    assert res.out == final.out
    if options.keft:
        assert d.playout_loser(res) == d.loser(final)
    else:
        assert d.playout_places(res, options.pass_rule) == d.places(final)


@SETTINGS
@given(players_st, seed_st, options_st, seed_st)
def test_fast_apply_agrees_with_apply(players, seed, options, move_seed):
    rng = random.Random(move_seed)
    state = d.deal(players, seed, options)
    fast = d.to_fast(state)
    while not state.over:
        legal = d.legal_moves(state)
        assert d.fast_legal(fast) == sum(1 << INDEX36[c] for c in legal)
        card = rng.choice(legal)
        state = d.play(state, card)
        fast = d.fast_apply(fast, 1 << INDEX36[card])
        assert fast == d.to_fast(state)
    assert d.fast_legal(fast) == 0


@SETTINGS
@given(players_st, seed_st, options_st, seed_st)
def test_from_hands_unchecked_rebuilds_the_state(players, seed, options, move_seed):
    rng = random.Random(move_seed)
    state = d.deal(players, seed, options)
    for _ in range(rng.randrange(20)):
        if state.over:
            break
        state = d.play(state, rng.choice(d.legal_moves(state)))
    rebuilt = d.from_hands_unchecked(
        [list(reversed(h)) for h in state.hands],
        options,
        to_move=state.to_move,
        passes=state.passes,
        out=state.out,
    )
    assert rebuilt == state
    assert rebuilt.masks == state.masks and rebuilt.playable == state.playable


@settings(max_examples=30, deadline=None)
@given(players_st, seed_st)
def test_random_deal_masks_deal_every_card_once(players, seed):
    masks = d.random_deal_masks(players, random.Random(seed))
    total = 0
    for m in masks:
        assert not total & m
        total |= m
    assert total == (1 << 36) - 1
    sizes = sorted((m.bit_count() for m in masks), reverse=True)
    assert sizes[0] - sizes[-1] <= 1
