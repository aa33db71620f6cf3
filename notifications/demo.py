"""The demo member's notifications (`manage.py demo_data`): a few, mailed to the console."""

from __future__ import annotations

from django.db import transaction

from club.models import Player
from games import hooks, paces
from games.models import Game, Table
from notifications.models import Notification


def build(people: list[Player]) -> int:
    """Tell the first demo member with an account a few things, once; 0 (no boards played)."""
    member = next((p for p in people if p.user_id), None)
    if member is None or Notification.objects.filter(player=member).exists():
        return 0
    game = (
        Game.objects.filter(table__seats__player=member, finished__isnull=False)
        .order_by("-pk")
        .first()
    )
    tables = Table.objects.filter(seats__player=member).order_by("-pk")
    table = tables.exclude(pace=paces.LIVE).first() or tables.first()
    with transaction.atomic():
        hooks.emit(
            hooks.Event(
                "message",
                (member.pk,),
                data={"text": "Welcome to the club! Your turn-based tables wait for you here."},
            )
        )
        if table is not None:
            hooks.emit(hooks.Event("table_started", (member.pk,), table.pk))
            if table.pace != paces.LIVE:  # a turn-based table of theirs: "your turn" too
                hooks.emit(hooks.Event("turn", (member.pk,), table.pk, data={"pace": "turn"}))
        if game is not None:
            results = list(game.results.order_by("seat").values_list("player_id", "place"))
            data = {"players": [r[0] for r in results], "places": [r[1] for r in results]}
            hooks.emit(hooks.Event("game_finished", (member.pk,), game.table_id, game.pk, data))
    return 0
