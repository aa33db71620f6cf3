"""Ask for a game's analysis, poll its progress, fetch its finished panel."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from analysis import services
from games.models import Game
from games.services.common import ServiceError

STATUS = {"login": 403, "not_found": 404, "not_analysable": 409, "busy": 429, "queue_full": 503}


def _viewer(request: HttpRequest):  # noqa: ANN202 - Player | None
    return request.user.player if request.user.is_authenticated else None


def _game(request: HttpRequest, game_id: int) -> Game:
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or not services.open_to(game, _viewer(request)):
        raise Http404("There is no such game.")
    return game


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@require_POST
def ask(request: HttpRequest, game_id: int) -> HttpResponse:
    """POST: queue the analysis (or find the existing one). JSON for scripts, else a redirect."""
    try:
        game = _game(request, game_id)
        analysis = services.request(game, _viewer(request))
    except Http404:
        if _wants_json(request):
            return JsonResponse(
                {"error": "not_found", "message": gettext("There is no such game.")}, status=404
            )
        raise
    except ServiceError as exc:
        if _wants_json(request):
            return JsonResponse(
                {"error": exc.code, "message": exc.message}, status=STATUS.get(exc.code, 400)
            )
        from django.contrib import messages

        messages.error(request, exc.message)
        return redirect(f"{game.get_absolute_url()}#analysis")
    if _wants_json(request):
        return JsonResponse(services.status_payload(analysis), status=202)
    return redirect(f"{game.get_absolute_url()}#analysis")


@require_GET
def status(request: HttpRequest, game_id: int) -> JsonResponse:
    """The small JSON the page polls while an analysis is queued or running."""
    try:
        game = _game(request, game_id)
    except Http404:
        return JsonResponse(
            {"error": "not_found", "message": gettext("There is no such game.")}, status=404
        )
    services.recover_stale()
    return JsonResponse(services.status_payload(services.find(game)))


@require_GET
def panel(request: HttpRequest, game_id: int) -> HttpResponse:
    """The finished analysis as HTML (summary, chart, table), for the page to drop in."""
    game = _game(request, game_id)
    context = services.panel_context(game)
    return render(request, "analysis/_result.html", {"game": game, **context})
