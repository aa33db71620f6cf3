"""Upcoming club nights for the home page and the lobby, read only if a page shows them."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

SHOWN = 3


def nights(request: HttpRequest) -> dict:
    def upcoming() -> list:
        from events.models import Event

        return list(Event.objects.shown().select_related("variant")[:SHOWN])

    return {"club_nights": SimpleLazyObject(upcoming)}
