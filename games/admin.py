"""Django admin for variants, tables and games."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import services
from games.broadcast import publish_sync
from games.i18n import lazy_format
from games.models import MIN_TURN_SECONDS, Game, Move, Seat, Table, Variant


class VariantForm(forms.ModelForm):
    class Meta:
        model = Variant
        fields = [
            "name",
            "game",
            "description",
            "active",
            "keft",
            "pass_rule",
            "column_rule",
            "rounds",
            "min_players",
            "max_players",
            "turn_seconds",
        ]
        # Here rather than on the model field, so the minimum needs no migration.
        help_texts = {
            "turn_seconds": lazy_format(
                _(
                    "Seconds a player has for each move, at least %(seconds)s; "
                    "empty means no clock. When the time runs out, the house bot plays a card "
                    "for that player (marked in the log)."
                ),
                seconds=MIN_TURN_SECONDS,
            )
        }


@admin.register(Variant)
class VariantAdmin(admin.ModelAdmin):
    form = VariantForm
    list_display = [
        "name",
        "game",
        "keft",
        "pass_rule",
        "min_players",
        "max_players",
        "turn_seconds",
        "active",
    ]
    list_filter = ["game", "keft", "active"]
    search_fields = ["name"]
    fieldsets = [
        (None, {"fields": ["name", "game", "description", "active"]}),
        (_("Devyatka rules"), {"fields": ["keft", "pass_rule"]}),
        (_("Golf rules"), {"fields": ["column_rule", "rounds"]}),
        ("Players", {"fields": ["min_players", "max_players"]}),
        (_("Turn clock"), {"fields": ["turn_seconds"]}),
    ]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["position", "player"]
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class AbortForm(forms.Form):
    reason = forms.CharField(
        max_length=200,
        help_text=_("Shown to the players at the table."),
        widget=forms.TextInput(attrs={"size": 60}),
    )


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "series", "seat_count", "private", "created_by", "created"]
    list_filter = ["status", "variant", "series", "private"]
    search_fields = ["seats__player__display_name", "created_by__display_name"]
    readonly_fields = ["variant", "created_by", "seat_count", "status", "version", "abort_reason"]
    fields = [*readonly_fields, "series", "private"]
    list_select_related = ["variant", "series", "created_by"]
    inlines = [SeatInline]
    actions = ["abort"]

    def has_add_permission(self, request) -> bool:
        return False  # tables are opened by members in the lobby

    @admin.action(description=_("Abort the selected tables (no results are recorded)"))
    def abort(self, request, queryset):
        form = AbortForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            aborted = 0
            for table in queryset:
                try:
                    update = services.abort_table(table.pk, form.cleaned_data["reason"])
                except services.ServiceError as exc:
                    self.message_user(request, f"{table}: {exc.message}", messages.WARNING)
                else:
                    publish_sync([update])
                    aborted += 1
            if aborted:
                self.message_user(
                    request,
                    ngettext(
                        "Aborted %(count)s table; the players were told.",
                        "Aborted %(count)s tables; the players were told.",
                        aborted,
                    )
                    % {"count": aborted},
                )
            return None
        return TemplateResponse(
            request,
            "admin/games/table/abort.html",
            {
                **self.admin_site.each_context(request),
                "title": _("Abort tables"),
                "tables": queryset,
                "form": form,
                "opts": self.model._meta,
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
            },
        )


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    can_delete = False
    readonly_fields = ["number", "seat", "move", "created"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "game", "started", "finished"]
    list_filter = ["game", "finished"]
    search_fields = ["table__id"]
    inlines = [MoveInline]

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in Game._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # a game's record is evidence: read-only
