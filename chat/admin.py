"""Moderation in Django admin: reported messages with their context, hide, dismiss, ban, post.

Hiding a message tells every open page of its room at once (a `chat_hidden`
frame through the channel layer), after the change commits.
"""

from __future__ import annotations

import datetime
from functools import partial

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from chat import services
from chat.broadcast import publish_hidden_sync, publish_message_sync
from chat.models import ChatBan, ChatMessage, ChatReport
from chat.rooms import LOBBY, table_room
from club.models import Player


class ReportedFilter(admin.SimpleListFilter):
    title = _("reports")
    parameter_name = "reported"

    def lookups(self, request, model_admin):
        return [("open", _("Open reports")), ("any", _("Any report")), ("none", _("No report"))]

    def queryset(self, request, queryset):
        if self.value() == "open":
            return queryset.filter(reports__status=ChatReport.Status.OPEN).distinct()
        if self.value() == "any":
            return queryset.filter(reports__isnull=False).distinct()
        if self.value() == "none":
            return queryset.filter(reports__isnull=True)
        return queryset


class ReportInline(admin.TabularInline):
    model = ChatReport
    extra = 0
    can_delete = False
    fields = ["created", "reporter", "reason", "status"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class HousePostForm(forms.ModelForm):
    """An admin's message as the house: in a table's room, or the lobby's when no table."""

    class Meta:
        model = ChatMessage
        fields = ["table", "text"]
        help_texts = {
            "table": _("Leave empty to post in the lobby."),
            "text": _("Shown to everyone in the room as the house's message."),
        }

    def clean_text(self) -> str:
        text = services.clean_text(self.cleaned_data.get("text") or "")
        if not text:
            raise forms.ValidationError(_("Write something first."))
        return text


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["created", "room", "who", "body", "hidden", "open_reports"]
    list_filter = [ReportedFilter, "hidden", "house", "created"]
    search_fields = ["text", "author__display_name", "room"]
    list_select_related = ["author"]
    date_hierarchy = "created"
    actions = ["hide_messages", "dismiss_reports", "ban_authors_for_a_week"]
    inlines = [ReportInline]
    raw_id_fields = ["table"]
    readonly = [
        "created",
        "room",
        "table",
        "game",
        "who",
        "body",
        "hidden",
        "hidden_by",
        "conversation",
        "ban_link",
    ]

    def get_queryset(self, request):
        open_reports = Count("reports", filter=Q(reports__status=ChatReport.Status.OPEN))
        return super().get_queryset(request).annotate(open_report_count=open_reports)

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:  # adding: the house posts
            kwargs["form"] = HousePostForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        return ["table", "text"] if obj is None else self.readonly

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else self.readonly

    def get_inlines(self, request, obj):
        return [] if obj is None else self.inlines

    @admin.display(description=_("author"), ordering="author__display_name")
    def who(self, obj: ChatMessage) -> str:
        return obj.author.display_name if obj.author_id else str(_("the house"))

    @admin.display(description=_("message"))
    def body(self, obj: ChatMessage) -> str:
        return obj.body

    @admin.display(description=_("open reports"), ordering="open_report_count")
    def open_reports(self, obj: ChatMessage) -> int:
        return getattr(obj, "open_report_count", 0)

    @admin.display(description=_("conversation (before and after)"))
    def conversation(self, obj: ChatMessage) -> str:
        rows = [
            (
                "chat-context-this" if m.pk == obj.pk else "",
                timezone.localtime(m.created).strftime("%Y-%m-%d %H:%M:%S"),
                m.author.display_name if m.author_id else _("the house"),
                m.body,
                _(" (hidden)") if m.hidden else "",
            )
            for m in services.context(obj)
        ]
        # Everything escaped: members' words are text, here as on the site.
        return format_html(
            '<table class="chat-context">{}</table>',
            format_html_join(
                "",
                '<tr class="{}"><td>{}</td><th>{}</th><td>{}{}</td></tr>',
                rows,
            ),
        )

    @admin.display(description=_("chat ban"))
    def ban_link(self, obj: ChatMessage) -> str:
        if not obj.author_id:
            return "-"
        url = reverse("admin:chat_chatban_add") + f"?player={obj.author_id}"
        return format_html('<a href="{}">{}</a>', url, _("Ban this author from chat…"))

    def save_model(self, request, obj, form, change) -> None:
        if change:
            return  # a member's message is never edited, only hidden
        obj.room = table_room(obj.table_id) if obj.table_id else LOBBY
        obj.table_id, obj.game_id = services.room_links(obj.room)
        obj.house = True
        obj.author = None
        obj.save()
        message = services.message_dict(obj, None)
        transaction.on_commit(partial(publish_message_sync, message))

    @admin.action(permissions=["change"], description=_("Hide the selected messages"))
    def hide_messages(self, request, queryset) -> None:
        hidden = services.hide(queryset, request.user)
        for room, message_id in hidden:
            transaction.on_commit(partial(publish_hidden_sync, room, message_id))
        self.message_user(
            request,
            ngettext("%(n)d message hidden.", "%(n)d messages hidden.", len(hidden))
            % {"n": len(hidden)},
            messages.SUCCESS,
        )

    @admin.action(
        permissions=["change"], description=_("Dismiss the reports on the selected messages")
    )
    def dismiss_reports(self, request, queryset) -> None:
        count = services.dismiss_reports(queryset)
        self.message_user(
            request,
            ngettext("%(n)d report dismissed.", "%(n)d reports dismissed.", count) % {"n": count},
            messages.SUCCESS,
        )

    @admin.action(
        permissions=["add_ban"],
        description=_("Ban the selected messages' authors from chat for 7 days"),
    )
    def ban_authors_for_a_week(self, request, queryset) -> None:
        until = timezone.now() + datetime.timedelta(days=7)
        authors = {m.author for m in queryset.select_related("author") if m.author_id}
        for author in authors:
            services.ban(author, until, str(_("Reported messages")), request.user)
        self.message_user(
            request,
            ngettext(
                "%(n)d member banned from chat.", "%(n)d members banned from chat.", len(authors)
            )
            % {"n": len(authors)},
            messages.SUCCESS,
        )

    def has_add_ban_permission(self, request) -> bool:
        return request.user.has_perm("chat.add_chatban")


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ["created", "message_link", "reporter", "reason", "status"]
    list_filter = ["status", "created"]
    search_fields = ["reason", "reporter__display_name", "message__text"]
    list_select_related = ["reporter", "message__author"]
    readonly_fields = ["created", "message", "reporter", "reason", "status"]

    def has_add_permission(self, request) -> bool:
        return False

    @admin.display(description=_("message"))
    def message_link(self, obj: ChatReport) -> str:
        url = reverse("admin:chat_chatmessage_change", args=[obj.message_id])
        return format_html('<a href="{}">{}</a>', url, str(obj.message))


class ChatBanForm(forms.ModelForm):
    class Meta:
        model = ChatBan
        fields = ["player", "until", "reason"]

    def clean_until(self) -> datetime.datetime:
        until = self.cleaned_data["until"]
        # A new ban ends in the future; an existing one may be ended now.
        if self.instance.pk is None and until <= timezone.now():
            raise forms.ValidationError(_("A ban ends in the future."))
        return until


@admin.register(ChatBan)
class ChatBanAdmin(admin.ModelAdmin):
    form = ChatBanForm
    list_display = ["player", "until", "reason", "created", "created_by"]
    list_filter = ["until"]
    search_fields = ["player__display_name", "reason"]
    autocomplete_fields = ["player"]
    list_select_related = ["player", "created_by"]

    def get_changeform_initial_data(self, request) -> dict:
        """`?player=<id>` (the message page's ban link) fills the form in; an id that names
        no player is left out rather than breaking the form's member search."""
        initial = super().get_changeform_initial_data(request)
        player = str(initial.get("player", ""))
        if "player" in initial and not (
            player.isascii() and player.isdigit() and Player.objects.filter(pk=player).exists()
        ):
            del initial["player"]
        return initial

    def save_model(self, request, obj, form, change) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
