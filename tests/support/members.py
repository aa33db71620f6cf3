"""Members for in-process tests: a real user (signals make the Player) with a chosen name."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from club.models import Player


def member(name: str, verified: bool = True, **extra) -> Player:
    """`extra`: more fields of the user (is_staff=True, ...). `verified`: the member
    confirmed their address (allauth's primary EmailAddress), as nearly every member has;
    only a confirmed primary address is ever mailed (notifications.mailer)."""
    email = f"{name.lower()}@example.com"
    user = get_user_model().objects.create_user(name.lower(), email, "pw", **extra)
    EmailAddress.objects.create(user=user, email=email, primary=True, verified=verified)
    user.player.display_name = name
    user.player.save()
    return user.player
