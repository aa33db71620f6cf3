"""In Chromium: the club installs as an app and is honest offline (issue 46).

The service worker registers on the first page at the site's root scope and
Chromium finds the club installable; with the network cut, a page shows the
offline page in the language the member browses in, never a copy of a page
seen before (not the tables' list just loaded, not a table); the hashed static
files come from the worker's cache, nothing else does.

One browser goes through the six languages with the header's picker and cuts
the network as soon as each new page arrives, before it has loaded: the worker
learns each page's language from the page it fetched itself, so nothing the
page might tell it later can be late or out of order (the first page, which
the worker did not fetch, tells it; the test waits for that one only).
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


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


def worker_language(page) -> str | None:
    """The language the worker keeps for the offline page (one awaited look)."""
    return page.evaluate(
        """async () => {
            const kept = await (await caches.open("club-settings")).match("/offline/language");
            return kept ? await kept.text() : null;
        }"""
    )


def wait_until_told(page, language: str) -> None:
    # Each look is awaited (an async predicate's promise would be "true" at once).
    for _ in range(200):
        if worker_language(page) == language:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the worker was never told {language}: {worker_language(page)}")


def check_offline(context, page, language: str) -> None:
    context.set_offline(True)
    try:
        page.goto("/tables/")
        expect(page.get_by_test_id("offline-title")).to_have_text(offline_title(language))
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert page.url.endswith("/tables/")  # the address stays, to try again
        # No copy of the list just seen, nor of any table.
        assert page.locator("#create-heading").count() == 0
        page.goto("/tables/1/")
        expect(page.get_by_test_id("offline-title")).to_have_text(offline_title(language))
    finally:
        context.set_offline(False)


def test_the_worker_registers_and_the_offline_page_follows_the_language_picker(
    chromium_browser, live_site
):
    context = chromium_browser.new_context(
        base_url=live_site.url, locale="en-US", timezone_id="America/Port-au-Prince"
    )
    context.set_default_timeout(20_000)
    # The first page in Russian (the picker's cookie), whatever the browser's own language.
    context.add_cookies([{"name": "django_language", "value": "ru", "url": live_site.url}])
    try:
        page = context.new_page()
        page.goto("/tables/")
        script, scope = worker_ready(page).split()
        assert script == f"{live_site.url}/sw.js"
        assert scope == f"{live_site.url}/"
        check_installable(context, page)
        # The page told the server its time zone too (static/js/time-zone.js).
        zone = [c["value"] for c in context.cookies() if c["name"] == "club_tz"]
        assert zone == ["America/Port-au-Prince"]
        # The worker did not fetch this first page: the page tells it its language.
        wait_until_told(page, "ru")
        check_offline(context, page, "ru")
        check_static_cache(page)
        page.goto("/tables/")
        for language in ["en", "it", "fr", "es", "ro", "ru"]:  # each one a change
            # The header's picker, as a member switches; the network goes as soon as
            # the page in the new language arrives, before it has even loaded.
            with page.expect_navigation(wait_until="commit"):
                page.get_by_test_id("language-select").select_option(language)
            check_offline(context, page, language)
            page.goto("/tables/")
            expect(page.locator("html")).to_have_attribute("lang", language)
            expect(page.locator("#create-heading")).to_be_visible()
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
