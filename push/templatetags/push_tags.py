"""{% push_settings as push %}: what the notifications settings page shows about push.

A template tag, so that the notifications page (a layer below push) includes
push's part without importing it.
"""

from __future__ import annotations

from django import template

from push import keys, services

register = template.Library()


@register.simple_tag(takes_context=True)
def push_settings(context) -> dict:
    request = context.get("request")
    configured = keys.configured()
    user = getattr(request, "user", None)
    devices = services.devices(user.player) if configured and user and user.is_authenticated else []
    try:
        public_key = keys.public_key() if configured else ""
    except ValueError:
        configured, public_key = False, ""
    return {"configured": configured, "public_key": public_key, "devices": devices}
