"""The leaderboard: members by rating per game family, house bots apart."""

from __future__ import annotations

from django.conf import settings
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games import registry
from ratings.stats import leaderboard

PER_PAGE = 100


def board(request: HttpRequest, family: str = registry.DEVYATKA) -> HttpResponse:
    families = registry.rating_families()
    labels = dict(families)
    if family not in labels:
        raise Http404("No such game.")
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
