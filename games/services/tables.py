"""Tables: create, join, leave, start, deal again, seat or remove house bots, abort."""

from __future__ import annotations

import datetime
import math
import random
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Player, Series
from games import hooks, paces, registry
from games.i18n import lazy_format
from games.models import Game, Seat, Table, Variant
from games.services import kept
from games.services import pace as pacing
from games.services.clock import changed
from games.services.common import (
    Broadcast,
    ServiceError,
    current_game,
    locked_table,
    locked_table_game_seats,
    locked_visible_table,
    may_see_private,
    save_fields,
    table_seats,
)
from games.services.rows import insert_instances
from games.services.snapshots import handover_at

# Set only by `seeded_deals`: where the deals' seeds come from instead of `secrets`.
_deal_seeds: ContextVar[random.Random | None] = ContextVar("deal_seeds", default=None)


@contextmanager
def seeded_deals(seed: int) -> Iterator[None]:
    """Deals made inside draw their seeds from `seed`, so a scripted club is reproducible.

    For the demo club, benchmarks and tests only: a real table's deal must not be
    guessable.
    """
    token = _deal_seeds.set(random.Random(seed))
    try:
        yield
    finally:
        _deal_seeds.reset(token)


def draw_seed() -> int:
    """A new deal's seed: secret, or from `seeded_deals` inside it (the demo club)."""
    rng = _deal_seeds.get()
    return rng.getrandbits(62) if rng is not None else secrets.randbits(62)


@transaction.atomic
def create_table(
    player: Player,
    variant: Variant,
    seat_count: int,
    private: bool = False,
    series: Series | None = None,
    limited: bool = False,
    pace: str = paces.LIVE,
):
    if series is not None:
        if series.variant_id != variant.pk:
            raise ServiceError(
                "bad_series",
                lazy_format(
                    _("%(series)s is played with %(variant)s."),
                    series=series,
                    variant=series.variant,
                ),
            )
        if not Series.objects.active().filter(pk=series.pk).exists():
            raise ServiceError(
                "bad_series", lazy_format(_("%(series)s is not running."), series=series)
            )
    if not variant.active:
        raise ServiceError(
            "inactive_variant",
            lazy_format(_("%(variant)s is not offered any more."), variant=variant),
        )
    _check_seat_count(variant, seat_count)
    pacing.check_pace(variant, series, pace)
    if limited:  # a member asking (the lobby, a quick game); not the club's own tools
        _check_table_quota(player, turn_based=paces.is_turn_based(pace))
    elif paces.is_turn_based(pace):
        pacing.lock_player(player.pk)
        pacing.check_turn_based_cap(player)
    table = Table.objects.create(
        variant=variant,
        created_by=player,
        seat_count=seat_count,
        private=private,
        series=series,
        pace=pace,
    )
    Seat.objects.create(table=table, position=0, player=player)
    return table, changed(table, None, lobby=True)


# A quick game: the member and two house bots of a level that plays sensibly.
QUICK_GAME_PLAYERS = 3
QUICK_GAME_LEVEL = "heuristic"


@transaction.atomic
def quick_game(
    player: Player, variant: Variant, limited: bool = False
) -> tuple[Table, list[Broadcast]]:
    """A new table for the member and house bots, dealt at once: one click to play."""
    players = min(max(QUICK_GAME_PLAYERS, variant.min_players), variant.max_players)
    # Live when the variant allows it (it does unless an admin said otherwise).
    pace = pacing.allowed_paces(variant)[0]
    table, update = create_table(player, variant, players, limited=limited, pace=pace)
    updates = [update]
    for _seat in range(players - 1):
        updates += add_bot(player, table.pk, QUICK_GAME_LEVEL)
    table.refresh_from_db()
    return table, updates


def _check_seat_count(variant: Variant, count: int) -> None:
    if not variant.min_players <= count <= variant.max_players:
        raise ServiceError(
            "bad_seats",
            lazy_format(
                _("%(variant)s tables have %(low)s to %(high)s seats."),
                variant=variant,
                low=variant.min_players,
                high=variant.max_players,
            ),
        )


def _check_table_quota(player: Player, turn_based: bool = False) -> None:
    """One member cannot fill the lobby: a few open tables at once, a few dozen an hour.

    The member's row is locked first, so two tables opened at the same moment
    (two tabs, two processes) are counted one after the other. Tables waiting for
    players count whatever their pace (the lobby lists them all, issue 42);
    turn-based tables also have a cap of their own (TURN_BASED_TABLES_MAX seats).
    """
    pacing.lock_player(player.pk)
    cap = settings.OPEN_TABLES_PER_MEMBER
    if turn_based:
        pacing.check_turn_based_cap(player)
    waiting = (
        Table.objects.filter(created_by=player, status=Table.Status.OPEN).count() if cap else 0
    )
    if cap and waiting >= cap:
        raise ServiceError(
            "too_many_tables",
            lazy_format(
                _(
                    "You already have as many tables waiting for players as a member may "
                    "(%(count)d); start or leave one before opening another."
                ),
                count=waiting,
            ),
        )
    hourly = settings.TABLES_PER_HOUR
    since = timezone.now() - datetime.timedelta(hours=1)
    if hourly and Table.objects.filter(created_by=player, created__gte=since).count() >= hourly:
        raise ServiceError(
            "too_many_tables",
            lazy_format(
                _("You opened as many tables this hour as a member may (%(count)d); wait a while."),
                count=hourly,
            ),
        )


@transaction.atomic
def join_table(player: Player, table_id: int, invite: str | None = None) -> list[Broadcast]:
    table, seats = locked_visible_table(table_id, player.pk, invite)
    if any(s.player_id == player.pk for s in seats):
        raise ServiceError("already_seated", _("You already have a seat at this table."))
    if table.status != Table.Status.OPEN:
        raise ServiceError("not_open", _("This table is not taking players."))
    if len(seats) >= table.seat_count:
        raise ServiceError("full", _("Every seat at this table is taken."))
    if paces.is_turn_based(table.pace):
        pacing.lock_player(player.pk)
        pacing.check_turn_based_cap(player)
    taken = {s.position for s in seats}
    position = next(p for p in range(table.seat_count) if p not in taken)
    Seat.objects.create(table=table, position=position, player=player)
    updates = [changed(table, None, lobby=True)]
    if len(seats) + 1 == table.seat_count:
        updates.append(_start(table))
    return updates


@transaction.atomic
def leave_table(player: Player, table_id: int) -> Broadcast:
    """Leave a table: before the game, after it (declining a rematch), or during it (resigning)."""
    table, seats = locked_visible_table(table_id, player.pk)
    mine = next((s for s in seats if s.player_id == player.pk and not s.is_bot), None)
    if mine is None:
        raise ServiceError("not_seated", _("You do not have a seat at this table."))
    if table.status == Table.Status.PLAYING:
        return _resign(table, seats, mine)
    if table.status not in (Table.Status.OPEN, Table.Status.FINISHED):
        raise ServiceError("not_open", _("This table is closed."))
    mine.delete()
    return _reopen(table)


def _resign(table: Table, seats: list[Seat], mine: Seat) -> Broadcast:
    """The member leaves the running game: the house plays the seat to the end.

    Only a seat still in play resigns (a player already out of a single-loser game keeps their
    result); the engine applies resignations to the result at the end.
    """
    if mine.resigned_at is not None:
        raise ServiceError("resigned", _("You have already left this game."))
    game = current_game(table)
    engine = registry.engine(game.game)
    mine.resigned_at = timezone.now()
    mine.save(update_fields=["resigned_at"])
    if engine.still_playing(engine.from_json(game.state), mine.position):
        game.resigned = [*game.resigned, mine.position]
        game.save(update_fields=["resigned"])
    return changed(table, game, lobby=False, seats=seats)


def _reopen(table: Table) -> Broadcast:
    """After a member left: the table waits for players again, or closes if no member is left.

    Members who resigned the last game leave with it, and a rematch starts
    over: nobody is dealt into a game they did not start or accept.
    """
    Seat.objects.filter(table=table, resigned_at__isnull=False).delete()
    members = list(Seat.objects.filter(table=table, is_bot=False).order_by("position"))
    if not members:
        table.status = Table.Status.ABORTED
        return changed(table, None, lobby=True)
    Seat.objects.filter(table=table).update(rematch=False, handed_over=False)
    if all(s.player_id != table.created_by_id for s in members):
        # The host left: the longest-seated member hosts (starts, adds bots).
        table.created_by_id = members[0].player_id
        table.save(update_fields=["created_by"])
    table.status = Table.Status.OPEN
    return changed(table, None, lobby=True)


@transaction.atomic
def start_table(player: Player, table_id: int) -> Broadcast:
    table = locked_visible_table(table_id, player.pk)[0]
    if table.created_by_id != player.pk:
        raise ServiceError("not_creator", _("Only the player who opened the table can start it."))
    if table.status != Table.Status.OPEN:
        raise ServiceError("not_open", _("This table has already started."))
    seated = table.seats.count()
    if seated < table.variant.min_players:
        raise ServiceError(
            "too_few",
            lazy_format(
                _("%(variant)s needs at least %(count)s players."),
                variant=table.variant,
                count=table.variant.min_players,
            ),
        )
    return _start(table)


def _start(table: Table) -> Broadcast:
    # Seats are fixed for the game: close the gaps so engine seats are 0..n-1.
    seats = table_seats(table)
    for index, seat in enumerate(seats):
        if seat.position != index:
            Seat.objects.filter(pk=seat.pk).update(position=100 + index)
    for index, seat in enumerate(seats):
        if seat.position != index:
            Seat.objects.filter(pk=seat.pk).update(position=index)
    table.status = Table.Status.PLAYING
    last = current_game(table)
    game = _deal(table, [s.player_id for s in seats], number=last.number + 1 if last else 1)
    return changed(table, game, lobby=True, started=True)


def _deal(
    table: Table,
    players: list[int],
    number: int,
    seed: int | None = None,
    seats: list[Seat] | None = None,
) -> Game:
    """The table's next game, dealt; every seat's rematch and hand-over reset.

    `seats`: the table's seats as the caller holds them, reset in memory as well
    (so the deal's change is described without reading them again).
    """
    variant = table.variant
    engine = registry.engine(variant.game)
    options = variant.options
    if seed is None:
        seed = draw_seed()
    state = engine.deal(len(players), seed, engine.options(options))
    reset = {"rematch": False, "handed_over": False, "resigned_at": None, "missed": 0}
    Seat.objects.filter(table=table).update(**reset)
    for seat in seats or ():
        seat.__dict__.update(reset)
    game = Game(
        # The version the deal will have (every change bumps it by one).
        simultaneous_since=table.version + 1 if engine.simultaneous(state) else None,
        table=table,
        number=number,
        game=variant.game,
        options=options,
        players=players,
        seed=seed,
        state=engine.to_json(state),
    )
    # Without the ORM's insert compiler: every rematch deals (docs/PERFORMANCE.md,
    # "A game's end").
    insert_instances([game])
    return game


@transaction.atomic
def deal_fixed_table(
    creator: Player,
    variant: Variant,
    players: list[Player],
    seed: int,
    pace: str = paces.LIVE,
    private: bool = True,
    capped: bool = True,
    series: Series | None = None,
) -> tuple[Table, Game, Broadcast]:
    """A table seating `players` in order (house bots and `creator`), dealt from `seed`.

    The same seed, variant and number of seats deal the same cards to every
    seat: the duplicate app plays its boards this way. The game starts at once.
    `pace`: the app's choice (not checked against the variant's list: the admin
    chose it); a turn-based one counts toward each member's TURN_BASED_TABLES_MAX
    unless `capped` is off (a club night seats its members whatever else they play).
    `private`: off for a table everyone may watch (a club night's); `series`: its
    games count in that house series too (the caller checked it is the variant's).
    """
    _check_seat_count(variant, len(players))
    if pace not in paces.PACES:
        raise ServiceError("bad_pace", _("Choose a pace from the list."))
    if paces.is_turn_based(pace) and capped:
        for member in (p for p in players if not p.is_bot):
            pacing.lock_player(member.pk)
            pacing.check_turn_based_cap(member)
    table = Table.objects.create(
        variant=variant,
        created_by=creator,
        seat_count=len(players),
        private=private,
        pace=pace,
        series=series,
    )
    Seat.objects.bulk_create(
        Seat(table=table, position=position, player=player, is_bot=player.is_bot)
        for position, player in enumerate(players)
    )
    table.status = Table.Status.PLAYING
    game = _deal(table, [p.pk for p in players], number=1, seed=seed)
    return table, game, changed(table, game, lobby=False, started=True)


@transaction.atomic
def deal_next(table_id: int, turn: int = 0) -> Broadcast | None:
    """Deal the next game at a finished table now, the same players in the same seats,
    without asking them: the club's own tools (a club night's round of several games).
    `turn`: first turn the seats round by this many places (the player in seat `turn`
    takes seat 0, everyone keeping their neighbours), so that seat 0 -- who deals and
    moves first -- passes round the table from game to game.
    None when the table is not finished (a game is running, or it was closed)."""
    table = locked_table(table_id)
    game = current_game(table)
    if table.status != Table.Status.FINISHED or game is None:
        return None
    players = list(game.players)
    turn %= len(players)
    if turn:
        seats = list(Seat.objects.filter(table=table).order_by("position"))
        # Out of the way first: positions are unique at a table, checked row by row.
        Seat.objects.filter(table=table).update(position=F("position") + len(seats))
        for seat in seats:
            seat.position = (seat.position - turn) % len(seats)
            seat.save(update_fields=["position"])
        players = players[turn:] + players[:turn]
    table.status = Table.Status.PLAYING
    new_game = _deal(table, players, number=game.number + 1)
    return changed(table, new_game, lobby=True, started=True)


def play_again(player: Player, table_id: int) -> Broadcast:
    """Offer or accept a rematch: the new deal starts once every member who stayed accepted.

    House bots accept at once. A member who resigned the game is not asked:
    their seat is freed and the table opens for a new player instead.
    """
    return play_again_by_id(player.pk, table_id)


@transaction.atomic
def play_again_by_id(player_id: int, table_id: int) -> Broadcast:
    """`play_again` for a member known by id (the table socket's `again` frame)."""
    # One statement for the three reads (every seat of a finished table sends one).
    table, game, seats = locked_table_game_seats(table_id)
    if table.private and not may_see_private(table, player_id, seats, None):
        raise ServiceError("not_found", _("There is no such table."))
    if table.status != Table.Status.FINISHED or game is None:
        raise ServiceError("not_finished", _("Play again is for a finished table."))
    mine = next((s for s in seats if s.player_id == player_id and not s.is_bot), None)
    if mine is None:
        raise ServiceError("not_seated", _("Only the players at this table can play again."))
    if mine.resigned_at is not None:
        raise ServiceError("resigned", _("You left this game, so you are not in its rematch."))
    if hooks.is_sealed(table):
        raise ServiceError(
            "one_deal", _("This table plays one fixed deal only: there is no rematch.")
        )
    if not mine.rematch:
        if paces.is_turn_based(table.pace):
            # A finished table is not counted until its member accepts the rematch:
            # from then on it is (pacing.turn_based_seats), so the deal keeps the cap.
            pacing.lock_player(player_id)
            pacing.check_turn_based_cap(player_id)
        mine.rematch = True
        save_fields(mine, "rematch")
    staying = [s for s in seats if not s.is_bot and s.resigned_at is None]
    if not all(s.rematch for s in staying):
        broadcast = changed(table, game, lobby=False, seats=seats)
        # The other seats answer next, each reading these rows: keep them (a deal or
        # a reopened table writes through the ORM, so keeping is for this path only).
        kept.keep(table, game, seats)
        return broadcast
    if any(s.resigned_at is not None for s in seats):
        return _reopen(table)  # someone resigned: their seat is free for a new player
    table.status = Table.Status.PLAYING
    new_game = _deal(table, list(game.players), number=game.number + 1, seats=seats)
    return changed(table, new_game, lobby=True, started=True, seats=seats)


@transaction.atomic
def hand_over(player_id: int, table_id: int, version: int) -> Broadcast:
    """Another member hands an idle seat to the house (a table without a clock).

    Allowed once the seat to move has not moved for IDLE_HANDOVER_SECONDS
    (`handover_at`); the house then plays that seat until its member acts.
    """
    table = locked_table(table_id)
    if table.status != Table.Status.PLAYING:
        raise ServiceError("not_playing", _("There is no game running at this table."))
    if version != table.version:
        raise ServiceError(
            "stale_version",
            _("The table moved on since you saw it; here is the current state."),
            version=table.version,
        )
    seats = table_seats(table)
    if not any(s.player_id == player_id and not s.is_bot and not s.resigned_at for s in seats):
        raise ServiceError("not_seated", _("Only the players at this table can do that."))
    at = handover_at(table)
    if at is None:
        raise ServiceError("not_idle", _("Nobody is holding up this table."))
    wait = (at - timezone.now()).total_seconds()
    if wait > 0:
        raise ServiceError(
            "too_early",
            lazy_format(
                _("Wait %(seconds)s more seconds before handing over."), seconds=math.ceil(wait)
            ),
        )
    game = current_game(table)
    engine = registry.engine(game.game)
    # The seat holding the table up: the first member who may act and has not.
    idle = next(
        (
            seats[a]
            for a in engine.actors(engine.from_json(game.state))
            if not (seats[a].is_bot or seats[a].handed_over or seats[a].resigned_at)
        ),
        None,
    )
    if idle is None:
        raise ServiceError("not_idle", _("Nobody is holding up this table."))
    if idle.player_id == player_id:
        raise ServiceError("own_seat", _("It is your turn: play a card."))
    idle.handed_over = True
    idle.save(update_fields=["handed_over"])
    return changed(table, game, lobby=False, seats=seats)


@transaction.atomic
def come_back(player_id: int, table_id: int) -> Broadcast:
    """The member whose seat was handed to the house takes it back."""
    table = locked_table(table_id)
    seats = table_seats(table)
    mine = next((s for s in seats if s.player_id == player_id and not s.is_bot), None)
    if mine is None:
        raise ServiceError("not_seated", _("You do not have a seat at this table."))
    if table.status != Table.Status.PLAYING or not mine.handed_over:
        raise ServiceError("not_handed_over", _("The house is not playing for you."))
    pacing.refuse_if_kept(table, mine)
    mine.handed_over = False
    mine.save(update_fields=["handed_over"])
    return changed(table, current_game(table), lobby=False, seats=seats)


@transaction.atomic
def add_bot(player: Player, table_id: int, level: str) -> list[Broadcast]:
    """The creator seats a house bot of the chosen strength in the first empty seat."""
    table, seats = locked_visible_table(table_id, player.pk)
    if table.created_by_id != player.pk:
        raise ServiceError("not_creator", _("Only the player who opened the table can add bots."))
    if table.status != Table.Status.OPEN:
        raise ServiceError("not_open", _("Bots can only sit down before the game starts."))
    # The first of the level's roster not yet at this table, so that every
    # bot seat has a name of its own (docs: club/migrations/_house_bots.py).
    roster = Player.objects.bots().filter(bot_level=level).order_by("pk")
    bot = roster.exclude(pk__in=[s.player_id for s in seats]).first() or roster.first()
    if bot is None:
        raise ServiceError(
            "bad_level", lazy_format(_("There is no %(level)s house bot."), level=repr(level[:20]))
        )
    if len(seats) >= table.seat_count:
        raise ServiceError("full", _("Every seat at this table is taken."))
    taken = {s.position for s in seats}
    position = next(p for p in range(table.seat_count) if p not in taken)
    Seat.objects.create(table=table, position=position, player=bot, is_bot=True)
    updates = [changed(table, None, lobby=True)]
    if len(seats) + 1 == table.seat_count:
        updates.append(_start(table))
    return updates


@transaction.atomic
def remove_bot(player: Player, table_id: int, position: int) -> Broadcast:
    table = locked_visible_table(table_id, player.pk)[0]
    if table.created_by_id != player.pk:
        raise ServiceError(
            "not_creator", _("Only the player who opened the table can remove bots.")
        )
    if table.status != Table.Status.OPEN:
        raise ServiceError("not_open", _("Bots keep their seats once the game has started."))
    deleted, _kinds = Seat.objects.filter(table=table, position=position, is_bot=True).delete()
    if not deleted:
        raise ServiceError("not_a_bot", _("No house bot sits there."))
    return changed(table, None, lobby=True)


@transaction.atomic
def abort_table(table_id: int, reason: str) -> Broadcast:
    """End a table without results (an admin's decision); its players are told why."""
    table = locked_table(table_id)
    if table.status in (Table.Status.FINISHED, Table.Status.ABORTED):
        raise ServiceError(
            "not_running", lazy_format(_("%(table)s has already ended."), table=table)
        )
    game = current_game(table)
    table.status = Table.Status.ABORTED
    table.abort_reason = reason[:200]
    table.save(update_fields=["abort_reason"])
    if game is not None and game.finished is None:
        game.finished = timezone.now()
        game.save(update_fields=["finished"])
    return changed(table, game, lobby=True)
