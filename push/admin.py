"""Admin: members' push subscriptions (one a device), to see which devices get pushes and
to remove one.

Read only but for deleting: a device's row is what its browser gave (push/services.py
stores it), so staff can only remove it (the member turns push on again from that
device). Its secrets are never shown: the endpoint is a capability URL (whoever has
it can push to the device) and `auth` is the device's encryption secret, so the
list and the page show the push service's host and the first characters of the
public key, nothing more.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from push.models import Subscription


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin):
    list_display = (
        "player",
        "label",
        "created",
        "last_sent",
        "last_failure",
        "last_error",
        "push_service",
    )
    list_select_related = ("player",)
    search_fields = ("player__display_name", "label")
    date_hierarchy = "created"
    # The secrets (endpoint, p256dh, auth) are never fields of the page.
    fields = (
        "player",
        "label",
        "created",
        "last_sent",
        "last_failure",
        "last_error",
        "push_service",
        "key_hint",
    )
    readonly_fields = fields
    # Deleting: the site's own "delete selected" action (delete permission), nothing else.

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a browser subscribes itself (the notifications settings page)

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.display(description=_("push service"))
    def push_service(self, obj: Subscription) -> str:
        return (urlsplit(obj.endpoint).hostname or "").lower()

    @admin.display(description=_("device key"))
    def key_hint(self, obj: Subscription) -> str:
        # The public key's first characters, enough to tell two rows apart.
        return f"{obj.p256dh[:8]}…" if obj.p256dh else ""
