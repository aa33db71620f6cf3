"""The standings aggregate is answered from an index alone, never from the result rows.

GameResult rows carry each game's `detail` JSON; reading them made the loss
standings of a 10,000-game series 1.6-1.8x slower on PostgreSQL (issue 23,
docs/PERFORMANCE.md). `club.standings.series_figures` reads only the columns
of `result_figures_idx`; these tests fail if it ever reads another (an `id`,
a `detail`), because the database must then visit the rows.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection

from club.models import GameResult, Player, Series
from club.standings import series_figures
from games.models import Variant
from tests.integration.test_series import make_players
from tests.support.rated import random_game

pytestmark = pytest.mark.django_db


def fill_series(variant_name: str, games: int = 30) -> Series:
    rng = random.Random(23)
    variant = Variant.objects.get(name=variant_name)
    series = Series.objects.create(
        name=f"{variant_name} plan", slug=f"{variant_name.lower()}-plan", variant=variant
    )
    people = list(Player.objects.members())
    for number in range(games):
        random_game(rng, number, people, [], {variant_name: variant}, rate=False, series=series)
    return series


def plan(series: Series) -> str:
    queryset = series_figures(series)
    if connection.vendor == "postgresql":
        # A test table is a few pages, where a sequential scan is cheapest: ask
        # the planner what it can do without one, as on a big series.
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_bitmapscan = off")
        try:
            return queryset.explain()
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET enable_seqscan")
                cursor.execute("RESET enable_bitmapscan")
    return queryset.explain()


@pytest.mark.parametrize("variant_name", ["Keft", "Devyatka", "Golf"])
def test_standings_aggregate_reads_only_the_figures_index(variant_name):
    make_players("Anna", "Boris", "Clara", "Dmitri")
    series = fill_series(variant_name)
    text = plan(series)
    if connection.vendor == "postgresql":
        assert "Index Only Scan using result_figures_idx" in text, text
    else:
        assert "USING COVERING INDEX result_figures_idx" in text, text
    # And it still counts what it did (the figures, not the plan, are the point).
    results = GameResult.objects.filter(series=series)
    figures = list(series_figures(series))
    assert sum(row["games"] for row in figures) == results.count()
    assert sum(row["wins"] for row in figures) == results.filter(place=1).count()
    assert sum(row["losses"] for row in figures) == results.filter(lost=True).count()
