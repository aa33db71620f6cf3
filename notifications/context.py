"""The header's bell: a signed-in member's unread count, counted only if a page shows it."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject


def bell(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    def count() -> int:
        from notifications.services import unread_count

        player = getattr(user, "player", None)
        return unread_count(player) if player is not None else 0

    return {"notifications_unread": SimpleLazyObject(count)}
