"""House series standings (RULES.md section 4).

The database does the counting (one aggregate query and one window query per
series, however many games); the small pure functions here do the arithmetic
and the ranking, so they can be tested on their own.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Count, Min, Q, Sum

from club.models import GameResult, Player
from games import registry

RECENT = 6


def half_points(place: int, places: Sequence[int]) -> int:
    """Twice S3's placement points: 2 per opponent placed below, 1 per opponent sharing."""
    below = sum(1 for other in places if other > place)
    shared = sum(1 for other in places if other == place) - 1
    return 2 * below + shared


@dataclass
class Row:
    player_id: int
    name: str
    games: int
    wins: int = 0
    losses: int = 0
    place_sum: int = 0
    half_points: int = 0
    score_sum: int = 0  # games with a score (Engine.scored): the totals
    best_score: int | None = None
    rank: int | None = None
    recent: list[str] = field(default_factory=list)
    # (Column, value) of the game's own standings figures (Engine.standings_columns:
    # each a figure of this row, by name or computed from it by the entry).
    extra: list = field(default_factory=list)

    @property
    def loss_rate(self) -> float:
        return self.losses / self.games if self.games else 0.0

    @property
    def average_place(self) -> float:
        return self.place_sum / self.games if self.games else 0.0

    @property
    def points(self) -> float:
        return self.half_points / 2

    @property
    def points_per_game(self) -> float:
        return self.points / self.games if self.games else 0.0

    # Preformatted for templates and CSV (Django's floatformat is slow per call).
    @property
    def loss_rate_text(self) -> str:
        return f"{self.loss_rate:.3f}"

    @property
    def average_place_text(self) -> str:
        return f"{self.average_place:.2f}"

    @property
    def average_score_text(self) -> str:
        return f"{self.score_sum / self.games:.1f}" if self.games else "–"

    @property
    def points_text(self) -> str:
        return f"{self.points:g}"

    @property
    def points_per_game_text(self) -> str:
        return f"{self.points_per_game:.3f}"


def standings_key(
    kind: registry.ScoringKind, tie_breaks: Sequence[registry.TieBreak] = (registry.MORE_GAMES,)
) -> Callable[[Row], tuple]:
    """The ranking key: the scoring kind's own figure (``kind.rank``, best first), then the
    game's tie-breaks in turn (games.registry: ``ScoringKind``, ``Engine.tie_break_list``)."""
    first = kind.rank
    orders = [tie_break.order for tie_break in tie_breaks]
    if len(orders) == 1:  # the usual case (one tie-break), without the loop
        (only,) = orders
        return lambda row: (*first(row), only(row))
    return lambda row: (*first(row), *(order(row) for order in orders))


def loss_key(row: Row) -> tuple:
    """S2: lower loss rate first, then more games played."""
    return (row.losses / row.games, -row.games)


def placement_key(row: Row) -> tuple:
    """S3: more placement points per game first, then more games played."""
    return (-row.half_points / row.games, -row.games)


def rank_rows(rows: list[Row], key: Callable[[Row], tuple], min_games: int) -> list[Row]:
    """Ranked rows (competition ranking on equal keys), then the unranked by games played."""
    ranked = sorted((r for r in rows if r.games >= min_games), key=lambda r: (key(r), r.name))
    previous = None
    for index, row in enumerate(ranked, start=1):
        current = key(row)
        row.rank = ranked[index - 2].rank if current == previous else index
        previous = current
    unranked = sorted((r for r in rows if r.games < min_games), key=lambda r: (-r.games, r.name))
    for row in unranked:
        row.rank = None
    return ranked + unranked


def series_figures(series):
    """Each player's counts and sums in a series (a values queryset, one dict a player)."""
    # Only columns of GameResult's result_figures_idx (COUNT(*), and `place`,
    # never null, for the filtered counts: the id is not in that index), so the
    # database answers from the index without reading the rows.
    figures = {
        "games": Count("*"),
        "wins": Count("place", filter=Q(place=1)),
        "losses": Count("place", filter=Q(lost=True)),
        "place_sum": Sum("place"),
        "half": Sum("half_points"),
    }
    if series.scored:
        figures |= {"score_sum": Sum("score"), "best_score": Min("score")}
    return GameResult.objects.in_series(series).values("player_id").annotate(**figures).order_by()


def standings(series) -> list[Row]:
    aggregates = list(series_figures(series))
    # Names in a second small query: joining players into the aggregate
    # would read every result row instead of only the covering index.
    # Members only: house bots take part (their places count for the members
    # they beat or lose to) but are not ranked, and one bot can fill several
    # seats of a game, which would make no sense as a standings line.
    names = dict(
        Player.objects.members()
        .filter(pk__in=[a["player_id"] for a in aggregates])
        .values_list("pk", "display_name")
    )
    rows = {
        a["player_id"]: Row(
            player_id=a["player_id"],
            name=names[a["player_id"]],
            games=a["games"],
            wins=a["wins"],
            losses=a["losses"],
            place_sum=a["place_sum"] or 0,
            half_points=a["half"] or 0,
            score_sum=a.get("score_sum") or 0,
            best_score=a.get("best_score"),
        )
        for a in aggregates
        if a["player_id"] in names
    }
    for player_id, marks in recent_marks(series).items():
        if player_id in rows:
            rows[player_id].recent = marks
    engine = series.variant.engine
    key = standings_key(registry.scoring_kind(series.scoring), engine.tie_break_list())
    ranked = rank_rows(list(rows.values()), key, series.min_games)
    columns = series.standings_columns
    for row in ranked:
        row.extra = [(column, column.figure(row)) for column in columns]
    return ranked


def recent_marks(series) -> dict[int, list[str]]:
    """Each player's last results, newest first: L/W (loss series) or places."""
    # A window function (ROW_NUMBER per player) sorts every result of the
    # series; taking each player's latest rows straight off the covering index
    # (series, player, -finished, -id, ...) is an order of magnitude faster.
    # PostgreSQL says that with LATERAL; SQLite, which lacks it, with IN.
    table = GameResult._meta.db_table
    players = f"SELECT DISTINCT player_id FROM {table} WHERE series_id = %s"
    latest = f"""
        FROM {table} AS x WHERE x.series_id = %s AND x.player_id = p.player_id
        ORDER BY x.finished DESC, x.id DESC LIMIT {RECENT}
    """
    if connection.vendor == "postgresql":
        sql = f"""
            SELECT p.player_id, r.place, r.lost FROM ({players}) AS p
            CROSS JOIN LATERAL (SELECT x.id, x.place, x.lost, x.finished {latest}) AS r
            ORDER BY p.player_id, r.finished DESC, r.id DESC
        """
    else:
        sql = f"""
            SELECT p.player_id, r.place, r.lost FROM ({players}) AS p
            JOIN {table} AS r ON r.id IN (SELECT x.id {latest})
            ORDER BY p.player_id, r.finished DESC, r.id DESC
        """
    with connection.cursor() as cursor:
        cursor.execute(sql, [series.pk, series.pk])
        latest = cursor.fetchall()
    marks: dict[int, list[str]] = {}
    for player_id, place, lost in latest:
        mark = ("L" if lost else "W") if series.is_loss else str(place)
        marks.setdefault(player_id, []).append(mark)
    return marks


# ---------------------------------------------------------------------------
# Duplicate series (duplicate app; RULES on the rules page): matchpoints


def matchpoints(keys: Sequence[tuple]) -> list[int]:
    """Each entrant's matchpoints on one board and seat, from their outcome keys.

    The lower key beat the higher (the game says what a key is: registry
    `duplicate_key`); equal keys tie. 2 points for every other entrant beaten,
    1 for every tie, 0 for every loss. Sorted once, so a seat with n entrants
    costs n log n, not n squared.
    """
    ordered = sorted(keys)
    n = len(ordered)
    points = []
    for key in keys:
        low, high = bisect_left(ordered, key), bisect_right(ordered, key)
        points.append(2 * (n - high) + (high - low - 1))
    return points


def matchpoint_percent(points: int, entrants: int) -> float:
    """Matchpoints as a percentage of the most possible (2 per other entrant).

    A lone entrant of a seat has nobody to be compared with: 50%, the average.
    """
    if entrants < 2:
        return 50.0
    return 100.0 * points / (2 * (entrants - 1))


@dataclass
class DuplicateRow:
    player_id: int
    name: str
    games: int = 0  # boards played
    percent_sum: float = 0.0
    rank: int | None = None

    @property
    def percent(self) -> float:
        return self.percent_sum / self.games if self.games else 0.0

    @property
    def percent_text(self) -> str:
        return f"{self.percent:.2f}"


def duplicate_key(row: DuplicateRow) -> tuple:
    """The higher average matchpoint percentage first, then more boards played."""
    return (-round(row.percent, 9), -row.games)
