"""In Chromium: the strict Content-Security-Policy breaks no page (issue 22, finding 9).

Every page a member, a visitor or an admin opens is loaded with a listener
for `securitypolicyviolation` events installed before any of its scripts run,
and Chromium's console is watched for CSP reports too. The live table (its
websocket included), a finished game's replay and Django admin run under the
same policy as the rest.
"""

from __future__ import annotations

import pytest

from tests.support.seated import sign_in_as
from tests.support.tables import run_django, started_table

pytestmark = [pytest.mark.browser, pytest.mark.once]

LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


def violations_on(page, urls: list[str]) -> dict[str, list[str]]:
    console: list[str] = []
    page.on(
        "console",
        lambda message: (
            console.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.context.add_init_script(LISTEN)
    found = {}
    for url in urls:
        console.clear()
        response = page.goto(url)
        assert response is not None and response.status < 500, url
        assert "script-src 'self'" in response.headers["content-security-policy"], url
        page.wait_for_load_state("networkidle")
        reported = page.evaluate("window.__cspViolations") + console
        if reported:
            found[url] = reported
    return found


def finished_game(site_database) -> int:
    return run_django(
        site_database,
        "import uuid\n"
        "from games.models import Variant\n"
        "from tests.support.finished import finished_game\n"
        "suffix = uuid.uuid4().hex[:6]\n"
        "game, _ = finished_game(Variant.objects.get(name='Keft'),"
        " ['Csp' + suffix, 'Pcs' + suffix], seed=7)\n"
        "emit(game.pk)\n",
    )


@pytest.fixture
def strict_page(chromium_browser, live_site):
    """A page under the site's own policy (the shared `new_page` bypasses it)."""
    contexts = []

    def open_page():
        context = chromium_browser.new_context(base_url=live_site.url)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def test_no_page_reports_a_csp_violation(strict_page, live_site, site_database):
    table = started_table(site_database, seats=2, variant="Devyatka")
    game = finished_game(site_database)
    admin = run_django(
        site_database,
        "from django.contrib.auth import get_user_model\n"
        "from tools.synthetic import session_for\n"
        "import uuid\n"
        "name = 'csp' + uuid.uuid4().hex[:6]\n"
        "user = get_user_model().objects.create_superuser(name, name + '@example.com', 'pw-x-123')\n"
        "emit(session_for(user))\n",
    )
    visitor = [
        "/",
        "/tables/",
        "/rules/",
        "/ratings/",
        "/series/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        f"/games/{game}/",
        "/duplicate/",
        "/nowhere/",
    ]
    assert violations_on(strict_page(), visitor) == {}

    member = table["players"][0]
    page = sign_in_as(strict_page(), live_site, member["session"])
    urls = [
        "/",
        "/tables/",
        f"/tables/{table['table']}/",
        f"/players/{member['player']}/",
        f"/games/{game}/",
        f"/games/{game}/analysis/panel/",
        "/duplicate/",
        "/series/",
    ]
    assert violations_on(page, urls) == {}
    # The listener does hear a violation: an inline script added now is refused.
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.injected = 1'; document.body.append(s); }"
    )
    for _ in range(100):  # the event is queued; wait for it (at most 10 s)
        if page.evaluate("window.__cspViolations"):
            break
        page.wait_for_timeout(100)
    assert page.evaluate("window.__cspViolations") == ["script-src-elem inline"]
    assert page.evaluate("window.injected") is None
    # The table's script ran and its websocket connected under the policy.
    page.goto(f"/tables/{table['table']}/")
    # (A selector, not wait_for_function: Playwright evaluates those with eval.)
    page.wait_for_selector("#table-app[data-version]:not([data-version=''])")

    page = sign_in_as(strict_page(), live_site, admin)
    urls = [
        "/admin/",
        "/admin/games/table/",
        f"/admin/games/table/{table['table']}/change/",
        "/admin/games/variant/add/",
        "/admin/club/player/",
        "/admin/ratings/rating/",
        "/admin/club/series/add/",
        "/admin/games/ratelimitevent/",
        "/admin/chat/chatmessage/",
        "/admin/duplicate/duplicateseries/add/",
        "/admin/account/emailaddress/",
    ]
    assert violations_on(page, urls) == {}
