"""Club nights in Django admin: the night, its entries, its rounds and their tables."""

from __future__ import annotations

from django.contrib import admin

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
