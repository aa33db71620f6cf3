"""OpenSkill ratings (Plackett-Luce), one per player per game family.

Rules (also on the rules page, templates/club/rules.html):

* Families come from the registry (``Engine.family(options)``): by default one per
  game; an entry may split its variants (a single-loser variant apart).
* Ranks: the result's places, ties sharing a rank (1, 2, 2, 4). A game with a single
  loser ranks the loser last and everyone else tied first.
* The displayed number is ``1500 + 40 * ordinal`` with ``ordinal = mu - 3 sigma``
  (ratings.models.display): conservative, so a new player shows 1500 and climbs as the
  club learns their strength. Under ``settings.RATING_PROVISIONAL_GAMES`` rated games a
  rating is marked provisional.
* House bots are rated like members and marked as bots; a game against bots moves a
  member's rating exactly as a game against members of the bots' strength would.
* The same player (a house bot) in several seats of one game: that player's rating is
  not moved by the game (its RatingChange rows say ``rated=False``); the others are
  rated against each of its seats at its strength before the game.
* Aborted games record no results and so are never rated. A resignation counts as the
  result says (resigned seats are already placed last in the result).
* A deleted member's results, ratings and rating changes go with them; everyone else's
  stored history stays as it was. (A later rebuild would rate those games without
  the deleted member's seat.)
* ``rebuild_ratings`` replays the games in the order they were rated (see ``rebuild``),
  so a rebuild gives exactly the stored values.
* A duplicate board's games are rated when its round closes, in the order they finished
  (duplicate.withheld): until then their rating changes would tell how the board went.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.db.models import F, Min
from openskill.models import PlackettLuce

from club.models import GameResult
from games import hooks, registry
from games.services.rows import insert_rows, read_rows
from ratings.models import DEFAULT_MU, DEFAULT_SIGMA, Rating, RatingChange

MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


@dataclass(frozen=True)
class Seat:
    """What rating needs from one GameResult."""

    player_id: int
    place: int
    lost: bool


@dataclass(frozen=True)
class SeatChange:
    before: tuple[float, float]
    after: tuple[float, float]
    rated: bool


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3.0 * sigma


def ranks(seats: Sequence[Seat]) -> list[int]:
    """Lower is better; equal ranks are ties. A single loser goes below everyone else."""
    if any(seat.lost for seat in seats):
        return [2 if seat.lost else 1 for seat in seats]
    return [seat.place for seat in seats]


def rate(seats: Sequence[Seat], before: dict[int, tuple[float, float]]) -> list[SeatChange]:
    """One game's rating changes, seat by seat; pure (the same inputs, the same floats).

    ``before`` maps player id -> (mu, sigma); a player missing from it is new.
    """
    current = [before.get(seat.player_id, (DEFAULT_MU, DEFAULT_SIGMA)) for seat in seats]
    counts = Counter(seat.player_id for seat in seats)
    if len(seats) < 2:
        return [SeatChange(b, b, False) for b in current]
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in current]
    new = MODEL.rate(teams, ranks=ranks(seats))
    changes = []
    for seat, b, team in zip(seats, current, new, strict=True):
        if counts[seat.player_id] > 1:
            changes.append(SeatChange(b, b, False))
        else:
            changes.append(SeatChange(b, (team[0].mu, team[0].sigma), True))
    return changes


def family_of(game_key: str, options: dict) -> str:
    return registry.engine(game_key).family(options or {})


def _change_row(result_id: int, family: str, change: SeatChange) -> RatingChange:
    (mu0, s0), (mu1, s1) = change.before, change.after
    return RatingChange(
        result_id=result_id,
        family=family,
        rated=change.rated,
        mu_before=mu0,
        sigma_before=s0,
        mu_after=mu1,
        sigma_after=s1,
        ordinal_before=ordinal(mu0, s0),
        ordinal_after=ordinal(mu1, s1),
    )


def _apply(rating: Rating, change: SeatChange, finished: datetime) -> None:
    mu, sigma = change.after
    old = rating.ordinal if rating.games else ordinal(*change.before)
    rating.mu, rating.sigma = mu, sigma
    rating.ordinal = ordinal(mu, sigma)
    rating.last_change = rating.ordinal - old
    rating.games += 1
    rating.updated = finished


_UPDATE_FIELDS = ("mu", "sigma", "ordinal", "games", "last_change", "updated")


def _update(ratings: list[Rating]) -> None:
    """Save the ratings' new figures: one prepared UPDATE for all of them.

    Not bulk_update: building its CASE expression costs ~10x the queries themselves,
    and this runs inside every finishing move (issue 14's budget: 5 ms).
    """
    if not ratings:
        return
    table = connection.ops.quote_name(Rating._meta.db_table)
    fields = [Rating._meta.get_field(name) for name in _UPDATE_FIELDS]
    columns = ", ".join(f"{connection.ops.quote_name(f.column)} = %s" for f in fields)
    params = [
        [f.get_db_prep_save(getattr(r, f.attname), connection) for f in fields] + [r.pk]
        for r in ratings
    ]
    with connection.cursor() as cursor:
        cursor.executemany(f"UPDATE {table} SET {columns} WHERE id = %s", params)  # noqa: S608


def _locked(player_ids: set[int], family: str) -> dict[int, Rating]:
    """The players' ratings in the family, locked until the transaction ends."""
    # By player only, the family picked here: with `family=` in the query SQLite
    # (no ANALYZE statistics) walks the leaderboard index over the whole family,
    # 2 ms at 10,000 players, instead of the (player, family) one.
    # Written out (games.services.rows): this runs in every finishing move, and the
    # ORM's compiler cost about 0.9 ms of it (docs/PERFORMANCE.md, "A game's end").
    # In one order (the players'), whichever table locks them: two games ending at
    # once with the same house bot lock its rows one after the other, never crosswise.
    ids = sorted(player_ids)
    where = f"r.player_id IN ({', '.join(['%s'] * len(ids))}) ORDER BY r.player_id"
    return {r.player_id: r for r in read_rows(Rating, where, ids, lock=True) if r.family == family}


def _rated_already(results: Sequence[GameResult]) -> bool:
    """Whether any of these results has its rating change already."""
    ids = [r.pk for r in results]
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    marks = ", ".join(["%s"] * len(ids))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {table} WHERE result_id IN ({marks}) LIMIT 1", ids)  # noqa: S608
        return cursor.fetchone() is not None


def record_game(game_key: str, options: dict, results: Sequence[GameResult]) -> None:
    """Rate one finished game from its GameResult rows (saved, with ids).

    Called by games.services.results inside the transaction that records the results,
    so a result never exists without its rating change.
    """
    if not results or _rated_already(results):
        return  # nothing to rate, or rated already (a game may be released twice)
    family = family_of(game_key, options)
    results = sorted(results, key=lambda r: r.seat)
    player_ids = {r.player_id for r in results}
    with transaction.atomic():
        ratings = _locked(player_ids, family)
        missing = player_ids - ratings.keys()
        if missing:
            # ignore_conflicts: another table may be creating the same new rating right
            # now; this waits for it, and the second read locks and sees its values.
            Rating.objects.bulk_create(
                [Rating(player_id=pid, family=family) for pid in sorted(missing)],
                ignore_conflicts=True,
            )
            ratings = _locked(player_ids, family)
        seats = [Seat(r.player_id, r.place, r.lost) for r in results]
        changes = rate(seats, {pid: (r.mu, r.sigma) for pid, r in ratings.items()})
        touched = []
        for result, change in zip(results, changes, strict=True):
            if change.rated:
                rating = ratings[result.player_id]
                _apply(rating, change, result.finished)
                touched.append(rating)
        _update(touched)
        # As values, without the ORM's insert compiler: this runs in every finishing move,
        # on the database thread every table's moves share (docs/PERFORMANCE.md, "A game's end").
        fields = [RatingChange._meta.get_field(name) for name in _CHANGE_FIELDS]
        rows = [
            _change_row(result.pk, family, change)
            for result, change in zip(results, changes, strict=True)
        ]
        insert_rows(
            RatingChange, _CHANGE_FIELDS, [[getattr(r, f.attname) for f in fields] for r in rows]
        )


_CHANGE_FIELDS = (
    "result",
    "family",
    "rated",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "ordinal_before",
    "ordinal_after",
)


def _games(rows: Iterable[tuple]) -> Iterable[list[tuple]]:
    """Consecutive rows of one game grouped together (rows come ordered by game)."""
    batch: list[tuple] = []
    for row in rows:
        if batch and row[1] != batch[0][1]:
            yield batch
            batch = []
        batch.append(row)
    if batch:
        yield batch


_CHUNK = 500  # games per query: well under SQLite's limit on query parameters


def _rows_in_order(order: list[int]) -> Iterable[tuple]:
    """The games' result rows, game by game in `order`, seat by seat."""
    for start in range(0, len(order), _CHUNK):
        ids = order[start : start + _CHUNK]
        position = {game_id: i for i, game_id in enumerate(ids)}
        rows = (
            GameResult.objects.filter(game_id__in=ids)
            .order_by()
            .values_list(
                "id",
                "game_id",
                "game__game",
                "game__options",
                "player_id",
                "place",
                "lost",
                "finished",
                "seat",
            )
        )
        yield from sorted(rows, key=lambda row: (position[row[1]], row[8]))


def rebuild(batch_size: int = 5000) -> int:
    """Recompute every rating from the results, in the order they were rated; the games rated.

    That order is the order of their RatingChange rows (ids are taken after the game's
    rating rows are locked, so of two games sharing a player the one rated first has
    the lower ids, even if it finished a moment later); games never rated yet (played
    before ratings existed) come first, in the order they finished.
    """
    state: dict[tuple[int, str], Rating] = {}
    pending: list[RatingChange] = []
    count = 0
    with transaction.atomic():
        # The order first: the RatingChange rows that say it are deleted next.
        results = GameResult.objects.all()
        withheld = hooks.withheld_q("game__table__")
        if withheld is not None:
            # Games withheld from the ratings for now (a duplicate board of an open round)
            # are rated when they are released (games.services.rate_games), not here.
            results = results.exclude(withheld)
        order = list(
            results.values("game_id")
            .annotate(first=Min("rating_change__id"), done=Min("finished"))
            .order_by(F("first").asc(nulls_first=True), "done", "game_id")
            .values_list("game_id", flat=True)
        )
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        for game in _games(_rows_in_order(order)):
            family = family_of(game[0][2], game[0][3])
            seats = [Seat(row[4], row[5], row[6]) for row in game]
            before = {
                pid: (state[key].mu, state[key].sigma)
                for pid in {s.player_id for s in seats}
                if (key := (pid, family)) in state
            }
            changes = rate(seats, before)
            for row, change in zip(game, changes, strict=True):
                rating = state.setdefault((row[4], family), Rating(player_id=row[4], family=family))
                if change.rated:
                    _apply(rating, change, row[7])
                pending.append(_change_row(row[0], family, change))
            count += 1
            if len(pending) >= batch_size:
                RatingChange.objects.bulk_create(pending)
                pending = []
        RatingChange.objects.bulk_create(pending)
        Rating.objects.bulk_create(state.values(), batch_size=batch_size)
    return count
