"""The coach's honesty (issue 25): it judges from the seat's information set only.

For Devyatka, Keft and Golf:

1. swapping the opponents' hidden cards, consistently with everything that
   was public (the same public history), gives identical verdicts and values;
2. a hand-made planted blunder is flagged as a blunder; a forced move never is;
3. the same game gives the same analysis.

The games are walked by analysis.coaching (pure, no Django), exactly as the
site's worker walks them, with a small budget so the suite stays fast.
"""

from __future__ import annotations

import random

import pytest

from analysis.coaching import decisions, judge
from games import registry
from games.devyatka import coach as devyatka_coach
from games.devyatka.bots import get_bot
from games.engine import coach, devyatka, golf
from games.golf import coach as golf_coach
from games.golf.bots import choose as golf_choose

SAMPLES = 8
DEVYATKA = registry.engine("devyatka")
GOLF = registry.engine("golf")


def _play_devyatka(state: devyatka.State, seed: int = 3) -> list[tuple[int, int, str, bool]]:
    """Every seat plays the heuristic bot; rows as the site logs them (passes auto)."""
    rows: list[tuple[int, int, str, bool]] = []
    history: list[tuple[int, str]] = []
    bot = get_bot("heuristic", seed=seed)
    while not state.over:
        seat = state.to_move
        card = bot.choose(devyatka.view(state, seat), history)
        state, actions = devyatka.apply(state, card)
        for k, (s, m) in enumerate(actions):
            rows.append((len(rows) + 1, s, m, k > 0))
        history.extend(actions)
    return rows


def _replay_actions(engine, state, rows) -> list[tuple[int, str]] | None:
    """The public action list of replaying the chosen moves of ``rows`` from ``state``."""
    actions: list[tuple[int, str]] = []
    try:
        for _, seat, move, auto in rows:
            if auto:
                continue
            state, got = engine.apply(state, seat, move)
            actions.extend(got)
    except engine.IllegalMove:
        return None
    return actions


def _analyse(engine, state, rows, seats, salt=11, samples=SAMPLES) -> list[dict | None]:
    """The judgements as the site makes them: `salt` is public (the site: the game's id)."""
    return [judge(engine, d, salt, samples) for d in decisions(engine, state, rows, seats)]


def _continue_devyatka(state, rows):
    """``rows`` then the rest of the game played by the heuristic bots, from ``state``."""
    for _, _seat, move, auto in rows:
        if not auto:
            state, _ = devyatka.apply(state, move)
    rest = _play_devyatka(state)
    return rows + [(len(rows) + 1 + i, *r[1:]) for i, r in enumerate(rest)]


def _swapped_devyatka(state, rows, member):
    """Another deal and game with the same public history up to the member's last decision.

    Two opponents swap cards they still held then (the member never saw
    them); the swap must keep every pass (a seat that passed still held no
    playable card). After that decision the bots play the game to its end.
    """
    last = max(d.index for d in decisions(DEVYATKA, state, rows, [member]))
    cut = last
    while cut < len(rows) and rows[cut][3]:  # the passes the last decision caused
        cut += 1
    prefix = rows[:cut]
    at = state
    for _, _, move, auto in prefix:
        if not auto:
            at, _ = devyatka.apply(at, move)
    original = [(s, m) for _, s, m, _ in prefix]
    opponents = [s for s in range(state.players) if s != member]
    hands = [list(h) for h in state.hands]
    for a in opponents:
        for b in opponents:
            if a >= b:
                continue
            for x in at.hands[a]:
                for y in at.hands[b]:
                    new = [list(h) for h in hands]
                    new[a][new[a].index(x)] = y
                    new[b][new[b].index(y)] = x
                    swapped = devyatka.start(new, state.options)
                    if _replay_actions(DEVYATKA, swapped, prefix) == original:
                        return swapped, _continue_devyatka(swapped, prefix)
    return None


@pytest.mark.parametrize("keft", [False, True], ids=["devyatka", "keft"])
def test_devyatka_hidden_card_swap_changes_no_verdict_or_value(keft: bool) -> None:
    options = devyatka.Options(keft=keft)
    found = 0
    for seed in range(1, 40):
        state = devyatka.deal(4, seed, options)
        rows = _play_devyatka(state)
        member = 0
        got = _swapped_devyatka(state, rows, member)
        if got is None:
            continue
        swapped, swapped_rows = got
        # Another game (dealt from other hands, as no seed of ours would deal them) judged
        # with the same public salt: the seeds that dealt the two games play no part.
        assert swapped.hands != state.hands
        first = _analyse(DEVYATKA, state, rows, [member])
        if not any(j["verdict"] != coach.FORCED for j in first):
            continue  # nothing but forced moves: a weak check, look for another game
        second = _analyse(DEVYATKA, swapped, swapped_rows, [member])
        assert first == second
        found += 1
        if found == 2:
            break
    assert found == 2


def _golf_shoe(players: int, seed: int) -> list[str]:
    shoe = list(golf.deck_for(players))
    random.Random(seed).shuffle(shoe)
    return shoe


def _play_golf(state: golf.State, seed: int = 5) -> list[tuple[int, int, str, bool]]:
    rows: list[tuple[int, int, str, bool]] = []
    history: list[tuple[int, str]] = []
    while state.phase != golf.OVER:
        seat = next(s for s in range(state.players) if golf.legal_moves(state, s))
        move = golf_choose("heuristic", golf.view(state, seat), history, seed)
        state, actions = golf.apply(state, seat, move)
        for s, m in actions:
            rows.append((len(rows) + 1, s, m, False))
        history.extend(actions)
    return rows


def test_golf_hidden_card_swap_changes_no_verdict_or_value() -> None:
    players, member = 3, 1
    options = golf.Options(rounds=1)
    shoe = _golf_shoe(players, 21)
    state = golf.start(players, shoe, options, seed=4)
    rows = _play_golf(state)
    decided = decisions(GOLF, state, rows, [member])
    last = max(d.index for d in decided)
    # Walk to the member's last decision: the opponents' cards still face down then
    # were never seen by the member; nor were the stock cards nobody drew.
    at = state
    for number, seat, move, _ in rows:
        if number == last:
            break
        at, _ = golf.apply(at, seat, move)
    hidden = []
    for seat in range(players):
        if seat == member:
            continue
        for pos in range(9):
            if not at.up[seat] >> pos & 1:
                hidden.append(pos * players + (seat - 1) % players)  # its index in the shoe
    draws = sum(1 for _, _, m, _ in rows if m == "draw")
    undrawn = list(range(9 * players + 1 + draws, len(shoe)))
    swapped_shoe = list(shoe)
    pairs = [(hidden[0], hidden[-1]), (undrawn[0], undrawn[-1])]
    for i, j in pairs:
        swapped_shoe[i], swapped_shoe[j] = swapped_shoe[j], swapped_shoe[i]
    assert swapped_shoe != shoe
    # Another game: its own seed (which would draw the later rounds and any reshuffle),
    # the same public salt. Only the seed differs besides the cards the member never saw.
    swapped = golf.start(players, swapped_shoe, options, seed=987654321)
    original = [(s, m) for _, s, m, _ in rows]
    assert _replay_actions(GOLF, swapped, rows) == original  # the same public history
    first = _analyse(GOLF, state, rows, [member])
    second = _analyse(GOLF, swapped, rows, [member])
    assert sum(1 for j in first if j) >= 5
    assert first == second


# ---------------------------------------------------------------------------
# Planted blunders and forced moves


def _planted_devyatka(keft: bool) -> devyatka.State:
    """Two players, seat 0 to move with 7C and KH legal: 7C wins by force, KH loses by force.

    Seat 0 holds 7C 6C KH, seat 1 AH 6S; everything else is on the table.
    After 7C seat 1 can only play 6S and seat 0 goes out first (6C, then KH);
    after KH seat 1 plays AH or 6S and goes out before seat 0's last card.
    """
    return devyatka.from_hands_unchecked(
        [["7C", "6C", "KH"], ["AH", "6S"]], devyatka.Options(keft=keft), to_move=0
    )


@pytest.mark.parametrize("keft", [False, True], ids=["devyatka", "keft"])
def test_devyatka_planted_blunder_is_flagged_a_blunder(keft: bool) -> None:
    state = _planted_devyatka(keft)
    assert devyatka.legal_moves(state) == ["7C", "KH"]
    after, actions = devyatka.apply(state, "KH")
    rows = [(1, 0, "KH", False)] + [(2 + k, s, m, k > 0) for k, (s, m) in enumerate(actions[1:])]
    rows += [(len(rows) + 1 + i, *r[1:]) for i, r in enumerate(_play_devyatka(after))]
    judged = [j for j in _analyse(DEVYATKA, state, rows, [0]) if j]
    first = judged[0]
    assert first["played"] == "KH" and first["best"] == "7C"
    assert first["verdict"] == coach.BLUNDER
    measure = devyatka_coach.AVOID_LOSS if keft else devyatka_coach.PLACE
    assert first["loss"] >= measure.blunder
    # The good move played instead is fine.
    after, actions = devyatka.apply(state, "7C")
    rows = [(1, 0, "7C", False)]
    judged = [j for j in _analyse(DEVYATKA, state, rows, [0]) if j]
    assert judged[0]["verdict"] == coach.FINE and judged[0]["loss"] == 0


def test_devyatka_forced_move_is_never_flagged() -> None:
    # Seat 0 holds 7C 6C AH: only 7C is legal (6C waits for it, AH for KH).
    state = devyatka.from_hands_unchecked([["7C", "6C", "AH"], ["KH", "6S"]], to_move=0)
    assert devyatka.legal_moves(state) == ["7C"]
    judged = judge(DEVYATKA, decisions(DEVYATKA, state, [(1, 0, "7C", False)], [0])[0], 1, 4)
    assert judged["verdict"] == coach.FORCED
    # Over whole games: every one-card decision is forced, never flagged.
    for keft in (False, True):
        state = devyatka.deal(4, 8, devyatka.Options(keft=keft))
        rows = _play_devyatka(state)
        for d in decisions(DEVYATKA, state, rows, range(4)):
            got = judge(DEVYATKA, d, 2, 4)
            if len(d.view["legal"]) == 1:
                assert got["verdict"] == coach.FORCED
            else:
                assert got["verdict"] != coach.FORCED


def _planted_golf() -> tuple[golf.State, list[tuple[int, int, str, bool]]]:
    """Seat 1's final turn: it draws a queen and swaps it for its face-up 2.

    Seat 1 turned up a 2 at position 0, then kept taking the discard into
    position 1 while seat 0 turned up its cards one a turn and went out. On
    its final turn seat 1 draws a queen and puts it over the 2: the round
    ends at once, so that throws away a -2 for a 10, twelve points worse than
    discarding the queen, whatever the hidden cards.
    """
    players = 2
    shoe = _golf_shoe(players, 9)

    def put(card: str, index: int) -> None:
        j = shoe.index(card)
        shoe[index], shoe[j] = shoe[j], shoe[index]

    put("2C", 0)  # seat 1, position 0 (seat 1 is dealt first)
    put("QH", 9 * players + 1)  # the top of the stock: nobody draws before seat 1's final turn
    state = golf.start(players, shoe, golf.Options(rounds=1), seed=2)
    moves = [(1, "flip 0"), (1, "flip 1"), (1, "ready"), (0, "flip 0"), (0, "flip 1"), (0, "ready")]
    for k in range(7):
        moves += [(1, "take 1"), (0, f"flip {2 + k}")]
    moves += [(1, "draw"), (1, "swap 0")]
    rows = [(i + 1, seat, move, False) for i, (seat, move) in enumerate(moves)]
    return state, rows


def test_golf_planted_blunder_is_flagged_a_blunder() -> None:
    state, rows = _planted_golf()
    at = state
    for _, seat, move, _ in rows:
        at, _ = golf.apply(at, seat, move)
    assert at.phase == golf.OVER
    judged = [j for j in _analyse(GOLF, state, rows, [1]) if j]
    opening = ["flip 0", "flip 1", "ready"]  # the opening flips are judged too
    assert [j["played"] for j in judged] == opening + ["take 1"] * 7 + ["draw", "swap 0"]
    blunder = judged[-1]
    assert blunder["verdict"] == coach.BLUNDER
    assert blunder["loss"] >= golf_coach.MATCH_TOTAL.blunder
    assert blunder["best"] != "swap 0"


def test_golf_forced_move_is_never_flagged() -> None:
    # Over a whole match: "ready" after two cards turned up (G3) is the only move: forced.
    state = golf.start(3, _golf_shoe(3, 6), golf.Options(rounds=2), seed=3)
    rows = _play_golf(state)
    seen = 0
    for d in decisions(GOLF, state, rows, range(3)):
        got = judge(GOLF, d, 2, 2)
        if len(d.view["legal"]) == 1:
            assert got["verdict"] == coach.FORCED
            seen += 1
        else:
            assert got["verdict"] != coach.FORCED
    assert seen >= 6  # every seat's two "ready" at least


def test_golf_opening_flips_are_judged() -> None:
    """G3: the flips before play are decisions like any other.

    Which face-down card to turn up first is one option (the nine are alike
    by the grid's symmetry, so they get the same value and are never flagged
    against each other); saying "ready" with nothing turned up throws that
    free look away and is flagged.
    """
    players = 3
    state = golf.start(players, _golf_shoe(players, 1), golf.Options(rounds=3), seed=4)
    view = golf.view(state, 0)
    assert view["phase"] == golf.REVEAL
    got = golf_coach.judge_golf(view, [], "ready", 11, 1, 48)
    assert got["verdict"] in coach.FLAGGED
    assert got["best"].startswith("flip ")
    first = golf_coach.judge_golf(view, [], "flip 7", 11, 1, 48)
    assert first["verdict"] == coach.FINE and first["loss"] == 0
    flips = {tuple(v) for m, v in first["values"].items() if m.startswith("flip ")}
    assert len(flips) == 1
    # The second flip: the same column as the first, or another (two options).
    after, _ = golf.apply(state, 0, "flip 7")
    second = golf_coach.judge_golf(golf.view(after, 0), [(0, "flip 7")], "flip 1", 11, 2, 48)
    values = second["values"]
    assert values["flip 1"] == values["flip 4"]  # 7's column
    assert values["flip 0"] == values["flip 2"] == values["flip 8"]
    # Played in a game, they are among the member's decisions.
    rows = _play_golf(state)
    judged = [j for j in _analyse(GOLF, state, rows, [0]) if j]
    assert [j["played"] for j in judged[:3]] == ["flip 0", "flip 4", "ready"]
    assert judged[2]["verdict"] == coach.FORCED


def test_a_loss_within_the_noise_is_not_flagged() -> None:
    measure = devyatka_coach.PLACE
    assert coach.verdict(measure, 0.6, 0.3, 3) == coach.FINE  # 2 standard errors
    assert coach.verdict(measure, 0.6, 0.1, 3) == coach.BLUNDER


# ---------------------------------------------------------------------------
# Same game, same analysis


@pytest.mark.parametrize("keft", [False, True], ids=["devyatka", "keft"])
def test_devyatka_same_game_gives_the_same_analysis(keft: bool) -> None:
    state = devyatka.deal(3, 17, devyatka.Options(keft=keft))
    rows = _play_devyatka(state)
    first = _analyse(DEVYATKA, state, rows, [0, 2])
    assert first == _analyse(DEVYATKA, state, rows, [0, 2])
    assert all("values" in j and j["played"] in j["values"] for j in first if j)


def test_golf_same_game_gives_the_same_analysis() -> None:
    state = golf.start(2, _golf_shoe(2, 3), golf.Options(rounds=1), seed=1)
    rows = _play_golf(state)
    first = _analyse(GOLF, state, rows, [0])
    assert first == _analyse(GOLF, state, rows, [0])
    assert any(first)
