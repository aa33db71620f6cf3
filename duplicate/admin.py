from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from duplicate.models import Board, DuplicateSeries, Round
from duplicate.services import close_round
from games.broadcast import publish_sync


class RoundFormSet(BaseInlineFormSet):
    """Round windows of one series may not overlap, also among the rounds of one save."""

    def clean(self) -> None:
        super().clean()
        windows = []
        for form in self.forms:
            data = getattr(form, "cleaned_data", None) or {}
            if not data or data.get("DELETE") or not data.get("starts") or not data.get("ends"):
                continue
            for number, starts, ends in windows:
                if data["starts"] < ends and starts < data["ends"]:
                    raise ValidationError(
                        gettext("Round %(a)s and round %(b)s overlap.")
                        % {"a": number, "b": data.get("number")}
                    )
            windows.append((data.get("number"), data["starts"], data["ends"]))


class RoundInline(admin.TabularInline):
    model = Round
    formset = RoundFormSet
    extra = 1
    fields = ["number", "starts", "ends", "boards", "closed"]
    readonly_fields = ["closed"]
    show_change_link = True


@admin.register(DuplicateSeries)
class DuplicateSeriesAdmin(admin.ModelAdmin):
    list_display = ["name", "variant", "seats", "bot_level", "min_boards", "shared_tables", "pace"]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name"]
    inlines = [RoundInline]


class BoardInline(admin.TabularInline):
    """The boards, read-only; a board's seed shows only once its round has closed."""

    model = Board
    extra = 0
    can_delete = False
    fields = ["number", "entrants", "seed_if_closed"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=_("entrants"))
    def entrants(self, board: Board) -> int:
        return board.plays.count()

    @admin.display(description=_("seed"))
    def seed_if_closed(self, board: Board) -> str:
        return str(board.seed) if board.round.is_closed else gettext("secret until closed")


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "starts", "ends", "boards", "closed"]
    list_filter = ["series"]
    readonly_fields = ["closed"]
    inlines = [BoardInline]
    actions = ["close_now"]

    # Closing a round ends every entrant's boards: staff who may change rounds only.
    @admin.action(
        permissions=["change"],
        description=_("Close round now (the house plays out unfinished boards)"),
    )
    def close_now(self, request, queryset) -> None:
        count = 0
        for round_ in queryset.filter(closed__isnull=True):
            publish_sync(close_round(round_.pk))
            count += 1
        self.message_user(
            request,
            ngettext("%(n)d round closed.", "%(n)d rounds closed.", count) % {"n": count},
            messages.SUCCESS,
        )
