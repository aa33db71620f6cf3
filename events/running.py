"""Running a club night: start, seat each round, deal its games, end it, and the duty that
does all of it on time (games.hooks: a duty of the house runner, and a listener told of
every finished game). What happens around a night's dates without a table (members'
presence, reminders, the next night of a chain) is events.upcoming's.

Every step locks the event's row first, so two server processes (or the duty and a
finishing game) never seat one round twice. Steps return the table updates to publish
(games.services.Broadcast); the duty's are published by the house runner, the others
by their caller (`publish`).
"""

from __future__ import annotations

import datetime
import logging
import time
import zlib

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from club.models import Player
from events import seating
from events.models import Entry, Event, Grouping, Round, RoundTable

# Presence, reminders and recurrences live in events.upcoming; their names stay here too
# (the app's hooks and older callers find them on this module).
from events.upcoming import make_next as make_next
from events.upcoming import make_recurrences, remind
from events.upcoming import on_lobby_socket as on_lobby_socket
from games import hooks, services
from games.models import Game, Presence, Table
from games.services import Broadcast

logger = logging.getLogger(__name__)

# A live night seats the members whose page was open this recently.
PRESENT_MINUTES = 5
# Between two tables of a round being dealt, the dealing waits twice as long as the last
# table took (at most DEAL_PAUSE_MAX_SECONDS), leaving the other tables' moves their turn
# (`deal_round`).
DEAL_PAUSE_FACTOR = 2.0
DEAL_PAUSE_MAX_SECONDS = 0.1


def group(event_id: int) -> str:
    return f"event-{event_id}"


def _locked(event_id: int) -> Event:
    # of=self: the series is optional (an outer join), and PostgreSQL cannot lock
    # the nullable side of one; only the night itself needs the lock.
    return (
        Event.objects.select_for_update(of=("self",))
        .select_related("variant", "series")
        .get(pk=event_id)
    )


def _bump(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(version=F("version") + 1)


def tell_pages(event_id: int) -> None:
    """Tell the night's open pages that something changed (they fetch the standings again).

    Never raises: a page that missed it catches up on its next load."""
    version = Event.objects.filter(pk=event_id).values_list("version", flat=True).first()
    try:
        async_to_sync(get_channel_layer().group_send)(
            group(event_id), {"type": "event.changed", "event": event_id, "version": version}
        )
    except Exception as exc:  # noqa: BLE001 - best effort, like every broadcast
        logger.info("events: the night's update did not go out (%s)", type(exc).__name__)


def publish(updates: list[Broadcast]) -> None:
    if updates:
        from games.broadcast import publish_sync

        publish_sync(updates)


# ---------------------------------------------------------------------------
# Starting and seating


def start(event_id: int) -> list[Broadcast]:
    """Start the night now (the duty at its start time, or the admin's "start now")."""
    with transaction.atomic():
        event = _locked(event_id)
        if event.status != Event.Status.SCHEDULED:
            return []
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
        updates = _seat(event)
    updates += deal_round(event_id)
    tell_pages(event_id)
    return updates


def seat_next(event_id: int) -> list[Broadcast]:
    """Seat the next round now (the admin's "seat the next round now", or a turn-based round's
    deadline): the house plays out what is left of the current one first. Ends the night
    after its last round."""
    deal_round(event_id)  # a round still being dealt is dealt in full first
    latest = Round.objects.filter(event_id=event_id).order_by("-number").first()
    number = latest.number if latest else 0
    updates = play_out_round(event_id)
    with transaction.atomic():
        event = _locked(event_id)
        if event.status != Event.Status.RUNNING:
            return updates
        current = event.round_set.order_by("-number").first()
        if (current.number if current else 0) != number:
            return updates  # the played-out games' ends seated the next round already
        if current is not None and current.finished is None:
            current.finished = timezone.now()
            current.save(update_fields=["finished"])
        updates += _seat(event)
    updates += deal_round(event_id)
    tell_pages(event_id)
    return updates


def _present(event: Event) -> set[int]:
    """Members to seat: at a turn-based night everyone taking part; at a live one those whose
    page or table is open (or was, within PRESENT_MINUTES)."""
    entries = Entry.objects.filter(event=event).exclude(status=Entry.Status.WITHDRAWN)
    if event.turn_based:
        return set(entries.values_list("player_id", flat=True))
    since = timezone.now() - datetime.timedelta(minutes=PRESENT_MINUTES)
    here = set(
        entries.filter(Q(online=True) | Q(seen__gte=since)).values_list("player_id", flat=True)
    )
    at_tables = set(
        Presence.objects.filter(
            seen__gte=since, seat__player_id__in=entries.values("player_id")
        ).values_list("seat__player_id", flat=True)
    )
    return here | at_tables


def _plan(table: RoundTable) -> list[int | None]:
    """The round table as the seating gave it: member ids, `seating.BOT` for a bot's seat."""
    bots = set(table.bots)
    return [seating.BOT if seat in bots else p for seat, p in enumerate(table.players)]


def history(event: Event) -> tuple[dict, dict]:
    """(times each pair of members sat together, times each member held seat 0 of a game) so
    far: each round table's games, seat 0 passing round the whole table, house bots
    included (`seating.dealers`; a bot's deal counts for nobody)."""
    met: dict[tuple[int, int], int] = {}
    dealt: dict[int, int] = {}
    for table in RoundTable.objects.filter(round__event=event):
        members = table.members
        if table.players:
            for dealer in seating.dealers(_plan(table), event.games_per_round):
                if dealer is not seating.BOT:
                    dealt[dealer] = dealt.get(dealer, 0) + 1
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                key = seating.pair_key(a, b)
                met[key] = met.get(key, 0) + 1
    return met, dealt


def _seat(event: Event) -> list[Broadcast]:
    """Seat the next round of a running night (the caller holds the event's lock), or end the
    night when every round has been played or nobody is left to seat."""
    number = (event.round_set.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    if number > event.rounds:
        return _finish(event)
    present = _present(event)
    if not present:
        if number == 1 or event.turn_based:
            return _finish(event)
        return []  # a live night waits for its members (the duty looks again)
    seated_before = set(Entry.objects.filter(event=event).values_list("player_id", flat=True)) & {
        p for t in RoundTable.objects.filter(round__event=event) for p in t.members
    }
    if number == 1:
        # Signed up but not here at the start: absent (until they come and are seated).
        Entry.objects.filter(event=event, status=Entry.Status.SIGNED_UP).exclude(
            player_id__in=present
        ).update(status=Entry.Status.ABSENT)
    else:
        # An absent member seated now joined late.
        Entry.objects.filter(
            event=event, status=Entry.Status.ABSENT, player_id__in=present
        ).exclude(player_id__in=seated_before).update(status=Entry.Status.LATE)
    met, dealt = history(event)
    ranking = None
    if event.grouping == Grouping.STANDINGS and number > 1:
        from events.standings import standings

        ranking = [r.row.player_id for r in standings(event)]
    # The seating's own randomness (its tie-breaks) need not be secret, and a fixed seed
    # per night and round seats the demo club the same way on every machine.
    seed = zlib.crc32(f"{event.slug}:{number}".encode())
    plan = seating.seat_round(
        sorted(present),
        event.min_seats,
        event.max_seats,
        met,
        dealt,
        seed=seed,
        ranking=ranking,
        games=event.games_per_round,
    )
    now = timezone.now()
    Round.objects.create(
        event=event,
        number=number,
        deadline=now + event.round_length if event.turn_based else None,
        plan=[list(table) for table in plan.tables],
    )
    _bump(event)
    # The tables are dealt once this transaction commits, each in its own (`deal_round`).
    return []


def deal_round(event_id: int) -> list[Broadcast]:
    """Deal the tables of the night's round still being dealt (if any), one table per short
    transaction, each table's first frame published as soon as it is dealt (so the moves at
    other tables never wait behind the whole round's deals), then mark the round dealt.

    Safe to call again or from two processes: each table is dealt under the night's lock
    once (a table already dealt is skipped), so a start the process died in the middle of
    is finished by the next duty. Gives the updates it could not publish (none usually)."""
    current = (
        Round.objects.filter(event_id=event_id, dealt__isnull=True).order_by("-number").first()
    )
    if current is None:
        return []
    left: list[Broadcast] = []
    roster: list[Player] | None = None
    for index, plan_table in enumerate(current.plan, start=1):
        if RoundTable.objects.filter(round=current, number=index).exists():
            continue
        began = time.monotonic()
        with transaction.atomic():
            event = _locked(event_id)
            if event.status != Event.Status.RUNNING:
                return left
            if RoundTable.objects.filter(round=current, number=index).exists():
                continue  # another process dealt it meanwhile
            if roster is None:
                roster = _roster(event)
            update = _deal_table(event, current, index, plan_table, roster)
        try:
            publish([update])
        except Exception as exc:  # noqa: BLE001 - the caller publishes what did not go
            logger.info("events: a table's first frame waits (%s)", type(exc).__name__)
            left.append(update)
        # The deal held the write lock and the interpreter: the moves it kept waiting
        # go through before the next table (a 100-member start takes a second or two
        # longer instead of holding up the club's moves; docs/PERFORMANCE.md, club nights).
        # Not after the last: nothing waits to be dealt then.
        if index < len(current.plan):
            pause = DEAL_PAUSE_FACTOR * (time.monotonic() - began)
            time.sleep(min(pause, DEAL_PAUSE_MAX_SECONDS))
    with transaction.atomic():
        event = _locked(event_id)
        if Round.objects.filter(pk=current.pk, dealt__isnull=True).update(dealt=timezone.now()):
            _bump(event)
            current.refresh_from_db()
            # Its tables may all be done already (the house plays fast at bots' tables).
            if event.status == Event.Status.RUNNING:
                _advance(event, current)  # seats the next round: it is dealt below
    tell_pages(event_id)
    if Round.objects.filter(event_id=event_id, dealt__isnull=True).exists():
        left += deal_round(event_id)  # the next round, seated just now
    return left


def _roster(event: Event) -> list[Player]:
    roster = list(Player.objects.bots().filter(bot_level=event.bot_level).order_by("pk"))
    return roster or list(Player.objects.bots().order_by("pk"))


def _deal_table(
    event: Event, current: Round, index: int, plan_table: list, roster: list[Player]
) -> Broadcast:
    """Deal one table of the round's plan (the caller holds the night's lock)."""
    members = Player.objects.in_bulk([p for p in plan_table if p is not seating.BOT])
    bots = iter(roster[i % len(roster)] for i in range(len(plan_table)))
    players = [members[p] if p is not seating.BOT else next(bots) for p in plan_table]
    table, _game, update = services.deal_fixed_table(
        players[0],
        event.variant,
        players,
        services.draw_seed(),
        pace=event.pace,
        private=False,
        capped=False,
        series=event.series,
    )
    if not event.turn_based:
        # A live night's members may never open their table: their seats are played by the
        # house after the usual grace, as when a member leaves a table (until they come).
        services.away_unless_here(table.pk)
    RoundTable.objects.create(
        round=current,
        number=index,
        table=table,
        players=[p.pk for p in players],
        bots=[seat for seat, p in enumerate(plan_table) if p is seating.BOT],
    )
    hooks.emit(
        hooks.Event(
            "event_table_ready",
            tuple(p for p in plan_table if p is not seating.BOT),
            table_id=table.pk,
            data={
                "event": str(event.name),
                "round": current.number,
                "path": event.get_absolute_url(),
                "key": f"event_table_ready:{table.pk}",
                "pace": event.pace,
            },
        )
    )
    _bump(event)
    return update


def _finish(event: Event) -> list[Broadcast]:
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    Round.objects.filter(event=event, finished__isnull=True).update(finished=timezone.now())
    _bump(event)
    _tell_entrants(event, "event_results")
    return []


def _tell_entrants(event: Event, kind: str) -> None:
    """A notification of `kind` (notifications/kinds.py) to every member taking part (signed
    up, late or absent; not withdrawn), once per night (its key)."""
    takers = (
        Entry.objects.filter(event=event)
        .exclude(status=Entry.Status.WITHDRAWN)
        .values_list("player_id", flat=True)
    )
    hooks.emit(
        hooks.Event(
            kind,
            tuple(takers),
            data={
                "event": str(event.name),
                "path": event.get_absolute_url(),
                "key": f"{kind}:{event.pk}",
            },
        )
    )


def cancel(event_id: int) -> list[Broadcast]:
    """Cancel a night (the admin's action): its running tables close without results and every
    member who signed up is told."""
    updates = []
    with transaction.atomic():
        event = _locked(event_id)
        if event.over:
            return []
        event.status = Event.Status.CANCELLED
        event.save(update_fields=["status"])
        running = RoundTable.objects.filter(
            round__event=event, table__status=Table.Status.PLAYING
        ).values_list("table_id", flat=True)
        for table_id in list(running):
            updates.append(services.abort_table(table_id, "club night cancelled"))
        _bump(event)
        _tell_entrants(event, "event_cancelled")
    tell_pages(event_id)
    return updates


# ---------------------------------------------------------------------------
# Games ending


def games_played(table_id: int) -> int:
    return Game.objects.filter(table_id=table_id, finished__isnull=False).count()


def table_done(round_table: RoundTable, games_per_round: int) -> bool:
    table = round_table.table
    return table.status == Table.Status.ABORTED or (
        table.status == Table.Status.FINISHED and games_played(table.pk) >= games_per_round
    )


def on_event(event: hooks.Event) -> None:
    """games.hooks listener: a game at one of the nights' tables finished."""
    if event.kind != "game_finished" or event.table_id is None:
        return
    found = night_table_of(event.table_id)
    if found is None:
        return
    round_table_id, event_id = found
    try:
        publish(table_finished(round_table_id))
    except Exception:  # noqa: BLE001 - the duty finishes the job on its next pass
        logger.exception("events: advancing a night after a game failed")
    tell_pages(event_id)


def night_table_of(table_id: int) -> tuple[int, int] | None:
    """(round table id, night id) when this games table is a night's table, else None.

    Asked at every finished game at any table, on the database thread every table's
    moves share; one statement written out, because building the ORM's query cost
    about 25 times what SQLite took to answer it (docs/PERFORMANCE.md, "A game's end").
    """
    round_tables, rounds = RoundTable._meta.db_table, Round._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT rt.id, r.event_id FROM {round_tables} rt "  # noqa: S608 - names from _meta
            f"JOIN {rounds} r ON r.id = rt.round_id WHERE rt.table_id = %s",
            [table_id],
        )
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1])


def table_finished(round_table_id: int) -> list[Broadcast]:
    """A game at this round table finished: deal its next game, or close the table, and seat
    the next round of a live night once every table of this round is done."""
    round_table = RoundTable.objects.select_related("round__event", "table").get(pk=round_table_id)
    event_id = round_table.round.event_id
    updates = []
    with transaction.atomic():
        event = _locked(event_id)
        round_table.table.refresh_from_db()
        if event.status != Event.Status.RUNNING:
            return []
        if round_table.table.status == Table.Status.FINISHED:
            if games_played(round_table.table_id) < event.games_per_round:
                update = deal_next(round_table)
                if update is not None:
                    updates.append(update)
            elif round_table.finished is None:
                round_table.finished = timezone.now()
                round_table.save(update_fields=["finished"])
        _bump(event)
        current = round_table.round
        current.refresh_from_db()
        updates += _advance(event, current)
    return updates + deal_round(event_id)


def _advance(event: Event, current: Round) -> list[Broadcast]:
    """Once every table of the dealt round is done: the round is finished, and the next one
    seated when it is the latest (the caller holds the night's lock)."""
    if (
        current.finished is None
        and current.dealt is not None
        and all(
            table_done(t, event.games_per_round) for t in current.tables.select_related("table")
        )
    ):
        current.finished = timezone.now()
        current.save(update_fields=["finished"])
        is_last = current.number == event.round_set.order_by("-number").first().number
        if is_last:
            return _seat(event)
    return []


def deal_next(round_table: RoundTable) -> Broadcast | None:
    """Deal the round table's next game, seat 0 passed on round the whole table, house bots
    included (`seating.game_seats`): over a round of several games its seats take turns to
    deal (who moves first is each game's own rule)."""
    seated = list(round_table.players)
    last = Game.objects.filter(table_id=round_table.table_id).order_by("-number").first()
    if not seated or last is None:
        return None
    index = Game.objects.filter(table_id=round_table.table_id).count()  # the next one's
    wanted = list(seating.game_seats(seated, index))
    current = list(last.players)
    # The turn from the seats as they are to the wanted ones (not simply one place on: a
    # game dealt by an earlier rule, or the same bot in two seats, still lands right).
    turn = next(
        (t for t in range(len(current)) if current[t:] + current[:t] == wanted),
        1,
    )
    return services.deal_next(round_table.table_id, turn=turn)


def play_out_round(event_id: int) -> list[Broadcast]:
    """The house plays out every game left in the night's current round (its deadline passed,
    or the admin seats the next round now), each table to its last game."""
    current = Round.objects.filter(event_id=event_id, finished__isnull=True).order_by("-number")
    current = current.first()
    if current is None:
        return []
    games_per_round = current.event.games_per_round
    updates = []
    for round_table in current.tables.all():
        for _game in range(games_per_round + 1):
            update = services.play_out(round_table.table_id)
            if update is not None:
                updates.append(update)
            if games_played(round_table.table_id) >= games_per_round:
                break
            dealt = deal_next(round_table)
            if dealt is None:
                break
            updates.append(dealt)
    return updates


# ---------------------------------------------------------------------------
# The duty


def nights_duty() -> list[Broadcast]:
    """The house runner's duty: nights start on time, turn-based rounds end at their
    deadline, a live round nobody finished is looked at again, recurring nights exist ahead,
    and members are reminded."""
    now = timezone.now()
    with transaction.atomic():
        remind(now)
    updates: list[Broadcast] = []
    for event_id in Event.objects.filter(
        status=Event.Status.SCHEDULED, starts__lte=now
    ).values_list("pk", flat=True):
        updates += start(event_id)
    for current in Round.objects.filter(
        finished__isnull=True, deadline__lte=now, event__status=Event.Status.RUNNING
    ).select_related("event"):
        updates += seat_next(current.event_id)
    for event in Event.objects.filter(status=Event.Status.RUNNING):
        current = event.round_set.order_by("-number").first()
        if current is not None and current.dealt is None:
            updates += deal_round(event.pk)  # a start or round the process died in
            continue
        if current is None or current.finished is not None:
            with transaction.atomic():
                locked = _locked(event.pk)
                if locked.status == Event.Status.RUNNING:
                    latest = locked.round_set.order_by("-number").first()
                    if latest is None or latest.finished is not None:
                        updates += _seat(locked)
            updates += deal_round(event.pk)
            tell_pages(event.pk)
    make_recurrences(now)
    return updates
