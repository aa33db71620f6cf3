"""Club nights in Django admin: the night, its entries, its rounds and their tables."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from events import running
from events.models import Entry, Event, Round, RoundTable


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["player", "status", "created", "seen"]
    readonly_fields = ["created", "seen"]
    autocomplete_fields = ["player"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "variant", "pace", "starts", "rounds", "status"]
    list_filter = ["status", "variant"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["status"]
    inlines = [EntryInline]
    actions = ["start_now", "seat_next_now", "cancel"]

    def _done(self, request, count: int) -> None:
        self.message_user(
            request,
            ngettext("%(n)d club night changed.", "%(n)d club nights changed.", count)
            % {"n": count},
            messages.SUCCESS if count else messages.WARNING,
        )

    @admin.action(permissions=["change"], description=_("Start now (the club seats round 1)"))
    def start_now(self, request, queryset) -> None:
        count = 0
        for event in queryset.filter(status=Event.Status.SCHEDULED):
            running.publish(running.start(event.pk))
            count += 1
        self._done(request, count)

    @admin.action(
        permissions=["change"],
        description=_("Seat the next round now (the club plays out the current one)"),
    )
    def seat_next_now(self, request, queryset) -> None:
        count = 0
        for event in queryset.filter(status=Event.Status.RUNNING):
            running.publish(running.seat_next(event.pk))
            count += 1
        self._done(request, count)

    @admin.action(permissions=["change"], description=_("Cancel (the members are told)"))
    def cancel(self, request, queryset) -> None:
        count = 0
        for event in queryset.exclude(status__in=[Event.Status.FINISHED, Event.Status.CANCELLED]):
            running.publish(running.cancel(event.pk))
            count += 1
        self._done(request, count)


class RoundTableInline(admin.TabularInline):
    model = RoundTable
    extra = 0
    can_delete = False
    fields = ["number", "table", "players", "bots", "finished"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "seated", "deadline", "finished"]
    list_filter = ["event"]
    readonly_fields = ["event", "number", "deadline", "finished"]
    inlines = [RoundTableInline]

    def has_add_permission(self, request) -> bool:
        return False
