"""Admin: members' push subscriptions (one a device), to see which devices get pushes and
to remove one; and the pushes themselves (read only), to answer "why did my phone not
ring?": each notification's push to each device, its state, and why one was not sent.

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

from push.models import PushMessage, Subscription


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


# Why a notification was not pushed (push/sender.py sets these codes), as staff read it.
SKIP_REASONS = {
    "off": _("push turned off for this kind"),
    "site_only": _("shown on the site only"),
    "seen": _("already read"),
    "online": _("online at the time"),
    "expired": _("out of date before it could go"),
    "no_device": _("no device"),
    "replaced": _("replaced by a newer turn"),
}


class WhyFilter(admin.SimpleListFilter):
    title = _("why not pushed")
    parameter_name = "why"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list:
        return list(SKIP_REASONS.items())

    def queryset(self, request: HttpRequest, queryset):
        return queryset.filter(reason=self.value()) if self.value() else queryset


@admin.register(PushMessage)
class PushMessageAdmin(admin.ModelAdmin):
    """The push outbox, read only, as the mail outbox is (notifications.admin)."""

    list_display = (
        "created",
        "player",
        "notification_kind",
        "device",
        "state",
        "why",
        "attempts",
        "sent_at",
        "error",
    )
    list_filter = ("state", WhyFilter)
    list_select_related = ("player", "notification", "subscription")
    search_fields = ("player__display_name",)
    date_hierarchy = "created"
    # The device by its label only: its row's secrets stay on no page (see above).
    fields = (
        "created",
        "player",
        "notification",
        "device",
        "state",
        "why",
        "topic",
        "expires",
        "attempts",
        "next_try",
        "sent_at",
        "error",
    )
    readonly_fields = fields
    # Deleting follows the permission: a device deleted above takes its pushes along.

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the worker writes them (push/sender.py)

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.display(description=_("kind"), ordering="notification__kind")
    def notification_kind(self, obj: PushMessage) -> str:
        info = obj.notification.kind_info
        return str(info.label) if info is not None else obj.notification.kind

    @admin.display(description=_("device"))
    def device(self, obj: PushMessage) -> str:
        if obj.subscription is None:
            return "-"
        return obj.subscription.label or _("device %(number)s") % {"number": obj.subscription_id}

    @admin.display(description=_("why not pushed"), ordering="reason")
    def why(self, obj: PushMessage) -> str:
        return str(SKIP_REASONS.get(obj.reason, obj.reason))
