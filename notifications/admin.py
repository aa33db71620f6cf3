"""Admin: notifications and the outbox (read only), and a moderator's message to members."""

from __future__ import annotations

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext as _

from games.services import ServiceError
from notifications import services
from notifications.forms import MessageForm
from notifications.models import Notification, OutgoingMail, Preference


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("created", "player", "kind", "table_id", "read_at", "mail_state")
    list_filter = ("kind", "mail_state")
    search_fields = ("player__display_name",)
    raw_id_fields = ("player", "mail")
    date_hierarchy = "created"
    change_list_template = "admin/notifications/notification/change_list.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_urls(self) -> list:
        send = path(
            "message/",
            self.admin_site.admin_view(self.message_view),
            name="notifications_message",
        )
        return [send, *super().get_urls()]

    def message_view(self, request: HttpRequest) -> HttpResponse:
        """A moderator's message to chosen members (in the site, and by mail if they want it)."""
        if not self.has_view_permission(request) or not request.user.is_staff:
            return redirect("admin:index")
        form = MessageForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                told = services.send_message(
                    [p.pk for p in form.cleaned_data["members"]], form.cleaned_data["text"]
                )
            except ServiceError as exc:
                form.add_error("text", exc.message)
            else:
                self.message_user(
                    request,
                    _("The message went to %(count)s member(s).") % {"count": told},
                    messages.SUCCESS,
                )
                return redirect("admin:notifications_notification_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": _("Send a message to members"),
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/notifications/message.html", context)


@admin.register(OutgoingMail)
class OutgoingMailAdmin(admin.ModelAdmin):
    list_display = ("created", "player", "kind", "state", "attempts", "sent_at", "error")
    list_filter = ("state", "kind")
    search_fields = ("player__display_name", "key")
    readonly_fields = [f.name for f in OutgoingMail._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ("player", "kind", "channel", "enabled")
    list_filter = ("kind", "channel", "enabled")
    raw_id_fields = ("player",)
