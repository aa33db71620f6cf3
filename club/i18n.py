"""The member's language: stored on their profile, it wins on any device.

Order (README, "Languages"): a signed-in member's `Player.language`, else the
`django_language` cookie the header picker sets, else the browser's
Accept-Language, else English. LocaleMiddleware handles the last three; this
module adds the first, for pages (middleware), for the picker (the member's
choice is saved) and for sign-in (a member with no stored choice keeps the
language they were browsing in).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
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
