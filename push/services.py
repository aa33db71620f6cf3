"""Subscribing a member's device to push, and turning it off: what the views call."""

from __future__ import annotations

import re

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from club.models import Player
from push.endpoints import Refused, check_endpoint, check_keys
from push.models import Subscription

_BROWSERS = [
    ("Edge", r"Edg(e|A|iOS)?/"),
    ("Opera", r"OPR/|Opera"),
    ("Samsung Internet", r"SamsungBrowser/"),
    ("Firefox", r"Firefox/|FxiOS/"),
    ("Chrome", r"Chrome/|CriOS/|Chromium/"),
    ("Safari", r"Safari/"),
]
_SYSTEMS = [
    ("Android", r"Android"),
    ("iOS", r"iPhone|iPad|iPod"),
    ("Windows", r"Windows"),
    ("macOS", r"Mac OS X|Macintosh"),
    ("ChromeOS", r"CrOS"),
    ("Linux", r"Linux"),
]


def device_label(user_agent: str) -> str:
    """ "Firefox on Android": enough for a member to tell their devices apart."""
    browser = next((name for name, pattern in _BROWSERS if re.search(pattern, user_agent)), "")
    system = next((name for name, pattern in _SYSTEMS if re.search(pattern, user_agent)), "")
    return " · ".join(part for part in (browser, system) if part)[:80]


def subscribe(player: Player, data: object, user_agent: str = "") -> Subscription:
    """Store this device's subscription for `player`; Refused (nothing stored) if it may not be.

    The same endpoint again updates its keys. An endpoint another member stored
    is this browser's, now used by `player` (one subscription per browser): it
    moves to them, so the last member to turn push on there gets the pushes.
    """
    if not isinstance(data, dict):
        raise Refused("bad_request", _("Send the device's subscription as JSON."))
    endpoint = check_endpoint(data.get("endpoint"))
    p256dh, auth = check_keys(data.get("keys"))
    with transaction.atomic():
        # The member's row locked: two devices subscribing at once cannot both be the fifth.
        Player.objects.select_for_update().filter(pk=player.pk).first()
        existing = Subscription.objects.filter(endpoint=endpoint).first()
        mine = Subscription.objects.filter(player=player)
        if existing is None or existing.player_id != player.pk:
            limit = settings.PUSH_DEVICES_MAX
            if mine.count() >= limit:
                raise Refused(
                    "too_many_devices",
                    ngettext(
                        "Push is already on for %(n)s device: turn it off on one first.",
                        "Push is already on for %(n)s devices: turn it off on one first.",
                        limit,
                    )
                    % {"n": limit},
                )
        label = device_label(user_agent)
        if existing is None:
            return Subscription.objects.create(
                player=player, endpoint=endpoint, p256dh=p256dh, auth=auth, label=label
            )
        existing.player = player
        existing.p256dh, existing.auth, existing.label = p256dh, auth, label
        existing.save(update_fields=["player", "p256dh", "auth", "label"])
        return existing


def unsubscribe(player: Player, data: object) -> int:
    """Turn push off for one of the member's devices, by its endpoint or its id.

    Refused when the id or endpoint is not one of theirs: another member's
    device is never touched, and the answer does not say whether it exists.
    """
    if not isinstance(data, dict):
        raise Refused("bad_request", _("Send the device's subscription as JSON."))
    endpoint, pk = data.get("endpoint"), data.get("id")
    mine = Subscription.objects.filter(player=player)
    if isinstance(pk, int) and not isinstance(pk, bool):
        found = mine.filter(pk=pk)
    elif isinstance(endpoint, str) and endpoint:
        found = mine.filter(endpoint=endpoint)
    else:
        raise Refused("bad_request", _("Say which device to turn off."))
    deleted, _rows = found.delete()
    if not deleted:
        raise Refused("not_found", _("Push is not on for that device."))
    return deleted


def devices(player: Player) -> list[Subscription]:
    return list(Subscription.objects.filter(player=player).order_by("created", "pk"))
