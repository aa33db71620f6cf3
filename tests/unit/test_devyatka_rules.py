"""One test per rule of RULES.md sections 1 and 2 (D1-D13, K1-K5), plus messages.

Positions are built with ``devyatka.start`` from explicit hands, so every
scenario below is a real game played through the public API.
"""

import json
import random

import pytest

from games.engine import devyatka as d
from games.engine.cards import DECK36

CLASSIC = d.Options()
KEFT = d.Options(keft=True)
PASS_RULE = d.Options(pass_rule=True)


def hands(*fixed: str, rest: int) -> list[list[str]]:
    """Hands from space-separated codes per seat; seat ``rest`` also gets every unlisted card."""
    listed = [h.split() for h in fixed]
    listed += [[] for _ in range(rest + 1 - len(listed))]
    used = {c for h in listed for c in h}
    listed[rest] += [c for c in DECK36 if c not in used]
    return listed


def suit(letter: str) -> str:
    return " ".join(r + letter for r in "6789TJQKA")


def play_all(state: d.State, *cards: str) -> d.State:
    for card in cards:
        state = d.play(state, card)
    return state


def random_game(players: int, seed: int, options: d.Options) -> list[d.State]:
    rng = random.Random(seed)
    state = d.deal(players, seed, options)
    states = [state]
    while not state.over:
        state = d.play(state, rng.choice(d.legal_moves(state)))
        states.append(state)
    return states


# The Keft sheet's worked example (seeds/004, section 04), as a two-player game.
# Seat 1 ("A") ends up to move with 8D 9D TD on the table, holding 6D 7D JD QH.
EXAMPLE_A = "9C 8C 6D 7D JD QH 6C JC QC KC AC 6H 7H 8H TH JH KH AH"


def worked_example(options: d.Options) -> d.State:
    state = d.start(hands("", EXAMPLE_A, rest=0), options)
    assert state.to_move == 0  # seat 0 holds 9D
    # 9D; A must open clubs; TD; A plays 8C; 8D -> A to move with 8D 9D TD on the table.
    return play_all(state, "9D", "9C", "TD", "8C", "8D")


# --------------------------------------------------------------------------- D1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_d1_two_to_six_players_one_36_card_deck(players):
    state = d.deal(players, 11, CLASSIC)
    assert state.players == players
    dealt = [c for h in state.hands for c in h]
    assert sorted(dealt) == sorted(DECK36)
    assert len(dealt) == 36


@pytest.mark.parametrize("players", [0, 1, 7, 8])
def test_d1_rejects_other_player_counts(players):
    with pytest.raises(ValueError, match="2 to 6 players"):
        d.deal(players, 1, CLASSIC)


# --------------------------------------------------------------------------- D2


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_d2_deal_one_card_at_a_time_clockwise_from_seat0(players):
    seed = 2024
    deck = list(DECK36)
    random.Random(seed).shuffle(deck)
    state = d.deal(players, seed, CLASSIC)
    for i, card in enumerate(deck):
        assert card in state.hands[i % players]


def test_d2_five_players_seat0_gets_eight():
    state = d.deal(5, 3, CLASSIC)
    assert [len(h) for h in state.hands] == [8, 7, 7, 7, 7]


@pytest.mark.parametrize(("players", "size"), [(2, 18), (3, 12), (4, 9), (6, 6)])
def test_d2_otherwise_hands_are_equal(players, size):
    state = d.deal(players, 5, CLASSIC)
    assert [len(h) for h in state.hands] == [size] * players


def test_d2_same_seed_same_deal_and_str_seeds_work():
    assert d.deal(4, 99, CLASSIC) == d.deal(4, 99, CLASSIC)
    assert d.deal(4, "table-7", CLASSIC) == d.deal(4, "table-7", CLASSIC)
    assert d.deal(4, 99, CLASSIC).hands != d.deal(4, 100, CLASSIC).hands


def test_d2_hands_are_sorted_for_display():
    state = d.deal(3, 8, CLASSIC)
    for hand in state.hands:
        assert list(hand) == sorted(hand, key=DECK36.index)


# --------------------------------------------------------------------------- D3


def test_d3_holder_of_9d_moves_first_only_9d_then_clockwise():
    state = d.start(hands("AS", "9D 6C", "8D", rest=2), CLASSIC)
    assert state.to_move == 1
    assert d.legal_moves(state) == ["9D"]
    with pytest.raises(d.IllegalMove, match="^The first card must be 9D.$"):
        d.play(state, "6C")
    state, actions = d.apply(state, "9D")
    assert actions == [(1, "9D")]
    assert state.to_move == 2  # clockwise: seat + 1


@pytest.mark.parametrize("seed", range(10))
def test_d3_dealt_games_start_with_the_9d_holder(seed):
    state = d.deal(4, seed, CLASSIC)
    assert "9D" in state.hands[state.to_move]
    assert d.legal_moves(state) == ["9D"]


# --------------------------------------------------------------------------- D4


def test_d4_rows_grow_one_rank_at_each_end_and_ace_does_not_connect_to_six():
    state = d.start(hands(suit("D"), rest=1), CLASSIC)
    for card in ["9D", "TD", "JD", "QD", "KD", "AD"]:
        assert state.to_move == 0
        state = d.play(state, card)
        if state.to_move == 1:
            state = d.play(state, d.legal_moves(state)[0])
    assert d.rows(state)["D"] == ("9D", "AD")
    assert state.to_move == 0
    assert [c for c in d.legal_moves(state) if c.endswith("D")] == ["8D"]
    with pytest.raises(d.IllegalMove, match=r"^6D is not next to the diamonds row \(9D-AD\)\.$"):
        d.play(state, "6D")
    with pytest.raises(d.IllegalMove, match="7D is not next"):
        d.play(state, "7D")  # one rank at a time: 8D first
    state = d.play(state, "8D")
    assert d.rows(state)["D"] == ("8D", "AD")


# --------------------------------------------------------------------------- D5


def test_d5_only_neighbours_of_row_ends():
    state = worked_example(CLASSIC)
    assert d.rows(state)["D"] == ("8D", "TD")
    assert state.to_move == 1
    assert d.legal_moves(state) == ["7D", "JD"]
    with pytest.raises(d.IllegalMove, match=r"^6D is not next to the diamonds row \(8D-TD\)\.$"):
        d.play(state, "6D")


def test_d5_a_nine_opens_its_row():
    state = d.play(d.start(hands("9D AS", "9C 6S", rest=2), CLASSIC), "9D")
    assert state.to_move == 1
    assert d.legal_moves(state) == ["9C"]
    with pytest.raises(d.IllegalMove, match="^Spades are not open: only 9S can open them.$"):
        d.play(state, "6S")
    state = d.play(state, "9C")
    assert d.rows(state)["C"] == ("9C", "9C")


# --------------------------------------------------------------------------- D6


def test_d6_exactly_one_card_per_turn_and_play_is_compulsory():
    state = worked_example(CLASSIC)
    state, actions = d.apply(state, "7D")
    assert actions == [(1, "7D")]
    assert state.to_move == 0  # the 6D, now playable, waits for seat 1's next turn
    assert "6D" in state.hands[1]
    state = d.play(state, "9S")
    assert state.to_move == 1
    assert "6D" in d.legal_moves(state)
    with pytest.raises(d.IllegalMove, match="^pass is not a card.$"):
        d.play(state, "pass")  # a player with a legal card cannot pass


# --------------------------------------------------------------------------- D7


def test_d7_pass_is_automatic_and_counted():
    state = d.start(hands(suit("D") + " 9C 9H 9S", rest=1), CLASSIC)
    state, actions = d.apply(state, "9D")
    assert actions == [(0, "9D"), (1, "pass")]
    assert state.passes == (0, 1)
    assert state.to_move == 0
    state, actions = d.apply(state, "9C")
    assert actions == [(0, "9C")]
    assert state.to_move == 1  # 8C and TC are now playable for seat 1
    assert state.passes == (0, 1)


# --------------------------------------------------------------------------- D8


def test_d8_after_9d_a_nine_in_hand_is_always_playable():
    state = d.start(hands("9D 8D TD", "9S 6C 7C", rest=2), CLASSIC)
    state, actions = d.apply(state, "9D")
    assert actions == [(0, "9D")]  # seat 1 holds nothing else playable, but the nine
    assert state.to_move == 1
    assert d.legal_moves(state) == ["9S"]
    assert state.passes == (0, 0, 0)


@pytest.mark.parametrize("seed", range(20))
def test_d8_nobody_holding_a_nine_ever_passes(seed):
    rng = random.Random(seed)
    state = d.deal(3 + seed % 4, seed, CLASSIC)
    state = d.play(state, "9D")
    while not state.over:
        before = state
        state, actions = d.apply(state, rng.choice(d.legal_moves(state)))
        for seat, what in actions[1:]:
            assert what == "pass"
            assert not any(c[0] == "9" for c in before.hands[seat])


# --------------------------------------------------------------------------- D9


def test_d9_last_card_wins_and_ends_the_game_at_once():
    state = d.start(hands("9D", "AS", rest=2), CLASSIC)
    state, actions = d.apply(state, "9D")
    assert actions == [(0, "9D")]
    assert state.over
    assert state.to_move is None
    assert state.out == (0,)
    assert d.legal_moves(state) == []
    assert d.result(state)["winner"] == 0
    assert d.places(state)[0] == 1
    with pytest.raises(d.IllegalMove, match="^The game is over.$"):
        d.play(state, "8D")


# --------------------------------------------------------------------------- D10


def test_d10_others_ranked_by_cards_left_then_points():
    # Seat 1: 9 cards. Seat 2: 13 cards, 91 points. Seat 3: 13 cards, 80 points.
    start = d.start(
        hands("9D", suit("S"), suit("C") + " 6D 7D 8D TD", suit("H") + " JD QD KD AD", rest=0),
        CLASSIC,
    )
    state = d.play(start, "9D")
    res = d.result(state)
    assert res["cards_left"] == [0, 9, 13, 13]
    assert res["points"] == [0, 60, 91, 80]
    assert d.places(state) == (1, 2, 4, 3)
    assert res["places"] == [1, 2, 4, 3]


# --------------------------------------------------------------------------- D11

# Seat 0 goes out in four plays. Seat 1 passes three times and keeps 14 cards
# worth 84; seat 2 never passes and keeps 14 cards worth 105; seat 3 passes
# three times holding its one card, 6S.
D11_HANDS = ["9D JD QD KD", "6C 7C JC QC KC AC 6H 7H 8H TH JH QH KH AH", "", "6S"]


def d11_game(options: d.Options) -> d.State:
    state = d.start(hands(*D11_HANDS, rest=2), options)
    return play_all(state, "9D", "TD", "JD", "8D", "QD", "9C", "KD")


def test_d11_pass_rule_ranks_fewer_passes_before_points():
    state = d11_game(PASS_RULE)
    assert state.over
    res = d.result(state)
    assert res["cards_left"] == [0, 14, 14, 1]
    assert res["passes"] == [0, 3, 0, 3]
    assert res["points"] == [0, 84, 105, 6]
    assert d.places(state) == (1, 4, 3, 2)


def test_d11_without_pass_rule_passes_are_counted_but_never_rank():
    state = d11_game(CLASSIC)
    assert state.passes == (0, 3, 0, 3)
    assert d.places(state) == (1, 3, 4, 2)


# --------------------------------------------------------------------------- D12


def test_d12_shared_places_use_competition_ranking_1_2_2_4():
    # Seats 1 and 2: 11 cards, 54 + 21 points each. Seat 3: 13 cards.
    state = d.start(
        hands(
            "9D",
            "7C 8C 9C TC JC QC KC AC 6D KD AD",
            "7H 8H 9H TH JH QH KH AH 8D TD QD",
            suit("S") + " 7D JD 6C 6H",
            rest=0,
        ),
        CLASSIC,
    )
    state = d.play(state, "9D")
    assert d.result(state)["points"][1] == d.result(state)["points"][2]
    assert d.places(state) == (1, 2, 2, 4)


def test_d12_tie_for_last_shares_the_place():
    state = d.start(
        hands(
            "9D",
            suit("S") + " 7D JD",
            suit("C") + " 6D KD AD",
            suit("H") + " 8D TD QD",
            rest=0,
        ),
        CLASSIC,
    )
    state = d.play(state, "9D")
    assert d.places(state) == (1, 2, 3, 3)


# --------------------------------------------------------------------------- D13


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", [CLASSIC, KEFT])
def test_d13_the_game_never_stalls(players, options):
    for seed in range(15):
        for state in random_game(players, seed, options):
            if not state.over:
                assert d.legal_moves(state), state


def test_d13_an_impossible_stall_is_an_internal_error():
    # Nobody holds any card that 9D makes playable: only a corrupt position can do this.
    nine_d, ace_s, king_s = (1 << DECK36.index(c) for c in ("9D", "AS", "KS"))
    with pytest.raises(AssertionError, match="D13"):
        d.advance([nine_d | ace_s, king_s], nine_d, 0, nine_d, d.CYCLES[2], 1, [0, 0], [], None)


# --------------------------------------------------------------------------- K1


@pytest.mark.parametrize("seed", range(5))
def test_k1_keft_same_deal_first_move_and_rows(seed):
    keft = d.deal(4, seed, KEFT)
    classic = d.deal(4, seed, CLASSIC)
    assert keft.hands == classic.hands
    assert keft.to_move == classic.to_move
    assert d.legal_moves(keft) == ["9D"]
    example = worked_example(KEFT)
    assert d.legal_moves(example) == ["7D", "JD"]


# --------------------------------------------------------------------------- K2


def test_k2_out_player_keeps_no_turn_and_skipping_is_not_a_pass():
    state = d.start(hands("9D", "8D " + suit("C"), rest=2), KEFT)
    state = d.play(state, "9D")
    assert state.out == (0,)
    assert not state.over
    assert state.to_move == 1
    state = d.play(state, "8D")
    assert state.to_move == 2
    state, actions = d.apply(state, "TD")
    assert actions == [(2, "TD")]  # seat 0's empty hand is skipped, no pass recorded
    assert state.to_move == 1
    assert state.passes == (0, 0, 0)


# --------------------------------------------------------------------------- K3


def test_k3_last_player_holding_cards_loses_first_out_does_not_end_3plus():
    state = d.start(hands("9D", "8D", rest=2), KEFT)
    state = d.play(state, "9D")
    assert not state.over  # the first out does not end a game of three
    state = d.play(state, "8D")
    assert state.over
    assert state.out == (0, 1)
    assert d.loser(state) == 2


def test_k3_two_players_first_out_ends():
    state = d.play(d.start(hands("9D", rest=1), KEFT), "9D")
    assert state.over
    assert state.out == (0,)
    assert d.loser(state) == 1


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_k3_keft_runs_until_one_hand_is_left(players):
    for seed in range(5):
        final = random_game(players, seed, KEFT)[-1]
        assert len(final.out) == players - 1
        assert [len(h) > 0 for h in final.hands].count(True) == 1


# --------------------------------------------------------------------------- K4
# K4 (a house series may record one loss per game) is a series concern: the
# engine's part is that every finished Keft game names exactly one loser.


def test_k4_every_keft_game_names_exactly_one_loser():
    for seed in range(5):
        final = random_game(4, seed, KEFT)[-1]
        res = d.result(final)
        assert isinstance(res["loser"], int)
        assert res["places"].count(4) == 1
        assert res["places"][res["loser"]] == 4


# --------------------------------------------------------------------------- K5


def test_k5_out_order_recorded_and_only_the_loser_counts():
    state = play_all(d.start(hands("9D", "8D", rest=2), KEFT), "9D", "8D")
    res = d.result(state)
    assert res["out"] == [0, 1]
    assert res["loser"] == 2
    assert res["winner"] is None
    assert res["places"] == [1, 2, 3]
    assert d.view(state, None)["out"] == [0, 1]
    with pytest.raises(ValueError):
        d.loser(d11_game(CLASSIC))  # classic has no single loser


# ------------------------------------------------------------- the Keft sheet


def test_keft_sheet_worked_example_7d_and_jd_only_then_6d_waits():
    state = worked_example(KEFT)
    assert d.rows(state)["D"] == ("8D", "TD")
    assert {"6D", "7D", "JD", "QH"} <= set(state.hands[1])
    assert d.legal_moves(state) == ["7D", "JD"]
    with pytest.raises(d.IllegalMove, match="^Hearts are not open: only 9H can open them.$"):
        d.play(state, "QH")
    state = d.play(state, "7D")
    assert d.rows(state)["D"] == ("7D", "TD")
    assert state.to_move == 0  # not a second card in the same turn
    state = d.play(state, "9S")
    assert state.to_move == 1
    assert "6D" in d.legal_moves(state)


# ---------------------------------------------------------------- messages


def test_illegal_move_is_a_value_error_with_plain_messages():
    assert issubclass(d.IllegalMove, ValueError)
    assert d.NOT_YOUR_TURN == "It is not your turn."
    assert d.GAME_OVER == "The game is over."
    assert d.FIRST_CARD == "The first card must be 9D."


def test_message_card_not_in_your_hand():
    state = worked_example(CLASSIC)
    with pytest.raises(d.IllegalMove, match="^QD is not in your hand.$"):
        d.play(state, "QD")
    start = d.start(hands("", EXAMPLE_A, rest=0), CLASSIC)
    with pytest.raises(d.IllegalMove, match="^QH is not in your hand.$"):
        d.play(start, "QH")


@pytest.mark.parametrize("code", ["XX", "1X", "9d", "", "10D"])
def test_message_unknown_code(code):
    state = d.deal(3, 1, CLASSIC)
    with pytest.raises(d.IllegalMove, match=f"^{code} is not a card.$"):
        d.play(state, code)


def test_message_card_of_the_52_deck():
    with pytest.raises(d.IllegalMove, match="2C is not in the 36-card deck"):
        d.play(d.deal(3, 1, CLASSIC), "2C")


def test_message_not_a_string():
    with pytest.raises(d.IllegalMove, match="is not a card"):
        d.play(d.deal(3, 1, CLASSIC), None)


# ---------------------------------------------------------------- start()


def test_start_accepts_explicit_hands_and_sorts_them():
    state = d.start([list(reversed(DECK36[:18])), list(DECK36[18:])], CLASSIC)
    assert state.hands[0] == tuple(DECK36[:18])
    assert state.to_move == 0
    assert state.passes == (0, 0)
    assert state.out == ()
    assert not state.over


@pytest.mark.parametrize(
    ("hand_list", "message"),
    [
        (hands("1X", rest=1), "1X is not a card"),
        (hands("2C", rest=1), "2C is not in the 36-card deck"),
        ([["9D", *DECK36[:17]], list(DECK36[17:])], "Duplicate card: 9D"),
        ([list(DECK36[:18]), list(DECK36[18:-2])], "Missing cards: KS, AS"),
        ([list(DECK36)], "2 to 6 hands, got 1"),
        ([[c] for c in DECK36[:6]] + [list(DECK36[6:])], "2 to 6 hands, got 7"),
        ([list(DECK36), []], "Hand 1 is empty"),
        ("9D 8D", "list of hands"),
        ([list(DECK36[:18]), "9D"], "Hand 1 must be a list"),
        ([list(DECK36[:35]), [35]], "35 is not a card"),
    ],
)
def test_start_validation(hand_list, message):
    with pytest.raises(ValueError, match=message):
        d.start(hand_list, CLASSIC)


def test_options_are_frozen_and_validated():
    assert d.Options() == d.Options(keft=False, pass_rule=False)
    with pytest.raises(AttributeError):
        d.Options().keft = True
    with pytest.raises(ValueError):
        d.Options(keft="yes")


# ---------------------------------------------------------------- the rest of the API


def test_apply_play_and_replay_agree():
    rng = random.Random(3)
    state = d.deal(4, 77, KEFT)
    cards = []
    while not state.over:
        card = rng.choice(d.legal_moves(state))
        cards.append(card)
        new, actions = d.apply(state, card)
        assert actions[0] == (state.to_move, card)
        assert all(a[1] == "pass" for a in actions[1:])
        assert d.play(state, card) == new
        state = new
    assert d.replay(4, 77, KEFT, cards) == state


def test_state_is_immutable():
    state = d.deal(3, 1, CLASSIC)
    with pytest.raises(AttributeError):
        state.to_move = 2
    assert isinstance(state.hands, tuple) and isinstance(state.hands[0], tuple)


def test_card_points_wrapper():
    assert d.card_points("AS") == 11
    assert d.card_points("JD") == 2
    with pytest.raises(ValueError):
        d.card_points("2C")


def test_places_and_result_need_a_finished_game():
    state = d.deal(3, 1, CLASSIC)
    for fn in (d.places, d.result):
        with pytest.raises(ValueError, match="not over"):
            fn(state)
    with pytest.raises(ValueError):
        d.loser(d.deal(3, 1, KEFT))


def test_rows_start_closed():
    state = d.deal(3, 1, CLASSIC)
    assert d.rows(state) == {"C": None, "D": None, "H": None, "S": None}


def test_view_for_player_spectator_and_end():
    state = worked_example(CLASSIC)
    mine = d.view(state, 1)
    assert set(mine) == {
        "game",
        "players",
        "seat",
        "keft",
        "pass_rule",
        "to_move",
        "over",
        "rows",
        "counts",
        "passes",
        "out",
        "hand",
        "legal",
        "result",
    }
    assert mine["game"] == "devyatka"
    assert mine["seat"] == 1
    assert mine["hand"] == list(state.hands[1])
    assert mine["legal"] == ["7D", "JD"]
    assert mine["rows"] == {"C": ["8C", "9C"], "D": ["8D", "TD"], "H": None, "S": None}
    assert mine["counts"] == [len(h) for h in state.hands]
    assert mine["result"] is None
    other = d.view(state, 0)
    assert other["legal"] == []
    assert other["hand"] == list(state.hands[0])
    spectator = d.view(state, None)
    assert spectator["hand"] is None
    assert spectator["legal"] == []
    json.dumps(spectator)
    with pytest.raises(ValueError):
        d.view(state, 2)
    final = d.play(d.start(hands("9D", rest=1), CLASSIC), "9D")
    end = d.view(final, None)
    assert end["over"] is True
    assert end["result"]["winner"] == 0
    assert end["result"]["hands"] == [[], [c for c in DECK36 if c != "9D"]]
    json.dumps(end)


def test_json_round_trip_and_garbage():
    state = worked_example(KEFT)
    data = d.to_json(state)
    assert d.from_json(json.loads(json.dumps(data))) == state
    assert d.from_json(data).masks == state.masks
    bad_values = [
        None,
        [],
        {**data, "game": "golf"},
        {**data, "players": 3},
        {**data, "hands": [data["hands"][0], data["hands"][1] + ["9D"]]},
        {**data, "hands": [data["hands"][0], data["hands"][1] + ["XX"]]},
        {**data, "hands": [data["hands"][0], [*data["hands"][1], "9H"]]},  # 9H in two places
        {**data, "to_move": 5},
        {**data, "to_move": None},
        {**data, "over": True},
        {**data, "passes": [0, -1]},
        {**data, "out": [0]},
        {**data, "options": {"keft": 1, "pass_rule": False}},
        {**data, "extra": 1},
        {k: v for k, v in data.items() if k != "hands"},
        # 9C back in a hand leaves 8C on the table without its nine.
        {**data, "hands": [data["hands"][0], [*data["hands"][1], "9C"]]},
    ]
    for bad in bad_values:
        with pytest.raises(ValueError):
            d.from_json(bad)
    # Seat 1 has nothing to play right after 9D here, so it cannot be the one to move.
    after = d.play(d.start(hands(suit("D") + " 9C 9H 9S", rest=1), CLASSIC), "9D")
    with pytest.raises(ValueError, match="holds no legal card"):
        d.from_json({**d.to_json(after), "to_move": 1})
