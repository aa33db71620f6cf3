"""Small template helpers for the per-game pages (templates/games/detail/)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def index(items: Any, i: int) -> Any:
    """`items[i]`, or "" when there is no such entry: `{{ names|index:seat }}`."""
    try:
        return items[i]
    except (IndexError, KeyError, TypeError):
        return ""
