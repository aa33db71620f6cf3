"""The only code that changes a table: create, join, leave, start, play, again.

Every change runs in one transaction that first locks the table row, so
joins, starts and moves at one table happen one at a time (PostgreSQL:
`select_for_update`; SQLite: the IMMEDIATE transaction already holds the
database's write lock from BEGIN). The table's `version` goes up with every
change; a move names the version it was made against, so a double click or a
second tab cannot apply the same move twice.

Functions return `Broadcast`s describing what changed; the caller publishes
them after the transaction commits (`games.broadcast`). A broadcast carries
the full engine state, and `project()` turns it into what one seat may see
through the engine's `view()`: the one path by which state reaches a client.
"""

from __future__ import annotations

import datetime
import os
import secrets
import socket
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from club.models import GameResult, Player, Series
from club.standings import half_points
from games import registry
from games.models import Game, Move, Presence, Seat, Table, Variant


class ServiceError(Exception):
    """A request that cannot be done; `code` for machines, the message for people."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


@dataclass
class Broadcast:
    """What changed at a table, to send to its group (and maybe the lobby) after commit."""

    table_id: int
    snapshot: dict
    lobby: bool = False
    events: list[dict] = field(default_factory=list)


# ---------------------------------------------------------------------------
# Reading


# The reads and writes below run on every move, so they skip Django's query
# compiler, which cost about 0.8 ms a query on this machine class against
# 0.13 ms for `raw()` (tests/bench/bench_moves.py, docs/PERFORMANCE.md).
# `raw()` still builds model instances with the fields' converters, and the
# writes prepare values through the fields, so callers see ordinary models.


def _locked_table(table_id: int) -> Table:
    """The table, locked for this transaction, with its variant and series loaded."""
    # The table row is the lock for everything at that table (see module doc).
    # SQLite has no FOR UPDATE: its IMMEDIATE transaction already holds the write lock.
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    table = _first(Table.objects.raw(f"SELECT * FROM games_table WHERE id = %s{lock}", [table_id]))
    if table is None:
        raise ServiceError("not_found", "There is no such table.")
    table.variant = Variant.objects.raw(
        "SELECT * FROM games_variant WHERE id = %s", [table.variant_id]
    )[0]
    if table.series_id:
        table.series = Series.objects.raw(
            "SELECT * FROM club_series WHERE id = %s", [table.series_id]
        )[0]
    return table


def current_game(table: Table) -> Game | None:
    """The table's latest game (the one being played, or the last one finished)."""
    return _first(
        Game.objects.raw(
            "SELECT * FROM games_game WHERE table_id = %s ORDER BY number DESC LIMIT 1", [table.pk]
        )
    )


def _seats(table: Table) -> list[Seat]:
    """The table's seats in order, each with its player loaded."""
    seats = list(
        Seat.objects.raw(
            "SELECT * FROM games_seat WHERE table_id = %s ORDER BY position", [table.pk]
        )
    )
    if seats:
        marks = ", ".join(["%s"] * len(seats))
        players = Player.objects.raw(
            f"SELECT * FROM club_player WHERE id IN ({marks})", [s.player_id for s in seats]
        )
        by_id = {p.pk: p for p in players}
        for seat in seats:
            seat.player = by_id[seat.player_id]
    return seats


def _first(rows: Any) -> Any:
    return next(iter(rows), None)


def _save(instance: Table | Game, *names: str) -> None:
    """save(update_fields=names), without the query compiler."""
    model = type(instance)
    fields = [model._meta.get_field(name) for name in names]
    sets = ", ".join(f"{_quote(f.column)} = %s" for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_quote(model._meta.db_table)} SET {sets} WHERE id = %s",
            [*_db_values(instance, fields), instance.pk],
        )


def _insert(model: type[Move], names: Sequence[str], rows: list[Move]) -> None:
    """bulk_create(rows) for these fields, without the query compiler (ids are not read back)."""
    fields = [model._meta.get_field(name) for name in names]
    columns = ", ".join(_quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {_quote(model._meta.db_table)} ({columns}) VALUES ({marks})",
            [_db_values(row, fields) for row in rows],
        )


def _db_values(instance: Any, fields: list) -> list:
    # Each field prepares its own value, exactly as the ORM would (JSON,
    # datetimes, booleans, on either database).
    return [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def snapshot(table: Table, game: Game | None, seats: list[Seat] | None = None) -> dict:
    """Everything about a table at one version; server-side only (holds every hand)."""
    seats = _seats(table) if seats is None else seats
    return {
        "version": table.version,
        "table": {
            "id": table.pk,
            "status": table.status,
            "variant": table.variant.name,
            "game": table.variant.game,
            "seat_count": table.seat_count,
            "min_players": table.variant.min_players,
            "creator": table.created_by_id,
            "private": table.private,
            "series": table.series.name if table.series_id else None,
            "abort_reason": table.abort_reason,
            "seats": [
                {
                    "position": s.position,
                    "player": s.player_id,
                    "name": s.player.display_name,
                    "bot": s.is_bot,
                    "away": s.away_since is not None,
                }
                for s in seats
            ],
            "turn_seconds": table.variant.turn_seconds,
            "turn_deadline": table.turn_deadline.timestamp() if table.turn_deadline else None,
            "game_number": game.number if game else None,
        },
        "game": game.game if game else None,
        "state": game.state if game else None,
    }


def move_log(game: Game | None) -> list[dict]:
    if game is None:
        return []
    rows = game.moves.order_by("number").values_list("number", "seat", "move", "auto")
    return [{"n": n, "seat": seat, "move": move, "auto": auto} for n, seat, move, auto in rows]


def table_for_viewer(table_id: int, player_id: int, invite: str | None = None) -> dict:
    """The snapshot and full move log for a connecting or resyncing client."""
    table = Table.objects.select_related("variant", "series").filter(pk=table_id).first()
    if table is None:
        raise ServiceError("not_found", "There is no such table.")
    seats = _seats(table)
    if table.private and not _may_see_private(table, player_id, seats, invite):
        raise ServiceError("forbidden", "This table is private: you need its invite link.")
    game = current_game(table)
    data = snapshot(table, game, seats)
    data["log"] = move_log(game)
    return data


def _may_see_private(table: Table, player_id: int, seats: list[Seat], invite: str | None) -> bool:
    seated = any(s.player_id == player_id for s in seats)
    return seated or table.created_by_id == player_id or str(table.invite_token) == (invite or "")


def seat_of(snapshot_data: dict, player_id: int | None) -> int | None:
    for seat in snapshot_data["table"]["seats"]:
        if seat["player"] == player_id:
            return seat["position"]
    return None


def project(snapshot_data: dict, player_id: int | None) -> dict:
    """The `state` message for one recipient: public table info + the engine's view."""
    seat = seat_of(snapshot_data, player_id)
    table = dict(snapshot_data["table"])
    table["you"] = seat
    table["is_creator"] = player_id is not None and table["creator"] == player_id
    view = None
    if snapshot_data.get("state") is not None:
        engine = registry.engine(snapshot_data["game"])
        # Only a seated player of a running game sees a hand; everyone else watches.
        view_seat = seat if seat is not None and seat < len(table["seats"]) else None
        view = engine.view(engine.from_json(snapshot_data["state"]), view_seat)
    message = {"type": "state", "version": snapshot_data["version"], "table": table, "view": view}
    if "log" in snapshot_data:
        message["log"] = snapshot_data["log"]
    else:
        message["events"] = snapshot_data.get("events", [])
    return message


# ---------------------------------------------------------------------------
# Changing


def _changed(
    table: Table,
    game: Game | None,
    lobby: bool,
    events: list[dict] | None = None,
    state: Any = None,
):
    seats = _seats(table)
    _schedule(table, game, seats, state)
    table.version += 1
    table.updated = timezone.now()
    _save(table, "version", "status", "updated", "turn_started", "turn_deadline")
    data = snapshot(table, game, seats)
    data["events"] = events or []
    return Broadcast(table.pk, data, lobby=lobby, events=events or [])


def _schedule(table: Table, game: Game | None, seats: list[Seat], state: Any = None) -> None:
    """Start the clock on the seat to move: when will the house play for it?"""
    table.turn_started = table.turn_deadline = None
    if table.status != Table.Status.PLAYING or game is None:
        return
    if state is None:
        state = registry.engine(game.game).from_json(game.state)
    if state.to_move is None:
        return
    table.turn_started = timezone.now()
    table.turn_deadline = _deadline(table, seats[state.to_move])


def _deadline(table: Table, seat: Seat) -> datetime.datetime | None:
    started = table.turn_started
    bot_delay = datetime.timedelta(seconds=settings.BOT_DELAY_SECONDS)
    if seat.is_bot:
        return started + bot_delay
    candidates = []
    if table.variant.turn_seconds:
        candidates.append(started + datetime.timedelta(seconds=table.variant.turn_seconds))
    if seat.away_since is not None:
        grace = datetime.timedelta(seconds=settings.AWAY_GRACE_SECONDS)
        candidates.append(max(started + bot_delay, seat.away_since + grace))
    return min(candidates) if candidates else None


@transaction.atomic
def create_table(
    player: Player,
    variant: Variant,
    seat_count: int,
    private: bool = False,
    series: Series | None = None,
):
    if series is not None:
        if series.variant_id != variant.pk:
            raise ServiceError("bad_series", f"{series} is played with {series.variant}.")
        if not Series.objects.active().filter(pk=series.pk).exists():
            raise ServiceError("bad_series", f"{series} is not running.")
    if not variant.active:
        raise ServiceError("inactive_variant", f"{variant} is not offered any more.")
    if not variant.min_players <= seat_count <= variant.max_players:
        raise ServiceError(
            "bad_seats",
            f"{variant} tables have {variant.min_players} to {variant.max_players} seats.",
        )
    table = Table.objects.create(
        variant=variant, created_by=player, seat_count=seat_count, private=private, series=series
    )
    Seat.objects.create(table=table, position=0, player=player)
    return table, _changed(table, None, lobby=True)


@transaction.atomic
def join_table(player: Player, table_id: int, invite: str | None = None) -> list[Broadcast]:
    table = _locked_table(table_id)
    seats = _seats(table)
    if any(s.player_id == player.pk for s in seats):
        raise ServiceError("already_seated", "You already have a seat at this table.")
    if table.status != Table.Status.OPEN:
        raise ServiceError("not_open", "This table is not taking players.")
    if table.private and str(table.invite_token) != (invite or ""):
        raise ServiceError("forbidden", "This table is private: you need its invite link.")
    if len(seats) >= table.seat_count:
        raise ServiceError("full", "Every seat at this table is taken.")
    taken = {s.position for s in seats}
    position = next(p for p in range(table.seat_count) if p not in taken)
    Seat.objects.create(table=table, position=position, player=player)
    updates = [_changed(table, None, lobby=True)]
    if len(seats) + 1 == table.seat_count:
        updates.append(_start(table))
    return updates


@transaction.atomic
def leave_table(player: Player, table_id: int) -> Broadcast:
    table = _locked_table(table_id)
    if table.status != Table.Status.OPEN:
        raise ServiceError("not_open", "You can only leave a table before its game starts.")
    deleted, _ = Seat.objects.filter(table=table, player=player, is_bot=False).delete()
    if not deleted:
        raise ServiceError("not_seated", "You do not have a seat at this table.")
    if table.created_by_id == player.pk or not table.seats.filter(is_bot=False).exists():
        table.status = Table.Status.ABORTED
    return _changed(table, None, lobby=True)


@transaction.atomic
def start_table(player: Player, table_id: int) -> Broadcast:
    table = _locked_table(table_id)
    if table.created_by_id != player.pk:
        raise ServiceError("not_creator", "Only the player who opened the table can start it.")
    if table.status != Table.Status.OPEN:
        raise ServiceError("not_open", "This table has already started.")
    seated = table.seats.count()
    if seated < table.variant.min_players:
        raise ServiceError(
            "too_few", f"{table.variant} needs at least {table.variant.min_players} players."
        )
    return _start(table)


def _start(table: Table) -> Broadcast:
    # Seats are fixed for the game: close the gaps so engine seats are 0..n-1.
    seats = _seats(table)
    for index, seat in enumerate(seats):
        if seat.position != index:
            Seat.objects.filter(pk=seat.pk).update(position=100 + index)
    for index, seat in enumerate(seats):
        if seat.position != index:
            Seat.objects.filter(pk=seat.pk).update(position=index)
    table.status = Table.Status.PLAYING
    game = _deal(table, [s.player_id for s in seats], number=1)
    return _changed(table, game, lobby=True)


def _deal(table: Table, players: list[int], number: int) -> Game:
    variant = table.variant
    engine = registry.engine(variant.game)
    options = variant.options()
    seed = secrets.randbits(62)
    state = engine.deal(len(players), seed, engine.options(options))
    return Game.objects.create(
        table=table,
        number=number,
        game=variant.game,
        options=options,
        players=players,
        seed=seed,
        state=engine.to_json(state),
    )


@transaction.atomic
def play_again(player: Player, table_id: int) -> Broadcast:
    table = _locked_table(table_id)
    game = current_game(table)
    if table.status != Table.Status.FINISHED or game is None:
        raise ServiceError("not_finished", "Play again is for a finished table.")
    if player.pk not in game.players:
        raise ServiceError("not_seated", "Only the players at this table can deal again.")
    table.status = Table.Status.PLAYING
    new_game = _deal(table, list(game.players), number=game.number + 1)
    return _changed(table, new_game, lobby=True)


@transaction.atomic
def play_move(player_id: int, table_id: int, move: str, version: int) -> Broadcast:
    """Apply one member's move, with the automatic passes it causes, all or nothing."""
    table = _locked_table(table_id)
    game = current_game(table)
    if table.status == Table.Status.OPEN or game is None:
        raise ServiceError("not_started", "The game at this table has not started yet.")
    seat = game.players.index(player_id) if player_id in game.players else None
    if seat is None:
        raise ServiceError("not_seated", "Only the players seated at this table can move.")
    return _apply_move(table, game, seat, move, version, auto=False)


def _apply_move(
    table: Table, game: Game, seat: int, move: str, version: int, auto: bool
) -> Broadcast:
    if table.status != Table.Status.PLAYING:
        raise ServiceError("game_over", "This game is over.")
    if version != table.version:
        raise ServiceError(
            "stale_version",
            "The table moved on since you saw it; here is the current state.",
            version=table.version,
        )
    engine = registry.engine(game.game)
    if not engine.is_move(move):
        raise ServiceError("not_a_card", f"{move[:16]!r} is not a card.")
    state = engine.from_json(game.state)
    if state.to_move != seat:
        raise ServiceError("not_your_turn", "It is not your turn.")
    try:
        state, actions = engine.apply(state, move)
    except engine.IllegalMove as exc:
        raise ServiceError("illegal_move", str(exc)) from None

    first = game.version + 1
    events = [
        {"n": first + i, "seat": acting_seat, "move": action, "auto": auto and i == 0}
        for i, (acting_seat, action) in enumerate(actions)
    ]
    now = timezone.now()
    _insert(
        Move,
        ["game", "number", "seat", "move", "auto", "created"],
        [
            Move(
                game=game,
                number=e["n"],
                seat=e["seat"],
                move=e["move"],
                auto=e["auto"],
                created=now,
            )
            for e in events
        ],
    )
    game.state = engine.to_json(state)
    game.version += len(events)
    fields = ["state", "version"]
    finished = state.over
    if finished:
        game.result = engine.result(state)
        game.finished = timezone.now()
        fields += ["result", "finished"]
        table.status = Table.Status.FINISHED
    _save(game, *fields)
    if finished:
        _record_results(table, game)
    return _changed(table, game, lobby=finished, events=events, state=state)


# ---------------------------------------------------------------------------
# House bots, the turn timer and absent players


@transaction.atomic
def add_bot(player: Player, table_id: int, level: str) -> list[Broadcast]:
    """The creator seats a house bot of the chosen strength in the first empty seat."""
    table = _locked_table(table_id)
    if table.created_by_id != player.pk:
        raise ServiceError("not_creator", "Only the player who opened the table can add bots.")
    if table.status != Table.Status.OPEN:
        raise ServiceError("not_open", "Bots can only sit down before the game starts.")
    bot = Player.objects.bots().filter(bot_level=level).first()
    if bot is None:
        raise ServiceError("bad_level", f"There is no {level[:20]!r} house bot.")
    seats = _seats(table)
    if len(seats) >= table.seat_count:
        raise ServiceError("full", "Every seat at this table is taken.")
    taken = {s.position for s in seats}
    position = next(p for p in range(table.seat_count) if p not in taken)
    Seat.objects.create(table=table, position=position, player=bot, is_bot=True)
    updates = [_changed(table, None, lobby=True)]
    if len(seats) + 1 == table.seat_count:
        updates.append(_start(table))
    return updates


@transaction.atomic
def remove_bot(player: Player, table_id: int, position: int) -> Broadcast:
    table = _locked_table(table_id)
    if table.created_by_id != player.pk:
        raise ServiceError("not_creator", "Only the player who opened the table can remove bots.")
    if table.status != Table.Status.OPEN:
        raise ServiceError("not_open", "Bots keep their seats once the game has started.")
    deleted, _ = Seat.objects.filter(table=table, position=position, is_bot=True).delete()
    if not deleted:
        raise ServiceError("not_a_bot", "No house bot sits there.")
    return _changed(table, None, lobby=True)


# Which process holds a presence row: a crashed process's rows go stale.
SERVER_ID = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


def seat_connected(table_id: int, player_id: int, channel: str) -> None:
    """A seated member opened a connection: they are here (and take their seat back)."""
    seat = Seat.objects.filter(table_id=table_id, player_id=player_id, is_bot=False).first()
    if seat is None:
        return  # a watcher: nothing to track
    with transaction.atomic():
        # Locked like a move, so the deadline below cannot race a move.
        table = _locked_table(table_id)
        Presence.objects.update_or_create(
            channel=channel, defaults={"seat": seat, "server": SERVER_ID, "seen": timezone.now()}
        )
        if seat.away_since is not None:
            seat.away_since = None
            seat.save(update_fields=["away_since"])
            _reschedule(table, seat)


def seat_disconnected(table_id: int, channel: str) -> None:
    presence = Presence.objects.filter(channel=channel).select_related("seat").first()
    if presence is None:
        return
    with transaction.atomic():
        table = _locked_table(table_id)
        if Presence.objects.filter(pk=presence.pk).delete()[0]:
            _mark_away_if_gone(table, presence.seat, timezone.now())


def refresh_presence(stale_after: datetime.timedelta) -> int:
    """Vouch for this process's connections; expire rows no live process vouches for."""
    now = timezone.now()
    Presence.objects.filter(server=SERVER_ID).update(seen=now)
    expired = 0
    for presence in Presence.objects.filter(seen__lt=now - stale_after).select_related("seat"):
        with transaction.atomic():
            table = _locked_table(presence.seat.table_id)
            if Presence.objects.filter(pk=presence.pk).delete()[0]:
                _mark_away_if_gone(table, presence.seat, presence.seen)
                expired += 1
    return expired


def _mark_away_if_gone(table: Table, seat: Seat, since: datetime.datetime) -> None:
    seat.refresh_from_db(fields=["away_since"])
    if seat.away_since is None and not seat.presences.exists():
        seat.away_since = since
        seat.save(update_fields=["away_since"])
        _reschedule(table, seat)


def _reschedule(table: Table, seat: Seat) -> None:
    """The seat's presence changed: move the deadline if it is that seat's turn."""
    game = current_game(table)
    if table.status != Table.Status.PLAYING or game is None or table.turn_started is None:
        return
    state = registry.engine(game.game).from_json(game.state)
    if state.to_move == seat.position:
        table.turn_deadline = _deadline(table, seat)
        table.save(update_fields=["turn_deadline"])


def due_tables(limit: int = 20) -> list[int]:
    """Tables whose current turn the house should play now."""
    return list(
        Table.objects.filter(status=Table.Status.PLAYING, turn_deadline__lte=timezone.now())
        .order_by("turn_deadline")
        .values_list("pk", flat=True)[:limit]
    )


@dataclass
class AutoTurn:
    """Everything a house bot may know when it plays a turn: one seat's view + history."""

    table_id: int
    version: int
    seat: int
    level: str
    game: str
    view: dict
    history: list[tuple[int, str]]
    seed: int


def automatic_turn(table_id: int) -> AutoTurn | None:
    table = Table.objects.select_related("variant").filter(pk=table_id).first()
    now = timezone.now()
    if table is None or table.status != Table.Status.PLAYING:
        return None
    if table.turn_deadline is None or table.turn_deadline > now:
        return None
    game = current_game(table)
    engine = registry.engine(game.game)
    state = engine.from_json(game.state)
    seat = table.seats.select_related("player").get(position=state.to_move)
    level = seat.player.bot_level if seat.is_bot else settings.HOUSE_STAND_IN_LEVEL
    history = list(game.moves.order_by("number").values_list("seat", "move"))
    return AutoTurn(
        table_id=table.pk,
        version=table.version,
        seat=state.to_move,
        level=level,
        game=game.game,
        view=engine.view(state, state.to_move),
        history=history,
        seed=(game.seed + table.version) % (2**31),
    )


def choose_automatic_move(turn: AutoTurn) -> str:
    """Pure computation, no database: run it off the database thread."""
    engine = registry.engine(turn.game)
    return engine.choose_move(
        turn.level, turn.view, turn.history, turn.seed, settings.BOT_SEARCH_BUDGET_MS
    )


@transaction.atomic
def play_automatic(turn: AutoTurn, move: str) -> Broadcast | None:
    """Play the house's move unless the table moved on (the lock decides between processes)."""
    table = _locked_table(turn.table_id)
    if table.version != turn.version or table.status != Table.Status.PLAYING:
        return None  # the player, or another server process, moved first
    if table.turn_deadline is None or table.turn_deadline > timezone.now():
        return None  # the player came back in the meantime
    game = current_game(table)
    return _apply_move(table, game, turn.seat, move, turn.version, auto=True)


def _record_results(table: Table, game: Game) -> None:
    """One GameResult per seat, in the transaction that finishes the game."""
    result = game.result
    places = result["places"]
    out = result["out"]
    GameResult.objects.bulk_create(
        GameResult(
            game=game,
            series_id=table.series_id,
            player_id=player_id,
            seat=seat,
            players=len(places),
            place=places[seat],
            cards_left=result["cards_left"][seat],
            card_points=result["points"][seat],
            passes=result["passes"][seat],
            out_position=out.index(seat) + 1 if seat in out else None,
            lost=result.get("loser") == seat,
            half_points=half_points(places[seat], places),
            finished=game.finished,
        )
        for seat, player_id in enumerate(game.players)
    )


@transaction.atomic
def abort_table(table_id: int, reason: str) -> Broadcast:
    """End a table without results (an admin's decision); its players are told why."""
    table = _locked_table(table_id)
    if table.status in (Table.Status.FINISHED, Table.Status.ABORTED):
        raise ServiceError("not_running", f"{table} has already ended.")
    game = current_game(table)
    table.status = Table.Status.ABORTED
    table.abort_reason = reason[:200]
    table.save(update_fields=["abort_reason"])
    if game is not None and game.finished is None:
        game.finished = timezone.now()
        game.save(update_fields=["finished"])
    return _changed(table, game, lobby=True)
