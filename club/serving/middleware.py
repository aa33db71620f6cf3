"""Pages while the database is away: the branded 503 at once, not a wait on the pool; admin
query parameters holding ids no database column can hold."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from club.views import database_unavailable_page, not_found
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


# The widest id column (a 64-bit signed integer): a larger number can name no row.
_ID_RANGE = range(-(2**63), 2**63)
_NUMBER = re.compile(r"[+-]?\d+")


def _out_of_range(value: str) -> bool:
    """Is this parameter a number (or a comma list of them, `__in`) no id can be?"""
    for part in value.split(","):
        part = part.strip()
        # More than 19 digits is out of range, and int() of thousands would refuse.
        if _NUMBER.fullmatch(part) and (len(part.lstrip("+-")) > 19 or int(part) not in _ID_RANGE):
            return True
    return False


def admin_ids_in_range(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable:
    """An admin page asked with a number no id can be (`?player=9223372036854775808`, a
    filter, a form's initial value) answers as for a missing object: 404, never the
    database's overflow as a 500 (SQLite refuses such an integer; a page's query fails)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        values = (value for _key, values in request.GET.lists() for value in values)
        if request.path.startswith("/admin/") and any(_out_of_range(v) for v in values):
            return not_found(request)
        return get_response(request)

    return middleware
