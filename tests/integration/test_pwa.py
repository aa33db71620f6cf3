"""The club as an installable app (issue 46): the manifest in the visitor's language with
its icons, the service worker served from the root with the right headers, the offline
page in each language naming no member, and every page linking them."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from tests.support.members import member

pytestmark = pytest.mark.django_db

STATIC = Path(__file__).resolve().parents[2] / "static"
LANGUAGES = ["en", "it", "fr", "ru", "es", "ro"]


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_manifest_is_in_the_visitors_language(language):
    response = Client().get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert "no-cache" in response["Cache-Control"]
    data = json.loads(response.content)
    with translation.override(language):
        assert data["name"] == translation.gettext("Card Club")
        assert data["short_name"] == translation.pgettext(
            "app name under its icon, 12 letters at most", "Card Club"
        )
    assert len(data["short_name"]) <= 12
    assert data["lang"] == language
    assert data["display"] == "standalone"
    assert data["start_url"] == "/" and data["scope"] == "/"
    assert data["theme_color"].startswith("#")


def test_the_manifest_follows_the_members_stored_language():
    anna = member("Anna")
    anna.language = "ro"
    anna.save(update_fields=["language"])
    client = Client()
    client.force_login(anna.user)
    data = json.loads(client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="fr").content)
    assert data["lang"] == "ro"


def test_the_icons_are_pngs_of_their_stated_sizes_with_a_maskable_one():
    data = json.loads(Client().get("/manifest.webmanifest").content)
    purposes = set()
    for icon in data["icons"]:
        path = STATIC / icon["src"].removeprefix("/static/")
        width, height = png_size(path)
        assert icon["sizes"] == f"{width}x{height}"
        purposes.add((icon["purpose"], width))
    assert {("any", 192), ("any", 512), ("maskable", 512)} <= purposes


def test_the_worker_is_served_from_the_root_uncached_and_names_every_offline_page():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    for language in LANGUAGES:
        assert f'"/offline/{language}/"' in body
    assert 'const VERSION = "' in body and 'const VERSION = "";' not in body
    # The same files, the same worker: the browser installs it again only when they change.
    assert Client().get("/sw.js").content == response.content


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_offline_page_speaks_its_language_and_names_no_member(language):
    anna = member("Annabelle")
    client = Client()
    client.force_login(anna.user)
    response = client.get(f"/offline/{language}/")
    assert response.status_code == 200
    assert response["Content-Language"] == language
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    with translation.override(language):
        assert translation.gettext("You are offline") in html
    assert "Annabelle" not in html and "sign-out" not in html and "bell" not in html


def test_an_unknown_offline_language_is_a_404():
    assert Client().get("/offline/xx/").status_code == 404


def test_every_page_links_the_manifest_and_registers_the_worker():
    for path in ("/", "/tables/", "/rules/", "/accounts/login/"):
        html = Client().get(path).content.decode()
        assert 'rel="manifest" href="/manifest.webmanifest"' in html, path
        assert 'data-service-worker="/sw.js"' in html, path
        assert "js/pwa." in html and 'name="theme-color"' in html, path
