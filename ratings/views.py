"""The leaderboard: members by rating per game family, house bots apart."""

from __future__ import annotations

from django.conf import settings
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _

from games import registry
from games.models import Table
from ratings.stats import attach_seat_ratings, leaderboard

PER_PAGE = 100


def board(request: HttpRequest, family: str = "") -> HttpResponse:
    families = registry.rating_families()
    labels = dict(families)
    family = family or families[0][0]  # /ratings/: the first game's board
    if family not in labels:
        raise Http404(_("No such game."))
    min_games = settings.RATING_LEADERBOARD_MIN_GAMES
    page = Paginator(leaderboard(family, min_games), PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "family": family,
            "label": labels[family],
            "families": families,
            "page": page,
            "offset": page.start_index() - 1 if page.object_list else 0,
            "bots": leaderboard(family, min_games, bots=True)[:50],
            "min_games": min_games,
            "provisional_games": settings.RATING_PROVISIONAL_GAMES,
        },
    )


def table_seats(request: HttpRequest, table_id: int) -> JsonResponse:
    """The seated players' ratings in the table's game, by seat, for the table page.

    {"family": "<family>", "seats": {"0": {"rating": 1532, "provisional": true}, "1": null}};
    the same visibility as the table page (a private table is a 404 to outsiders).
    """
    viewer = request.user.player if request.user.is_authenticated else None
    table = get_object_or_404(
        Table.objects.with_seats().visible_to(viewer, request.GET.get("invite")), pk=table_id
    )
    attach_seat_ratings([table])
    seats = {
        str(seat.position): (
            {"rating": seat.rating.display, "provisional": seat.rating.provisional}
            if seat.rating
            else None
        )
        for seat in table.seats.all()
    }
    return JsonResponse({"family": table.rating_family, "seats": seats})
