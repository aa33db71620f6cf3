"""Playing a board, and closing a round (the house plays out what is left)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from club.models import Player
from duplicate.models import Board, Gathering, GatheringMember, Play, Round
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
        board, current = _locked_board(board_id)
        existing = Play.objects.filter(board=board, player=player).first()
        if existing is not None:
            return existing, []
        _check_may_play(player, board, current)
        if GatheringMember.objects.filter(board=board, player=player).exists():
            raise ServiceError(
                "waiting", gettext("You are waiting at a table for this board: leave it first.")
            )
        try:
            with transaction.atomic():
                plays, update = _deal(board, current.series, [player])
        except IntegrityError:
            # The same member's second click, a moment later: theirs is the first one.
            return Play.objects.get(board=board, player=player), []
        return plays[0], [update]


def _locked_board(board_id: int) -> tuple[Board, Round]:
    """The board and its round, the round row locked: the lock between members starting or
    gathering for its boards and the round closing."""
    board = Board.objects.select_related("round__series__variant").get(pk=board_id)
    return board, Round.objects.select_related("series__variant").select_for_update().get(
        pk=board.round_id
    )


def _check_may_play(player: Player, board: Board, current: Round) -> None:
    if player.is_bot:
        raise ServiceError("forbidden", gettext("House bots do not enter duplicate rounds."))
    if not current.is_open():
        raise ServiceError("round_closed", gettext("This round is not open for play."))
    if Play.objects.filter(board=board, player=player).exists():
        raise ServiceError("played", gettext("You have already played this board."))


def _deal(board: Board, series, members: list[Player]) -> tuple[list[Play], Broadcast]:
    """Deal the board at one table: the members from the board's seat round the table in
    order, house bots of the series' level in the other seats; one play per member."""
    seats = series.seats
    first = board.seat_for(seats)
    bots = iter(_house_bots(series.bot_level, seats - len(members)))
    held = {(first + i) % seats: member for i, member in enumerate(members)}
    players = [held.get(seat) or next(bots) for seat in range(seats)]
    table, game, update = services.deal_fixed_table(
        members[0], series.variant, players, board.seed, pace=series.pace or "live"
    )
    plays = [
        Play.objects.create(
            board=board, player=member, seat=(first + i) % seats, table=table, game=game
        )
        for i, member in enumerate(members)
    ]
    return plays, update


# ---------------------------------------------------------------------------
# Playing a board together (series with shared tables)


def gather(player: Player, board_id: int) -> Gathering:
    """Open a table for this board that other members may join (shared tables only)."""
    with transaction.atomic():
        board, current = _locked_board(board_id)
        if not current.series.shared_tables:
            raise ServiceError(
                "not_shared", gettext("In this series each member plays the boards alone.")
            )
        _check_may_play(player, board, current)
        if GatheringMember.objects.filter(board=board, player=player).exists():
            raise ServiceError(
                "waiting", gettext("You are already waiting at a table for this board.")
            )
        gathering = Gathering.objects.create(board=board)
        GatheringMember.objects.create(gathering=gathering, player=player, board=board)
        return gathering


def join_gathering(player: Player, gathering_id: int) -> tuple[Play | None, list[Broadcast]]:
    """Take a seat at a waiting table; the board is dealt once every seat has a member."""
    with transaction.atomic():
        gathering, board, current = _locked_gathering(gathering_id)
        _check_may_play(player, board, current)
        if GatheringMember.objects.filter(board=board, player=player).exists():
            raise ServiceError(
                "waiting", gettext("You are already waiting at a table for this board.")
            )
        GatheringMember.objects.create(gathering=gathering, player=player, board=board)
        members = gathering.members()
        if len(members) < current.series.seats:
            return None, []
        return _start(gathering, board, current, player)


def start_gathering(player: Player, gathering_id: int) -> tuple[Play, list[Broadcast]]:
    """Deal the board now at a waiting table: house bots take the seats nobody took."""
    with transaction.atomic():
        gathering, board, current = _locked_gathering(gathering_id)
        if player.pk not in {m.pk for m in gathering.members()}:
            raise ServiceError(
                "not_seated", gettext("Only a member waiting at this table may start it.")
            )
        if not current.is_open():
            raise ServiceError("round_closed", gettext("This round is not open for play."))
        return _start(gathering, board, current, player)


def leave_gathering(player: Player, gathering_id: int) -> None:
    """Leave a waiting table; the last one out closes it."""
    with transaction.atomic():
        gathering, _board, _round = _locked_gathering(gathering_id)
        GatheringMember.objects.filter(gathering=gathering, player=player).delete()
        if not gathering.seats.exists():
            gathering.delete()


def _locked_gathering(gathering_id: int) -> tuple[Gathering, Board, Round]:
    """The waiting table with its board and round, under the round's lock (as every change
    to a round's plays and waiting tables is)."""
    gone = ServiceError(
        "no_table", gettext("That table is no longer waiting: it has started or was left.")
    )
    board_id = Gathering.objects.filter(pk=gathering_id).values_list("board_id", flat=True).first()
    if board_id is None:
        raise gone
    board, current = _locked_board(board_id)
    gathering = Gathering.objects.filter(pk=gathering_id).first()
    if gathering is None:  # started or left while we waited for the lock
        raise gone
    return gathering, board, current


def _start(gathering: Gathering, board: Board, current: Round, player: Player):
    plays, update = _deal(board, current.series, gathering.members())
    gathering.delete()
    return next(p for p in plays if p.player_id == player.pk), [update]


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
    # Tables still waiting for members will not be dealt now.
    Gathering.objects.filter(board__round_id=round_id).delete()
    updates = []
    running = Play.objects.filter(board__round_id=round_id, table__status=Table.Status.PLAYING)
    for table_id in sorted(set(running.values_list("table_id", flat=True))):
        update = services.play_out(table_id)
        if update is not None:
            updates.append(update)
    with transaction.atomic():
        # Closing makes the round public (duplicate.withheld): its games are rated now, in
        # the order they finished, in the transaction that closes it, and only once (the
        # round's row is locked; a second closing finds it closed).
        current = Round.objects.select_for_update().get(pk=round_id)
        if current.closed is None:
            games = (
                Play.objects.filter(board__round_id=round_id, game__result__isnull=False)
                .order_by("game__finished", "game_id")
                .values_list("game_id", flat=True)
            )
            services.rate_games(list(dict.fromkeys(games)))
            Round.objects.filter(pk=round_id).update(closed=timezone.now())
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
