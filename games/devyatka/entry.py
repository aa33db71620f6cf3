"""Devyatka (classic, pass rule) and its single-loser variant Keft: the registry entry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.devyatka import engine as devyatka
from games.devyatka.coach import AVOID_LOSS, PLACE, judge_devyatka
from games.engine import cards
from games.registry import LOSS, PLACEMENT, Column, Engine, Option

KEY = "devyatka"
# Game names are translated like the default variants' names (games/migrations/_defaults.py).
LABEL = pgettext_lazy("variant name", "Devyatka")
KEFT_LABEL = pgettext_lazy("variant name", "Keft")
# One seat's outcome, as the duplicate app reads it from a GameResult row
# (club.models): place, lost, score and the detail's out_position, cards_left,
# card_points, passes.
NO_OUT = 99  # never went out: after everyone who did


def _options(data: dict) -> devyatka.Options:
    unknown = set(data) - {"keft", "pass_rule"}
    if unknown:
        raise ValueError(f"Unknown Devyatka options: {', '.join(sorted(unknown))}.")
    options = devyatka.Options(
        keft=bool(data.get("keft", False)), pass_rule=bool(data.get("pass_rule", False))
    )
    if options.keft and options.pass_rule:
        raise ValueError(_("The pass rule ranks places; Keft has a single loser and no places."))
    return options


def _apply(
    state: devyatka.State, seat: int, card: str
) -> tuple[devyatka.State, list[tuple[int, str]]]:
    if state.to_move != seat:
        raise devyatka.IllegalMove("It is not your turn.")
    return devyatka.apply(state, card)


def _actors(state: devyatka.State) -> list[int]:
    return [] if state.to_move is None else [state.to_move]


def _row(result: dict, seat: int) -> dict:
    out = result["out"]
    return {
        "cards_left": result["cards_left"][seat],
        "card_points": result["points"][seat],
        "passes": result["passes"][seat],
        "out_position": out.index(seat) + 1 if seat in out else None,
        "lost": result.get("loser") == seat,
    }


def _replay_view(state: devyatka.State) -> dict:
    """The spectator's view plus every hand and the mover's legal cards."""
    view = devyatka.view(state, None)
    del view["seat"], view["hand"]
    view["hands"] = [list(hand) for hand in state.hands]
    view["legal"] = devyatka.legal_moves(state)
    return view


def _choose(level: str, view: dict, history: list, seed: int, budget_ms: int) -> str:
    from games.devyatka.bots import get_bot

    options = {"budget_ms": budget_ms} if level == "search" else {}
    return get_bot(level, seed=seed, **options).choose(view, [tuple(h) for h in history])


def _judge(view: dict, history: list, played: str, salt: object, index: int, samples: int) -> dict:
    """The coach's judgement of one Devyatka or Keft decision (the analysis app)."""
    return judge_devyatka(view, [tuple(h) for h in history], played, salt, index, samples)


def _rules(options: dict) -> list[str]:
    if options.get("keft"):
        lines = [_("Keft: players go out one by one; the last one holding cards loses")]
    else:
        lines = [_("First out wins; the rest by fewest cards left, then card points")]
        if options.get("pass_rule"):
            lines.append(_("Pass rule: at equal cards left, fewer passes rank first"))
    return lines


def _result_text(place: int, players: int, lost: bool, detail: dict, options: dict) -> str | None:
    """Keft results in words ("lost", "went out in position 2"); placement games say their place."""
    if not options.get("keft"):
        return None
    if lost:
        return gettext("lost")
    return gettext("went out in position %(position)s") % {"position": detail.get("out_position")}


def _duplicate_key(options: dict) -> Callable[[dict], tuple]:
    if options.get("keft"):
        # Not losing beats losing; then going out earlier beats going out later.
        return lambda o: (bool(o["lost"]), o["out_position"] or NO_OUT)
    if options.get("pass_rule"):
        return lambda o: (o["place"], o["cards_left"], o["passes"], o["card_points"])
    # The place first, then the game's own tie-breaks: fewer cards left, fewer card points.
    return lambda o: (o["place"], o["cards_left"], o["card_points"])


def _outcome_text(options: dict, o: dict) -> str:
    if options.get("keft"):
        if o["lost"]:
            return gettext("lost")
        return gettext("out %(n)s") % {"n": o["out_position"] or "–"}
    return gettext("place %(place)s · %(cards)s cards left · %(points)s points") % {
        "place": o["place"],
        "cards": o["cards_left"],
        "points": o["card_points"],
    }


_SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def _move_text(move: str) -> str:
    """A card as people write it (7♣, 10♥); the symbols read the same in every language."""
    if not cards.is_card(move):
        return move
    return cards.rank(move).replace("T", "10") + _SUIT_SYMBOLS[cards.suit(move)]


# The coach's measures (games/devyatka/coach.py) with their words for people: the
# analysis chart's title and the table's caption.
MEASURES = (
    replace(PLACE, label=_("Expected final place (lower is better)")),
    replace(AVOID_LOSS, label=_("Chance to avoid the loss (higher is better)")),
)


ENGINE = Engine(
    key=KEY,
    label=LABEL,
    renderer="devyatka",
    PLAYERS=(2, 6),
    option_schema=(
        Option(
            "keft",
            "bool",
            False,
            _("Keft (single loser)"),
            _(
                "On: players go out one by one and play goes on; the last one holding cards "
                "is the single loser. Off: the first player out wins and everyone gets a place."
            ),
        ),
        Option(
            "pass_rule",
            "bool",
            False,
            _("Pass rule"),
            _(
                "Placement games only: at equal cards left, the player who passed fewer "
                "times ranks higher; card points decide only at equal passes."
            ),
        ),
    ),
    options=_options,
    deal=devyatka.deal,
    apply=_apply,
    actors=_actors,
    view=devyatka.view,
    to_json=devyatka.to_json,
    from_json=devyatka.from_json,
    result=devyatka.result,
    is_move=cards.in_deck36,
    not_a_move=("not_a_card", _("%(move)s is not a card.")),
    IllegalMove=devyatka.IllegalMove,
    choose_move=_choose,
    still_playing=devyatka.still_playing,
    resign_result=devyatka.resign_result,
    result_row=_row,
    seat_results=("cards_left", "points", "passes", "hands"),
    replay_view=_replay_view,
    rules_in_force=_rules,
    rules_sections=(
        ("devyatka", pgettext_lazy("variant name", "Devyatka")),
        ("keft", pgettext_lazy("variant name", "Keft")),
    ),
    analysis_measure=lambda options: (AVOID_LOSS if options.get("keft") else PLACE).key,
    measures=MEASURES,
    judge=_judge,
    move_text=_move_text,
    duplicate=True,
    duplicate_key=_duplicate_key,
    duplicate_rules=_(
        "Devyatka: the better place beats the worse; at the same place, fewer cards left, "
        "then fewer card points (with the pass rule: fewer passes before card points). "
        "Keft: not losing beats losing; between two who did not lose, going out earlier wins."
    ),
    outcome_text=_outcome_text,
    families=((KEY, LABEL), ("keft", KEFT_LABEL)),
    rating_family=lambda options: "keft" if options.get("keft") else KEY,
    loss_families=("keft",),
    scoring_kinds=lambda options: (LOSS, PLACEMENT) if options.get("keft") else (PLACEMENT,),
    result_columns=(
        Column("cards_left", _("Cards left")),
        Column("card_points", _("Card points")),
        Column("passes", _("Passes")),
        Column("out_position", _("Out")),
    ),
    result_text=_result_text,
)
