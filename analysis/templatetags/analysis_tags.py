"""The analysis panel on a finished game's page and the summary line on a player's page."""

from __future__ import annotations

from typing import Any

from django import template

from analysis import services

register = template.Library()


def _viewer(context: Any) -> Any:
    request = context.get("request")
    user = getattr(request, "user", None)
    return user.player if user is not None and user.is_authenticated else None


@register.inclusion_tag("analysis/_panel.html", takes_context=True)
def analysis_panel(context: Any, game: Any) -> dict:
    """The whole analysis section of a game page (nothing if the viewer may not see it)."""
    viewer = _viewer(context)
    if not services.open_to(game, viewer) or not services.analysable(game):
        return {"show": False}
    return {
        "show": True,
        "game": game,
        "viewer": viewer,
        "request": context.get("request"),
        **services.panel_context(game),
    }


@register.simple_tag(takes_context=True)
def analysis_summary(context: Any, game: Any, player: Any) -> str:
    """The player's summary line of a game's finished analysis, or ""."""
    if not services.open_to(game, _viewer(context)):
        return ""
    return services.player_summary(game, player)
