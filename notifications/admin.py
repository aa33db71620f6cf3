"""Admin: notifications and the outbox (read only), and a moderator's message to members.

Writing to members is not reading notifications: the message needs its own
permission (`notifications.send_message`), and each message is kept with who
sent it (ClubMessage, read only) and logged in the admin history (LogEntry).
A notification about a table whose deals are withheld (a duplicate board while
its round is open, games.hooks) shows nobody its data, staff included: it names
the places of that board's game, as the games admin withholds its result.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import hooks
from games.models import Table
from games.services import ServiceError
from notifications import services
from notifications.forms import MessageForm
from notifications.models import ClubMessage, Notification, OutgoingMail, Preference

SEND_MESSAGE = "notifications.send_message"


def withheld(notification: Notification | None) -> bool:
    """Is this notification about a table whose deals and results are withheld for now?"""
    if notification is None or notification.table_id is None:
        return False
    rule = hooks.withheld_q()
    return rule is not None and Table.objects.filter(rule, pk=notification.table_id).exists()


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("created", "player", "kind", "table_id", "read_at", "mail_state")
    list_filter = ("kind", "mail_state")
    search_fields = ("player__display_name",)
    raw_id_fields = ("player", "mail")
    date_hierarchy = "created"
    change_list_template = "admin/notifications/notification/change_list.html"
    # What a withheld notification shows nobody (the places of a board's game).
    WITHHELD_FIELDS = ("data", "key")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_fields(self, request: HttpRequest, obj: Notification | None = None) -> list[str]:
        if not withheld(obj):
            return super().get_fields(request, obj)
        fields = [f.name for f in Notification._meta.fields if f.editable and not f.primary_key]
        return [f for f in fields if f not in self.WITHHELD_FIELDS] + ["withheld_note"]

    def get_readonly_fields(self, request: HttpRequest, obj: Notification | None = None):
        if withheld(obj):
            return self.get_fields(request, obj)  # nothing of it can be changed meanwhile
        return super().get_readonly_fields(request, obj)

    @admin.display(description=gettext_lazy("withheld"))
    def withheld_note(self, obj: Notification) -> str:
        return _(
            "A duplicate board whose round is open: what this notification says of its "
            "game is shown to nobody until the round closes."
        )

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None):
        extra = {**(extra_context or {}), "can_send_message": request.user.has_perm(SEND_MESSAGE)}
        return super().changelist_view(request, extra_context=extra)

    def get_urls(self) -> list:
        send = path(
            "message/",
            self.admin_site.admin_view(self.message_view),
            name="notifications_message",
        )
        return [send, *super().get_urls()]

    def message_view(self, request: HttpRequest) -> HttpResponse:
        """A moderator's message to chosen members (in the site, and by mail if they want it).

        Only with the permission to send it (view permission is not enough: 403); the
        message is kept with its sender and written to the admin history."""
        if not request.user.is_staff or not request.user.has_perm(SEND_MESSAGE):
            raise PermissionDenied
        form = MessageForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                message = services.send_message(
                    [p.pk for p in form.cleaned_data["members"]],
                    form.cleaned_data["text"],
                    sent_by=request.user,
                )
            except ServiceError as exc:
                form.add_error("text", exc.message)
            else:
                told = _("The message went to %(count)s member(s).") % {"count": message.recipients}
                self.log_addition(request, message, told)
                self.message_user(request, told, messages.SUCCESS)
                return redirect("admin:notifications_notification_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": _("Send a message to members"),
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/notifications/message.html", context)


@admin.register(ClubMessage)
class ClubMessageAdmin(admin.ModelAdmin):
    """The moderators' messages as sent: who, when, to how many (read only)."""

    list_display = ("created", "sent_by", "recipients", "text")
    list_select_related = ("sent_by",)
    search_fields = ("text",)
    date_hierarchy = "created"
    readonly_fields = ("created", "sent_by", "recipients", "text")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # sent from Notifications -> Send a message to members

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(OutgoingMail)
class OutgoingMailAdmin(admin.ModelAdmin):
    list_display = ("created", "player", "kind", "state", "attempts", "sent_at", "error")
    list_filter = ("state", "kind")
    search_fields = ("player__display_name", "key")
    # An account mail's texts hold one-time links (confirmation, password reset): never shown.
    exclude = ("body", "html")
    readonly_fields = [f.name for f in OutgoingMail._meta.fields if f.name not in ("body", "html")]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ("player", "kind", "channel", "enabled")
    list_filter = ("kind", "channel", "enabled")
    raw_id_fields = ("player",)
