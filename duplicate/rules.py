"""Who may see what of a duplicate board (registered with games.hooks).

No peeking: until a member has finished a board, or its round has closed,
nothing of the other entrants' games of it is visible to them. Boards' tables
are private and sealed (no invite opens them, no spectator watches), and
their games are visible to their own players (games' own rule), to every
member who finished the same board, and to everyone once the round closed.

What a round's boards add up to, and their seeds, are another matter
(duplicate.withheld, the one rule every page, export and rating follows):
shown to nobody, staff and finished entrants included, until the round closes.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext

from club.models import Player
from duplicate.models import Play
from duplicate.standings import record_keys
from duplicate.withheld import withheld_plays


def finished_boards(player: Player | None) -> models.QuerySet:
    """Ids (values) of the boards this member has finished."""
    if player is None:
        return Play.objects.none().values("board_id")
    return Play.objects.filter(player=player, game__result__isnull=False).values("board_id")


def open_board(player: Player | None, board) -> bool:
    """May this viewer see everything about this board (its traveller, its games)?"""
    if board.round.is_closed:
        return True
    return player is not None and finished_boards(player).filter(board_id=board.pk).exists()


class DuplicateTableRules:
    def sealed_table_ids(self) -> models.QuerySet:
        return Play.objects.values("table_id")

    def is_sealed(self, table_id: int) -> bool:
        return Play.objects.filter(table_id=table_id).exists()

    def visible_games(self, player: Player | None) -> models.Q:
        closed = Play.objects.filter(board__round__closed__isnull=False).values("game_id")
        rule = models.Q(pk__in=closed)
        if player is not None:
            # Only the finished games of the boards the viewer finished: another entrant's
            # running game answers as a missing one (its page would redirect to its table,
            # telling that it exists).
            travellers = Play.objects.filter(
                board_id__in=finished_boards(player), game__result__isnull=False
            )
            rule |= models.Q(pk__in=travellers.values("game_id"))
        return rule

    def withheld_table_ids(self) -> models.QuerySet:
        return withheld_plays().values("table_id")

    def is_withheld(self, table_id: int) -> bool:
        return withheld_plays().filter(table_id=table_id).exists()

    def table_link(self, table_id: int) -> tuple[str, str] | None:
        play = Play.objects.filter(table_id=table_id).select_related("board__round__series").first()
        if play is None:
            return None
        label = gettext("%(series)s, board %(n)s: after the game, its traveller") % {
            "series": play.board.round.series.name,
            "n": play.board.number,
        }
        return label, play.board.round.series.get_absolute_url()

    def game_finished(self, game_id: int, results: list) -> None:
        # The standings read the entrants' comparison keys off their plays.
        record_keys(game_id, results)
