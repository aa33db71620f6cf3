"""The small registry that keeps tables game-agnostic.

Each game's engine module is wrapped in an `Engine` with the same shape:
options, deal, apply (a move string -> new state + the actions it caused),
view, to_json/from_json and a result. Tables, the move log, replays and bots
only ever talk to an `Engine`. Golf joins by adding one entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine import cards, devyatka

DEVYATKA = "devyatka"
GAME_CHOICES = [(DEVYATKA, "Devyatka")]


@dataclass(frozen=True)
class Engine:
    key: str
    label: str
    PLAYERS: tuple[int, int]
    options: Callable[[dict], Any]
    deal: Callable[[int, int, Any], Any]
    apply: Callable[[Any, str], tuple[Any, list[tuple[int, str]]]]
    view: Callable[[Any, int | None], dict]
    to_json: Callable[[Any], dict]
    from_json: Callable[[Any], Any]
    result: Callable[[Any], dict]
    is_move: Callable[[str], bool]
    IllegalMove: type[Exception]
    # (level, view, history, seed, budget_ms) -> move: a house bot's choice
    choose_move: Callable[[str, dict, list, int, int], str]
    # (state, seat) -> does leaving now resign the seat (it is still in play)?
    still_playing: Callable[[Any, int], bool]
    # (result, resigned seats in order) -> the result with the resignations applied
    resign_result: Callable[[dict, list[int]], dict]

    def replay(self, players: int, seed: int, options: dict, moves: list[str]) -> Any:
        """Deal again and apply the player moves of a log (automatic passes skipped)."""
        state = self.deal(players, seed, self.options(options))
        for move in moves:
            state, _ = self.apply(state, move)
        return state


def _devyatka_options(data: dict) -> devyatka.Options:
    unknown = set(data) - {"keft", "pass_rule"}
    if unknown:
        raise ValueError(f"Unknown Devyatka options: {', '.join(sorted(unknown))}.")
    options = devyatka.Options(
        keft=bool(data.get("keft", False)), pass_rule=bool(data.get("pass_rule", False))
    )
    if options.keft and options.pass_rule:
        raise ValueError("The pass rule ranks places; Keft has a single loser and no places.")
    return options


def _devyatka_choose(level: str, view: dict, history: list, seed: int, budget_ms: int) -> str:
    from games.engine.bots import get_bot

    options = {"budget_ms": budget_ms} if level == "search" else {}
    return get_bot(level, seed=seed, **options).choose(view, [tuple(h) for h in history])


_ENGINES = {
    DEVYATKA: Engine(
        key=DEVYATKA,
        label="Devyatka",
        PLAYERS=(2, 6),
        options=_devyatka_options,
        deal=devyatka.deal,
        apply=devyatka.apply,
        view=devyatka.view,
        to_json=devyatka.to_json,
        from_json=devyatka.from_json,
        result=devyatka.result,
        is_move=cards.in_deck36,
        IllegalMove=devyatka.IllegalMove,
        choose_move=_devyatka_choose,
        still_playing=devyatka.still_playing,
        resign_result=devyatka.resign_result,
    ),
}


def engine(key: str) -> Engine:
    try:
        return _ENGINES[key]
    except KeyError:
        raise ValueError(f"Unknown game {key!r}.") from None
