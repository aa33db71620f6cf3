"""The small registry that keeps tables game-agnostic.

Each game's engine module is wrapped in an `Engine` with the same shape:
options, deal, apply (a seat's move string -> new state + the actions it
caused), the seats that may act now, view, to_json/from_json and a result.
Tables, the move log, replays and bots only ever talk to an `Engine`; a game
joins by adding one entry here (and a renderer, static/js/games/<key>.js).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, ngettext_lazy, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.engine import cards, devyatka, golf
from games.i18n import lazy_format

DEVYATKA = "devyatka"
GOLF = "golf"
# Game names are translated like the default variants' names (games.models.VARIANT_NAMES).
DEVYATKA_LABEL = pgettext_lazy("variant name", "Devyatka")
KEFT_LABEL = pgettext_lazy("variant name", "Keft")
GOLF_LABEL = pgettext_lazy("variant name", "Golf")
GAME_CHOICES = [(DEVYATKA, DEVYATKA_LABEL), (GOLF, GOLF_LABEL)]


@dataclass(frozen=True)
class Engine:
    key: str
    label: str
    PLAYERS: tuple[int, int]
    # The Variant fields this game's options are made of (games.models.Variant).
    option_fields: tuple[str, ...]
    options: Callable[[dict], Any]
    deal: Callable[[int, int, Any], Any]
    # (state, seat, move) -> (new state, [(seat, action), ...] it caused)
    apply: Callable[[Any, int, str], tuple[Any, list[tuple[int, str]]]]
    # The seats that may act now: the one to move, or everyone not ready yet.
    actors: Callable[[Any], list[int]]
    view: Callable[[Any, int | None], dict]
    to_json: Callable[[Any], dict]
    from_json: Callable[[Any], Any]
    result: Callable[[Any], dict]
    is_move: Callable[[str], bool]
    # The error code and message for text that is not a move of this game at all.
    not_a_move: tuple[str, str]
    IllegalMove: type[Exception]
    # (level, view, history, seed, budget_ms) -> move: a house bot's choice
    choose_move: Callable[[str, dict, list, int, int], str]
    # (state, seat) -> does leaving now resign the seat (it is still in play)?
    still_playing: Callable[[Any, int], bool]
    # (result, resigned seats in order) -> the result with the resignations applied
    resign_result: Callable[[dict, list[int]], dict]
    # (result, seat) -> the figures a GameResult row keeps for that seat
    result_row: Callable[[dict, int], dict]
    # The result's per-seat lists a finished game's page shows (templates/games/detail/)
    seat_results: tuple[str, ...]
    # Results carry a score (GameResult.score: lower is better), shown in standings.
    scored: bool = False
    # (state) -> do all seats play at once now (no seat's move depends on another's)?
    simultaneous: Callable[[Any], bool] = lambda state: False
    # (state) -> everything at that moment, hidden cards included: one step of a
    # finished game's replay (games.services.replays). Never sent while a game runs.
    replay_view: Callable[[Any], dict] | None = None
    # (Variant.options()) -> the rules in force, one short line each, for people
    # (the lobby and the table page show them).
    rules_in_force: Callable[[dict], list[str]] = lambda options: []
    # (Game.options) -> the rating family a game counts for (ratings app), when a
    # game's variants are rated apart (Keft apart from placement Devyatka).
    rating_family: Callable[[dict], str] | None = None
    # Post-game analysis (the analysis app): (Game.options) -> the measure a decision is
    # judged in, a key of games.engine.bots.coach.MEASURES; None: the game is not analysed.
    analysis_measure: Callable[[dict], str] | None = None
    # (view, public history before it, move played, seed, decision index, samples)
    # -> the coach's judgement of one decision (games.engine.bots.coach.judge) or None.
    judge: Callable[[dict, list, str, Any, int, int], dict | None] | None = None
    # Duplicate play (the duplicate app): the same seed, options and number of
    # seats deal every seat the same cards in every game, later rounds included.
    duplicate: bool = False
    # (Game.options) -> a key over one seat's outcome (`outcome_of`): of two
    # players who held the same seat of the same deal, the lower key beat the
    # other; equal keys tie. What "beat" means is the game's to say.
    duplicate_key: Callable[[dict], Callable[[dict], tuple]] | None = None
    # (Game.options, outcome) -> one seat's result in a few words, for the traveller.
    outcome_text: Callable[[dict, dict], str] = lambda options, outcome: str(outcome["place"])

    def family(self, options: dict) -> str:
        """The rating family of a game with these options: the game's key unless split."""
        return self.rating_family(options) if self.rating_family else self.key

    def replay(self, players: int, seed: int, options: dict, moves: list) -> Any:
        """Deal again and apply a log's moves: (seat, move) pairs, or Devyatka's card codes.

        Automatic actions (Devyatka's passes) are skipped: applying a move makes them.
        """
        state = self.deal(players, seed, self.options(options))
        for entry in moves:
            seat, move = (
                entry if isinstance(entry, tuple | list) else (self.actors(state)[0], entry)
            )
            state, _ = self.apply(state, seat, move)
        return state


# One seat's outcome, as the duplicate app reads it from a GameResult row
# (club.models): place, lost, out_position, cards_left, card_points, passes, score.
NO_OUT = 99  # never went out: after everyone who did


def _devyatka_duplicate_key(options: dict) -> Callable[[dict], tuple]:
    if options.get("keft"):
        # Not losing beats losing; then going out earlier beats going out later.
        return lambda o: (bool(o["lost"]), o["out_position"] or NO_OUT)
    if options.get("pass_rule"):
        return lambda o: (o["place"], o["cards_left"], o["passes"], o["card_points"])
    # The place first, then the game's own tie-breaks: fewer cards left, fewer card points.
    return lambda o: (o["place"], o["cards_left"], o["card_points"])


def _devyatka_outcome_text(options: dict, o: dict) -> str:
    if options.get("keft"):
        if o["lost"]:
            return gettext("lost")
        return gettext("out %(n)s") % {"n": o["out_position"] or "–"}
    return gettext("place %(place)s · %(cards)s cards left · %(points)s points") % {
        "place": o["place"],
        "cards": o["cards_left"],
        "points": o["card_points"],
    }


def _golf_duplicate_key(options: dict) -> Callable[[dict], tuple]:
    return lambda o: (o["score"],)  # the lower match total beats the higher


def _golf_outcome_text(options: dict, o: dict) -> str:
    return gettext("total %(score)s") % {"score": o["score"]}


def _devyatka_options(data: dict) -> devyatka.Options:
    unknown = set(data) - {"keft", "pass_rule"}
    if unknown:
        raise ValueError(f"Unknown Devyatka options: {', '.join(sorted(unknown))}.")
    options = devyatka.Options(
        keft=bool(data.get("keft", False)), pass_rule=bool(data.get("pass_rule", False))
    )
    if options.keft and options.pass_rule:
        raise ValueError(_("The pass rule ranks places; Keft has a single loser and no places."))
    return options


def _devyatka_apply(
    state: devyatka.State, seat: int, card: str
) -> tuple[devyatka.State, list[tuple[int, str]]]:
    if state.to_move != seat:
        raise devyatka.IllegalMove("It is not your turn.")
    return devyatka.apply(state, card)


def _devyatka_actors(state: devyatka.State) -> list[int]:
    return [] if state.to_move is None else [state.to_move]


def _devyatka_row(result: dict, seat: int) -> dict:
    out = result["out"]
    return {
        "cards_left": result["cards_left"][seat],
        "card_points": result["points"][seat],
        "passes": result["passes"][seat],
        "out_position": out.index(seat) + 1 if seat in out else None,
        "lost": result.get("loser") == seat,
    }


def _devyatka_replay_view(state: devyatka.State) -> dict:
    """The spectator's view plus every hand and the mover's legal cards."""
    view = devyatka.view(state, None)
    del view["seat"], view["hand"]
    view["hands"] = [list(hand) for hand in state.hands]
    view["legal"] = devyatka.legal_moves(state)
    return view


def _devyatka_choose(level: str, view: dict, history: list, seed: int, budget_ms: int) -> str:
    from games.engine.bots import get_bot

    options = {"budget_ms": budget_ms} if level == "search" else {}
    return get_bot(level, seed=seed, **options).choose(view, [tuple(h) for h in history])


def _judge(
    view: dict, history: list, played: str, seed: Any, index: int, samples: int
) -> dict | None:
    from games.engine.bots import coach

    return coach.judge(view, [tuple(h) for h in history], played, seed, index, samples)


def _golf_actors(state: golf.State) -> list[int]:
    if state.phase == golf.REVEAL:
        return [seat for seat in range(state.players) if golf.legal_moves(state, seat)]
    return [] if state.to_move is None else [state.to_move]


def _golf_row(result: dict, seat: int) -> dict:
    return {"score": result["totals"][seat]}


def _golf_replay_view(state: golf.State) -> dict:
    """The spectator's view with every grid's cards, face up or down, and the drawn card.

    ``grids`` hold every code; ``up`` the face-up masks (bit ``1 << N``), as
    in the stored state. ``legal`` and ``seat`` are left out (nobody plays).
    """
    view = golf.view(state, None)
    del view["seat"], view["legal"]
    view["grids"] = [list(grid) for grid in state.grids]
    view["up"] = list(state.up)
    view["drawn"] = state.drawn
    return view


def _devyatka_rules(options: dict) -> list[str]:
    if options.get("keft"):
        lines = [_("Keft: players go out one by one; the last one holding cards loses")]
    else:
        lines = [_("First out wins; the rest by fewest cards left, then card points")]
        if options.get("pass_rule"):
            lines.append(_("Pass rule: at equal cards left, fewer passes rank first"))
    return lines


def _golf_rules(options: dict) -> list[str]:
    rounds = options.get("rounds", 9)
    three = options.get("column_rule") == "three"
    return [
        lazy_format(
            ngettext_lazy(
                "%(rounds)s round; lowest total wins",
                "%(rounds)s rounds; lowest total wins",
                rounds,
            ),
            rounds=rounds,
        ),
        _("Only a column of three of a rank scores 0 (pairs do not)")
        if three
        else _("A matching pair in a column scores 0"),
    ]


def _golf_choose(level: str, view: dict, history: list, seed: int, budget_ms: int) -> str:
    from games.engine.bots.golf import choose

    return choose(level, view, [tuple(h) for h in history], seed, budget_ms)


_ENGINES = {
    DEVYATKA: Engine(
        key=DEVYATKA,
        label=DEVYATKA_LABEL,
        PLAYERS=(2, 6),
        option_fields=("keft", "pass_rule"),
        options=_devyatka_options,
        deal=devyatka.deal,
        apply=_devyatka_apply,
        actors=_devyatka_actors,
        view=devyatka.view,
        to_json=devyatka.to_json,
        from_json=devyatka.from_json,
        result=devyatka.result,
        is_move=cards.in_deck36,
        not_a_move=("not_a_card", _("%(move)s is not a card.")),
        IllegalMove=devyatka.IllegalMove,
        choose_move=_devyatka_choose,
        still_playing=devyatka.still_playing,
        resign_result=devyatka.resign_result,
        result_row=_devyatka_row,
        seat_results=("cards_left", "points", "passes", "hands"),
        replay_view=_devyatka_replay_view,
        rules_in_force=_devyatka_rules,
        rating_family=lambda options: "keft" if options.get("keft") else DEVYATKA,
        analysis_measure=lambda options: "avoid_loss" if options.get("keft") else "place",
        judge=_judge,
        duplicate=True,
        duplicate_key=_devyatka_duplicate_key,
        outcome_text=_devyatka_outcome_text,
    ),
    GOLF: Engine(
        key=GOLF,
        label=GOLF_LABEL,
        PLAYERS=(golf.MIN_PLAYERS, golf.MAX_PLAYERS),
        option_fields=("column_rule", "rounds"),
        options=golf.options_from,
        deal=golf.deal,
        apply=golf.apply,
        actors=_golf_actors,
        view=golf.view,
        to_json=golf.to_json,
        from_json=golf.from_json,
        result=golf.result,
        is_move=golf.is_move,
        not_a_move=("not_a_move", _("%(move)s is not a Golf move.")),
        IllegalMove=golf.IllegalMove,
        choose_move=_golf_choose,
        still_playing=golf.still_playing,
        resign_result=golf.resign_result,
        result_row=_golf_row,
        seat_results=("totals", "round_scores", "penalties"),
        scored=True,
        simultaneous=lambda state: state.phase == golf.REVEAL,
        replay_view=_golf_replay_view,
        rules_in_force=_golf_rules,
        analysis_measure=lambda options: "match_total",
        judge=_judge,
        duplicate=True,
        duplicate_key=_golf_duplicate_key,
        outcome_text=_golf_outcome_text,
    ),
}


def rating_families() -> list[tuple[str, str]]:
    """Every rating family as (key, label), in display order."""
    return [(DEVYATKA, DEVYATKA_LABEL), ("keft", KEFT_LABEL), (GOLF, GOLF_LABEL)]


def single_loser_family(family: str) -> bool:
    """Families whose games have one loser and no other order (their figure is a loss rate)."""
    return family == "keft"


def engine(key: str) -> Engine:
    try:
        return _ENGINES[key]
    except KeyError:
        raise ValueError(f"Unknown game {key!r}.") from None
