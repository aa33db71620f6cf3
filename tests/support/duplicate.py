"""Duplicate series for tests: a series with an open round, and boards played to the end."""

from __future__ import annotations

import datetime

from django.utils import timezone
from django.utils.text import slugify

from club.models import Player
from duplicate.models import DuplicateSeries, Play, Round
from duplicate.services import play_board
from games import registry, services
from games.models import Table, Variant


def golf_rounds(rounds: int) -> dict:
    """Variant fields for a Golf match of `rounds` rounds."""
    return {"options": {"rounds": rounds}}


def make_series(
    variant: str | Variant = "Devyatka", seats: int = 3, level: str = "random", **kwargs
) -> DuplicateSeries:
    variant = variant if isinstance(variant, Variant) else Variant.objects.get(name=variant)
    name = f"{variant.name} duplicate"
    series = DuplicateSeries(
        name=name, slug=slugify(name), variant=variant, seats=seats, bot_level=level, **kwargs
    )
    series.full_clean()
    series.save()
    return series


def open_round(series: DuplicateSeries, boards: int = 2, number: int = 1) -> Round:
    now = timezone.now()
    round_ = Round(
        series=series,
        number=number,
        starts=now - datetime.timedelta(hours=1),
        ends=now + datetime.timedelta(hours=1),
        boards=boards,
    )
    round_.full_clean()
    round_.save()
    return round_


def board(round_: Round, number: int = 1):
    return round_.board_set.get(number=number)


def start(player: Player, round_: Round, number: int = 1) -> Play:
    play, _ = play_board(player, board(round_, number).pk)
    return play


def finish(play: Play, pick=lambda legal: legal[0]) -> Play:
    """Play the game to the end: the member picks with `pick`, the bots take their first move."""
    table_id = play.table_id
    while True:
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            play.refresh_from_db()
            play.game.refresh_from_db()
            return play
        game = services.current_game(table)
        engine = registry.engine(game.game)
        state = engine.from_json(game.state)
        seat = engine.actors(state)[0]
        legal = engine.view(state, seat)["legal"]
        move = pick(legal) if seat == play.seat else legal[0]
        services.play_move(game.players[seat], table_id, move, table.version)
