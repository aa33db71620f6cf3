"""The table's conversation on a finished game's page (the page already checked who may see it)."""

from __future__ import annotations

from django import template

from chat import services
from chat.models import PHRASE_CHOICES

register = template.Library()


@register.inclusion_tag("chat/_game_chat.html", takes_context=True)
def game_chat(context: template.Context, game) -> dict:
    user = getattr(context.get("request"), "user", None)
    player = getattr(user, "player", None) if user is not None and user.is_authenticated else None
    phrases = dict(PHRASE_CHOICES)
    messages = [
        {**m, "phrase_text": phrases.get(m["phrase"], "")}
        for m in services.game_messages(game, player.pk if player else None)
    ]
    return {"chat_messages": messages}


@register.simple_tag
def chat_limits() -> dict:
    """The limits in force, for the pages that describe them."""
    from django.conf import settings

    return {"length": settings.CHAT_MAX_LENGTH, "per_minute": settings.CHAT_PER_MINUTE}
