"""Turning push on and off for a device: JSON posts from the notifications settings page.

Both need a signed-in member and Django's CSRF token (the X-CSRFToken header); a
refusal is a JSON error with a stable code and a message in the member's language,
and nothing is stored.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from push import services
from push.endpoints import Refused

BODY_MAX = 4096


def _error(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def _member_json(view: Callable[[HttpRequest, object], JsonResponse]):
    @require_POST
    def wrapped(request: HttpRequest) -> JsonResponse:
        if not request.user.is_authenticated:
            return _error("sign_in", _("Sign in to turn push on or off."), 403)
        if len(request.body) > BODY_MAX:
            return _error("body_too_long", _("This request is too long."), 413)
        try:
            data = json.loads(request.body)
        except (ValueError, UnicodeDecodeError):
            data = None
        try:
            return view(request, data)
        except Refused as exc:
            return _error(exc.code, str(exc.message), 404 if exc.code == "not_found" else 400)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


@_member_json
def subscribe(request: HttpRequest, data: object) -> JsonResponse:
    """Push on for this device: {"endpoint", "keys": {"p256dh", "auth"}} (a PushSubscription)."""
    subscription = services.subscribe(
        request.user.player, data, request.headers.get("User-Agent", "")
    )
    return JsonResponse({"id": subscription.pk, "label": subscription.label}, status=201)


@_member_json
def unsubscribe(request: HttpRequest, data: object) -> JsonResponse:
    """Push off for one device: {"endpoint"} (this one) or {"id"} (one of the member's list)."""
    services.unsubscribe(request.user.player, data)
    return JsonResponse({"ok": True})


@login_required
@require_POST
def device_off(request: HttpRequest, subscription_id: int) -> HttpResponse:
    """The settings page's list: push off for one of the member's devices (a plain form)."""
    try:
        services.unsubscribe(request.user.player, {"id": subscription_id})
    except Refused as exc:
        messages.error(request, str(exc.message))
    else:
        messages.success(request, _("Push is off for that device."))
    return redirect("notifications_preferences")
