"""One test per rule of RULES.md section 3 (Golf, G1-G16), plus the move table, messages,
the view, JSON and the registry helpers.

Positions come from ``golf.start`` with explicit shoes built by :func:`shoe`, so every
scenario is a real match played through the public API.
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from games.engine import golf
from games.engine.cards import DECK52

ONE_ROUND = golf.Options(rounds=1)
_ROOT = Path(__file__).resolve().parents[2]


def shoe(players: int, grids: dict[int, str], discard: str = "", stock: str = "") -> list[str]:
    """A round-1 shoe dealing ``grids`` (seat -> nine space-separated codes, row-major).

    Seat 0 deals round 1: card k goes to seat (1 + k) % n, position k // n. Seats not in
    ``grids``, the discard and the stock are filled from the unused cards in deck order;
    ``discard`` and ``stock`` (top first) fix the discard pile and the stock's top cards.
    """
    left = Counter(golf.deck_for(players))
    fixed = {seat: cards.split() for seat, cards in grids.items()}
    wanted = [c for cards in fixed.values() for c in cards] + discard.split() + stock.split()
    left.subtract(wanted)
    assert min(left.values()) >= 0, "a code is used more often than the decks hold"
    rest = []
    for code in golf.deck_for(players):
        if left[code] > 0:
            rest.append(code)
            left[code] -= 1
    full = {}
    for seat in range(players):
        full[seat] = fixed.get(seat) or [rest.pop(0) for _ in range(9)]
    out = [full[(1 + k) % players][k // players] for k in range(9 * players)]
    out += discard.split() or [rest.pop(0)]
    out += stock.split() + rest
    return out


def play_all(state: golf.State, *moves: tuple[int, str]) -> golf.State:
    for seat, move in moves:
        state = golf.play(state, seat, move)
    return state


def all_ready(state: golf.State) -> golf.State:
    for seat in range(state.players):
        if not state.ready[seat]:
            state = golf.play(state, seat, "ready")
    return state


def flip_next(state: golf.State) -> golf.State:
    """The seat to move turns up its lowest face-down card (G5c)."""
    seat = state.to_move
    pos = next(i for i in range(9) if not state.up[seat] >> i & 1)
    return golf.play(state, seat, f"flip {pos}")


def finish_round(state: golf.State) -> golf.State:
    """Everyone ready, then everyone flips until the round is scored."""
    rnd = state.round
    state = all_ready(state)
    while state.round == rnd and state.phase == "turn":
        state = flip_next(state)
    return state


def visible(view: dict) -> list[str]:
    """Every card code a view shows outside last_round."""
    codes = [c for g in view["grids"] for c in g if c]
    codes += [view["discard"]] if view["discard"] else []
    codes += [view["drawn"]] if view["drawn"] else []
    return codes


# --------------------------------------------------------------------------
# G1-G2: decks and the deal.
# --------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "decks"), [(2, 2), (5, 2), (8, 2), (9, 3), (12, 3)])
def test_g1_two_decks_up_to_eight_players_three_from_nine(players, decks):
    state = golf.deal(players, 7, None)
    cards = [c for g in state.grids for c in g] + list(state.stock) + list(state.discard)
    assert len(cards) == 52 * decks
    assert Counter(cards) == Counter(DECK52 * decks)
    assert golf.decks_for(players) == decks


def test_g1_start_rejects_a_shoe_that_is_not_exactly_the_decks():
    good = list(golf.deck_for(4))
    assert golf.start(4, good, None).players == 4
    with pytest.raises(ValueError, match="2 decks"):
        golf.start(4, good[:-1], None)
    with pytest.raises(ValueError, match="too many"):
        golf.start(4, good[:-1] + ["2C"], None)
    with pytest.raises(ValueError, match="3 decks"):
        golf.start(9, good, None)  # nine players need three decks
    with pytest.raises(ValueError, match="not a card"):
        golf.start(4, good[:-1] + ["1X"], None)
    with pytest.raises(ValueError):
        golf.start(4, "AS" * 104, None)


def test_g2_deal_one_card_at_a_time_from_the_dealers_left_into_a_face_down_grid():
    cards = list(golf.deck_for(3))
    state = golf.start(3, cards, None)
    assert state.dealer == 0 and state.round == 1
    # Seat 1 gets the first card, then seat 2, then seat 0 (the dealer), position by position.
    assert state.grids[1] == tuple(cards[0:27:3])
    assert state.grids[2] == tuple(cards[1:27:3])
    assert state.grids[0] == tuple(cards[2:27:3])
    assert state.discard == (cards[27],)  # the next card turned up
    assert state.stock == tuple(cards[28:])  # the rest, next card on top
    assert state.up == (0, 0, 0)  # all face down
    assert golf.view(state, 1)["grids"] == [[None] * 9] * 3
    assert golf.COLUMNS == ((0, 3, 6), (1, 4, 7), (2, 5, 8))


def test_g2_deal_is_deterministic_for_a_seed():
    assert golf.deal(4, 11, None) == golf.deal(4, 11, None)
    assert golf.deal(4, 11, None) != golf.deal(4, 12, None)
    assert golf.deal(4, "abc", None) == golf.deal(4, "abc", None)


# --------------------------------------------------------------------------
# G3, G13: the reveal phase.
# --------------------------------------------------------------------------


def test_g3_each_player_may_turn_up_two_cards_before_play():
    state = golf.deal(3, 1, None)
    assert state.phase == "reveal" and state.to_move is None
    state = play_all(state, (2, "flip 4"), (2, "flip 8"))
    assert state.up[2] == (1 << 4) | (1 << 8)
    assert golf.legal_moves(state, 2) == ["ready"]
    with pytest.raises(golf.IllegalMove, match="only two cards"):
        golf.play(state, 2, "flip 0")
    # Everyone sees the turned-up cards.
    for seat in (0, 1, 2, None):
        g = golf.view(state, seat)["grids"][2]
        assert g[4] == state.grids[2][4] and g[8] == state.grids[2][8]
        assert [g[i] for i in range(9) if i not in (4, 8)] == [None] * 7
    with pytest.raises(golf.IllegalMove, match="already face up"):
        golf.play(play_all(golf.deal(3, 1, None), (0, "flip 1")), 0, "flip 1")


def test_g13_zero_one_or_two_cards_then_ready_play_starts_when_everyone_is_ready():
    state = golf.deal(3, 2, None)
    assert golf.legal_moves(state, 0) == [f"flip {i}" for i in range(9)] + ["ready"]
    state = play_all(state, (0, "ready"), (1, "flip 3"), (1, "ready"))
    assert state.phase == "reveal" and state.to_move is None
    assert state.ready == (True, True, False)
    assert golf.legal_moves(state, 0) == []  # ready: nothing more to do
    with pytest.raises(golf.IllegalMove, match="ready"):
        golf.play(state, 0, "flip 2")  # no flips after ready
    with pytest.raises(golf.IllegalMove, match="not started"):
        golf.play(state, 2, "draw")
    assert golf.view(state, None)["ready"] == [True, True, False]
    state = play_all(state, (2, "flip 0"), (2, "flip 1"), (2, "ready"))
    assert state.phase == "turn" and state.to_move == 1
    assert golf.view(state, None)["ready"] is None
    assert bin(state.up[0]).count("1") == 0 and bin(state.up[1]).count("1") == 1


# --------------------------------------------------------------------------
# G4-G5: turns.
# --------------------------------------------------------------------------


def test_g4_the_player_left_of_the_dealer_starts_and_play_goes_clockwise():
    state = all_ready(golf.deal(4, 3, None))
    order = []
    for _ in range(6):
        order.append(state.to_move)
        assert golf.legal_moves(state, (state.to_move + 1) % 4) == []
        state = flip_next(state)
    assert order == [1, 2, 3, 0, 1, 2]
    with pytest.raises(golf.IllegalMove, match="not your turn"):
        golf.play(state, 0, "draw")


def test_g5a_draw_then_swap_puts_the_drawn_card_face_up_and_discards_the_old_card():
    cards = shoe(2, {1: "AC AD AH AS 2C 3C KC KD KH"}, discard="9S", stock="5H 6H")
    state = all_ready(golf.start(2, cards, None))
    state = golf.play(state, 1, "draw")
    assert state.drawn == "5H" and state.stock[0] == "6H"
    assert golf.view(state, 1)["drawn"] == "5H"  # only the drawer sees it
    assert golf.view(state, 0)["drawn"] is None and golf.view(state, None)["drawn"] is None
    assert golf.view(state, 0)["holding"] == [False, True]
    assert "5H" not in visible(golf.view(state, 0))
    assert golf.legal_moves(state, 1) == [f"discard {i}" for i in range(9)] + [
        f"swap {i}" for i in range(9)
    ]
    state = golf.play(state, 1, "swap 4")
    assert state.grids[1][4] == "5H" and state.up[1] == 1 << 4
    assert state.discard[-1] == "2C"  # the replaced card, face up on the pile
    assert golf.view(state, 0)["discard"] == "2C" and golf.view(state, 0)["grids"][1][4] == "5H"
    assert state.to_move == 0 and state.drawn is None


def test_g5a_draw_then_discard_it_and_turn_up_a_face_down_card():
    cards = shoe(2, {1: "AC AD AH AS 2C 3C KC KD KH"}, discard="9S", stock="5H")
    state = golf.play(all_ready(play_all(golf.start(2, cards, None), (1, "flip 0"))), 1, "draw")
    with pytest.raises(golf.IllegalMove, match="already face up"):
        golf.play(state, 1, "discard 0")
    with pytest.raises(golf.IllegalMove, match="drawn a card"):
        golf.play(state, 1, "draw")
    with pytest.raises(golf.IllegalMove, match="drawn a card"):
        golf.play(state, 1, "take 3")
    state = golf.play(state, 1, "discard 8")
    assert state.discard[-1] == "5H" and state.grids[1][8] == "KH"
    assert state.up[1] == 1 | 1 << 8 and state.to_move == 0


def test_g5b_take_the_discard_and_swap_it_it_cannot_be_discarded_back():
    cards = shoe(2, {1: "AC AD AH AS 2C 3C KC KD KH"}, discard="9S", stock="5H")
    state = all_ready(golf.start(2, cards, None))
    state = golf.play(state, 1, "take 2")
    assert state.grids[1][2] == "9S" and state.up[1] == 1 << 2
    assert state.discard[-1] == "AH"  # the old card 2 on the pile
    assert state.stock[0] == "5H"  # the stock is untouched
    # The turn is over: seat 1 cannot discard the taken card back.
    assert golf.legal_moves(state, 1) == [] and state.to_move == 0
    with pytest.raises(golf.IllegalMove, match="not your turn"):
        golf.play(state, 1, "discard 2")
    # Swapping for a face-up card is allowed too.
    state = golf.play(play_all(state, (0, "flip 0")), 1, "take 2")
    assert state.grids[1][2] == "AH" and state.discard[-1] == "9S"
    with pytest.raises(golf.IllegalMove, match="Draw first"):
        golf.play(state, 0, "swap 1")


def test_g5c_draw_nothing_and_turn_up_a_face_down_card():
    state = all_ready(golf.deal(2, 4, None))
    top, stock = state.discard, state.stock
    state = golf.play(state, 1, "flip 6")
    assert state.up[1] == 1 << 6 and state.to_move == 0
    assert state.discard == top and state.stock == stock
    with pytest.raises(golf.IllegalMove, match="already face up"):
        golf.play(play_all(state, (0, "flip 0")), 1, "flip 6")
    # A face-down card cannot be looked at: not even its owner sees it.
    view = golf.view(state, 1)
    assert [c for i, c in enumerate(view["grids"][1]) if i != 6] == [None] * 8


# --------------------------------------------------------------------------
# G6: going out and the final turns.
# --------------------------------------------------------------------------


def test_g6_going_out_gives_every_other_player_one_more_turn_from_the_left():
    # Seat 1 turns up two cards before play and one per turn: after its 7th turn it is out.
    # Seat 2 turns up two before play and one per turn: it goes out in its final turn.
    state = play_all(golf.deal(3, 5, None), (1, "flip 0"), (1, "flip 1"))
    state = play_all(state, (2, "flip 0"), (2, "flip 1"))
    state = all_ready(state)
    for _ in range(6):  # six rounds of turns 1, 2, 0
        for _seat in (1, 2, 0):
            state = flip_next(state)
    assert state.to_move == 1 and bin(state.up[1]).count("1") == 8
    state = flip_next(state)
    assert state.up[1] == golf.FULL
    view = golf.view(state, 0)
    assert view["went_out"] == 1 and view["final_turns"] == [2, 0] and view["to_move"] == 2
    assert golf.legal_moves(state, 1) == []
    state = flip_next(state)  # seat 2 goes out too, in its final turn: nothing changes
    assert state.up[2] == golf.FULL and state.round == 1
    assert golf.view(state, 0)["final_turns"] == [0] and state.went_out == 1
    state = flip_next(state)  # seat 0's final turn ends the round; seat 1 plays no more
    assert state.round == 2 and state.phase == "reveal"
    last = golf.view(state, None)["last_round"]
    assert last["went_out"] == 1
    # All face-down cards were turned up: last_round shows the whole grids.
    assert all(c is not None for g in last["grids"] for c in g)


def test_g6_the_round_ends_after_the_last_final_turn_even_with_two_players():
    state = all_ready(play_all(golf.deal(2, 6, None), (1, "flip 0")))
    while state.up[1] != golf.FULL:
        state = flip_next(state)
    assert state.to_move == 0 and golf.view(state, 1)["final_turns"] == [0]
    state = flip_next(state)
    assert state.round == 2 and len(golf.round_scores(state)) == 1


# --------------------------------------------------------------------------
# G7-G9, G11, G12: scoring a round.
# --------------------------------------------------------------------------

# Grids with known scores. Columns are positions {0,3,6} {1,4,7} {2,5,8}, so the rows
# below are grid rows. With finish_round seat 1 goes out (it moves first, all flip).
LOW = "AC 2C 3C KC KD KH 4C 5C 6C"  # A K 4 | 2 K 5 | 3 K 6 -> 5 + 3 + 9 = 17
LOW_B = "AD 2D 3D KS KC KD 4D 5D 6D"  # the same ranks: 17
TIE_A = "AH 2H 3H KH QS QH 4H 5H 6H"  # A K 4 | 2 Q 5 | 3 Q 6 -> 5 + 13 + 19 = 37
TIE_B = "AS 2S 3S KS QD QC 4S 5S 6S"  # 37
HIGH = "QC QD TC JC JD TD 9C 8C 7C"  # Q J 9 | Q J 8 | T T 7 (tens match) -> 29 + 28 + 7 = 64


def test_g7_card_values_make_the_round_score():
    grid = "AC 2D 3H 4S 5C 6D 7H 8S 9C"
    state = finish_round(golf.start(2, shoe(2, {0: grid}), ONE_ROUND))
    raw = golf.view(state, None)["last_round"]["raw"]
    assert raw[0] == 1 - 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 == golf.score_grid(grid.split())
    assert golf.card_value("JH") == golf.card_value("QH") == 10 and golf.card_value("KH") == 0


def test_g8_same_rank_in_a_column_scores_zero_twos_included():
    grid = "2C 5C QS 2D 5D QH 9H 9S JD"  # column 0: 2 2 9; column 1: 5 5 9; column 2: Q Q J
    state = finish_round(golf.start(2, shoe(2, {0: grid}), ONE_ROUND))
    last = golf.view(state, 0)["last_round"]
    assert last["raw"][0] == 9 + 9 + 10
    assert last["matched"][0] == [0, 1, 2, 3, 4, 5]
    assert last["matched_columns"][0] == [0, 1, 2]


def test_g9_the_player_who_went_out_gets_ten_if_not_lowest():
    cards = shoe(3, {1: HIGH, 2: LOW, 0: LOW_B})
    state = finish_round(golf.start(3, cards, ONE_ROUND))
    last = golf.view(state, None)["last_round"]
    assert last["went_out"] == 1 and last["raw"] == [17, 64, 17]
    assert last["penalty"] == 1 and last["scores"] == [17, 74, 17]
    assert golf.round_scores(state) == ((17, 74, 17),)
    assert golf.result(state)["penalties"] == [0, 1, 0]


def test_g9_no_penalty_when_the_player_who_went_out_is_lowest():
    cards = shoe(3, {1: LOW, 2: HIGH, 0: TIE_A})
    state = finish_round(golf.start(3, cards, ONE_ROUND))
    last = golf.view(state, None)["last_round"]
    assert last["raw"] == [37, 17, 64]
    assert last["penalty"] is None and last["scores"] == [37, 17, 64]
    assert golf.round_scores(state)[0] == tuple(last["raw"])


def test_g10_a_match_is_nine_rounds_and_the_lowest_total_wins():
    state = golf.deal(3, 8, None)
    assert golf.Options().rounds == 9
    for rnd in range(1, 10):
        assert state.round == rnd and state.phase == "reveal"
        state = finish_round(state)
    assert state.phase == "over" and state.to_move is None
    assert len(golf.round_scores(state)) == 9
    totals = golf.totals(state)
    assert totals == tuple(sum(r[s] for r in golf.round_scores(state)) for s in range(3))
    places = golf.places(state)
    best = min(totals)
    assert all((places[s] == 1) == (totals[s] == best) for s in range(3))
    with pytest.raises(golf.IllegalMove, match="over"):
        golf.play(state, 0, "ready")
    assert all(golf.legal_moves(state, s) == [] for s in range(3))


def test_g11_pair_rule_pair_scores_zero_and_the_third_card_counts():
    grid = "5C KD KH 5D QS QC 9H 9S JD"  # col 0: 5 5 9; col 1: K Q 9; col 2: K Q J
    state = finish_round(golf.start(2, shoe(2, {0: grid}), ONE_ROUND))
    assert golf.view(state, None)["last_round"]["raw"][0] == 9 + 19 + 20


def test_g11_three_rule_only_a_full_column_scores_zero():
    grid = "5C KD 7C 5D QS 7D 9H 9S 7H"  # col 0: 5 5 9; col 2: 7 7 7
    three = golf.Options(column_rule="three", rounds=1)
    state = finish_round(golf.start(2, shoe(2, {0: grid}), three))
    last = golf.view(state, None)["last_round"]
    assert last["raw"][0] == 19 + 19 + 0
    assert last["matched"][0] == [2, 5, 8] and last["matched_columns"][0] == [2]
    assert golf.view(state, None)["column_rule"] == "three"


def test_g12_a_tie_for_the_lowest_round_score_is_not_a_penalty():
    cards = shoe(3, {1: LOW, 2: LOW_B, 0: HIGH})
    state = finish_round(golf.start(3, cards, ONE_ROUND))
    last = golf.view(state, None)["last_round"]
    assert last["went_out"] == 1 and last["raw"] == [64, 17, 17]
    assert last["penalty"] is None and golf.round_scores(state) == ((64, 17, 17),)


# --------------------------------------------------------------------------
# G14: the stock runs out.
# --------------------------------------------------------------------------


def test_g14_when_the_stock_runs_out_the_discard_pile_but_its_top_is_reshuffled():
    # Two players, each with card 0 face up, draw and swap at 0 forever: nobody goes out.
    state = all_ready(play_all(golf.deal(2, 9, None), (0, "flip 0"), (1, "flip 0")))
    assert len(state.stock) == 104 - 18 - 1
    while len(state.stock) > 1:
        state = play_all(state, (state.to_move, "draw"), (state.to_move, "swap 0"))
    assert len(state.discard) == 85 and state.reshuffles == 0
    before = state.discard
    seat = state.to_move
    state = golf.play(state, seat, "draw")  # the last card of the stock
    assert state.reshuffles == 1
    assert state.discard == before[-1:]  # the top stays
    assert Counter(state.stock) == Counter(before[:-1])  # the rest is the new stock
    assert golf.view(state, 1 - seat)["stock"] == 84
    state = golf.play(state, seat, "swap 0")
    assert len(state.discard) == 2 and state.round == 1
    # Cards are conserved.
    cards = [c for g in state.grids for c in g] + list(state.stock) + list(state.discard)
    assert Counter(cards) == Counter(golf.deck_for(2))


# --------------------------------------------------------------------------
# G15-G16: dealer, ties, table size.
# --------------------------------------------------------------------------


def test_g15_the_dealer_moves_one_seat_clockwise_each_round():
    state = golf.deal(3, 10, golf.Options(rounds=5))
    dealers, starters = [], []
    while state.phase != "over":
        dealers.append(state.dealer)
        ready = all_ready(state)
        starters.append(ready.to_move)
        state = finish_round(state)
    assert dealers == [0, 1, 2, 0, 1]
    assert starters == [1, 2, 0, 1, 2]


def test_g15_ties_in_the_final_total_share_the_place():
    # Seat 1 goes out lowest (17); seats 0 and 2 tie on 37; seat 3 has 64.
    cards = shoe(4, {1: LOW, 0: TIE_A, 2: TIE_B, 3: HIGH}, discard="2H")
    state = finish_round(golf.start(4, cards, ONE_ROUND))
    assert golf.totals(state) == (37, 17, 37, 64)
    assert golf.places(state) == (2, 1, 2, 4)
    res = golf.result(state)
    assert res["places"] == [2, 1, 2, 4] and res["winners"] == [1]


@pytest.mark.parametrize("players", [2, 12])
def test_g16_a_table_seats_two_to_twelve(players):
    state = finish_round(golf.deal(players, 1, ONE_ROUND))
    assert state.phase == "over" and len(golf.places(state)) == players


@pytest.mark.parametrize("players", [0, 1, 13, True, "4", 2.0])
def test_g16_other_table_sizes_are_refused(players):
    with pytest.raises(ValueError):
        golf.deal(players, 1, None)


def test_g16_nine_players_play_with_three_decks():
    state = golf.deal(9, 1, None)
    assert len(state.stock) == 156 - 81 - 1
    assert golf.to_json(state)["players"] == 9


# --------------------------------------------------------------------------
# Options, moves, view, JSON, registry helpers.
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [{"column_rule": "pairs"}, {"column_rule": None}, {"rounds": 0}, {"rounds": 19}]
    + [{"rounds": True}, {"rounds": "9"}, {"rounds": 9.0}],
)
def test_options_are_validated(kwargs):
    with pytest.raises(ValueError):
        golf.Options(**kwargs)


def test_options_are_frozen():
    with pytest.raises(AttributeError):
        golf.Options().rounds = 3  # type: ignore[misc]


def test_rounds_option_sets_the_match_length():
    state = golf.deal(2, 3, golf.Options(rounds=2))
    state = finish_round(finish_round(state))
    assert state.phase == "over" and len(golf.round_scores(state)) == 2


@pytest.mark.parametrize("move", ["flip 9", "flip -1", "Flip 1", "flip", "swap", " draw", 4, None])
def test_garbage_moves_are_illegal_with_a_message(move):
    state = golf.deal(2, 1, None)
    with pytest.raises(golf.IllegalMove, match="not a Golf move"):
        golf.play(state, 0, move)
    assert not golf.is_move(move)


@pytest.mark.parametrize("seat", [-1, 2, None, "0", True])
def test_bad_seats_are_refused(seat):
    state = golf.deal(2, 1, None)
    with pytest.raises(golf.IllegalMove, match="seat"):
        golf.play(state, seat, "ready")
    with pytest.raises(golf.IllegalMove):
        golf.play(all_ready(state), seat, "draw")
    assert golf.legal_moves(all_ready(state), seat) == []


def test_is_move_accepts_every_move_of_the_table():
    moves = ["ready", "draw"] + [
        f"{k} {n}" for k in ("flip", "swap", "discard", "take") for n in range(9)
    ]
    assert all(golf.is_move(m) for m in moves)
    assert not golf.is_move("pass") and not golf.is_move("9D")


def test_ready_during_play_is_illegal():
    state = all_ready(golf.deal(2, 1, None))
    with pytest.raises(golf.IllegalMove, match="already started"):
        golf.play(state, 1, "ready")


def test_apply_returns_the_move_as_its_only_action():
    state = golf.deal(2, 1, None)
    new, actions = golf.apply(state, 1, "flip 3")
    assert actions == [(1, "flip 3")] and new.up[1] == 1 << 3


def test_view_fields_and_json_serialisable():
    state = golf.play(all_ready(golf.deal(3, 2, None)), 1, "draw")
    view = golf.view(state, 1)
    assert json.loads(json.dumps(view)) == view
    assert view["game"] == "golf" and view["seat"] == 1 and view["phase"] == "turn"
    assert view["round"] == 1 and view["rounds"] == 9 and view["dealer"] == 0
    assert view["to_move"] == 1 and view["stock"] == len(state.stock)
    assert view["discard"] == state.discard[-1] and view["discard_count"] == 1
    assert view["drawn"] == state.drawn and view["holding"] == [False, True, False]
    assert view["legal"] == golf.legal_moves(state, 1) and view["result"] is None
    assert view["round_scores"] == [[], [], []] and view["totals"] == [0, 0, 0]
    assert view["last_round"] is None and view["over"] is False
    assert golf.view(state, 0)["legal"] == [] and golf.view(state, None)["legal"] == []
    with pytest.raises(ValueError):
        golf.view(state, 3)


def test_last_round_is_shown_until_the_next_reveal_ends():
    state = finish_round(golf.deal(2, 3, None))
    view = golf.view(state, 0)
    assert view["phase"] == "reveal" and view["round"] == 2
    assert view["last_round"]["round"] == 1 and view["round_scores"][0] == [
        golf.round_scores(state)[0][0]
    ]
    state = play_all(state, (1, "flip 0"))
    assert golf.view(state, 0)["last_round"] is not None
    state = all_ready(state)
    assert golf.view(state, 0)["last_round"] is None


def test_over_view_has_the_result_and_the_final_grids_once():
    state = finish_round(golf.deal(2, 3, ONE_ROUND))
    view = golf.view(state, None)
    assert view["over"] and view["phase"] == "over"
    assert view["result"] == golf.result(state)
    assert view["grids"] == [[None] * 9, [None] * 9]  # shown in last_round instead
    assert view["last_round"]["grids"] == [list(g) for g in state.grids]


def test_json_round_trip_and_validation():
    state = play_all(all_ready(golf.deal(4, 5, None)), (1, "draw"))
    data = json.loads(json.dumps(golf.to_json(state)))
    assert golf.from_json(data) == state
    broken = [
        dict(data, game="devyatka"),
        dict(data, stock=data["stock"][1:]),  # a card missing
        dict(data, drawn=None),  # a card missing
        dict(data, to_move=None),
        dict(data, dealer=2),
        dict(data, phase="play"),
        dict(data, up=[0, golf.FULL, 0, 0]),  # mover without a face-down card
        dict(data, extra=1),
        {k: v for k, v in data.items() if k != "seed"},
        dict(data, ready=[True, False, False, False]),
        dict(data, options={"column_rule": "pair", "rounds": 99}),
        "not a dict",
    ]
    for bad in broken:
        with pytest.raises(ValueError):
            golf.from_json(bad)


def test_result_before_the_end_is_an_error():
    with pytest.raises(ValueError):
        golf.result(golf.deal(2, 1, None))
    with pytest.raises(ValueError):
        golf.places(golf.deal(2, 1, None))


def test_still_playing_and_resign_result():
    state = golf.deal(3, 1, ONE_ROUND)
    assert golf.still_playing(state, 0)
    state = finish_round(state)
    assert not golf.still_playing(state, 0)
    res = {"places": [1, 2, 2, 4], "totals": [1, 2, 2, 3], "winners": [0]}
    assert golf.resign_result(res, []) is res
    out = golf.resign_result(res, [0])
    assert out["places"] == [4, 1, 1, 3] and out["winners"] == [1, 2] and out["resigned"] == [0]
    assert golf.resign_result(res, [3, 1])["places"] == [1, 3, 2, 3]


def test_replay_reproduces_a_match():
    actions = [(0, "ready"), (1, "flip 2"), (1, "ready"), (1, "draw"), (1, "swap 2"), (0, "take 5")]
    state = golf.replay(2, 4, None, actions)
    assert state == play_all(golf.deal(2, 4, None), *actions)


@pytest.mark.parametrize("level", ["random", "easy"])
def test_choose_move_plays_legal_moves_to_the_end(level):
    state = golf.deal(3, 2, golf.Options(rounds=2))
    steps = 0
    while state.phase != "over":
        seats = [s for s in range(3) if golf.legal_moves(state, s)]
        seat = seats[0]
        move = golf.choose_move(level, golf.view(state, seat), [], steps, 100)
        state = golf.play(state, seat, move)
        steps += 1
        assert steps < 5000


def test_options_from_table_options():
    assert golf.options_from({}) == golf.Options() == golf.options_from(None)
    assert golf.options_from({"column_rule": "three", "rounds": 3}) == golf.Options("three", 3)
    for bad in ({"keft": True}, {"rounds": 0}, {"column_rule": "x"}, ["rounds"]):
        with pytest.raises(ValueError):
            golf.options_from(bad)


def test_the_engine_imports_nothing_from_django():
    import subprocess
    import sys

    code = (
        "import sys, games.engine.golf; assert not any(m.startswith('django') for m in sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=str(_ROOT))
