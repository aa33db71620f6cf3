"""Django admin for variants, tables and games."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import hooks, registry, services
from games.broadcast import publish_sync
from games.forms import paces_field
from games.i18n import lazy_format
from games.models import (
    MIN_TURN_SECONDS,
    Absence,
    Game,
    Move,
    RateLimitEvent,
    Seat,
    Table,
    Variant,
)
from games.paces import all_paces


def option_field(option: registry.Option) -> forms.Field:
    """The admin form field of one option a game declares (games.registry.Option)."""
    common = {"label": option.label, "help_text": option.help, "initial": option.default}
    if option.kind == "bool":
        return forms.BooleanField(required=False, **common)
    if option.kind == "choice":
        return forms.ChoiceField(choices=option.choices, **common)
    # No min/max validators: the registry's check says what is wrong, in the game's words.
    limits = {k: v for k, v in (("min", option.min), ("max", option.max)) if v is not None}
    return forms.IntegerField(widget=forms.NumberInput(attrs=limits), **common)


class VariantForm(forms.ModelForm):
    """A variant's fields, then the rules of its game (`for_game` adds that game's options)."""

    game_key: str | None = None
    option_names: tuple[str, ...] = ()
    paces = paces_field(
        False,
        _(
            "The paces a member may choose when opening a table: live (the turn clock "
            "above) or turn-based (hours or days a move); none ticked: every pace."
        ),
    )

    class Meta:
        model = Variant
        fields = ["name", "game", "description", "active", "min_players", "max_players"]
        fields += ["turn_seconds", "paces"]
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

    @classmethod
    def for_game(cls, key: str | None) -> type[VariantForm]:
        """This form with the option fields of game `key` (none for an unknown game)."""
        if key not in dict(registry.game_choices()):
            return cls
        schema = registry.engine(key).option_schema
        clash = {o.name for o in schema} & {f.name for f in Variant._meta.get_fields()}
        if clash:
            raise ImproperlyConfigured(f"Options named like Variant fields: {sorted(clash)}.")
        attrs = {o.name: option_field(o) for o in schema}
        attrs |= {"game_key": key, "option_names": tuple(o.name for o in schema)}
        return type(f"VariantForm_{key}", (cls,), attrs)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk and self.instance.game == self.game_key:
            for name in self.option_names:
                if name in self.instance.options:
                    self.fields[name].initial = self.instance.options[name]

    def clean_paces(self) -> list[str]:
        return self.cleaned_data.get("paces") or all_paces()

    def clean(self) -> dict:
        data = super().clean()
        if self.game_key is None or data.get("game") != self.game_key:
            return data
        engine = registry.engine(self.game_key)
        # Until the options are valid the instance keeps valid ones, so the
        # model's own check (Variant.clean) does not say the same thing twice.
        self.instance.options = engine.default_options()
        if any(name in self.errors for name in self.option_names):
            return data
        try:
            self.instance.options = engine.clean_options(
                {name: data[name] for name in self.option_names if name in data}
            )
        except registry.OptionsError as exc:
            for name, messages in exc.errors.items():
                self.add_error(name if name in self.fields else None, messages)
        return data


@admin.register(Variant)
class VariantAdmin(admin.ModelAdmin):
    """Choose the game first (without JavaScript, a page of its own), then set its rules.

    The option fields come from the game's registry entry; games/admin knows no game.
    """

    form = VariantForm
    list_display = ["name", "game", "rules", "min_players", "max_players", "turn_seconds"]
    list_display += ["active"]
    list_filter = ["game", "active"]
    search_fields = ["name"]

    class Media:
        js = ["js/admin/variant_game.js"]

    def _game(self, request: HttpRequest, obj: Variant | None) -> str | None:
        key = request.POST.get("game") or (obj.game if obj else request.GET.get("game"))
        return key if key in dict(registry.game_choices()) else None

    @admin.display(description=_("rules"))
    def rules(self, variant: Variant) -> str:
        return "; ".join(str(line) for line in variant.engine.rules_in_force(variant.options))

    def get_form(self, request: HttpRequest, obj: Variant | None = None, change=False, **kwargs):
        kwargs["form"] = self.form.for_game(self._game(request, obj))
        return super().get_form(request, obj, change, **kwargs)

    def get_fieldsets(self, request: HttpRequest, obj: Variant | None = None) -> list:
        key = self._game(request, obj)
        options = list(registry.engine(key).option_fields) if key else []
        fieldsets = [(None, {"fields": ["name", "game", "description", "active"]})]
        if options:
            label = _("Rules of %(game)s") % {"game": registry.engine(key).label}
            fieldsets.append((label, {"fields": options}))
        fieldsets += [
            (_("Players"), {"fields": ["min_players", "max_players"]}),
            (_("Turn clock"), {"fields": ["turn_seconds", "paces"]}),
        ]
        return fieldsets

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context=None):
        if request.method == "GET" and self._game(request, None) is None:
            return TemplateResponse(
                request,
                "admin/games/variant/choose_game.html",
                {
                    **self.admin_site.each_context(request),
                    "title": _("Add variant: choose the game"),
                    "games": registry.game_choices(),
                    "opts": self.model._meta,
                    "has_view_permission": self.has_view_permission(request),
                },
            )
        return super().add_view(request, form_url, extra_context)


@admin.register(Absence)
class AbsenceAdmin(admin.ModelAdmin):
    """Members' declared away days (their turn-based clocks stop meanwhile)."""

    list_display = ["player", "starts", "ends", "created"]
    search_fields = ["player__display_name"]
    date_hierarchy = "starts"
    list_select_related = ["player"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["position", "player", "missed"]
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
    list_display = ["__str__", "status", "pace", "series", "seat_count", "private", "created_by"]
    list_display += ["created"]
    list_filter = ["status", "pace", "variant", "series", "private"]
    search_fields = ["seats__player__display_name", "created_by__display_name"]
    readonly_fields = ["variant", "created_by", "seat_count", "status", "pace", "version"]
    readonly_fields += ["abort_reason"]
    fields = [*readonly_fields, "series", "private"]
    list_select_related = ["variant", "series", "created_by"]
    inlines = [SeatInline]
    actions = ["abort"]

    def has_add_permission(self, request) -> bool:
        return False  # tables are opened by members in the lobby

    # Aborting changes tables: staff who may only view them get no such action.
    @admin.action(
        description=_("Abort the selected tables (no results are recorded)"),
        permissions=["change"],
    )
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
    # What a withheld game (a duplicate board while its round is open, games.hooks)
    # shows nobody, staff included: the seed deals the whole game, the state holds
    # every hand, and the result and moves tell how the board went.
    WITHHELD_FIELDS = ("seed", "state", "result", "resigned", "simultaneous_since")

    def _withheld(self, obj: Game | None) -> bool:
        return obj is not None and hooks.deal_withheld(obj.table)

    def get_fields(self, request, obj=None):
        fields = [f.name for f in Game._meta.fields]
        if self._withheld(obj):
            return [f for f in fields if f not in self.WITHHELD_FIELDS] + ["withheld"]
        return fields

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    def get_inlines(self, request, obj):
        return [] if self._withheld(obj) else self.inlines

    @admin.display(description=_("withheld"))
    def withheld(self, obj: Game) -> str:
        return _(
            "A duplicate board whose round is open: its seed, cards, moves and result are "
            "shown to nobody until the round closes."
        )

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # a game's record is evidence: read-only


@admin.register(RateLimitEvent)
class RateLimitEventAdmin(admin.ModelAdmin):
    """Recent flood closes and refused sockets, per member (games/socket_limits.py)."""

    list_display = ["created", "kind", "player", "address", "detail"]
    list_filter = ["kind", "created"]
    search_fields = ["player__display_name", "address"]
    list_select_related = ["player"]
    date_hierarchy = "created"

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
