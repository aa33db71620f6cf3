"""The player page's ratings block: {% player_ratings profile %}."""

from __future__ import annotations

from django import template
from django.conf import settings

from club.models import Player
from ratings.stats import last_games, player_lines

register = template.Library()


@register.inclusion_tag("ratings/_player_ratings.html", takes_context=True)
def player_ratings(context: template.Context, profile: Player) -> dict:
    request = context.get("request")
    user = getattr(request, "user", None)
    viewer = user.player if user is not None and user.is_authenticated else None
    return {
        "profile": profile,
        "lines": player_lines(profile),
        "last": last_games(profile, viewer),
        "provisional_games": settings.RATING_PROVISIONAL_GAMES,
    }


@register.simple_tag
def provisional_games() -> int:
    """Rated games before a rating stops being provisional (the rules page says it)."""
    return settings.RATING_PROVISIONAL_GAMES
