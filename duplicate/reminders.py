"""Round reminders, told to members through games.hooks events (the notifications app
listens): a round opened, and a round closes within 24 hours with boards they have not
played. A house duty (games.hooks.register_duty) that several processes may run at once:
each event carries a key, and a member hears of one round's opening or closing once.
"""

from __future__ import annotations

import datetime

from django.db.models import Count, Q
from django.utils import timezone

from club.models import Player
from duplicate.models import Play, Round
from games import hooks

REMIND_BEFORE = datetime.timedelta(hours=24)
# Rounds this process has already announced (the keys make a second process's announcement harmless).
_told: set[tuple[str, int]] = set()


def entrants(series_id: int) -> list[int]:
    """The series' members: everyone who played one of its boards, house bots left out."""
    return list(
        Player.objects.filter(duplicate_plays__board__round__series_id=series_id, bot_level="")
        .distinct()
        .values_list("pk", flat=True)
    )


def round_reminders_duty() -> list:
    now = timezone.now()
    open_rounds = Round.objects.filter(closed__isnull=True, starts__lte=now, ends__gt=now)
    for round_ in open_rounds.filter(starts__gte=now - REMIND_BEFORE).select_related("series"):
        _tell("round_opened", round_, entrants(round_.series_id))
    for round_ in open_rounds.filter(ends__lte=now + REMIND_BEFORE).select_related("series"):
        played = dict(
            Play.objects.filter(board__round=round_)
            .values_list("player_id")
            .annotate(n=Count("pk", filter=Q(board__round=round_)))
            .values_list("player_id", "n")
        )
        behind = [pid for pid in entrants(round_.series_id) if played.get(pid, 0) < round_.boards]
        _tell("round_closing", round_, behind)
    return []


def _tell(kind: str, round_: Round, player_ids: list[int]) -> None:
    if (kind, round_.pk) in _told:
        return
    _told.add((kind, round_.pk))
    hooks.emit(
        hooks.Event(
            kind,
            tuple(player_ids),
            data={
                "round": round_.number,
                "series": round_.series.name,
                "path": round_.get_absolute_url(),
                "key": f"{kind}:{round_.pk}",
            },
        )
    )
