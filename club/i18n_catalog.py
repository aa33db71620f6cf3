"""The static JavaScript catalogs (static/jsi18n/<lang>/djangojs.js).

Django's JavaScriptCatalog view, rendered once per language at build time
(`make messages`, or `manage.py compilejsi18n`) instead of on every page
load: a cacheable file the browser keeps, and no view per page. The files
are committed, so a fresh checkout needs no gettext; a test checks they match
the catalogs.
"""

from __future__ import annotations

import gettext
from pathlib import Path

from django.conf import settings
from django.utils import translation
from django.views.i18n import JavaScriptCatalog

DOMAIN = "djangojs"


def output_path(code: str) -> Path:
    return Path(settings.BASE_DIR) / "static" / "jsi18n" / code / f"{DOMAIN}.js"


def render_catalog(code: str) -> str:
    """The catalog script for one language, as the browser gets it."""
    locale_dir = Path(settings.LOCALE_PATHS[0])
    with translation.override(code):
        view = JavaScriptCatalog()
        view.translation = gettext.translation(
            DOMAIN, localedir=locale_dir, languages=[code], fallback=True
        )
        if not hasattr(view.translation, "_catalog"):
            view.translation._catalog = {}  # English: the source strings themselves
        view.translation._fallback = None
        response = view.render_to_response(view.get_context_data())
    return response.content.decode("utf-8")
