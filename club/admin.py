from allauth.account.admin import EmailAddressAdmin
from allauth.account.models import EmailAddress
from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from club.models import GameResult, Player, Series
from games.forms import paces_field
from games.i18n import lazy_format
from games.models import RateLimitEvent


class RateLimitEventInline(admin.TabularInline):
    """The member's latest rate-limit events (flood closes, refused sockets)."""

    LATEST = 20
    model = RateLimitEvent
    verbose_name_plural = lazy_format(_("recent rate-limit events (up to %(count)s)"), count=LATEST)
    extra = 0
    can_delete = False
    fields = ["created", "kind", "address", "detail"]
    readonly_fields = fields
    ordering = ["-created"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def get_queryset(self, request):
        player_id = request.resolver_match.kwargs.get("object_id")
        latest = RateLimitEvent.objects.filter(player_id=player_id).order_by("-created", "-pk")
        ids = list(latest.values_list("pk", flat=True)[: self.LATEST])
        return super().get_queryset(request).filter(pk__in=ids)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    inlines = [RateLimitEventInline]
    list_display = ["display_name", "user", "joined"]
    search_fields = ["display_name", "user__email"]
    readonly_fields = ["joined"]
    list_select_related = ["user"]


class ResultInline(admin.TabularInline):
    """The series' latest results, read-only (all of them would not fit a page)."""

    LATEST = 60
    verbose_name_plural = lazy_format(_("latest results (up to %(count)s)"), count=LATEST)
    model = GameResult
    extra = 0
    can_delete = False
    fields = ["finished", "game", "player", "place", "lost", "score", "game_figures"]
    readonly_fields = fields
    ordering = ["-finished", "seat"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=_("the game's figures"))
    def game_figures(self, result: GameResult) -> str:
        return ", ".join(f"{label}: {value}" for label, value in result.figures()) or "–"

    def get_queryset(self, request):
        series_id = request.resolver_match.kwargs.get("object_id")
        latest = GameResult.objects.filter(series_id=series_id).order_by("-finished", "-pk")
        ids = list(latest.values_list("pk", flat=True)[: self.LATEST])
        return super().get_queryset(request).filter(pk__in=ids).select_related("player", "game")


class SeriesForm(forms.ModelForm):
    paces = paces_field(
        False,
        _(
            "The paces a member may choose for a table of this series, among those "
            "its variant allows; none ticked: every pace the variant allows."
        ),
    )

    class Meta:
        model = Series
        fields = [
            "name",
            "slug",
            "variant",
            "scoring",
            "starts",
            "ends",
            "active",
            "min_games",
            "paces",
            "description",
        ]


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    form = SeriesForm
    list_display = ["name", "variant", "scoring", "starts", "ends", "active", "min_games"]
    list_filter = ["active", "scoring", "variant"]
    search_fields = ["name", "description"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "starts"
    inlines = [ResultInline]


class ClubEmailAddressAdmin(EmailAddressAdmin):
    """allauth's e-mail address admin, with its one action bound to the change permission.

    allauth declares no permission for "mark as verified", so any staff user
    who may merely view addresses could verify one (issue 22: every admin
    action declares its permission).
    """

    @admin.action(
        permissions=["change"], description=EmailAddressAdmin.make_verified.short_description
    )
    def make_verified(self, request, queryset) -> None:
        super().make_verified(request, queryset)


admin.site.unregister(EmailAddress)
admin.site.register(EmailAddress, ClubEmailAddressAdmin)
