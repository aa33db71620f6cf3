from allauth.account.admin import EmailAddressAdmin
from allauth.account.models import EmailAddress
from django import forms
from django.contrib import admin, messages
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from club import leaving
from club.models import AccountClosure, DataExport, GameResult, Player, Series
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
    actions = ["close_accounts"]

    def has_close_account_permission(self, request) -> bool:
        return request.user.has_perm("club.close_account")

    @admin.action(permissions=["close_account"], description=_("Close account"))
    def close_accounts(self, request, queryset):
        """Close the chosen members' accounts (club.leaving), after a confirmation page."""
        players = list(queryset.select_related("user"))
        if request.POST.get("confirm") != "yes":
            return TemplateResponse(
                request,
                "admin/club/close_accounts.html",
                {
                    **self.admin_site.each_context(request),
                    "title": _("Close these accounts?"),
                    "opts": self.model._meta,
                    "players": [(p, leaving.refusal(p)) for p in players],
                    "action": "close_accounts",
                    "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
                },
            )
        closed = 0
        for player in players:
            try:
                leaving.close_account(player, by_admin=request.user)
            except leaving.ServiceError as exc:
                self.message_user(request, f"{player}: {exc.message}", messages.ERROR)
            else:
                closed += 1
        if closed:
            self.message_user(
                request,
                ngettext("%(count)d account closed.", "%(count)d accounts closed.", closed)
                % {"count": closed},
                messages.SUCCESS,
            )
        return None


class RecordOnlyAdmin(admin.ModelAdmin):
    """A record to read: nobody adds, changes or deletes it here."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(DataExport)
class DataExportAdmin(RecordOnlyAdmin):
    """Members' data exports, for operators: state and dates, never the link or the file."""

    list_display = ["player", "state", "created", "ready_at", "expires", "size"]
    list_filter = ["state"]
    fields = list_display
    readonly_fields = list_display


@admin.register(AccountClosure)
class AccountClosureAdmin(RecordOnlyAdmin):
    """Who closed which account, when: nothing of what was deleted is here."""

    list_display = ["label", "player", "closed_at", "by", "closed_by"]
    list_filter = ["by"]
    date_hierarchy = "closed_at"
    fields = list_display
    readonly_fields = list_display


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
