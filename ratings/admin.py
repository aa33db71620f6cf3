"""Ratings are computed, never typed: read-only in the admin, with an action to rebuild."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ratings.models import Rating, RatingChange
from ratings.services import rebuild


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.action(description=_("Rebuild all ratings from the game results"), permissions=["rebuild"])
def rebuild_all(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
    games = rebuild()
    modeladmin.message_user(
        request,
        ngettext(
            "Rebuilt ratings from %(count)s game.", "Rebuilt ratings from %(count)s games.", games
        )
        % {"count": games},
        messages.SUCCESS,
    )


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("player", "family", "display", "games", "mu", "sigma", "updated")
    list_filter = ("family",)
    search_fields = ("player__display_name",)
    actions = [rebuild_all]

    def has_rebuild_permission(self, request: HttpRequest) -> bool:
        # Rebuilding deletes and recreates every rating row: superusers only.
        return request.user.is_active and request.user.is_superuser


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("result", "family", "rated", "display_before", "display_after")
    list_filter = ("family", "rated")
    raw_id_fields = ("result",)
