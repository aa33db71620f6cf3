"""Playing a board, and closing a round (the house plays out what is left)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from club.models import Player
from duplicate.models import Board, Play, Round
from games import services
from games.models import Table
from games.services import Broadcast, ServiceError


def _house_bots(level: str, count: int) -> list[Player]:
    """`count` house bots of `level`, distinct while the roster lasts, the same for every entrant."""
    roster = list(Player.objects.bots().filter(bot_level=level).order_by("pk"))
    if not roster:
        raise ServiceError("bad_level", gettext("There is no house bot of that level."))
    return [roster[i % len(roster)] for i in range(count)]


def play_board(player: Player, board_id: int) -> tuple[Play, list[Broadcast]]:
    """The member's game of this board: started now at a table with house bots, or the one
    already started (each board is played once). Refused outside the round's window."""
    with transaction.atomic():
        # The round row is the lock between a member starting a board and the round closing.
        board = Board.objects.select_related("round__series__variant").get(pk=board_id)
        current = Round.objects.select_for_update().get(pk=board.round_id)
        existing = Play.objects.filter(board=board, player=player).first()
        if existing is not None:
            return existing, []
        if player.is_bot:
            raise ServiceError("forbidden", gettext("House bots do not enter duplicate rounds."))
        if not current.is_open():
            raise ServiceError("round_closed", gettext("This round is not open for play."))
        series = current.series
        seat = board.seat_for(series.seats)
        players = _house_bots(series.bot_level, series.seats - 1)
        players.insert(seat, player)
        try:
            with transaction.atomic():
                table, game, update = services.deal_fixed_table(
                    player, series.variant, players, board.seed
                )
                play = Play.objects.create(
                    board=board, player=player, seat=seat, table=table, game=game
                )
        except IntegrityError:
            # The same member's second click, a moment later: theirs is the first one.
            return Play.objects.get(board=board, player=player), []
        return play, [update]


def close_round(round_id: int) -> list[Broadcast]:
    """Close a round now: no new plays, and the house plays every unfinished board out.

    An unfinished board counts as played, by the house from where it stopped
    (the rules page says so). Safe to run twice.
    """
    now = timezone.now()
    with transaction.atomic():
        # First the window ends (no new plays), then the house plays out what
        # is left, and only then is the round closed, which makes it public.
        current = Round.objects.select_for_update().get(pk=round_id)
        if current.ends > now:
            current.ends = now
            current.save(update_fields=["ends"])
    updates = []
    running = Play.objects.filter(board__round_id=round_id, table__status=Table.Status.PLAYING)
    for table_id in running.values_list("table_id", flat=True):
        update = services.play_out(table_id)
        if update is not None:
            updates.append(update)
    Round.objects.filter(pk=round_id, closed__isnull=True).update(closed=timezone.now())
    return updates


def close_due_rounds() -> tuple[list[int], list[Broadcast]]:
    """Close every round whose end time has passed: (their ids, the table updates to publish)."""
    due = list(Round.objects.due_to_close().values_list("pk", flat=True))
    updates = []
    for round_id in due:
        updates += close_round(round_id)
    return due, updates


def round_closing_duty() -> list[Broadcast]:
    """The house runner's duty (games.hooks): rounds close on time, with no cron needed."""
    return close_due_rounds()[1]
