"""The registry: the one place that knows which games the club plays.

Each game is one `Engine` entry (a shipped game is a folder, games/<game>/, and
its entry is <folder>/entry.py's ENGINE, listed by `settings.GAMES`;
`settings.EXTRA_GAMES` adds more by dotted path, which is how the tests add a
game of their own). Everything outside the registry talks to an
`Engine`, never to a game by name: tables, the move log, replays and bots play
through its functions, and the data layer asks it what a game is made of:

* ``option_schema``: the rules a variant may set (`Option`), stored in
  ``Variant.options`` and made into the admin form; `Engine.clean_options`
  validates a dict against the schema and then the engine.
* ``result_row``: a seat's figures of a finished game. `Engine.result_fields`
  splits them into the columns every game has (``place``, ``score``, ``lost``)
  and the game's own figures (``GameResult.detail``), described for people by
  ``result_columns``.
* ``scoring_kinds``: the house-series scoring kinds a variant supports (the
  first is the default; `ScoringKind`, the shipped ones and the game's
  ``own_scoring_kinds``), ``standings_columns`` the figures standings and CSV
  show besides the kind's own, ``tie_breaks`` the order of equal rows
  (`TieBreak`); all data, so club.standings names no game and no figure of one.
* ``measures``: the coach's measures (games.engine.coach.Measure: the
  verdict thresholds, the label, unit and digits the analysis shows), and
  ``analysis_measure`` the one a variant's games are judged in.
* ``families``: the rating families (key, label) its variants are rated in.

The API, small on purpose: `engine(key)`, `engines()`, `game_choices()`,
`scoring_choices()`, `rating_families()`, `single_loser_family(family)`,
and the classes `Engine`, `Option`, `Column`, `OptionsError`.
A new game is a folder like the shipped ones: an engine module and one entry module;
a renderer of its own (<folder>/static/js/games/<name>.js, the entry's
`renderer`) is optional, the generic one draws any game. docs/ADDING_A_GAME.md
lists the files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

# Series scoring kinds (club.standings ranks by them; a game's `scoring_kinds` says which
# of them a variant supports): the shipped ones below, and any an entry declares in
# `own_scoring_kinds` (`ScoringKind`). Their figures and tie-breaks read a standings row
# (club.standings.Row): its counts and sums of the series' GameResult rows, every game
# alike: games, wins, losses, place_sum, half_points, score_sum, best_score.
LOSS = "loss"
PLACEMENT = "placement"
# Series.scoring's length: a scoring kind's key is at most this long.
SCORING_KEY_LENGTH = 10
# GameAnalysis.measure's length: a coach measure's key is at most this long.
MEASURE_KEY_LENGTH = 20


@dataclass(frozen=True)
class ScoringKind:
    """How a house series ranks its players (RULES.md S2, S3): declared as data.

    ``key`` is stored in Series.scoring; ``label`` is the admin's choice (gettext_lazy);
    ``rank`` gives a standings row's own figure, a tuple, best (lowest) first; the game's
    tie-breaks order equal ones. ``single_loser``: the kind counts losses (a variant whose
    games have one loser: its family is in `Engine.loss_families`); its standings show
    losses and a loss rate and the recent games as lost / not lost; otherwise they show
    wins, average place and placement points, then the game's own `standings_columns`.
    ``refusal`` is what the admin says of a variant that does not support the kind
    (%(variant)s filled in); empty: a general refusal.
    """

    key: str
    label: Any
    rank: Callable[[Any], tuple]
    single_loser: bool = False
    refusal: Any = ""


@dataclass(frozen=True)
class TieBreak:
    """An order of standings rows whose scoring figure is equal: ``order(row)``, lower first.

    ``scored``: it reads the rows' scores (only a `scored` game has them). An entry names a
    shipped one (`TIE_BREAKS`) or declares its own in `Engine.tie_breaks`.
    """

    key: str
    order: Callable[[Any], Any]
    scored: bool = False
    # For people (gettext_lazy): the order in words ("more games played first"), which a
    # club night's page writes out; empty: the key is shown.
    label: Any = ""


SCORING_KINDS: dict[str, ScoringKind] = {
    kind.key: kind
    for kind in (
        # S2: the lower loss rate first.
        ScoringKind(
            LOSS,
            _("One loss per game"),
            lambda row: (row.losses / row.games,),
            single_loser=True,
            refusal=_(
                "Loss scoring needs a single-loser variant: a loss per game makes no sense "
                "for a game with places or totals; %(variant)s ranks every player."
            ),
        ),
        # S3: more placement points per game first.
        ScoringKind(PLACEMENT, _("Placement points"), lambda row: (-row.half_points / row.games,)),
    )
}
MORE_GAMES = TieBreak("games", lambda row: -row.games, label=_("more games played first"))
TIE_BREAKS: dict[str, TieBreak] = {
    tie_break.key: tie_break
    for tie_break in (
        MORE_GAMES,
        TieBreak(
            "average_score",
            lambda row: row.score_sum / row.games,
            scored=True,
            label=_("lower average score first"),
        ),
    )
}

# The GameResult columns every game fills; the rest of a game's figures go to `detail`.
RESULT_COLUMNS = ("score", "lost")


class OptionsError(ValueError):
    """Options that do not fit a game: ``errors`` maps an option's name to messages."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__("; ".join(m for messages in errors.values() for m in messages))
        self.errors = errors


@dataclass(frozen=True)
class Option:
    """One rule a variant sets: a key of ``Variant.options`` and a field of the admin form.

    ``kind`` is "bool", "choice" (one of ``choices``: (value, label) pairs) or
    "int" (``min``..``max``). ``label`` and ``help`` are for people
    (gettext_lazy). ``invalid`` is the message for a value outside the schema
    ({value}, {min}, {max} filled in); the engine's own check comes after.
    """

    name: str
    kind: str
    default: Any
    label: Any
    help: Any = ""
    choices: tuple[tuple[str, Any], ...] = ()
    min: int | None = None
    max: int | None = None
    invalid: Any = ""

    def check(self, value: Any) -> str | None:
        """The message for a value this option cannot take, else None."""
        if self.kind == "bool":
            ok = isinstance(value, bool)
        elif self.kind == "choice":
            ok = value in {v for v, _ in self.choices}
        else:
            ok = isinstance(value, int) and not isinstance(value, bool)
            ok = ok and (self.min is None or value >= self.min)
            ok = ok and (self.max is None or value <= self.max)
        if ok:
            return None
        message = self.invalid or _("{value} is not a valid value for {label}.")
        return str(message).format(value=value, min=self.min, max=self.max, label=self.label)


@dataclass(frozen=True)
class Column:
    """A figure shown for people: ``key`` names it (a `club.standings.Row` attribute in
    ``standings_columns``, a ``GameResult.detail`` key in ``result_columns``); ``label``
    heads the page's column and ``csv`` the CSV's (empty: not in the CSV).

    A standings column may compute its figure instead: ``value(row)`` of a standings row
    (see `ScoringKind`), then ``key`` only names it."""

    key: str
    label: Any
    csv: str = ""
    testid: str = ""
    value: Callable[[Any], Any] | None = None

    def figure(self, row: Any) -> Any:
        """This column's figure of a standings row."""
        return self.value(row) if self.value is not None else getattr(row, self.key)


@dataclass(frozen=True)
class Engine:
    key: str
    # English, also the catalogs' msgid: people see pgettext("variant name", label).
    label: str
    PLAYERS: tuple[int, int]
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
    # (result, seat) -> that seat's figures: "score" and "lost" if the game has them
    # (RESULT_COLUMNS), anything else is kept in GameResult.detail.
    result_row: Callable[[dict, int], dict]
    # The result's per-seat lists a finished game's page shows (templates/games/detail/)
    seat_results: tuple[str, ...]
    # The rules a variant sets (Variant.options), in the admin form's order.
    option_schema: tuple[Option, ...] = ()
    # Results carry a score (GameResult.score: lower is better), shown in standings.
    scored: bool = False
    # (state) -> do all seats play at once now (no seat's move depends on another's)?
    simultaneous: Callable[[Any], bool] = lambda state: False
    # (state) -> everything at that moment, hidden cards included: one step of a
    # finished game's replay (games.services.replays). Never sent while a game runs.
    replay_view: Callable[[Any], dict] | None = None
    # (Variant.options) -> the rules in force, one short line each, for people
    # (the lobby and the table page show them).
    rules_in_force: Callable[[dict], list[str]] = lambda options: []
    # The rules page's sections for this game, (anchor, title) for its table of
    # contents; the sections themselves are the template games/rules/<key>.html.
    rules_sections: tuple[tuple[str, Any], ...] = ()
    # Rating families (key, label) in display order; `rating_family` picks a game's
    # when there are several (a single-loser variant apart from the placement ones).
    families: tuple[tuple[str, Any], ...] = ()
    rating_family: Callable[[dict], str] | None = None
    # Post-game analysis (the analysis app): the measures the game's decisions are
    # judged in (games.engine.coach.Measure), and (Game.options) -> the key of the one
    # a variant's games are judged in; None: the game is not analysed.
    measures: tuple[Any, ...] = ()
    analysis_measure: Callable[[dict], str] | None = None
    # (view, public history before it, move played, public salt, decision index, samples)
    # -> the coach's judgement of one decision (games.engine.coach) or None.
    judge: Callable[[dict, list, str, Any, int, int], dict | None] | None = None
    # A move as people read it, in the active language ("7♣", "turn up card 3"): the
    # analysis names the move played and the better one with it.
    move_text: Callable[[str], str] = lambda move: move
    # Duplicate play (the duplicate app): the same seed, options and number of
    # seats deal every seat the same cards in every game, later rounds included.
    duplicate: bool = False
    # (Game.options) -> a key over one seat's outcome (`outcome_of`): of two
    # players who held the same seat of the same deal, the lower key beat the
    # other; equal keys tie. What "beat" means is the game's to say.
    duplicate_key: Callable[[dict], Callable[[dict], tuple]] | None = None
    # What beats what on a duplicate board, for people (gettext_lazy): one or two
    # sentences the rules page shows in its matchpoints paragraph ("<Game>: the lower
    # match total wins."). Empty: the page says nothing of the game there.
    duplicate_rules: Any = ""
    # (Game.options, outcome) -> one seat's result in a few words, for the traveller.
    outcome_text: Callable[[dict, dict], str] = lambda options, outcome: str(outcome["place"])
    # Families whose games have one loser and no other order (their figure is a loss rate).
    loss_families: tuple[str, ...] = ()
    # (options) -> the series scoring kinds (SCORING_KINDS) a variant supports; first = default.
    scoring_kinds: Callable[[dict], tuple[str, ...]] = lambda options: (PLACEMENT,)
    # Scoring kinds of the game's own, besides the shipped SCORING_KINDS (its
    # `scoring_kinds` may then name them; every series may be scored by them).
    own_scoring_kinds: tuple[ScoringKind, ...] = ()
    # Standings figures besides the scoring kind's own (placement series only): a
    # standings row's figure by name, or computed by the column's `value`.
    standings_columns: tuple[Column, ...] = ()
    # Equal standings keys are then ordered by these, in turn: names of TIE_BREAKS, or
    # the game's own `TieBreak`s.
    tie_breaks: tuple[str | TieBreak, ...] = ("games",)
    # Figures of GameResult.detail shown per result (admin, player pages).
    result_columns: tuple[Column, ...] = ()
    # (place, players, lost, detail, options) -> a result in words for the player page,
    # or None for "place N of M".
    result_text: Callable[[int, int, bool, dict, dict], str | None] = (
        lambda place, players, lost, detail, options: None
    )
    # (state, viewer seat or None) -> the seats whose latest move that viewer may
    # not see yet (a card picked face down while others still choose). The move
    # log, live updates and a house bot's history show such a move as None until
    # the rules reveal it. None: every move is public once made.
    hidden_moves: Callable[[Any, int | None], set[int]] | None = None
    # The live table's renderer for people: a module of static/js/games/, named
    # without ".js". Empty: static/js/games/generic.js, which shows each seat's
    # view as labelled figures and the server's legal moves as buttons.
    renderer: str = ""
    # The table page's stylesheets for this game (static paths, e.g. "css/<game>.css"),
    # linked in its head so that the board is never drawn before it is styled.
    stylesheets: tuple[str, ...] = ()
    # Words for people for the keys of the per-seat view and of the result (the
    # generic renderer and the generic game page); `result_columns` count too.
    # A key without a label is shown as it is.
    labels: tuple[Column, ...] = ()

    @property
    def option_fields(self) -> tuple[str, ...]:
        """The names of this game's options (kept for callers from before the schema)."""
        return tuple(option.name for option in self.option_schema)

    @property
    def table_renderer(self) -> str:
        """The module of static/js/games/ that draws this game's table."""
        return self.renderer or "generic"

    def key_labels(self) -> dict[str, str]:
        """{key: words for people} of the view's and result's keys this entry names."""
        return {c.key: str(c.label) for c in (*self.result_columns, *self.labels)}

    def hidden_entries(self, state: Any, viewer: int | None, movers: list[int]) -> set[int]:
        """Which entries of a move log (`movers`: each entry's seat, oldest first) `viewer`
        may not see now: the latest move of each seat `hidden_moves` names."""
        if self.hidden_moves is None:
            return set()
        hidden = set(self.hidden_moves(state, viewer))
        found = set()
        for index in range(len(movers) - 1, -1, -1):
            if not hidden:
                break
            if movers[index] in hidden:
                found.add(index)
                hidden.discard(movers[index])
        return found

    def default_options(self) -> dict:
        return {option.name: option.default for option in self.option_schema}

    def clean_options(self, data: dict | None) -> dict:
        """`data` checked against the schema (defaults for missing names), then by the engine.

        Returns the full options dict, in schema order (what Variant.options
        and a Game's snapshot hold). Raises `OptionsError`: unknown names,
        values outside the schema, or the engine's refusal (filed under the
        last option, the rule that completes a combination).
        """
        data = dict(data or {})
        errors: dict[str, list[str]] = {}
        unknown = sorted(set(data) - set(self.option_fields))
        if unknown:
            errors["__all__"] = [
                str(_("Not a rule of {game}: {names}.")).format(
                    game=self.label, names=", ".join(map(str, unknown))
                )
            ]
        options = {}
        for option in self.option_schema:
            value = data.get(option.name, option.default)
            message = option.check(value)
            if message:
                errors[option.name] = [message]
            options[option.name] = value
        if not errors:
            try:
                self.options(options)
            except (TypeError, ValueError) as exc:
                last = self.option_fields[-1] if self.option_fields else "__all__"
                errors[last] = [str(exc)]
        if errors:
            raise OptionsError(errors)
        return options

    def result_fields(self, result: dict, seat: int) -> dict:
        """A seat's GameResult fields besides place and points: columns and ``detail``."""
        row = dict(self.result_row(result, seat))
        fields = {name: row.pop(name) for name in RESULT_COLUMNS if name in row}
        return {**fields, "detail": row}

    def scoring_default(self, options: dict) -> str:
        return self.scoring_kinds(options)[0]

    def tie_break_list(self) -> list[TieBreak]:
        """The tie-breaks in turn, names resolved (ValueError for a name that is none)."""
        found = []
        for tie_break in self.tie_breaks:
            if isinstance(tie_break, str):
                if tie_break not in TIE_BREAKS:
                    raise ValueError(f"{tie_break!r} is not a tie-break.")
                tie_break = TIE_BREAKS[tie_break]
            found.append(tie_break)
        return found

    def family(self, options: dict) -> str:
        """The rating family of a game with these options: the game's key unless split."""
        return self.rating_family(options) if self.rating_family else self.key

    def replay(self, players: int, seed: int, options: dict, moves: list) -> Any:
        """Deal again and apply a log's moves: (seat, move) pairs, or bare moves (the seat to move).

        Automatic actions (a pass the rules make) are skipped: applying a move makes them.
        """
        state = self.deal(players, seed, self.options(options))
        for entry in moves:
            seat, move = (
                entry if isinstance(entry, tuple | list) else (self.actors(state)[0], entry)
            )
            state, _ = self.apply(state, seat, move)
        return state


_loaded: dict[tuple[str, ...], dict[str, Engine]] = {}


def entry_paths() -> tuple[str, ...]:
    """The dotted path of every entry: settings.GAMES' folders' entry.ENGINE, then EXTRA_GAMES."""
    return (
        *(f"{app}.entry.ENGINE" for app in settings.GAMES),
        *getattr(settings, "EXTRA_GAMES", ()),
    )


def _engines() -> dict[str, Engine]:
    """Every registered engine by key, in entry_paths() order."""
    paths = entry_paths()
    engines = _loaded.get(paths)
    if engines is None:
        engines = {}
        for path in paths:
            entry = import_string(path)
            engines[entry.key] = entry
        _loaded[paths] = engines
    return engines


def engine(key: str) -> Engine:
    try:
        return _engines()[key]
    except KeyError:
        raise ValueError(f"Unknown game {key!r}.") from None


def engines() -> list[Engine]:
    """Every registered game, in registration order."""
    return list(_engines().values())


def first_game() -> str:
    """The first registered game's key: what a new variant starts as."""
    return engines()[0].key


def game_choices() -> list[tuple[str, str]]:
    """(key, label) of every game: the choices of Variant.game and Game.game."""
    return [(e.key, e.label) for e in engines()]


_scoring: dict[tuple[str, ...], dict[str, ScoringKind]] = {}


def all_scoring_kinds() -> dict[str, ScoringKind]:
    """Every series scoring kind by key: the shipped ones, then the games' own."""
    paths = entry_paths()
    kinds = _scoring.get(paths)
    if kinds is None:
        kinds = dict(SCORING_KINDS)
        for e in engines():
            for kind in e.own_scoring_kinds:
                kinds.setdefault(kind.key, kind)
        _scoring[paths] = kinds
    return kinds


def scoring_kind(key: str) -> ScoringKind:
    """The scoring kind of that key (ValueError if no game declares it)."""
    try:
        return all_scoring_kinds()[key]
    except KeyError:
        raise ValueError(f"Unknown scoring kind {key!r}.") from None


def scoring_choices() -> list[tuple[str, Any]]:
    """Every series scoring kind as (key, label): the choices of Series.scoring."""
    return [(key, kind.label) for key, kind in all_scoring_kinds().items()]


def rating_families() -> list[tuple[str, str]]:
    """Every rating family as (key, label), in display order."""
    return [
        (key, str(label)) for e in engines() for key, label in (e.families or ((e.key, e.label),))
    ]


def rating_family_choices() -> list[tuple[str, str]]:
    """The choices of the ratings' family fields."""
    return rating_families()


def single_loser_family(family: str) -> bool:
    """Families whose games have one loser and no other order (their figure is a loss rate)."""
    return any(family in e.loss_families for e in engines())
