"""Pages while the database is away: the branded 503 at once, not a wait on the pool."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from club.views import database_unavailable_page
from games.db import DatabaseAway, database_available, outage_ongoing, refuse_while_away

# The health check always asks the database itself: monitors must see the truth.
ALWAYS_TRY = {"/healthz"}


def database_away(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable:
    """While the database is known to be away, answer 503 but for one probe a second.

    A page that does reach the database meanwhile ends the outage; one that
    fails on it gets the same page through `club.views.server_error`.
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        if request.path in ALWAYS_TRY or not outage_ongoing():
            return get_response(request)
        try:
            refuse_while_away()
        except DatabaseAway as exc:
            return database_unavailable_page(request, exc)
        response = get_response(request)
        if response.status_code < 500:
            database_available()
        return response

    return middleware
