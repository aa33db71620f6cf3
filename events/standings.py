"""The night's standings: each member's games at the night's tables, ranked by the night's
scoring kind (games.registry) and its tie-breaks, as house series are (club.standings).

House bots take part (members' places against them count) but are never ranked. A
member who missed rounds has fewer games: the scoring kinds rank by a figure per game
played, so a missed round neither adds nor takes away (the night's page says so).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Min, Q, Sum

from club.models import GameResult, Player
from club.standings import Row, rank_rows, standings_key
from events.models import Entry, Event, RoundTable


@dataclass
class NightRow:
    row: Row
    status: str  # Entry.Status
    status_label: str

    @property
    def rank(self) -> int | None:
        return self.row.rank


def night_games(event: Event):
    """The night's finished games' results (GameResult rows), games of its rounds only."""
    tables = RoundTable.objects.filter(round__event=event).values("table_id")
    return GameResult.objects.filter(
        game__table_id__in=tables, game__number__lte=event.games_per_round
    )


def standings(event: Event) -> list[NightRow]:
    results = night_games(event)
    figures = {
        "games": Count("*"),
        "wins": Count("place", filter=Q(place=1)),
        "losses": Count("place", filter=Q(lost=True)),
        "place_sum": Sum("place"),
        "half": Sum("half_points"),
        "score_sum": Sum("score"),
        "best_score": Min("score"),
    }
    aggregates = {
        a["player_id"]: a for a in results.values("player_id").annotate(**figures).order_by()
    }
    entries = list(Entry.objects.filter(event=event).select_related("player"))
    members = {e.player_id: e for e in entries}
    # Members who played without an entry (an admin seated them) count too.
    names = dict(
        Player.objects.members()
        .filter(pk__in=set(aggregates) | set(members))
        .values_list("pk", "display_name")
    )
    rows = []
    for player_id, name in names.items():
        a = aggregates.get(player_id, {})
        rows.append(
            Row(
                player_id=player_id,
                name=name,
                games=a.get("games", 0),
                wins=a.get("wins", 0),
                losses=a.get("losses", 0),
                place_sum=a.get("place_sum") or 0,
                half_points=a.get("half") or 0,
                score_sum=a.get("score_sum") or 0,
                best_score=a.get("best_score"),
            )
        )
    key = standings_key(event.scoring_kind, event.tie_break_list())
    ranked = rank_rows(rows, key, min_games=1)
    out = []
    for row in ranked:
        entry = members.get(row.player_id)
        status = entry.status if entry else Entry.Status.SIGNED_UP
        out.append(NightRow(row, status, str(Entry.Status(status).label)))
    return out
