"""Tables: create, join, leave, start, deal again, seat or remove house bots, abort."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from club.models import Player, Series
from games import registry
from games.models import Game, Seat, Table, Variant
from games.services.clock import _changed
from games.services.common import (
    Broadcast,
    ServiceError,
    _locked_table,
    _seats,
    current_game,
)


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
