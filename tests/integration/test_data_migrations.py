"""Issue 23's migrations, forward and back, on a database with data in it.

games 0009-0011 move each variant's option columns into Variant.options; club
0010-0012 move Devyatka's figure columns into GameResult.detail and set
GameResult.resigned. Both ways every variant, table, game and result stays, with
the same rules and figures. Django's MigrationExecutor runs them on the test
database with rows made through the historical models.
"""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

BEFORE = [
    ("games", "0008_simultaneous_phase"),
    ("club", "0009_player_language"),
]
AFTER = [("games", "0011_remove_option_columns"), ("club", "0012_remove_result_columns")]
WHEN = datetime.datetime(2026, 11, 1, 12, tzinfo=datetime.UTC)

# name -> (game, option columns, the options they become)
VARIANTS = {
    "Mig Keft": ("devyatka", {"keft": True, "pass_rule": False}),
    "Mig Passes": ("devyatka", {"keft": False, "pass_rule": True}),
    "Mig Golf": ("golf", {"column_rule": "three", "rounds": 4}),
}
FIGURES = ("cards_left", "card_points", "passes", "out_position")


def migrate(targets: list[tuple[str, str]]):
    """Migrate to `targets` and return the historical apps there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def latest() -> list[tuple[str, str]]:
    executor = MigrationExecutor(connection)
    # Every app's: going back to BEFORE also unapplied the other apps' migrations
    # that depend on these two (duplicate, analysis, ...); later tests need them all.
    return executor.loader.graph.leaf_nodes()


def make_rows(apps) -> dict:
    """Two players, one finished game per variant with results, at the old schema."""
    Player = apps.get_model("club", "Player")
    Variant = apps.get_model("games", "Variant")
    Table = apps.get_model("games", "Table")
    Game = apps.get_model("games", "Game")
    GameResult = apps.get_model("club", "GameResult")
    anna = Player.objects.create(display_name="Mig Anna")
    boris = Player.objects.create(display_name="Mig Boris")
    figures = {}
    for index, (name, (game_key, columns)) in enumerate(VARIANTS.items()):
        variant = Variant.objects.create(name=name, game=game_key, max_players=6, **columns)
        table = Table.objects.create(
            variant=variant, created_by=anna, seat_count=2, status="finished"
        )
        game = Game.objects.create(
            table=table,
            game=game_key,
            options=columns,
            players=[anna.pk, boris.pk],
            seed=index,
            state={"any": "state"},
            result={"places": [1, 2]},
            resigned=[1],
            finished=WHEN,
        )
        for seat, player in enumerate([anna, boris]):
            row = {
                "place": seat + 1,
                "lost": name == "Mig Keft" and seat == 1,
                "half_points": 2 - 2 * seat,
            }
            if game_key == "devyatka":
                row |= {"cards_left": 3 * seat, "card_points": 11 * seat, "passes": seat}
                row["out_position"] = None if seat else 1
            else:
                row["score"] = 40 + seat
            GameResult.objects.create(
                game=game, player=player, seat=seat, players=2, finished=WHEN, **row
            )
            figures[(name, seat)] = row
    return figures


def counts(apps) -> tuple[int, ...]:
    names = [("games", "Variant"), ("games", "Table"), ("games", "Game"), ("club", "GameResult")]
    return tuple(apps.get_model(*name).objects.count() for name in names)


@pytest.mark.django_db(transaction=True)
def test_option_columns_and_result_figures_migrate_forward_and_back_keeping_every_row():
    try:
        old = migrate(BEFORE)
        figures = make_rows(old)
        before = counts(old)

        new = migrate(AFTER)
        assert counts(new) == before
        Variant = new.get_model("games", "Variant")
        GameResult = new.get_model("club", "GameResult")
        for name, (game_key, columns) in VARIANTS.items():
            variant = Variant.objects.get(name=name)
            assert (variant.game, variant.options) == (game_key, columns)
            assert variant.tables.get().games.get().options == columns  # the snapshot stays
        for result in GameResult.objects.select_related("game__table__variant"):
            row = figures[(result.game.table.variant.name, result.seat)]
            assert (result.place, result.lost, result.score) == (
                row["place"],
                row["lost"],
                row.get("score"),
            )
            assert result.detail == {k: row[k] for k in FIGURES if k in row}
            assert result.resigned == (result.seat == 1)
        assert list(result.detail) in ([], list(FIGURES))  # the order the registry writes

        back = migrate(BEFORE)
        assert counts(back) == before
        Variant = back.get_model("games", "Variant")
        GameResult = back.get_model("club", "GameResult")
        for name, (_game_key, columns) in VARIANTS.items():
            variant = Variant.objects.get(name=name)
            assert {k: getattr(variant, k) for k in columns} == columns
        for result in GameResult.objects.select_related("game__table__variant"):
            row = figures[(result.game.table.variant.name, result.seat)]
            for name in (*FIGURES, "score", "lost", "place"):
                assert getattr(result, name) == row.get(name, False if name == "lost" else None)
    finally:
        migrate(latest())


def test_the_after_targets_are_issue_23s_migrations():
    # Later migrations may follow; these are the three steps each app's change takes.
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    for node in AFTER:
        assert node in graph.nodes
