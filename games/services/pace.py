"""Turn-based tables: which paces a table may take, the members' deadlines, missed moves.

A turn-based table gives the member to move `games.paces` time (12 hours to 7
days) from the moment the turn came to them, and the clock stops while they
are away (games.away: declared away days). The deadline is computed, never
counted down: turn start + pace, pushed past every stretch of away time that
falls before it. It is stored (Table.turn_deadline, the earliest of the seats
that may act, house bots' short delay included), so the house runner finds
every due table of the site in one query (`services.due_tables`), and a
restart of every process loses none.

When the member's time runs out the house plays that move for them (marked
`auto` in the log), as at a live table; after TURN_BASED_MISSED_MOVES such
moves in a row the house keeps the seat to the end of the game and the member
is told (the `seat_to_house` event). Live tables are untouched by all of this.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from club.models import Player, Series
from games import hooks, paces, registry
from games.i18n import lazy_format
from games.models import Absence, Game, Seat, Table, Variant
from games.services.common import ServiceError

Interval = tuple[datetime.datetime, datetime.datetime]


def allowed_paces(variant: Variant, series: Series | None = None) -> list[str]:
    """The paces a member may choose for a table of this variant (and series)."""
    allowed = paces.clean_list(variant.paces or [paces.LIVE])
    if series is not None and series.paces:
        allowed = [p for p in allowed if p in series.paces]
    return allowed


def check_pace(variant: Variant, series: Series | None, pace: str) -> None:
    if pace not in allowed_paces(variant, series):
        raise ServiceError(
            "bad_pace",
            lazy_format(
                _("%(what)s is not played at that pace."), what=series if series else variant
            ),
        )


def turn_based_seats(player: Player | int) -> int:
    """The turn-based tables a member holds a place at: waiting, playing, or finished with
    a rematch they accepted (it is dealt without asking them again, issue 42)."""
    return (
        Seat.objects.filter(player=player, is_bot=False)
        .exclude(table__pace=paces.LIVE)
        .filter(
            Q(table__status__in=[Table.Status.OPEN, Table.Status.PLAYING])
            | Q(table__status=Table.Status.FINISHED, rematch=True)
        )
        .count()
    )


def check_turn_based_cap(player: Player | int) -> None:
    """At most TURN_BASED_TABLES_MAX turn-based tables (waiting, playing, or a rematch
    accepted) per member.

    The caller holds the member's row lock (`lock_player`), so two tables taken
    at the same moment (two tabs, two processes) are counted one after the other.
    """
    cap = settings.TURN_BASED_TABLES_MAX
    if not cap:
        return
    seated = turn_based_seats(player)
    if seated >= cap:
        raise ServiceError(
            "too_many_turn_tables",
            lazy_format(
                _(
                    "You already sit at as many turn-based tables as a member may "
                    "(%(count)d); finish or leave one first."
                ),
                count=cap,
            ),
        )


def lock_player(player_id: int) -> None:
    """The member's row lock: the one lock between their own table quotas."""
    Player.objects.select_for_update().filter(pk=player_id).first()


# ---------------------------------------------------------------------------
# Deadlines


def absences(
    player_ids: Iterable[int], since: datetime.datetime, table: Table | None = None
) -> dict[int, list[Interval]]:
    """Each member's away stretches that end after `since`, in order (one query).

    `table`: the stretches that stop the clocks there: none at a table whose app does not
    let away days count (games.hooks.away_stops_clock: a club night that forbids them)."""
    found: dict[int, list[Interval]] = {}
    ids = list(player_ids)
    if not ids:
        return found
    rows = (
        Absence.objects.filter(player_id__in=ids, ends__gt=since)
        .order_by("starts")
        .values_list("player_id", "starts", "ends")
    )
    for player_id, starts, ends in rows:
        found.setdefault(player_id, []).append((starts, ends))
    if found and table is not None and not hooks.away_stops_clock(table.pk):
        return {}
    return found


def extend_past(
    start: datetime.datetime, duration: datetime.timedelta, away: Iterable[Interval]
) -> datetime.datetime:
    """`start + duration` with the clock stopped during each away stretch (sorted by start)."""
    moment, left = start, duration
    for begins, ends in sorted(away):
        if ends <= moment:
            continue
        if begins > moment:
            if moment + left <= begins:
                break
            left -= begins - moment
        moment = max(moment, ends)
    return moment + left


def member_deadline(
    table: Table, seat: Seat, away: list[Interval] | None = None
) -> datetime.datetime | None:
    """When a member's time for the current move runs out at a turn-based table."""
    delta = paces.pace_delta(table.pace)
    if delta is None or table.turn_started is None:
        return None
    if away is None:
        away = absences([seat.player_id], table.turn_started, table).get(seat.player_id, [])
    return extend_past(table.turn_started, delta, away)


def seat_deadlines(table: Table, seats: list[Seat], actors: Iterable[int]) -> dict[int, str]:
    """Position -> ISO deadline of each member who may act now (for frames and pages)."""
    if not paces.is_turn_based(table.pace) or table.turn_started is None:
        return {}
    members = [seats[a] for a in actors if a < len(seats) and is_member_turn(seats[a])]
    away = absences([s.player_id for s in members], table.turn_started, table)
    return {
        s.position: member_deadline(table, s, away.get(s.player_id, [])).isoformat()
        for s in members
    }


def frame_fields(table: Table, game: Game | None, seats: list[Seat]) -> tuple[dict, dict]:
    """(position -> deadline, player -> back from away), as Unix times, for a table's frame.

    Empty for a live table (nothing read). At a turn-based table: each member who
    may act now and when their time runs out; each seated member away now and when
    they are back.
    """
    if not paces.is_turn_based(table.pace):
        return {}, {}
    back = away_until(s.player_id for s in seats if not s.is_bot)
    if back and not hooks.away_stops_clock(table.pk):
        back = {}  # away days do not count here: nobody shows as away
    away = {p: when.timestamp() for p, when in back.items()}
    if table.status != Table.Status.PLAYING or game is None or table.turn_started is None:
        return {}, away
    engine = registry.engine(game.game)
    actors = engine.actors(engine.from_json(game.state))
    deadlines = {
        position: datetime.datetime.fromisoformat(when).timestamp()
        for position, when in seat_deadlines(table, seats, actors).items()
    }
    return deadlines, away


def page_lines(table: Table, seats: list[Seat] | None = None) -> dict:
    """What a page shows of a table's pace: its label, each member's deadline, who is away.

    {"turn_based": bool, "label": str, "deadlines": [(seat, datetime)], "away":
    [(seat, datetime)]}; a live table reads nothing more.
    """
    info = {"turn_based": False, "label": paces.label(table.pace), "deadlines": [], "away": []}
    if not paces.is_turn_based(table.pace):
        return info
    info["turn_based"] = True
    seats = sorted(table.seats.all(), key=lambda s: s.position) if seats is None else seats
    back = away_until(s.player_id for s in seats if not s.is_bot)
    info["away"] = [(s, back[s.player_id]) for s in seats if s.player_id in back and not s.is_bot]
    if table.status != Table.Status.PLAYING or table.turn_started is None:
        return info
    game = Game.objects.filter(table=table).order_by("-number").first()
    if game is None:
        return info
    engine = registry.engine(game.game)
    actors = engine.actors(engine.from_json(game.state))
    by_position = {s.position: s for s in seats}
    info["deadlines"] = [
        (by_position[position], datetime.datetime.fromisoformat(when))
        for position, when in seat_deadlines(table, seats, actors).items()
    ]
    return info


def away_until(player_ids: Iterable[int]) -> dict[int, datetime.datetime]:
    """Members away now -> when they are back (stretches that touch are read as one)."""
    now = timezone.now()
    back: dict[int, datetime.datetime] = {}
    for player_id, stretches in absences(player_ids, now).items():
        for begins, ends in stretches:
            current = back.get(player_id)
            if current is None and begins <= now:
                back[player_id] = ends
            elif current is not None and begins <= current:
                back[player_id] = max(current, ends)
    return back


def turn_waiting(
    table_id: int, player_id: int, game_id: int | None = None
) -> tuple[bool, datetime.datetime | None]:
    """Is it still this member's turn at this table (and game)? And until when.

    (False, None) once they moved, the game ended or moved on, or the house
    plays their seat (handed over, resigned); else (True, their deadline at a
    turn-based table, None at a live one). What a "your turn" mail checks just
    before it goes out.
    """
    table = Table.objects.filter(pk=table_id, status=Table.Status.PLAYING).first()
    game = Game.objects.filter(table_id=table_id).order_by("-number").first() if table else None
    if game is None or (game_id is not None and game.pk != game_id):
        return False, None
    engine = registry.engine(game.game)
    actors = engine.actors(engine.from_json(game.state))
    seat = next(
        (
            s
            for s in Seat.objects.filter(table=table, position__in=actors)
            if s.player_id == player_id
        ),
        None,
    )
    if seat is None or not is_member_turn(seat):
        return False, None
    return True, member_deadline(table, seat)


def is_member_turn(seat: Seat) -> bool:
    """A member plays this seat themselves (not a bot, not handed over, not resigned)."""
    return not (seat.is_bot or seat.handed_over or seat.resigned_at is not None)


# ---------------------------------------------------------------------------
# Missed moves


def missed_move(table: Table, seat: Seat, game: Game, same_turn: bool = False) -> None:
    """The house played a member's move because their time ran out (turn-based only).

    A turn of several actions (draw, then place) is one missed move: `same_turn`
    says the house already played an earlier action of this turn, counted then.
    After TURN_BASED_MISSED_MOVES in a row the house keeps the seat to the end of
    the game (`handed_over` with `missed` at the limit: the member cannot take it
    back) and the member is told.
    """
    if same_turn or not paces.is_turn_based(table.pace) or not is_member_turn(seat):
        return
    seat.missed += 1
    fields = ["missed"]
    limit = settings.TURN_BASED_MISSED_MOVES
    if limit and seat.missed >= limit:
        seat.handed_over = True
        fields.append("handed_over")
        hooks.emit(
            hooks.Event(
                "seat_to_house",
                (seat.player_id,),
                table_id=table.pk,
                game_id=game.pk,
                data={"pace": table.pace, "missed": seat.missed},
            )
        )
    Seat.objects.filter(pk=seat.pk).update(**{f: getattr(seat, f) for f in fields})


def kept_by_house(table: Table, seat: Seat) -> bool:
    """The house keeps this seat to the end of the game (too many missed moves)."""
    limit = settings.TURN_BASED_MISSED_MOVES
    return (
        paces.is_turn_based(table.pace)
        and seat.handed_over
        and bool(limit)
        and seat.missed >= limit
    )


def refuse_if_kept(table: Table, seat: Seat) -> None:
    if kept_by_house(table, seat):
        raise ServiceError(
            "seat_to_house",
            lazy_format(
                ngettext_lazy(
                    "Your time ran out %(count)d time in a row: the house plays your seat "
                    "to the end of this game.",
                    "Your time ran out %(count)d times in a row: the house plays your seat "
                    "to the end of this game.",
                    seat.missed,
                ),
                count=seat.missed,
            ),
        )


# ---------------------------------------------------------------------------
# Events (games.hooks): what notifications are told


def emit_turns(
    table: Table,
    game: Game,
    seats: list[Seat],
    to: Iterable[int],
    deadline: datetime.datetime | None,
) -> None:
    """`turn` for each member the turn just passed to (live or turn-based)."""
    if not hooks.has_listeners():
        return
    targets = [seats[p] for p in to if p < len(seats) and is_member_turn(seats[p])]
    if not targets:
        return
    turn_based = paces.is_turn_based(table.pace)
    away = absences([s.player_id for s in targets], table.turn_started, table) if turn_based else {}
    for seat in targets:
        if turn_based:
            when = member_deadline(table, seat, away.get(seat.player_id, []))
        elif table.variant.turn_seconds and table.turn_started:
            when = table.turn_started + datetime.timedelta(seconds=table.variant.turn_seconds)
        else:
            when = deadline if deadline and not seat.away_since else None
        hooks.emit(
            hooks.Event(
                "turn",
                (seat.player_id,),
                table_id=table.pk,
                game_id=game.pk,
                data={
                    "deadline": when.isoformat() if when else None,
                    "pace": "turn" if turn_based else "live",
                    "pace_code": table.pace,
                },
            )
        )


def emit_started(table: Table, game: Game, seats: list[Seat]) -> None:
    members = tuple(s.player_id for s in seats if not s.is_bot)
    hooks.emit(
        hooks.Event(
            "table_started",
            members,
            table_id=table.pk,
            game_id=game.pk,
            data={"pace": table.pace, "private": table.private, "number": game.number},
        )
    )


def turn_based_q(prefix: str = "") -> Q:
    """A Q over tables (`prefix`: the lookup to a table) picking the turn-based ones."""
    return ~Q(**{f"{prefix}pace": paces.LIVE})
