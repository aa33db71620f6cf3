"""The club as an installable app: its web app manifest, service worker and offline page.

The service worker (push/templates/push/sw.js) is deliberately modest, because a
card table must never be shown from a copy:

- static files with a hashed name (collectstatic's `name.0123456789ab.css`) are
  served from its cache first: a hashed name never changes its content;
- a page (a navigation) always comes from the network; only when the network
  fails does it answer with the offline page, pre-cached for every language at
  install (it names no member and shows no table), in the language of the last
  page the worker fetched (its Content-Language, learnt as it arrives), or that
  the first page, which came before the worker, told it (pwa.js), else the
  browser's;
- nothing else is touched: private pages, JSON, websockets go to the network as
  if there were no worker.

It also shows push notifications and opens their table on a click (push/sender.py).
Served from the site's root so that its scope is every page, with no-cache so
that a new deployment's worker is picked up at the next visit: its text names
the hashed files it pre-caches, so it changes whenever they do.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

THEME_COLOR = "#0f5132"  # the header's felt green (static/css/site.css, --felt)
BACKGROUND_COLOR = "#fbfaf7"  # the pages' paper (--paper)

ICONS = [
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/maskable-192.png", "192x192", "maskable"),
    ("icons/maskable-512.png", "512x512", "maskable"),
]


def languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest, in the visitor's language (the same order as every page)."""
    data = {
        "id": "/",
        "name": _("Card Club"),
        # Under the icon on a phone's home screen: a dozen letters at most.
        "short_name": pgettext("app name under its icon, 12 letters at most", "Card Club"),
        "lang": translation.get_language(),
        "dir": "rtl" if translation.get_language_bidi() else "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "categories": ["games"],
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Cache-Control"] = "no-cache"
    response["Vary"] = "Cookie, Accept-Language"
    return response


def _precached_static() -> list[str]:
    """The static files the offline page needs (its style sheet and icon): hashed URLs."""
    return [static("css/site.css"), static("favicon.svg")]


def _static_version() -> str:
    """Changes whenever a collected static file does (the manifest of hashed names)."""
    hashed = getattr(staticfiles_storage, "hashed_files", None)
    return json.dumps(sorted(hashed.items())) if hashed else ""


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    offline_pages = {code: reverse("offline", args=[code]) for code in languages()}
    context = {
        "languages": json.dumps(languages()),
        "default_language": json.dumps(settings.LANGUAGE_CODE),
        "offline_pages": json.dumps(offline_pages),
        "precache": json.dumps(_precached_static()),
        "static_prefix": json.dumps(settings.STATIC_URL),
        "icon": json.dumps(static("icons/icon-192.png")),
        "version": "",
    }
    body = render_to_string("push/sw.js", context)
    version = hashlib.sha256((body + _static_version()).encode()).hexdigest()[:16]
    body = body.replace('const VERSION = "";', f'const VERSION = "{version}";', 1)
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@never_cache
@require_GET
def offline(request: HttpRequest, language: str) -> HttpResponse:
    """The page a navigation shows when the network is gone, in one language.

    Rendered without the request (no context processor runs): it names no
    member and shows no table, so the copy the service worker keeps is the same
    for everyone who uses the browser.
    """
    if language not in languages():
        raise Http404("no such language")
    with translation.override(language):
        html = render_to_string("push/offline.html")
    response = HttpResponse(html)
    response["Content-Language"] = language
    return response
