"""Nine-card Golf: the registry entry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from django.utils.translation import gettext, ngettext_lazy, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.golf import engine as golf
from games.golf.coach import MATCH_TOTAL, judge_golf
from games.i18n import lazy_format
from games.registry import Column, Engine, Option

KEY = "golf"


def _actors(state: golf.State) -> list[int]:
    if state.phase == golf.REVEAL:
        return [seat for seat in range(state.players) if golf.legal_moves(state, seat)]
    return [] if state.to_move is None else [state.to_move]


def _row(result: dict, seat: int) -> dict:
    return {"score": result["totals"][seat]}


def _replay_view(state: golf.State) -> dict:
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


def _rules(options: dict) -> list[str]:
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


def _choose(level: str, view: dict, history: list, seed: int, budget_ms: int) -> str:
    from games.golf.bots import choose

    return choose(level, view, [tuple(h) for h in history], seed, budget_ms)


def _judge(view: dict, history: list, played: str, salt: object, index: int, samples: int) -> dict:
    """The coach's judgement of one Golf decision (the analysis app)."""
    return judge_golf(view, [tuple(h) for h in history], played, salt, index, samples)


def _duplicate_key(options: dict) -> Callable[[dict], tuple]:
    return lambda o: (o["score"],)  # the lower match total beats the higher


def _outcome_text(options: dict, o: dict) -> str:
    return gettext("total %(score)s") % {"score": o["score"]}


# The moves as the analysis names them (the move played, the better one); N is 1..9.
_MOVE_TEXTS = {
    "flip": _("turn up card %(n)s"),
    "draw": _("draw from the stock"),
    "take": _("take the discard for card %(n)s"),
    "swap": _("put the drawn card at card %(n)s"),
    "discard": _("discard the drawn card and turn up card %(n)s"),
    "ready": _("say ready"),
}


def _move_text(move: str) -> str:
    kind, _space, pos = move.partition(" ")
    text = _MOVE_TEXTS.get(kind)
    if text is None:
        return move
    return str(text) % {"n": int(pos) + 1} if pos.isdigit() else str(text)


# The coach's measure (games/golf/coach.py) with its words for people: the analysis
# chart's title and the table's caption.
MEASURES = (replace(MATCH_TOTAL, label=_("Expected match total (lower is better)")),)


ENGINE = Engine(
    key=KEY,
    label=pgettext_lazy("variant name", "Golf"),
    renderer="golf",
    stylesheets=("css/golf.css",),
    PLAYERS=(golf.MIN_PLAYERS, golf.MAX_PLAYERS),
    option_schema=(
        Option(
            "column_rule",
            "choice",
            "pair",
            _("Column rule"),
            _("Which column matches score 0 (G11)."),
            choices=(
                ("pair", _("Two of a rank in a column score 0")),
                ("three", _("Only three of a rank")),
            ),
        ),
        Option(
            "rounds",
            "int",
            9,
            _("Rounds"),
            _("Rounds in a match, 1 to 18."),
            min=golf.MIN_ROUNDS,
            max=golf.MAX_ROUNDS,
            invalid="A Golf match has {min} to {max} rounds, got {value!r}.",
        ),
    ),
    options=golf.options_from,
    deal=golf.deal,
    apply=golf.apply,
    actors=_actors,
    view=golf.view,
    to_json=golf.to_json,
    from_json=golf.from_json,
    result=golf.result,
    is_move=golf.is_move,
    not_a_move=("not_a_move", _("%(move)s is not a Golf move.")),
    IllegalMove=golf.IllegalMove,
    choose_move=_choose,
    still_playing=golf.still_playing,
    resign_result=golf.resign_result,
    result_row=_row,
    seat_results=("totals", "round_scores", "penalties"),
    scored=True,
    simultaneous=lambda state: state.phase == golf.REVEAL,
    replay_view=_replay_view,
    rules_in_force=_rules,
    rules_sections=(("golf", pgettext_lazy("variant name", "Golf")),),
    analysis_measure=lambda options: MATCH_TOTAL.key,
    measures=MEASURES,
    judge=_judge,
    move_text=_move_text,
    duplicate=True,
    duplicate_key=_duplicate_key,
    duplicate_rules=_("Golf: the lower match total wins."),
    outcome_text=_outcome_text,
    standings_columns=(
        Column("average_score_text", _("Avg total"), "average_total", "average-total"),
        Column("best_score", _("Best match"), "best_total", "best-total"),
    ),
)
