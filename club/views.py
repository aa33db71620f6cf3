"""Club pages: home, rules, series and standings, player profiles, error pages."""

from __future__ import annotations

import csv
import sys

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError, connection
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist, loader
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import ngettext

from club import home as home_data
from club.models import GameResult, Player, Series
from club.standings import RECENT as RECENT_MARKS
from club.standings import standings
from games import registry
from games.db import DATABASE_DOWN, RETRY_AFTER_SECONDS, database_unavailable
from games.models import Game, Table
from ratings.stats import attach_ratings

RECENT_GAMES = 15


def _viewer(request: HttpRequest) -> Player | None:
    return request.user.player if request.user.is_authenticated else None


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and bots ask for /favicon.ico whatever the page says: send them the icon."""
    return redirect(static("favicon.svg"), permanent=True)


ROBOTS = """User-agent: *
Disallow: /admin/
Disallow: /i18n/
Disallow: /home/tables/
Disallow: /ratings/tables/
Disallow: /games/*/record.json
Disallow: /games/*/replay.json
"""


def robots_txt(request: HttpRequest) -> HttpResponse:
    """Crawlers may read the club's pages; not the admin, page fragments or raw game data."""
    return HttpResponse(ROBOTS, content_type="text/plain; charset=utf-8")


def healthz(request: HttpRequest) -> HttpResponse:
    """For a proxy or a monitor: 200 when this process can reach the database, else 503."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return HttpResponse("database unavailable\n", status=503, content_type="text/plain")
    return HttpResponse("ok\n", content_type="text/plain")


def home(request: HttpRequest) -> HttpResponse:
    """A member's own club at a glance; for a stranger, the club's front page."""
    if request.user.is_authenticated:
        player = request.user.player
        return render(
            request,
            "club/home_member.html",
            {
                "tables": home_data.my_tables(player),
                "invitations": home_data.invitations(player),
                "series_lines": home_data.my_series(player),
                "rating_lines": home_data.my_ratings(player),
                "last_games": home_data.last_games(player),
                "quick": home_data.quick_variants(),
            },
        )
    open_tables = Table.objects.listed().open().with_seats()[:10]
    return render(
        request,
        "club/home.html",
        {
            "open_tables": open_tables,
            "numbers": home_data.club_numbers(),
            "leaders": home_data.series_leaders(),
        },
    )


def home_tables(request: HttpRequest) -> HttpResponse:
    """The member's tables alone, fetched again by home.js when one of them changes.

    Signed out (the session ended in another tab): 204 and nothing, never the
    sign-in page that a redirect would put inside the home page.
    """
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    return render(
        request, "club/_home_tables.html", {"tables": home_data.my_tables(request.user.player)}
    )


def _duplicate_example(games: list) -> str | None:
    """The template of the first duplicate game with a worked example
    (games/duplicate_example/<key>.html, in its folder), or None."""
    names = [f"games/duplicate_example/{e.key}.html" for e in games if e.duplicate]
    try:
        return loader.select_template(names).template.name if names else None
    except TemplateDoesNotExist:
        return None


def rules(request: HttpRequest) -> HttpResponse:
    idle = settings.IDLE_HANDOVER_SECONDS
    if idle % 60 == 0 and idle >= 120:
        minutes = idle // 60
        idle_text = ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}
    else:
        idle_text = ngettext("%(count)s second", "%(count)s seconds", idle) % {"count": idle}
    games = registry.engines()
    return render(
        request,
        "club/rules.html",
        {
            "idle_handover": idle_text,
            # Each game's own section, from its folder's templates (games/rules/<key>.html).
            "rules_sections": [section for e in games for section in e.rules_sections],
            "rules_templates": [f"games/rules/{e.key}.html" for e in games if e.rules_sections],
            # What beats what on a duplicate board, each game's own words (its entry).
            "duplicate_rules": [
                e.duplicate_rules for e in games if e.duplicate and e.duplicate_rules
            ],
            # The duplicate section's worked example: the first game whose folder has one.
            "duplicate_example": _duplicate_example(games),
            "rating_families": ", ".join(label for _key, label in registry.rating_families()),
        },
    )


def series_list(request: HttpRequest) -> HttpResponse:
    series = Series.objects.select_related("variant")
    return render(
        request,
        "club/series_list.html",
        {"active_series": series.active(), "past_series": series.past()},
    )


def series_detail(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series.objects.select_related("variant"), slug=slug)
    rows = standings(series)
    attach_ratings(rows, series.variant.game, series.variant.options)
    recent = (
        Game.objects.visible_to(_viewer(request))
        .filter(table__series=series, result__isnull=False)
        .order_by("-finished")
        .prefetch_related(
            Prefetch("results", GameResult.objects.select_related("player").order_by("place"))
        )[:RECENT_GAMES]
    )
    return render(
        request,
        "club/series_detail.html",
        {
            "series": series,
            "ranked": [r for r in rows if r.rank is not None],
            "unranked": [r for r in rows if r.rank is None],
            "recent": recent,
            "is_active": Series.objects.active().filter(pk=series.pk).exists(),
            "recent_count": RECENT_MARKS,
        },
    )


def series_csv(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series.objects.select_related("variant"), slug=slug)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{series.slug}-standings.csv"'
    writer = csv.writer(response)
    # The scoring kind's columns, then the game's own (games.registry: standings_columns).
    columns = [c for c in series.standings_columns if c.csv]
    if series.is_loss:
        writer.writerow(["rank", "player", "games", "losses", "loss_rate"])
        for r in standings(series):
            writer.writerow([r.rank or "", r.name, r.games, r.losses, r.loss_rate_text])
    else:
        writer.writerow(
            ["rank", "player", "games", "wins", "average_place", "points", "points_per_game"]
            + [c.csv for c in columns]
        )
        for r in standings(series):
            writer.writerow(
                [
                    r.rank or "",
                    r.name,
                    r.games,
                    r.wins,
                    r.average_place_text,
                    r.points_text,
                    r.points_per_game_text,
                ]
                + [c.figure(r) for c in columns]
            )
    return response


def player_by_name(request: HttpRequest, name: str) -> HttpResponse:
    """The old name-based address, kept for links from outside the site."""
    profile = get_object_or_404(Player, display_name__iexact=name)
    return redirect(profile, permanent=True)


def player(request: HttpRequest, player_id: int) -> HttpResponse:
    profile = get_object_or_404(Player.objects.select_related("user"), pk=player_id)
    lines = []
    for series in (
        Series.objects.filter(results__player=profile).distinct().select_related("variant")
    ):
        row = next((r for r in standings(series) if r.player_id == profile.pk), None)
        if row:
            lines.append((series, row))
    recent = (
        GameResult.objects.filter(
            player=profile, game__in=Game.objects.visible_to(_viewer(request))
        )
        .select_related("game__table__variant", "series")
        .defer("game__state")
        .order_by("-finished")[:RECENT_GAMES]
    )
    return render(
        request, "club/player.html", {"profile": profile, "lines": lines, "recent": recent}
    )


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", status=404)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form whose CSRF token no longer matches: say so in plain words, change nothing."""
    if not hasattr(request, "user"):
        request.user = AnonymousUser()  # the page's layout asks who is signed in
    back = request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = ""
    return render(request, "403_csrf.html", {"back": back}, status=403)


def server_error(request: HttpRequest) -> HttpResponse:
    # No context processors: the failure may be in one of them.
    if isinstance(sys.exc_info()[1], DATABASE_DOWN):
        return database_unavailable_page(request, sys.exc_info()[1])
    return HttpResponse(loader.get_template("500.html").render(), status=500)


def database_unavailable_page(request: HttpRequest, exc: BaseException) -> HttpResponse:
    """The database is away (restarting, say): 503, the branded page, one warning per outage."""
    database_unavailable(exc, f"page {request.path}")
    response = HttpResponse(loader.get_template("503.html").render(), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    # Reported once per outage above: Django must not log a traceback per page.
    response._has_been_logged = True
    return response
