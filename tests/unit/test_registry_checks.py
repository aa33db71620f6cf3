"""The registry entries' system check (games/checks.py, issue 38).

Each test registers one deliberately broken entry (a copy of the throwaway
game with one declaration wrong) by the EXTRA_GAMES setting for that test
alone, runs Django's checks of the "games" tag, and reads what they say: the
error's id, the entry and the field, and why. The shipped games and the
throwaway game pass it (tests/integration/test_no_migration.py runs the same
check in a `manage.py` process).
"""

from __future__ import annotations

import dataclasses

import pytest
from django.core import checks

from games import registry
from tests.throwaway import highcard

HERE = __name__


def broken(**changes) -> registry.Engine:
    return dataclasses.replace(highcard.ENGINE, **{"key": "broken", **changes})


def bad_default() -> registry.Engine:
    option = dataclasses.replace(highcard.ENGINE.option_schema[0], default=9)
    return broken(option_schema=(option,))


# name -> (entry, error id, the words the message must hold)
MISTAKES = {
    "key_too_long": (
        broken(key="a_game_key_longer_than_twenty"),
        "games.E002",
        "is not a game key",
    ),
    "option_named_like_a_variant_field": (
        broken(
            option_schema=(
                registry.Option("name", "bool", False, "Name"),
                *highcard.ENGINE.option_schema,
            )
        ),
        "games.E003",
        "option_schema['name']: the name 'name' is a field of Variant",
    ),
    "option_default_outside_its_range": (
        bad_default(),
        "games.E003",
        "option_schema['cards']: the default 9 is not a valid value",
    ),
    "option_of_an_unknown_kind": (
        broken(option_schema=(registry.Option("cards", "float", 3, "Cards"),)),
        "games.E003",
        "kind 'float' is not one of bool, choice, int",
    ),
    "result_figure_named_like_a_column": (
        broken(result_columns=(*highcard.ENGINE.result_columns, registry.Column("score", "Score"))),
        "games.E004",
        "result_columns['score']: 'score' is a column of GameResult",
    ),
    "seat_result_that_the_result_lacks": (
        broken(seat_results=("tricks", "cards_won")),
        "games.E004",
        "seat_results['cards_won']: not a per-seat list of the finished result",
    ),
    "result_figure_without_its_column": (
        broken(result_columns=()),
        "games.E004",
        "result_row: the figure 'tricks' has no Column in result_columns",
    ),
    "scored_game_without_a_score": (
        broken(result_row=lambda result, seat: {"tricks": result["tricks"][seat]}),
        "games.E004",
        "result_row: a scored game's row has no 'score'",
    ),
    "result_that_raises": (
        broken(result=lambda state: {}["places"]),
        "games.E004",
        "result: playing a game to its result raises KeyError",
    ),
    "standings_column_that_is_no_figure": (
        broken(standings_columns=(registry.Column("average_tricks", "Avg", "avg"),)),
        "games.E005",
        "standings_columns['average_tricks']: 'average_tricks' is not a figure of a standings row",
    ),
    "score_column_of_a_game_without_scores": (
        broken(scored=False),
        "games.E005",
        "'average_score_text' reads scores; the game is not `scored`",
    ),
    "unknown_tie_break": (
        broken(tie_breaks=("fewest_tricks",)),
        "games.E006",
        "tie_breaks['fewest_tricks']: 'fewest_tricks' is not a tie-break",
    ),
    "unknown_measure": (
        broken(analysis_measure=lambda options: "tricks", judge=lambda *args: None),
        "games.E007",
        "analysis_measure: for options {'cards': 1}: 'tricks' is not a measure",
    ),
    "measure_without_a_judge": (
        broken(judge=None),
        "games.E007",
        "a game analysed needs both a measure and a judge",
    ),
    "renderer_without_its_module": (
        broken(renderer="highcard"),
        "games.E008",
        "renderer: no static file js/games/highcard.js",
    ),
    "stylesheet_that_is_not_a_static_file": (
        broken(stylesheets=("css/highcard.css",)),
        "games.E008",
        "stylesheets: no static file css/highcard.css",
    ),
    "unknown_scoring_kind": (
        broken(scoring_kinds=lambda options: ("tricks",)),
        "games.E009",
        "('tricks',) are not scoring kinds",
    ),
    "loss_scoring_of_a_game_with_places": (
        broken(scoring_kinds=lambda options: (registry.LOSS,)),
        "games.E009",
        "loss scoring needs a single-loser family",
    ),
    "rating_family_not_declared": (
        broken(rating_family=lambda options: "tricks"),
        "games.E010",
        "rating_family: for options {'cards': 1}: 'tricks' is not one of the families ['broken']",
    ),
    "duplicate_without_a_key": (
        broken(duplicate=True, duplicate_key=None),
        "games.E011",
        "a game played in duplicate needs a duplicate_key",
    ),
    "measure_without_a_label": (
        broken(measures=(dataclasses.replace(highcard.TRICK_ODDS, label=""),)),
        "games.E007",
        "measures['trick_odds']: the label is empty",
    ),
    "measure_of_an_unknown_unit": (
        broken(measures=(dataclasses.replace(highcard.TRICK_ODDS, unit="points"),)),
        "games.E007",
        "measures['trick_odds']: unit 'points' is not one of number, percent",
    ),
    "measure_with_thresholds_out_of_order": (
        broken(measures=(dataclasses.replace(highcard.TRICK_ODDS, blunder=0.05),)),
        "games.E007",
        "the thresholds (0.1, 0.25, 0.05) are not 0 < inaccuracy <= mistake <= blunder",
    ),
    "measure_that_is_no_measure": (
        broken(measures=(*highcard.ENGINE.measures, "trick_odds")),
        "games.E007",
        "'trick_odds' is not a games.engine.coach.Measure",
    ),
    "standings_figure_that_raises": (
        broken(
            standings_columns=(
                registry.Column("share", "Share", "share", value=lambda row: row.tricks),
            )
        ),
        "games.E005",
        "standings_columns['share']: value: raises AttributeError on a standings row",
    ),
    "declared_tie_break_that_raises": (
        broken(tie_breaks=(registry.TieBreak("fewest_tricks", lambda row: row.tricks),)),
        "games.E006",
        "tie_breaks['fewest_tricks']: order: raises AttributeError on a standings row",
    ),
    "score_tie_break_of_a_game_without_scores": (
        broken(scored=False, standings_columns=(), tie_breaks=("average_score",)),
        "games.E006",
        "tie_breaks['average_score']: 'average_score' reads scores; the game is not `scored`",
    ),
    "own_scoring_kind_with_a_long_key": (
        broken(own_scoring_kinds=(registry.ScoringKind("most_tricks", "Most", lambda r: (1,)),)),
        "games.E009",
        "own_scoring_kinds['most_tricks']: 'most_tricks' is not a scoring kind key",
    ),
    "own_scoring_kind_named_like_a_shipped_one": (
        broken(own_scoring_kinds=(registry.ScoringKind("loss", "Loss", lambda r: (1,)),)),
        "games.E009",
        "'loss' is also a scoring kind of the shipped scoring kinds",
    ),
    "own_scoring_kind_whose_rank_raises": (
        broken(own_scoring_kinds=(registry.ScoringKind("tricks", "T", lambda r: (r.tricks,)),)),
        "games.E009",
        "own_scoring_kinds['tricks']: rank: raises AttributeError on a standings row",
    ),
    "single_loser_kind_of_a_game_with_places": (
        broken(
            own_scoring_kinds=(
                registry.ScoringKind("last", "Last", lambda r: (r.losses,), single_loser=True),
            ),
            scoring_kinds=lambda options: (registry.PLACEMENT, "last"),
        ),
        "games.E009",
        "last scoring needs a single-loser family (loss_families), not 'broken'",
    ),
}
for _name, (_entry, _id, _words) in MISTAKES.items():
    globals()[f"ENTRY_{_name}"] = _entry


def games_checks() -> list[checks.CheckMessage]:
    return checks.run_checks(tags=["games"])


@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_broken_entry_fails_the_check_saying_what_is_wrong(settings, mistake):
    entry, error_id, words = MISTAKES[mistake]
    path = f"{HERE}.ENTRY_{mistake}"
    settings.EXTRA_GAMES = [path]
    errors = games_checks()
    assert [e.id for e in errors] == [error_id], [e.msg for e in errors]
    error = errors[0]
    assert error.is_serious() and error.obj == path
    assert f"Game {entry.key!r} ({path}):" in error.msg and words in error.msg, error.msg
    assert entry.key in error.hint and path in error.hint  # the hint names the entry


NEVER_ENDS = broken(apply=lambda state, seat, move: (state, [(seat, move)]))


def test_a_game_that_does_not_end_is_a_warning_not_an_error(settings):
    settings.EXTRA_GAMES = [f"{HERE}.NEVER_ENDS"]
    errors = games_checks()
    assert [e.id for e in errors] == ["games.W001"] and not errors[0].is_serious()
    assert "did not end in 5000 moves; its result fields were not checked" in errors[0].msg


def test_an_entry_that_is_not_importable_or_not_an_engine(settings):
    settings.EXTRA_GAMES = [f"{HERE}.NO_SUCH_ENTRY", f"{HERE}.MISTAKES"]
    errors = games_checks()
    assert [e.id for e in errors] == ["games.E001", "games.E001"]
    assert "cannot be imported" in errors[0].msg and "NO_SUCH_ENTRY" in errors[0].msg
    assert "is a dict, not a games.registry.Engine" in errors[1].msg


def test_a_key_registered_twice(settings):
    settings.EXTRA_GAMES = ["tests.throwaway.highcard.ENGINE", f"{HERE}.TWICE"]
    errors = games_checks()
    assert [e.id for e in errors] == ["games.E002"]
    assert "'highcard' is also the key of tests.throwaway.highcard.ENGINE" in errors[0].msg


TWICE = dataclasses.replace(highcard.ENGINE)


def test_the_shipped_games_and_the_throwaway_game_pass(settings):
    settings.EXTRA_GAMES = ["tests.throwaway.highcard.ENGINE"]
    assert games_checks() == []
    assert len(registry.engines()) == len(settings.GAMES) + 1


# A game's own standings figure, tie-break and scoring kind: data in its entry, nothing
# in club.standings.
WINS = registry.ScoringKind("wins", "Wins per game", lambda row: (-row.wins / row.games,))
OWN = broken(
    key="owngame",
    own_scoring_kinds=(WINS,),
    scoring_kinds=lambda options: (registry.PLACEMENT, "wins"),
    standings_columns=(
        registry.Column("win_share", "Win share", "win_share", value=lambda r: r.wins / r.games),
    ),
    tie_breaks=(registry.TieBreak("fewer_lost", lambda row: row.score_sum / row.games), "games"),
)


def test_a_games_own_scoring_kind_figure_and_tie_break_pass_and_rank(settings):
    from club.standings import Row, rank_rows, standings_key

    settings.EXTRA_GAMES = [f"{HERE}.OWN"]
    assert games_checks() == []
    assert ("wins", "Wins per game") in registry.scoring_choices()
    assert registry.scoring_kind("wins") is WINS
    rows = [
        Row(1, "A", games=4, wins=2, score_sum=12),
        Row(2, "B", games=4, wins=2, score_sum=8),
        Row(3, "C", games=2, wins=2, score_sum=8),
    ]
    key = standings_key(WINS, OWN.tie_break_list())
    assert [r.name for r in rank_rows(rows, key, min_games=1)] == ["C", "B", "A"]
    assert [OWN.standings_columns[0].figure(r) for r in rows] == [0.5, 0.5, 1.0]
