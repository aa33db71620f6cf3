"""The member's language: stored on their profile, it wins on any device.

Order (README, "Languages"): a signed-in member's `Player.language`, else the
`django_language` cookie the header picker sets, else the browser's
Accept-Language, else English. LocaleMiddleware handles the last three; this
module adds the first, for pages (middleware), for the picker (the member's
choice is saved) and for sign-in (a member with no stored choice keeps the
language they were browsing in).
"""

from __future__ import annotations

import datetime
import zoneinfo
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import pgettext
from django.views.i18n import set_language as django_set_language

SUPPORTED = frozenset(code for code, _name in settings.LANGUAGES)


def supported(code: str | None) -> str | None:
    """`code` as one of the club's languages ("pt-br" -> None, "fr-CA" -> "fr"), or None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def member_language(user) -> str | None:
    """The stored language of a signed-in member (None for visitors and bots)."""
    if not getattr(user, "is_authenticated", False):
        return None
    player = getattr(user, "player", None)
    return supported(player.language) if player is not None else None


def language_from_scope(scope: dict) -> str:
    """A websocket's language: the member's, else the cookie, else Accept-Language.

    The websocket does not pass through LocaleMiddleware; this is the same
    order, read from the handshake.
    """
    stored = member_language(scope.get("user"))
    if stored:
        return stored
    cookie = supported(scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME))
    if cookie:
        return cookie
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            header = value.decode("latin-1")
            for code, _q in translation.trans_real.parse_accept_lang_header(header):
                if code == "*":
                    break
                found = supported(code)
                if found:
                    return found
            break
    return settings.LANGUAGE_CODE


class MemberLanguageMiddleware:
    """After AuthenticationMiddleware: a signed-in member's stored language wins.

    The cookie follows the profile, so the table's websocket and a later
    visit after signing out speak the same language.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        stored = member_language(request.user)
        if stored and stored != request.LANGUAGE_CODE:
            translation.activate(stored)
            request.LANGUAGE_CODE = stored
        response = self.get_response(request)
        if stored and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != stored:
            set_language_cookie(response, stored)
        return response


def set_language_cookie(response: HttpResponse, code: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language (POST, no JavaScript, back to the page), saved on the profile."""
    response = django_set_language(request)
    chosen = supported(request.POST.get("language"))
    if request.method == "POST" and chosen and request.user.is_authenticated:
        player = getattr(request.user, "player", None)
        if player is not None and player.language != chosen:
            player.language = chosen
            player.save(update_fields=["language"])
    return response


@receiver(user_logged_in)
def remember_language_on_login(sender, request, user, **kwargs) -> None:
    """A member with no stored language keeps the one they were browsing in."""
    player = getattr(user, "player", None)
    if player is None or request is None or player.language:
        return
    # The language LocaleMiddleware chose for this request; a login made
    # outside a request (force_login, a script) stores nothing.
    current = supported(getattr(request, "LANGUAGE_CODE", None))
    if current:
        player.language = current
        player.save(update_fields=["language"])


# ---------------------------------------------------------------------------
# Time zones: the browser says its own (static/js/time-zone.js sets this cookie);
# pages show a member's times in it, mails in the one last stored on the profile.
# Nothing is activated for the request: away days and the club's calendar stay in
# the club's TIME_ZONE; only the times a member reads are converted.

TIME_ZONE_COOKIE = "club_tz"


def time_zone(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The zone an IANA name names, or None for anything else (never raises)."""
    if not name or len(name) > 64:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return None


def member_time_zone(player) -> datetime.tzinfo:
    """A member's stored time zone, else the club's."""
    return time_zone(getattr(player, "time_zone", "")) or timezone.get_default_timezone()


class MemberTimeZoneMiddleware:
    """After AuthenticationMiddleware: `request.viewer_time_zone`, kept on the profile.

    The browser's zone (the cookie), else a signed-in member's stored one, else
    None (the club's). A member's profile follows their browser, so their mail
    speaks of the same clock as their pages.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        name = request.COOKIES.get(TIME_ZONE_COOKIE, "")
        zone = time_zone(name)
        user = getattr(request, "user", None)
        player = getattr(user, "player", None) if getattr(user, "is_authenticated", False) else None
        if zone is not None and player is not None and player.time_zone != name:
            player.time_zone = name
            type(player).objects.filter(pk=player.pk).update(time_zone=name)
        if zone is None and player is not None:
            zone = time_zone(player.time_zone)
        request.viewer_time_zone = zone
        return self.get_response(request)


def viewer_time_zone(request: HttpRequest | None) -> datetime.tzinfo:
    """The zone the request's reader is in (the club's when unknown)."""
    return getattr(request, "viewer_time_zone", None) or timezone.get_default_timezone()


def day_month_year_time(moment: datetime.datetime, zone: datetime.tzinfo) -> str:
    """A moment in `zone`, as the language writes it ("6 dic 2026, 03:23")."""
    return date_format(
        timezone.localtime(moment, zone),
        pgettext("date format: day, month, year, time", "j M Y, H:i"),
    )


def day_month(day: datetime.date) -> str:
    """A day without a year, as the language writes it ("9 dic", "9 декабря")."""
    return date_format(day, pgettext("date format: day, month", "j M"))
