"""The Golf house bots (games.golf.bots): legal, blind to hidden cards,
sensible, within budget and reproducible. Pure Python, seeded, fast."""

from __future__ import annotations

import random

import pytest

from games.engine import golf
from games.golf.bots import (
    LEVELS,
    STALL_TURNS,
    choose,
    decision_rng,
    heuristic_move,
    search_move,
)
from games.golf.bots.core import Knowledge

FAST = {"budget_ms": None, "samples": 3, "width": 3}  # count-based, cheap


def ask(level: str, view: dict, history: list, seed: int | str = 1) -> str:
    return choose(level, view, history, seed, **(FAST if level == "search" else {}))


def acting(state: golf.State) -> list[int]:
    if state.phase == "reveal":
        return [s for s in range(state.players) if golf.legal_moves(state, s)]
    return [state.to_move] if state.to_move is not None else []


def positions(players: int, rule: str, seed: int, rounds: int = 2):
    """Every (state, seat, history) of a seeded match played by mixed bots."""
    state = golf.deal(players, seed, golf.Options(column_rule=rule, rounds=rounds))
    history: list[tuple[int, str]] = []
    rng = random.Random(f"pos/{seed}")
    while not state.over:
        seats = acting(state)
        seat = seats[rng.randrange(len(seats))]
        yield state, seat, history
        view = golf.view(state, seat)
        if rng.random() < 0.3:
            move = choose("random", view, history, rng.random())
        else:
            move = heuristic_move(view, history)
        state = golf.play(state, seat, move)
        history = history + [(seat, move)]


def turn_state(players: int = 4, seed: int = 3, rule: str = "pair") -> golf.State:
    """Round 1 just after the reveal phase (nobody turned anything up)."""
    state = golf.deal(players, seed, golf.Options(column_rule=rule))
    for s in range(players):
        state = golf.play(state, s, "ready")
    assert state.phase == "turn"
    return state


def arrange(state: golf.State, cards: dict) -> golf.State:
    """The state with the given cards moved into place by swapping with a copy elsewhere.

    Keys: ``(seat, pos)`` for a grid card, ``"top"`` for the discard top,
    ``"drawn"`` for the drawn card; ``up`` is ``{seat: [positions]}``.
    """
    data = golf.to_json(state)
    locs = [("grids", s, i) for s in range(state.players) for i in range(9)]
    locs += [("stock", i) for i in range(len(data["stock"]))]
    locs += [("discard", i) for i in range(len(data["discard"]))]
    if data["drawn"] is not None:
        locs.append(("drawn",))

    def get(loc):
        if loc[0] == "grids":
            return data["grids"][loc[1]][loc[2]]
        if loc[0] == "drawn":
            return data["drawn"]
        return data[loc[0]][loc[1]]

    def put(loc, value):
        if loc[0] == "grids":
            data["grids"][loc[1]][loc[2]] = value
        elif loc[0] == "drawn":
            data["drawn"] = value
        else:
            data[loc[0]][loc[1]] = value

    targets = []
    for key, card in cards.items():
        if key == "up":
            continue
        if key == "top":
            loc = ("discard", len(data["discard"]) - 1)
        elif key == "drawn":
            loc = ("drawn",)
        else:
            loc = ("grids", key[0], key[1])
        source = next(x for x in locs if x not in targets and x != loc and get(x) == card)
        old = get(loc)
        put(loc, card)
        put(source, old)
        targets.append(loc)
    for seat, ups in cards.get("up", {}).items():
        data["up"][seat] = sum(1 << p for p in ups)
    return golf.from_json(data)


# --------------------------------------------------------------------------
# Interface.
# --------------------------------------------------------------------------


def test_unknown_level_and_no_move_raise() -> None:
    state = turn_state()
    view = golf.view(state, state.to_move)
    with pytest.raises(ValueError, match="Unknown bot level"):
        choose("genius", view, [], 1)
    idle = golf.view(state, (state.to_move + 1) % 4)
    for level in LEVELS:
        with pytest.raises(ValueError, match="no move"):
            choose(level, idle, [], 1)


def test_single_legal_move_is_returned() -> None:
    state = golf.deal(3, 5)
    for s in range(3):
        for pos in (0, 1):
            state = golf.play(state, s, f"flip {pos}")
    view = golf.view(state, 0)
    assert view["legal"] == ["ready"]
    for level in LEVELS:
        assert choose(level, view, [], 1) == "ready"


# --------------------------------------------------------------------------
# Always legal.
# --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 12])
@pytest.mark.parametrize("rule", ["pair", "three"])
def test_every_level_returns_a_legal_move(players: int, rule: str) -> None:
    seen = {"reveal": 0, "turn": 0, "drawn": 0}
    search_calls = 0
    for k, (state, seat, history) in enumerate(positions(players, rule, seed=players)):
        view = golf.view(state, seat)
        legal = view["legal"]
        kind = "drawn" if view["drawn"] else state.phase
        seen[kind] += 1
        for level in ("random", "heuristic"):
            assert ask(level, view, history, k) in legal
        if k % 9 == 0 and search_calls < (25 if players < 12 else 6):
            search_calls += 1
            assert ask("search", view, history, k) in legal
    assert all(seen.values()), seen


def test_search_after_draw_and_in_final_turns_is_legal() -> None:
    checked = {"drawn": 0, "final": 0}
    for state, seat, history in positions(4, "pair", seed=11, rounds=1):
        view = golf.view(state, seat)
        if state.phase != "turn":
            continue
        kind = "final" if view["went_out"] is not None else "drawn" if view["drawn"] else None
        if kind and checked[kind] < 6:
            checked[kind] += 1
            assert ask("search", view, history, 7) in view["legal"]
    assert checked == {"drawn": 6, "final": 6}


def test_reveal_phase_turns_up_two_then_ready() -> None:
    state = golf.deal(4, 9)
    for level in ("heuristic", "search"):
        s = 0 if level == "heuristic" else 1
        moves = []
        while golf.legal_moves(state, s):
            move = choose(level, golf.view(state, s), [], 1)
            moves.append(move)
            state = golf.play(state, s, move)
        assert [m.split()[0] for m in moves] == ["flip", "flip", "ready"]
        assert len({int(m.split()[1]) % 3 for m in moves[:2]}) == 2  # different columns


# --------------------------------------------------------------------------
# Hidden information.
# --------------------------------------------------------------------------


def shuffle_hidden(state: golf.State, seat: int, seed: int) -> golf.State:
    """The same table for ``seat``: every card it cannot see dealt again."""
    data = golf.to_json(state)
    # Each hidden place as (container, index): face-down grid cards, the
    # stock, the discard pile below its top, another seat's drawn card.
    places: list[tuple[list, int]] = []
    for s, grid in enumerate(data["grids"]):
        places += [(grid, i) for i in range(9) if not data["up"][s] >> i & 1]
    places += [(data["stock"], i) for i in range(len(data["stock"]))]
    places += [(data["discard"], i) for i in range(len(data["discard"]) - 1)]
    drawn = [data["drawn"]]
    if data["drawn"] is not None and data["to_move"] != seat:
        places.append((drawn, 0))
    cards = [box[i] for box, i in places]
    random.Random(seed).shuffle(cards)
    for (box, i), card in zip(places, cards, strict=True):
        box[i] = card
    data["drawn"] = drawn[0]
    other = golf.from_json(data)
    assert other != state
    return other


def test_bots_never_read_hidden_cards() -> None:
    compared = 0
    for k, (state, seat, history) in enumerate(positions(4, "pair", seed=21, rounds=1)):
        if k % 7 or state.phase != "turn":
            continue
        view = golf.view(state, seat)
        twin = shuffle_hidden(state, seat, k)
        assert golf.view(twin, seat) == view
        for level in LEVELS:
            a = ask(level, view, history, k)
            b = ask(level, golf.view(twin, seat), history, k)
            assert a == b, (level, k)
        compared += 1
    assert compared >= 5


def test_knowledge_counts_only_what_the_view_shows() -> None:
    state = turn_state(players=12)
    state = golf.play(state, state.to_move, "draw")
    view = golf.view(state, state.to_move)
    kn = Knowledge(view)
    shown = sum(1 for g in view["grids"] for c in g if c) + 2  # discard top, drawn
    assert sum(kn.unseen) == 3 * 52 - shown
    hidden = sum(1 for g in view["grids"] for c in g if c is None)
    assert sum(kn.unseen) == hidden + view["stock"] + view["discard_count"] - 1


# --------------------------------------------------------------------------
# Sensible play.
# --------------------------------------------------------------------------


def test_heuristic_takes_a_discard_that_completes_a_column_match() -> None:
    state = turn_state()
    me = state.to_move
    state = arrange(state, {(me, 0): "JH", (me, 4): "5C", "top": "JC", "up": {me: [0, 4]}})
    move = heuristic_move(golf.view(state, me))
    assert move in ("take 3", "take 6")


def test_heuristic_completes_three_of_a_kind_with_column_rule_three() -> None:
    state = turn_state(rule="three")
    me = state.to_move
    state = arrange(
        state,
        {(me, 1): "QH", (me, 4): "QD", (me, 7): "4S", "top": "QC", "up": {me: [1, 4, 7]}},
    )
    assert heuristic_move(golf.view(state, me)) == "take 7"


def test_heuristic_keeps_a_drawn_card_that_completes_a_match() -> None:
    state = turn_state()
    me = state.to_move
    state = golf.play(state, me, "draw")
    state = arrange(state, {(me, 2): "9S", "drawn": "9D", "up": {me: [2]}})
    assert heuristic_move(golf.view(state, me)) in ("swap 5", "swap 8")


def test_heuristic_does_not_swap_a_low_card_for_a_high_one() -> None:
    state = turn_state()
    me = state.to_move
    low = {(me, 0): "KS", (me, 1): "2H", (me, 2): "AC"}
    state = arrange(state, {**low, "top": "QD", "up": {me: [0, 1, 2]}})
    view = golf.view(state, me)
    assert heuristic_move(view) == "draw"  # a queen is no use here
    state = golf.play(state, me, "draw")
    state = arrange(state, {"drawn": "9C"})
    move = heuristic_move(golf.view(state, me))
    assert move not in ("swap 0", "swap 1", "swap 2")
    assert move.startswith("discard")  # 9 is worse than an average face-down card


def test_heuristic_does_not_go_out_when_likely_not_lowest() -> None:
    state = turn_state()
    me = state.to_move
    mine = ["TS", "JS", "QS", "9H", "8H", "7D", "TD", "JD"]
    cards = {(me, i): c for i, c in enumerate(mine)}
    others = {}
    for s in range(4):
        if s != me:
            others[(s, 0)] = "KH" if s % 2 else "KC"
            others[(s, 1)] = "2D" if s % 2 else "2S"
    state = arrange(
        state,
        {
            **cards,
            **others,
            "up": {me: list(range(8)), **{s: [0, 1] for s in range(4) if s != me}},
        },
    )
    state = golf.play(state, me, "draw")
    state = arrange(state, {"drawn": "9C"})
    view = golf.view(state, me)
    history = [(s, "ready") for s in range(4)] + [(me, "draw")]
    move = heuristic_move(view, history)
    assert move not in ("discard 8", "swap 8")  # either turns up the ninth card
    assert choose("search", view, history, 1, **FAST) not in ("discard 8", "swap 8")
    # A seat that has already had STALL_TURNS turns this round goes out anyway,
    # so bots that all fear the penalty cannot stall a round forever.
    history += [(me, "flip 0"), (me, "draw"), (me, "swap 0")] * STALL_TURNS
    assert heuristic_move(view, history) == "discard 8"


def test_heuristic_beats_random_in_a_short_match() -> None:
    state = golf.deal(4, 1, golf.Options(rounds=3))
    history: list = []
    while not state.over:
        seat = acting(state)[0]
        view = golf.view(state, seat)
        move = heuristic_move(view) if seat == 0 else choose("random", view, history, 1)
        state = golf.play(state, seat, move)
        history.append((seat, move))
    assert golf.places(state)[0] == 1


# --------------------------------------------------------------------------
# Budget and reproducibility.
# --------------------------------------------------------------------------


def contested_view() -> tuple[dict, list]:
    """A turn-phase view where the search really compares candidates."""
    for state, seat, history in positions(4, "pair", seed=5, rounds=1):
        if state.phase != "turn":
            continue
        view = golf.view(state, seat)
        _, info = search_move(view, random.Random(0), None, samples=1)
        if not info["skipped"] and len(info["candidates"]) > 2:
            return view, history
    raise AssertionError("no contested position")


def test_search_with_a_tiny_budget_returns_a_legal_move() -> None:
    view, history = contested_view()
    move = choose("search", view, history, 3, budget_ms=1)
    assert move in view["legal"]
    _, info = search_move(view, random.Random(3), 1, samples=10**6)
    assert info["samples"] <= 2  # the clock is read before each deal


def test_search_sample_counts_fall_with_the_budget() -> None:
    view, _ = contested_view()
    _, small = search_move(view, random.Random(3), 1, samples=10**6)
    _, large = search_move(view, random.Random(3), 400, samples=10**6)
    assert 1 <= small["samples"] < large["samples"]
    _, counted = search_move(view, random.Random(3), None, samples=7)
    assert counted["samples"] == 7
    assert counted["playouts"] == 7 * len(counted["candidates"])


def test_same_seed_same_move() -> None:
    for k, (state, seat, history) in enumerate(positions(4, "three", seed=8, rounds=1)):
        if k % 11:
            continue
        view = golf.view(state, seat)
        for level in LEVELS:
            assert ask(level, view, history, "s") == ask(level, view, history, "s")


def test_random_level_depends_on_the_seed_and_is_uniform_enough() -> None:
    state = turn_state()
    view = golf.view(state, state.to_move)
    picks = {choose("random", view, [], seed) for seed in range(200)}
    assert picks == set(view["legal"])


def test_decision_rng_ignores_hidden_details() -> None:
    state = turn_state()
    view = golf.view(state, state.to_move)
    a = decision_rng("search", view, [(0, "ready")], 4).random()
    b = decision_rng("search", dict(view), [(0, "ready")], 4).random()
    assert a == b
