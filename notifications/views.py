"""The notifications pages: the list, preferences, invitations, one-click unsubscribe."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from club import i18n
from games.services import ServiceError
from notifications import kinds, mailer, services
from notifications import render as shown
from notifications.forms import InviteForm, PreferencesForm

PER_PAGE = 30


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    player = request.user.player
    page = Paginator(services.visible(player), PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "notifications/list.html",
        {
            "page": page,
            "items": shown.shown(list(page.object_list), i18n.viewer_time_zone(request)),
            "unread": services.unread_count(player),
        },
    )


def unread(request: HttpRequest) -> JsonResponse:
    """The bell's count, for a page whose lobby socket reconnected (bell.js)."""
    if not request.user.is_authenticated:
        return JsonResponse({"unread": 0})
    return JsonResponse({"unread": services.unread_count(request.user.player)})


@login_required
@require_POST
def mark_read(request: HttpRequest, notification_id: int) -> HttpResponse:
    try:
        services.mark_read(request.user.player, notification_id)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("notifications")


@login_required
def open_notification(request: HttpRequest, notification_id: int) -> HttpResponse:
    """Follow a notification's link, marking it read on the way."""
    try:
        notification = services.mark_read(request.user.player, notification_id)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("notifications")
    return redirect(shown.path(notification) or "notifications")


@login_required
@require_POST
def mark_all_read(request: HttpRequest) -> HttpResponse:
    services.mark_all_read(request.user.player)
    return redirect("notifications")


@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    player = request.user.player
    form = PreferencesForm(
        request.POST or None,
        current=services.all_preferences(player),
        strangers=services.mail_from_strangers(player),
        push=bool(settings.PUSH_VAPID_PRIVATE_KEY),
    )
    if request.method == "POST" and form.is_valid():
        for key, channel, enabled in form.choices():
            services.set_preference(player, key, channel, enabled)
        services.set_mail_from_strangers(player, form.cleaned_data[form.STRANGERS_FIELD])
        messages.success(request, _("Your notification settings are saved."))
        return redirect("notifications_preferences")
    return render(
        request,
        "notifications/preferences.html",
        # Mail goes only to a confirmed primary address: say so to a member without one.
        {
            "form": form,
            "mail_unconfirmed": not mailer.addresses([player.pk]),
            "push": bool(settings.PUSH_VAPID_PRIVATE_KEY),
        },
    )


@login_required
@require_POST
def invite(request: HttpRequest, table_id: int) -> HttpResponse:
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Write the name of the member to invite."))
    else:
        try:
            guest = services.invite(request.user.player, table_id, form.cleaned_data["name"])
        except ServiceError as exc:
            if exc.code == "not_found":
                raise Http404(exc.message) from None
            messages.error(request, exc.message)
        else:
            messages.success(request, _("%(name)s is invited.") % {"name": guest.display_name})
    return redirect("table", table_id=table_id)


@csrf_exempt  # RFC 8058: the mail client posts "List-Unsubscribe=One-Click", no form, no session
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    found = shown.read_unsubscribe_token(token)
    if found is None:
        return render(request, "notifications/unsubscribe_bad.html", status=400)
    player_id, kind_key = found
    kind = kinds.get(kind_key)
    # The link is opened from a mail, often in a browser without the site's cookie:
    # the token names the member, so the page speaks their stored language.
    language = services.member_language(player_id) or translation.get_language()
    with translation.override(language):
        if request.method == "GET":
            return render(request, "notifications/unsubscribe.html", {"kind": kind, "token": token})
        if services.unsubscribe(player_id, kind_key) is None:
            return render(request, "notifications/unsubscribe_bad.html", status=404)
        return render(request, "notifications/unsubscribe.html", {"kind": kind, "done": True})
