"""Who has the site open: their lobby sockets (notifications.Online) and table sockets
(games' Presence rows). A member who has it open sees notifications live and gets no mail.

Each server process vouches for its own open lobby sockets every
PRESENCE_HEARTBEAT_SECONDS (a house duty, games.hooks); a row not vouched for
within PRESENCE_STALE_SECONDS does not count, and is deleted a while later.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Iterable

from django.conf import settings
from django.utils import timezone

from games.models import Presence
from games.services.presence import SERVER_ID
from notifications.models import Online

# This process's open lobby sockets of members: channel -> player id.
_open: dict[str, int] = {}
_last_vouch = 0.0


def lobby_socket(player_id: int, channel: str, opened: bool) -> None:
    """games.hooks socket listener: record or forget a member's open lobby socket."""
    if opened:
        _open[channel] = player_id
        Online.objects.update_or_create(
            channel=channel,
            defaults={"player_id": player_id, "server": SERVER_ID, "seen": timezone.now()},
        )
    else:
        _open.pop(channel, None)
        Online.objects.filter(channel=channel).delete()


def vouch() -> list:
    """The house duty: refresh this process's rows now and then; drop long-dead ones."""
    global _last_vouch
    if time.monotonic() - _last_vouch < settings.PRESENCE_HEARTBEAT_SECONDS:
        return []
    _last_vouch = time.monotonic()
    now = timezone.now()
    live = list(_open)
    for start in range(0, len(live), 500):  # under SQLite's bound-parameter limit
        Online.objects.filter(channel__in=live[start : start + 500]).update(seen=now)
    Online.objects.filter(seen__lt=now - 10 * _stale()).delete()
    return []


def _stale() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.PRESENCE_STALE_SECONDS)


def online(player_ids: Iterable[int]) -> set[int]:
    """Which of these members have a page or a table of the site open now."""
    ids = list(set(player_ids))
    if not ids:
        return set()
    since = timezone.now() - _stale()
    found = set(
        Online.objects.filter(player_id__in=ids, seen__gte=since).values_list(
            "player_id", flat=True
        )
    )
    found |= set(
        Presence.objects.filter(seat__player_id__in=ids, seen__gte=since).values_list(
            "seat__player_id", flat=True
        )
    )
    return found


def at_table(table_id: int, player_ids: Iterable[int]) -> set[int]:
    """Which of these members have this table open now (a live socket to it)."""
    ids = list(set(player_ids))
    if not ids:
        return set()
    since = timezone.now() - _stale()
    return set(
        Presence.objects.filter(
            seat__table_id=table_id, seat__player_id__in=ids, seen__gte=since
        ).values_list("seat__player_id", flat=True)
    )
