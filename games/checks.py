"""System checks of the registry entries: a wrong declaration fails `manage.py check`.

Every registered entry (games.registry.entry_paths(): `settings.GAMES`' folders, then `settings.EXTRA_GAMES`)
is read at start, not when a page first uses it: each declared option, result
field, standings column, tie-break, scoring kind, rating family, measure and
renderer must resolve, or the check says which entry and which field is wrong.
The declarations that depend on a variant's options (measure, scoring kinds,
rating family, duplicate key) are asked for every combination of option values
the entry accepts (booleans, choices, and an int option's min, default and max).

The result fields are read from one game of the default options at the fewest
seats, every seat playing its first legal move, to its end. What an entry
declares as code over a standings row (a computed standings figure
`Column.value`, its own `TieBreak` order, its own `ScoringKind` rank) is tried
on a sample row of two games; each coach `Measure` must have a key that fits
an analysis, a label, a known unit, 0-6 digits and thresholds in order.

Ids: games.E001 entry not loadable, E002 key or players, E003 option, E004
result field, E005 standings column, E006 tie-break, E007 measure, E008
renderer and stylesheets, E009 scoring kind, E010 rating family, E011 duplicate play; W001 a
game that did not end (its result fields unchecked).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterator
from typing import Any

from django.core import checks
from django.utils.module_loading import import_string

from games import registry

OPTION_KINDS = ("bool", "choice", "int")
# What a variant's combinations may number before the check stops trying more.
MAX_COMBINATIONS = 256
# The longest game the check plays to see a result (the shipped ones: 35 and ~300 moves).
MAX_MOVES = 5000
# GameResult's own columns: a game's detail figures (result_columns) cannot be named so.
RESULT_FIELDS = ("place", "points", "resigned", *registry.RESULT_COLUMNS)
# The standings figures and tie-breaks that read GameResult.score: only a `scored` game fills it.
SCORE_FIGURES = ("score_sum", "best_score", "average_score_text", "average_score")
CSV_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
KEY = re.compile(r"^[a-z][a-z0-9_]*$")


class _Entry:
    """One entry under check: collects its errors, each naming the entry and the field."""

    def __init__(self, path: str, engine: registry.Engine) -> None:
        self.path, self.engine, self.errors = path, engine, []

    def error(self, code: str, field: str, message: str, hint: str = "") -> None:
        name = f"{self.engine.key!r} ({self.path})"
        self.errors.append(
            checks.Error(
                f"Game {name}: {field}: {message}",
                hint=hint or f"Fix Engine.{field.split('[')[0]} in the entry {name}.",
                obj=self.path,
                id=f"games.{code}",
            )
        )


def _paths() -> tuple[str, ...]:
    return registry.entry_paths()


def _values(option: registry.Option) -> tuple[Any, ...]:
    if option.kind == "bool":
        return (False, True)
    if option.kind == "choice":
        return tuple(value for value, _label in option.choices)
    ends = (option.min, option.default, option.max)
    return tuple(sorted({v for v in ends if isinstance(v, int) and not isinstance(v, bool)}))


def _combinations(engine: registry.Engine) -> Iterator[dict]:
    """Every accepted options dict (the engine's clean_options), up to MAX_COMBINATIONS tried."""
    names = [option.name for option in engine.option_schema]
    values = [_values(option) for option in engine.option_schema]
    for combo in itertools.islice(itertools.product(*values), MAX_COMBINATIONS):
        try:
            yield engine.clean_options(dict(zip(names, combo, strict=True)))
        except registry.OptionsError:
            continue


def _check_key(entry: _Entry, keys: dict[str, str]) -> None:
    e = entry.engine
    from games.models import Variant

    max_length = Variant._meta.get_field("game").max_length
    if not isinstance(e.key, str) or not KEY.match(e.key) or len(e.key) > max_length:
        entry.error(
            "E002",
            "key",
            f"{e.key!r} is not a game key.",
            f"Make Engine.key lower-case letters, digits and _ (at most {max_length}), "
            f"starting with a letter, in the entry {e.key!r} ({entry.path}).",
        )
    elif e.key in keys:
        entry.error("E002", "key", f"{e.key!r} is also the key of {keys[e.key]}.")
    keys.setdefault(e.key, entry.path)
    low, high = e.PLAYERS
    if not (isinstance(low, int) and isinstance(high, int) and 1 <= low <= high):
        entry.error("E002", "PLAYERS", f"{e.PLAYERS!r} is not a (fewest, most) pair.")


def _check_options(entry: _Entry) -> bool:
    """The schema's options; True when the defaults are a variant the engine accepts."""
    from games.models import Variant

    taken = {field.name for field in Variant._meta.get_fields()}
    seen: set[str] = set()
    for option in entry.engine.option_schema:
        field = f"option_schema[{option.name!r}]"
        if option.name in taken or option.name in seen:
            clash = "a field of Variant" if option.name in taken else "another option's name"
            entry.error("E003", field, f"the name {option.name!r} is {clash}.")
        seen.add(option.name)
        if option.kind not in OPTION_KINDS:
            kinds = ", ".join(OPTION_KINDS)
            entry.error("E003", field, f"kind {option.kind!r} is not one of {kinds}.")
            continue
        if option.kind == "choice" and not option.choices:
            entry.error("E003", field, "a choice option declares no choices.")
        if option.check(option.default) is not None:
            entry.error("E003", field, f"the default {option.default!r} is not a valid value.")
    if any(error.id == "games.E003" for error in entry.errors):
        return False
    try:
        entry.engine.clean_options({})
    except registry.OptionsError as exc:
        entry.error("E003", "option_schema", f"the engine refuses the default options: {exc}")
        return False
    return True


def _check_results(entry: _Entry) -> None:
    e = entry.engine
    for name, columns in (("result_columns", e.result_columns), ("labels", e.labels)):
        seen: set[str] = set()
        for column in columns:
            field = f"{name}[{column.key!r}]"
            if not column.key or column.key in seen:
                entry.error("E004", field, "a key is empty or given twice.")
            elif name == "result_columns" and column.key in RESULT_FIELDS:
                entry.error(
                    "E004",
                    field,
                    f"{column.key!r} is a column of GameResult, not a figure of its detail.",
                )
            if not str(column.label):
                entry.error("E004", field, "the label is empty.")
            seen.add(column.key)
    if not e.seat_results or len(set(e.seat_results)) != len(e.seat_results):
        entry.error("E004", "seat_results", f"{e.seat_results!r}: none, or one given twice.")


def _played(e: registry.Engine) -> tuple[Any, int] | None:
    """A game of the defaults at the fewest seats, every actor playing its first legal move:
    (the final state, seats), or None if it does not end in MAX_MOVES."""
    players = e.PLAYERS[0]
    state = e.deal(players, 0, e.options(e.clean_options({})))
    for _move in range(MAX_MOVES):
        actors = e.actors(state)
        if not actors:
            return state, players
        legal = e.view(state, actors[0]).get("legal") or []
        if not legal:
            raise ValueError(f"seat {actors[0]} may act but its view lists no legal move")
        state, _caused = e.apply(state, actors[0], legal[0])
    return None


def _check_result(entry: _Entry) -> None:
    """The result fields of a game played to its end: seat_results, result_row, its detail."""
    e = entry.engine
    try:
        played = _played(e)
        if played is None:
            entry.errors.append(
                checks.Warning(
                    f"Game {e.key!r} ({entry.path}): a game of first legal moves did not end "
                    f"in {MAX_MOVES} moves; its result fields were not checked.",
                    obj=entry.path,
                    id="games.W001",
                )
            )
            return
        state, players = played
        result = e.result(state)
        shown = {**(e.view(state, None).get("result") or {}), **result}
        rows = [e.result_row(result, seat) for seat in range(players)]
    except Exception as exc:  # a declaration that raises is what the check is for
        message = f"playing a game to its result raises {type(exc).__name__}: {exc}"
        entry.error("E004", "result", message)
        return
    for key in e.seat_results:
        value = shown.get(key)
        if not isinstance(value, list | tuple) or len(value) != players:
            entry.error(
                "E004", f"seat_results[{key!r}]", "not a per-seat list of the finished result."
            )
    described = {column.key for column in e.result_columns}
    if e.scored and any("score" not in row for row in rows):
        entry.error("E004", "result_row", "a scored game's row has no 'score'.")
    figures = {key for row in rows for key in row}
    for key in sorted(figures - set(registry.RESULT_COLUMNS) - described):
        entry.error(
            "E004",
            "result_row",
            f"the figure {key!r} has no Column in result_columns (GameResult.detail).",
        )


def _sample_row(e: registry.Engine) -> Any:
    """A standings row of two games (a win and a loss), to try declared figures on."""
    from club.standings import Row

    scored = {"score_sum": 9, "best_score": 3} if e.scored else {}
    return Row(
        player_id=0, name="", games=2, wins=1, losses=1, place_sum=3, half_points=2, **scored
    )


def _tried(function: Any, row: Any) -> str | None:
    """Why calling a declared function on a sample row fails, or None."""
    if not callable(function):
        return f"{function!r} is not a function of a standings row."
    try:
        function(row)
    except Exception as exc:  # a declaration that raises is what the check is for
        return f"raises {type(exc).__name__} on a standings row: {exc}"
    return None


def _check_standings(entry: _Entry) -> None:
    from club.standings import Row

    e = entry.engine
    figures = {f.name for f in dataclasses.fields(Row)} | {
        name for name, value in vars(Row).items() if isinstance(value, property)
    }
    figures -= {"player_id", "name", "recent", "extra"}  # the row's own, not figures
    row = _sample_row(e)
    csv_names: set[str] = set()
    for column in e.standings_columns:
        field = f"standings_columns[{column.key!r}]"
        if column.value is not None:
            why = _tried(column.value, row)
            if why:
                entry.error("E005", field, f"value: {why}")
        elif column.key not in figures:
            entry.error(
                "E005",
                field,
                f"{column.key!r} is not a figure of a standings row.",
                f"Use one of {', '.join(sorted(figures))} (club.standings.Row), or compute "
                f"it with Column(value=...), in the entry {e.key!r} ({entry.path}).",
            )
        elif column.key in SCORE_FIGURES and not e.scored:
            entry.error("E005", field, f"{column.key!r} reads scores; the game is not `scored`.")
        if column.csv and (not CSV_NAME.match(column.csv) or column.csv in csv_names):
            entry.error("E005", field, f"the CSV name {column.csv!r} is not a unique identifier.")
        csv_names.add(column.csv)
    for tie_break in e.tie_breaks:
        name = tie_break.key if isinstance(tie_break, registry.TieBreak) else tie_break
        field = f"tie_breaks[{name!r}]"
        if isinstance(tie_break, registry.TieBreak):
            why = _tried(tie_break.order, row)
            if not tie_break.key or not isinstance(tie_break.key, str):
                entry.error("E006", field, "a declared tie-break needs a key.")
            elif why:
                entry.error("E006", field, f"order: {why}")
        elif not isinstance(tie_break, str) or tie_break not in registry.TIE_BREAKS:
            entry.error(
                "E006",
                field,
                f"{name!r} is not a tie-break.",
                f"Use one of {', '.join(registry.TIE_BREAKS)} (games.registry.TIE_BREAKS), "
                f"or declare a games.registry.TieBreak, in the entry {e.key!r} ({entry.path}).",
            )
            continue
        else:
            tie_break = registry.TIE_BREAKS[tie_break]
        if tie_break.scored and not e.scored:
            entry.error("E006", field, f"{name!r} reads scores; the game is not `scored`.")


def _check_own_scoring_kinds(entry: _Entry, kinds: dict[str, str]) -> None:
    """The scoring kinds an entry declares: keys that fit Series.scoring and are nobody
    else's, a label, a ranking figure that works on a standings row."""
    e = entry.engine
    row = _sample_row(e)
    for kind in e.own_scoring_kinds:
        if not isinstance(kind, registry.ScoringKind):
            entry.error(
                "E009", "own_scoring_kinds", f"{kind!r} is not a games.registry.ScoringKind."
            )
            continue
        field = f"own_scoring_kinds[{kind.key!r}]"
        length = registry.SCORING_KEY_LENGTH
        if not isinstance(kind.key, str) or not KEY.match(kind.key) or len(kind.key) > length:
            entry.error(
                "E009",
                field,
                f"{kind.key!r} is not a scoring kind key (lower-case letters, digits and _, "
                f"starting with a letter, at most {length}).",
            )
        elif kind.key in registry.SCORING_KINDS or kind.key in kinds:
            owner = kinds.get(kind.key, "the shipped scoring kinds")
            entry.error("E009", field, f"{kind.key!r} is also a scoring kind of {owner}.")
        kinds.setdefault(kind.key, entry.path)
        if not str(kind.label):
            entry.error("E009", field, "the label is empty.")
        why = _tried(kind.rank, row)
        if why is None and not isinstance(kind.rank(row), tuple):
            why = "does not give a tuple."
        if why:
            entry.error("E009", field, f"rank: {why}")


def _check_measures(entry: _Entry) -> None:
    """The coach's measures: each a games.engine.coach.Measure with a key that fits an
    analysis, a label, a unit and digits the analysis can show, thresholds in order."""
    from games.engine.coach import UNITS, Measure

    e = entry.engine
    seen: set[str] = set()
    for measure in e.measures:
        if not isinstance(measure, Measure):
            entry.error("E007", "measures", f"{measure!r} is not a games.engine.coach.Measure.")
            continue
        field = f"measures[{measure.key!r}]"
        length = registry.MEASURE_KEY_LENGTH
        if (
            not isinstance(measure.key, str)
            or not KEY.match(measure.key)
            or len(measure.key) > length
        ):
            entry.error(
                "E007",
                field,
                f"{measure.key!r} is not a measure key (at most {length} characters).",
            )
        elif measure.key in seen:
            entry.error("E007", field, f"{measure.key!r} is declared twice.")
        seen.add(measure.key)
        if not str(measure.label):
            entry.error("E007", field, "the label is empty (the analysis chart's title).")
        if measure.unit not in UNITS:
            entry.error("E007", field, f"unit {measure.unit!r} is not one of {', '.join(UNITS)}.")
        digits = measure.digits
        if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 6:
            entry.error("E007", field, f"digits {digits!r} is not a whole number from 0 to 6.")
        if not isinstance(measure.higher, bool):
            entry.error("E007", field, f"higher {measure.higher!r} is not True or False.")
        thresholds = (measure.inaccuracy, measure.mistake, measure.blunder)
        if not all(isinstance(t, int | float) for t in thresholds) or not (
            0 < thresholds[0] <= thresholds[1] <= thresholds[2]
        ):
            entry.error(
                "E007",
                field,
                f"the thresholds {thresholds!r} are not 0 < inaccuracy <= mistake <= blunder.",
            )


def _check_renderer(entry: _Entry) -> None:
    from django.contrib.staticfiles import finders

    renderer = entry.engine.renderer
    if renderer and not finders.find(f"js/games/{renderer}.js"):
        entry.error(
            "E008",
            "renderer",
            f"no static file js/games/{renderer}.js.",
            f"Add static/js/games/{renderer}.js, or leave Engine.renderer empty for the "
            f"generic renderer, in the entry {entry.engine.key!r} ({entry.path}).",
        )
    for stylesheet in entry.engine.stylesheets:
        if not finders.find(stylesheet):
            entry.error(
                "E008",
                "stylesheets",
                f"no static file {stylesheet}.",
                f"Add it to the game's static/ folder, or remove it from Engine.stylesheets, "
                f"in the entry {entry.engine.key!r} ({entry.path}).",
            )


def _check_per_options(entry: _Entry) -> None:
    """What an entry declares per variant: measure, scoring kinds, family, duplicate key."""
    e = entry.engine
    if (e.analysis_measure is None) != (e.judge is None):
        entry.error("E007", "analysis_measure", "a game analysed needs both a measure and a judge.")
    families = [key for key, _label in (e.families or ((e.key, e.label),))]
    for family in e.loss_families:
        if family not in families:
            entry.error("E010", "loss_families", f"{family!r} is not one of {families}.")
    if e.duplicate and e.duplicate_key is None:
        entry.error("E011", "duplicate_key", "a game played in duplicate needs a duplicate_key.")
    reported: set[tuple[str, str]] = set()

    def once(code: str, field: str, message: str) -> None:
        if (code, field) not in reported:
            reported.add((code, field))
            entry.error(code, field, message)

    for options in _combinations(e):
        checks_ = [
            ("E009", "scoring_kinds", lambda o=options: _kinds(e, o)),
            ("E010", "rating_family", lambda o=options: _family(e, o, families)),
        ]
        if e.analysis_measure is not None and e.judge is not None:
            checks_.append(
                (
                    "E007",
                    "analysis_measure",
                    lambda o=options: _measure(
                        e, o, {getattr(m, "key", None): m for m in e.measures}
                    ),
                )
            )
        if e.duplicate and e.duplicate_key is not None:
            checks_.append(("E011", "duplicate_key", lambda o=options: _duplicate(e, o)))
        for code, field, check in checks_:
            try:
                message = check()
            except Exception as exc:  # a declaration that raises is what the check is for
                message = f"raises {type(exc).__name__}: {exc}"
            if message:
                once(code, field, f"for options {options}: {message}")


def _kinds(e: registry.Engine, options: dict) -> str | None:
    kinds = tuple(e.scoring_kinds(options))
    known = {**registry.SCORING_KINDS, **{k.key: k for k in e.own_scoring_kinds}}
    unknown = [kind for kind in kinds if kind not in known]
    if not kinds or unknown:
        return f"{kinds!r} are not scoring kinds of {tuple(known)}."
    single = [kind for kind in kinds if known[kind].single_loser]
    if single and e.family(options) not in e.loss_families:
        return (
            f"{single[0]} scoring needs a single-loser family (loss_families), "
            f"not {e.family(options)!r}."
        )
    return None


def _family(e: registry.Engine, options: dict, families: list[str]) -> str | None:
    family = e.family(options)
    return None if family in families else f"{family!r} is not one of the families {families}."


def _measure(e: registry.Engine, options: dict, measures: dict) -> str | None:
    key = e.analysis_measure(options)
    return None if key in measures else f"{key!r} is not a measure of {tuple(measures)}."


def _duplicate(e: registry.Engine, options: dict) -> str | None:
    return None if callable(e.duplicate_key(options)) else "the key is not a function."


@checks.register("games")
def check_registry(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Every registered entry's declarations (the module's docstring)."""
    errors: list[checks.CheckMessage] = []
    keys: dict[str, str] = {}
    scoring_kinds: dict[str, str] = {}
    for path in _paths():
        try:
            engine = import_string(path)
        except ImportError as exc:
            errors.append(
                checks.Error(
                    f"Game entry {path}: cannot be imported: {exc}",
                    hint="Fix settings.GAMES (a folder with entry.py) or the dotted path in settings.EXTRA_GAMES.",
                    obj=path,
                    id="games.E001",
                )
            )
            continue
        if not isinstance(engine, registry.Engine):
            errors.append(
                checks.Error(
                    f"Game entry {path}: is a {type(engine).__name__}, not a games.registry.Engine.",
                    hint="An entry is `ENGINE = Engine(...)` (docs/ADDING_A_GAME.md).",
                    obj=path,
                    id="games.E001",
                )
            )
            continue
        entry = _Entry(path, engine)
        _check_key(entry, keys)
        options_ok = _check_options(entry)
        _check_results(entry)
        _check_standings(entry)
        _check_own_scoring_kinds(entry, scoring_kinds)
        _check_measures(entry)
        _check_renderer(entry)
        if options_ok:
            _check_per_options(entry)
            _check_result(entry)
        errors += entry.errors
    return errors
