"""High card: a two-player game of hidden hands, and its registry entry.

Each player is dealt `cards` cards (an option, 1 to 6) from the thirteen
ranks 1..13. Every trick both players pick a card from their hand at once
(a move is the card, "7"); neither sees the other's pick until both have
picked, then the higher card takes the trick (equal cards: nobody). After
the last trick, more tricks wins; equal tricks share first place. A
player's score is the tricks they lost (lower is better).

The engine part is pure Python, like games/engine/; the entry at the bottom
is all the site needs to play it (docs/ADDING_A_GAME.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine.coach import Measure, summarise
from games.registry import Column, Engine, Option

KEY = "highcard"
RANKS = tuple(range(1, 14))


class IllegalMove(ValueError):
    pass


@dataclass(frozen=True)
class Options:
    cards: int = 3

    def __post_init__(self) -> None:
        if isinstance(self.cards, bool) or not isinstance(self.cards, int):
            raise ValueError("The number of cards must be a whole number.")
        if not 1 <= self.cards <= 6:
            raise ValueError(f"High card deals 1 to 6 cards each, not {self.cards}.")


@dataclass(frozen=True)
class State:
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    picked: tuple[int | None, int | None]
    tricks: tuple[int, int]
    played: tuple[tuple[int, int], ...]
    options: Options

    @property
    def over(self) -> bool:
        return not any(self.hands) and self.picked == (None, None)

    @property
    def players(self) -> int:
        return 2


def options_from(data: dict) -> Options:
    unknown = set(data or {}) - {"cards"}
    if unknown:
        raise ValueError(f"Unknown High card options: {', '.join(sorted(unknown))}.")
    return Options(**(data or {}))


def deal(players: int, seed: int, options: Options) -> State:
    if players != 2:
        raise ValueError("High card is for two players.")
    ranks = list(RANKS)
    random.Random(seed).shuffle(ranks)
    n = options.cards
    hands = (tuple(sorted(ranks[:n])), tuple(sorted(ranks[n : 2 * n])))
    return State(hands, (None, None), (0, 0), (), options)


def actors(state: State) -> list[int]:
    return [seat for seat in (0, 1) if state.picked[seat] is None and state.hands[seat]]


def legal_moves(state: State, seat: int) -> list[str]:
    return [str(card) for card in state.hands[seat]] if seat in actors(state) else []


def apply(state: State, seat: int, move: str) -> tuple[State, list[tuple[int, str]]]:
    if move not in legal_moves(state, seat):
        raise IllegalMove(f"{move} is not a card you can pick now.")
    card = int(move)
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != card)
    picked = list(state.picked)
    picked[seat] = card
    tricks, played = state.tricks, state.played
    if None not in picked:
        a, b = picked
        tricks = (tricks[0] + (a > b), tricks[1] + (b > a))
        played = (*played, (a, b))
        picked = [None, None]
    new = State((hands[0], hands[1]), (picked[0], picked[1]), tricks, played, state.options)
    return new, [(seat, move)]


def places(state: State) -> list[int]:
    a, b = state.tricks
    return [1, 1] if a == b else ([1, 2] if a > b else [2, 1])


def result(state: State) -> dict:
    if not state.over:
        raise ValueError("The game is not over.")
    a, b = state.tricks
    return {"places": places(state), "tricks": [a, b], "lost_tricks": [b, a]}


def view(state: State, seat: int | None) -> dict:
    """What `seat` may see: its own hand and pick, the other's card count and whether it picked."""
    return {
        "hand": list(state.hands[seat]) if seat is not None else None,
        "counts": [len(hand) for hand in state.hands],
        "picked": [state.picked[s] if s == seat else state.picked[s] is not None for s in (0, 1)],
        "tricks": list(state.tricks),
        "played": [list(trick) for trick in state.played],
        "cards": state.options.cards,
        "legal": legal_moves(state, seat) if seat is not None else [],
        "over": state.over,
        "result": result(state) if state.over else None,
    }


def to_json(state: State) -> dict:
    return {
        "hands": [list(h) for h in state.hands],
        "picked": list(state.picked),
        "tricks": list(state.tricks),
        "played": [list(t) for t in state.played],
        "options": {"cards": state.options.cards},
    }


def from_json(data: dict) -> State:
    return State(
        (tuple(data["hands"][0]), tuple(data["hands"][1])),
        (data["picked"][0], data["picked"][1]),
        (data["tricks"][0], data["tricks"][1]),
        tuple((a, b) for a, b in data["played"]),
        Options(**data["options"]),
    )


def resign_result(result: dict, resigned: list[int]) -> dict:
    if not resigned:
        return result
    return {**result, "places": [2 if s in resigned else 1 for s in (0, 1)], "resigned": resigned}


def choose(level: str, view: dict, history: list, seed: int, budget_ms: int) -> str:
    """The house plays its lowest card (every level: the game is a test's)."""
    return min(view["legal"], key=int)


def row(result: dict, seat: int) -> dict:
    return {"score": result["lost_tricks"][seat], "tricks": result["tricks"][seat]}


# The coach. A pick's value is its chance to take the trick: the other's card is
# any card this seat has not seen (not in its hand, not played), all equally
# likely, so the chance is exact (no sampling, standard error 0).
TRICK_ODDS = Measure(
    "trick_odds",
    higher=True,
    inaccuracy=0.1,
    mistake=0.25,
    blunder=0.5,
    label="Chance to take the trick (higher is better)",
    unit="percent",
    digits=0,
)


def judge(view: dict, history: list, played: str, salt, index: int, samples: int) -> dict:
    legal = list(view["legal"])
    if played not in legal:
        raise ValueError(f"{played!r} is not one of the seat's legal moves.")
    seen = {*view["hand"], *(card for trick in view["played"] for card in trick)}
    unseen = [card for card in RANKS if card not in seen]
    values = [sum(other < int(move) for other in unseen) / len(unseen) for move in legal]
    return summarise(TRICK_ODDS, legal, played, [[value] for value in values])


def duplicate_key(options: dict):
    # The better place, then fewer tricks lost.
    return lambda outcome: (outcome["place"], outcome["score"])


def outcome_text(options: dict, outcome: dict) -> str:
    return f"place {outcome['place']} · {outcome['score']} tricks lost"


ENGINE = Engine(
    key=KEY,
    label="High card",
    PLAYERS=(2, 2),
    option_schema=(
        Option(
            "cards",
            "int",
            3,
            "Cards each",
            "How many cards each player is dealt, 1 to 6.",
            min=1,
            max=6,
            invalid="High card deals {min} to {max} cards each, not {value}.",
        ),
    ),
    options=options_from,
    deal=deal,
    apply=apply,
    actors=actors,
    view=view,
    to_json=to_json,
    from_json=from_json,
    result=result,
    is_move=lambda move: move.isdigit() and 1 <= int(move) <= 13,
    not_a_move=("not_a_card", "%(move)s is not a card."),
    IllegalMove=IllegalMove,
    choose_move=choose,
    still_playing=lambda state, seat: not state.over,
    resign_result=resign_result,
    result_row=row,
    seat_results=("tricks", "lost_tricks"),
    scored=True,
    simultaneous=lambda state: True,
    # A pick is face down until the other has picked too.
    hidden_moves=lambda state, viewer: {
        seat for seat in (0, 1) if seat != viewer and state.picked[seat] is not None
    },
    rules_in_force=lambda options: [f"{options.get('cards', 3)} cards each; more tricks win"],
    result_columns=(Column("tricks", "Tricks"),),
    # No `renderer`: the table is drawn by the generic one (static/js/games/generic.js),
    # in these words (English only: a test's game has no catalog).
    labels=(
        Column("counts", "Cards in hand"),
        Column("picked", "Picked"),
        Column("played", "Tricks played"),
        Column("cards", "Cards each"),
        Column("lost_tricks", "Tricks lost"),
    ),
    standings_columns=(Column("average_score_text", "Avg tricks lost", "average_lost_tricks"),),
    duplicate=True,
    duplicate_key=duplicate_key,
    outcome_text=outcome_text,
    measures=(TRICK_ODDS,),
    analysis_measure=lambda options: TRICK_ODDS.key,
    judge=judge,
)
