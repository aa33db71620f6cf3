"""Members for in-process tests: a real user (signals make the Player) with a chosen name."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from club.models import Player


def member(name: str, **extra) -> Player:
    """`extra`: more fields of the user (is_staff=True, ...)."""
    user = get_user_model().objects.create_user(
        name.lower(), f"{name.lower()}@example.com", "pw", **extra
    )
    user.player.display_name = name
    user.player.save()
    return user.player
