"""In Chromium: the club installs as an app and is honest offline (issue 46).

The service worker registers on the first page at the site's root scope and
Chromium finds the club installable; with the network cut, a page shows the
offline page in the language the member browses in, for each of the six (a
browser of its own per language), never a copy of a page seen before (not the
tables' list just loaded, not a table); the hashed static files come from the
worker's cache, nothing else does.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LANGUAGES = ["en", "it", "fr", "ru", "es", "ro"]


def offline_title(language: str) -> str:
    with translation.override(language):
        return translation.gettext("You are offline")


def worker_ready(page) -> str:
    """Wait until the page is controlled by the club's worker; its script's URL."""
    return page.evaluate(
        """async () => {
            const registration = await navigator.serviceWorker.ready;
            if (!navigator.serviceWorker.controller) {
              await new Promise((resolve) =>
                navigator.serviceWorker.addEventListener("controllerchange", resolve, {once: true}));
            }
            return registration.active.scriptURL + " " + registration.scope;
        }"""
    )


def test_the_worker_registers_and_the_offline_page_speaks_each_language(
    chromium_browser, live_site
):
    for language in LANGUAGES:
        # A browser of its own per language (a phone whose member reads that
        # language): the language picker's cookie, as the header's picker sets it.
        context = chromium_browser.new_context(base_url=live_site.url)
        context.set_default_timeout(20_000)
        context.add_cookies([{"name": "django_language", "value": language, "url": live_site.url}])
        try:
            page = context.new_page()
            page.goto("/tables/")
            script, scope = worker_ready(page).split()
            assert script == f"{live_site.url}/sw.js"
            assert scope == f"{live_site.url}/"
            if language == "en":
                check_installable(context, page)
            expect(page.locator("html")).to_have_attribute("lang", language)
            # The page told the worker its language.
            page.wait_for_function(
                """async (language) => {
                    const cache = await caches.open("club-settings");
                    const kept = await cache.match("/offline/language");
                    return kept && (await kept.text()) === language;
                }""",
                arg=language,
            )
            context.set_offline(True)
            try:
                page.goto("/tables/")
                expect(page.get_by_test_id("offline-title")).to_have_text(offline_title(language))
                expect(page.locator("html")).to_have_attribute("lang", language)
                assert page.url == f"{live_site.url}/tables/"  # the address stays, to try again
                # No copy of the list just seen, nor of any table.
                assert page.get_by_test_id("create-table").count() == 0
                page.goto("/tables/1/")
                expect(page.get_by_test_id("offline-title")).to_have_text(offline_title(language))
            finally:
                context.set_offline(False)
            if language == "en":
                check_static_cache(page)
        finally:
            context.close()


def check_installable(context, page) -> None:
    manifest = page.locator("link[rel=manifest]").get_attribute("href")
    assert manifest == "/manifest.webmanifest"
    # Chromium's own verdict: the club can be installed (manifest, icons, worker).
    # Playwright's contexts are off the record, which alone forbids installing.
    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e for e in errors if e["errorId"] != "in-incognito"] == [], errors
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["errors"] == [] and parsed["url"].endswith("/manifest.webmanifest")


def check_static_cache(page) -> None:
    """The hashed files are in the worker's cache, and nothing else is."""
    kept = page.evaluate(
        """async () => {
            const found = [];
            for (const name of await caches.keys()) {
              if (!name.startsWith("club-static-")) continue;
              const cache = await caches.open(name);
              for (const request of await cache.keys()) found.push(new URL(request.url).pathname);
            }
            return found;
        }"""
    )
    assert kept, "no static file cached"
    assert all(re.search(r"^/static/.+\.[0-9a-f]{12}\.\w+$", path) for path in kept), kept
    assert any(path.startswith("/static/css/site.") for path in kept), kept
