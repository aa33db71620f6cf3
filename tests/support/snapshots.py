"""A fixture database of finished games, and what the outside sees of it.

`build()` plays a fixed set of games (every shipped variant kind, seeded) in
series; `outside()` collects what clients and readers of the site get:
standings numbers, standings CSVs, and each game's replay.json and
record.json, with the figures a rerun changes (ids, timestamps) replaced by
stable ones. tests/integration/test_outside_snapshots.py compares it with
tests/data/outside_snapshot.json, taken with the code from before variant
options and results became data (issue 23).
"""

from __future__ import annotations

import hashlib
import json

from django.test import Client

from club.models import GameResult, Player, Series
from club.standings import standings
from games import registry
from games.models import Game, Variant
from tests.support.finished import play_game
from tests.support.members import member

NAMES = ["Anna", "Boris", "Vera", "Gleb"]

# (variant name, game, options, number of games, players per game)
VARIANTS = [
    ("Devyatka", "devyatka", None, 5, 3),
    ("Keft", "devyatka", None, 5, 3),
    ("Passes", "devyatka", {"keft": False, "pass_rule": True}, 4, 4),
    ("Golf", "golf", None, 1, 2),
    ("Short golf", "golf", {"column_rule": "three", "rounds": 2}, 4, 3),
]


def make_variant(name: str, game: str, options: dict | None) -> Variant:
    """The named variant: a default one, or a new one with these options."""
    if options is None:
        return Variant.objects.get(name=name)
    low, high = registry.engine(game).PLAYERS
    # The snapshot was taken before Variant had one `options` field (a column per option).
    fields = {f.name for f in Variant._meta.get_fields()}
    rules = {"options": options} if "options" in fields else options
    return Variant.objects.create(name=name, game=game, min_players=low, max_players=high, **rules)


def build() -> dict[str, Series]:
    players = [member(name) for name in NAMES]
    all_series = {}
    seed = 1000
    for index, (name, game, options, games, seats) in enumerate(VARIANTS):
        variant = make_variant(name, game, options)
        series = Series.objects.create(
            name=f"{name} cup", slug=f"cup-{index}", variant=variant, min_games=2
        )
        all_series[name] = series
        for number in range(games):
            seed += 1
            order = players[number % len(players) :] + players[: number % len(players)]
            play_game(variant, order[:seats], seed, series=series)
    return all_series


def _stable(data, names: dict[int, str]):
    """Ids and times replaced: player ids by names, other ids and timestamps dropped."""
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            if key in ("id", "table", "started", "finished"):
                continue
            if key == "player" and isinstance(value, int):
                value = names.get(value, "?")
            out[key] = _stable(value, names)
        return out
    if isinstance(data, list):
        return [_stable(item, names) for item in data]
    return data


FIGURES = ["place", "score", "lost", "half_points", "cards_left", "card_points", "passes"]
FIGURES += ["out_position"]


def _figures(result: GameResult) -> dict:
    """A result row's figures, read as columns (before) or from `detail` (after issue 23)."""
    detail = getattr(result, "detail", None) or {}
    return {
        name: getattr(result, name) if hasattr(result, name) else detail.get(name)
        for name in FIGURES
    }


def outside(all_series: dict[str, Series]) -> dict:
    """Standings, CSVs, replays and records of every fixture game, in a stable form."""
    client = Client()
    names = dict(Player.objects.values_list("pk", "display_name"))
    snapshot: dict = {"series": {}, "games": []}
    for name, series in all_series.items():
        series = Series.objects.select_related("variant").get(pk=series.pk)
        rows = [
            {
                "rank": row.rank,
                "name": row.name,
                "games": row.games,
                "wins": row.wins,
                "losses": row.losses,
                "place_sum": row.place_sum,
                "half_points": row.half_points,
                "score_sum": row.score_sum,
                "best_score": row.best_score,
                "recent": row.recent,
            }
            for row in standings(series)
        ]
        csv = client.get(f"/series/{series.slug}/standings.csv")
        assert csv.status_code == 200
        snapshot["series"][name] = {
            "scoring": series.scoring,
            "rows": rows,
            "csv": csv.content.decode(),
        }
    for game in Game.objects.order_by("seed"):
        entry = {"seed": game.seed, "results": [_figures(r) for r in game.results.order_by("seat")]}
        for kind in ("replay", "record"):
            response = client.get(f"/games/{game.pk}/{kind}.json")
            assert response.status_code == 200, response.content
            data = _stable(json.loads(response.content), names)
            if kind == "replay":  # every step's full view: kept as a digest, it is large
                data = {
                    "steps": len(data["steps"]),
                    "sha256": hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest(),
                    "result": data["result"],
                    "options": data["options"],
                }
            entry[kind] = data
        snapshot["games"].append(entry)
    return snapshot
