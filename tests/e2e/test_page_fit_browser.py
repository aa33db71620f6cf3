"""In Chromium: every kind of page fits a phone and a laptop, in every language (issue 35).

For each language (one browser context each) and at 390x844 and 1366x768,
every page kind is opened: the account pages, home, lobby, rules, series,
ratings, the player page, duplicate (series, round, traveller), the 404 page,
the member's turn-based tables at a day a move (one partner away), and for each
default variant a table waiting for players, a table in play as
the member to move and as one who waits, a finished table with its results,
and the finished game's page with its replay. On each, the document must not
scroll sideways (`scrollWidth <= innerWidth`: a wide table scrolls inside its
own box) and no button's text may be cut (`scrollWidth <= clientWidth`), no
header entry may wrap and no table's row (home, lobby) may be cut. On a phone,
a Golf grid keeps its three columns, and on the home page the menu is walked
with the keyboard (issue 42): the unread count shows on its closed button, Tab
reaches it, Enter opens it with the focus inside, axe finds nothing serious,
Escape closes it and gives the focus back.

Each page loads once, on the phone; the window is then made laptop-wide (the
table pages fit themselves again), so a language's sweep takes seconds.
"""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page

from tests.support.axe import describe, violations
from tests.support.tables import run_django

pytestmark = [pytest.mark.browser, pytest.mark.once]

LANGUAGES = ["en", "it", "fr", "ru", "es", "ro"]
PHONE, LAPTOP = (390, 844), (1366, 768)

# What does not fit: the document's own width, buttons whose text is cut, and a
# Golf grid (the member's own or any other) that is not three columns wide.
MEASURE_JS = """
(language) => {
  const problems = [];
  if (document.documentElement.lang !== language) problems.push(`in ${document.documentElement.lang}`);
  const doc = document.documentElement;
  const width = window.innerWidth;
  if (doc.scrollWidth > width) problems.push(`the page is ${doc.scrollWidth}px wide`);
  // Cut off at the window's edge: drawn past it, and not inside a box that scrolls
  // or clips within the window (a wide table in its overflow-x:auto wrapper, a long
  // name's ellipsis).
  const cut = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.right <= width + 1 || r.right < 0) continue;
    let kept = false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (["auto", "scroll", "hidden"].includes(style.overflowX) && up.getBoundingClientRect().right <= width + 1) {
        kept = true;
        break;
      }
    }
    if (kept) continue;
    // Report the outermost such element only.
    if (cut.some((outer) => outer.contains(el))) continue;
    cut.push(el);
  }
  for (const el of cut.slice(0, 4)) {
    const name = `${el.tagName.toLowerCase()}${el.classList.length ? "." + [...el.classList].join(".") : ""}${el.dataset.testid ? `[${el.dataset.testid}]` : ""}`;
    problems.push(`${name} reaches ${Math.round(el.getBoundingClientRect().right)}px: "${el.textContent.trim().slice(0, 30)}"`);
  }
  for (const button of document.querySelectorAll("button, .button, summary")) {
    if (!button.getClientRects().length) continue;
    if (button.scrollWidth > button.clientWidth + 1) {
      problems.push(`button cut (${button.scrollWidth} > ${button.clientWidth}): ${button.textContent.trim().slice(0, 40)}`);
    }
  }
  // The header's entries each on one line ("Change language" wrapped at 1366 px).
  for (const entry of document.querySelectorAll(".site-nav a, .site-nav button")) {
    if (!entry.getClientRects().length) continue;
    // The lines its visible text is drawn on (words only for screen readers left out).
    const lines = new Set();
    const walker = document.createTreeWalker(entry, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (!text.textContent.trim() || text.parentElement.getBoundingClientRect().width <= 1) continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      for (const r of range.getClientRects()) if (r.width) lines.add(Math.round(r.top));
    }
    if (lines.size > 1) problems.push(`"${entry.textContent.trim()}" on ${lines.size} lines`);
  }
  // A table's row in a list (home's "Your tables", the lobby) says all it has: nothing
  // cut with an ellipsis or hidden past its box.
  for (const row of document.querySelectorAll(".table-item")) {
    for (const part of [row, ...row.querySelectorAll("*")]) {
      if (!part.getClientRects().length) continue;
      if (part.scrollWidth > part.clientWidth + 1 && getComputedStyle(part).overflowX !== "visible") {
        problems.push(`a table's row cut: "${part.textContent.trim().slice(0, 40)}"`);
      }
    }
  }
  // Your own name whole (issue 42: "Giuli…" on a Golf phone).
  for (const name of document.querySelectorAll("[data-testid=me-bar] .me-name")) {
    if (name.getClientRects().length && name.scrollWidth > name.clientWidth + 1) {
      problems.push(`your name is cut: "${name.textContent}"`);
    }
  }
  // Golf's actions where a finger reaches them, not under your docked bar (issue 42:
  // "Discard it, flip a card" was under the bar at a turn-based table on a phone).
  for (const button of document.querySelectorAll(".golf-actions .button")) {
    const r = button.getBoundingClientRect();
    if (!r.width) continue;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!top || !(top === button || button.contains(top))) {
      problems.push(`"${button.textContent.trim()}" is covered by ${top ? top.className || top.tagName : "nothing (off screen)"}`);
    }
  }
  for (const grid of document.querySelectorAll("[data-testid=golf-grid], [data-testid=hand]:has([data-testid=golf-slot])")) {
    const slots = [...grid.querySelectorAll("[data-testid=golf-slot]")].filter((s) => s.getClientRects().length);
    if (slots.length !== 9) continue;
    const columns = new Set(slots.map((s) => Math.round(s.getBoundingClientRect().left)));
    if (columns.size !== 3) problems.push(`a Golf grid in ${columns.size} columns`);
  }
  return problems;
}
"""

# A table page is ready when its first frame has been drawn (and the results, once over).
TABLE_READY = "document.getElementById('table-app')?.dataset.version !== ''"


@pytest.fixture(scope="module")
def finished_club(site_database) -> dict:
    return run_django(
        site_database,
        "from tests.support.every_state import finished\n"
        f"emit(finished('fit-{uuid.uuid4().hex[:6]}'))\n",
    )


def pages_to_see(club: dict, live: dict) -> list[tuple[str, str, str | None]]:
    """(what, address, session or None for a visitor) of every page kind and table state."""
    me, player = club["me"], club["player"]
    seen: list[tuple[str, str, str | None]] = [
        ("sign-in", "/accounts/login/", None),
        ("sign-up", "/accounts/signup/", None),
        ("rules", "/rules/", None),
        ("not found", "/no-such-page/", None),
        ("home", "/", me),
        ("lobby", "/tables/", me),
        ("series list", "/series/", me),
        ("ratings", "/ratings/", me),
        ("player", f"/players/{player}/", me),
        ("duplicate list", "/duplicate/", me),
        ("duplicate series", f"/duplicate/{club['duplicate']}/", me),
        ("duplicate round", f"/duplicate/{club['duplicate']}/rounds/1/", me),
        ("duplicate traveller", f"/duplicate/{club['duplicate']}/rounds/1/boards/1/", me),
        ("duplicate open round", f"/duplicate/{club['duplicate']}/rounds/2/", me),
    ]
    seen += [(f"ratings {f}", f"/ratings/{f}/", me) for f in club["families"]]
    seen.append(("home with turn-based tables", "/", live["me"]))
    seen.append(("lobby with turn-based tables", "/tables/", live["me"]))
    seen.append(("Devyatka with three bots", f"/tables/{live['three_bots']}/", live["me"]))
    for name, tables in live["turn_based"].items():
        seen += [(f"{name} turn-based", f"/tables/{t['table']}/", live["me"]) for t in tables]
    for name, done in club["games"].items():
        now = live["games"][name]
        seen += [
            (f"{name} series", f"/series/{done['series']}/", me),
            (f"{name} waiting", f"/tables/{now['waiting']}/", live["me"]),
            (f"{name} playing", f"/tables/{now['playing']}/", now["other"]),
            (f"{name} your turn", f"/tables/{now['playing']}/", now["turn"]),
            # Finished, with results: against house bots (their names and labels too).
            (f"{name} finished", f"/tables/{done['bots']['table']}/", me),
            (f"{name} replay", f"/games/{done['game']}/", me),
        ]
    return seen


def settle(page: Page, address: str, resized: bool = False) -> None:
    """Wait for what scripts draw; a page of HTML and CSS is laid out when measured."""
    if re.match(r"/tables/\d+/", address):
        page.wait_for_function(TABLE_READY)
        if page.get_attribute("#table-app", "data-status") == "finished":
            page.wait_for_selector("[data-testid=results] .results-detail:not([hidden])")
        if resized:
            page.wait_for_timeout(150)  # the table fits itself to a new window size (debounced)
    elif address.startswith("/games/"):
        page.wait_for_function("document.querySelector('[data-testid=replay]')?.dataset.step")
    else:
        return
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def check(page: Page, what: str, address: str, language: str, failures: list[str]) -> None:
    """The page on a phone, then the same page on a laptop (the window made wider)."""
    for number, (width, height) in enumerate((PHONE, LAPTOP)):
        if number:
            page.set_viewport_size({"width": width, "height": height})
        settle(page, address, resized=bool(number))
        problems = page.evaluate(MEASURE_JS, language)
        failures += [f"{what} at {width}x{height}: {problem}" for problem in problems]


def walk_the_phone_menu(page: Page, language: str, failures: list[str]) -> None:
    """On a phone: the unread count shows on the closed menu's button, in words for a
    screen reader; Tab reaches the button, Enter opens the menu and moves the focus into
    it, axe finds nothing wrong with it open, Escape closes it and gives the focus back."""
    toggle, count = page.get_by_test_id("nav-toggle"), page.get_by_test_id("menu-count")
    menu = page.locator("#site-nav")
    problems = []
    if not (count.is_visible() and count.evaluate(ON_TOP) and int(count.inner_text()) > 0):
        problems.append("the unread count is not shown on the closed menu's button")
    words = page.locator("[data-nav-toggle] [data-bell-words]").text_content() or ""
    if count.inner_text() not in words or (language != "en" and "unread" in words):
        problems.append(f"the button's count is said {words!r}")
    if menu.is_visible():
        problems.append("the menu starts open")
    brand = page.locator(".site-header .brand").evaluate(BOX)
    if toggle.evaluate(BOX)["top"] >= brand["bottom"]:
        problems.append("the menu's button is not on the brand's row")
    page.evaluate("document.activeElement?.blur()")
    for _ in range(3):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.dataset.testid") == "nav-toggle":
            break
    else:
        problems.append("Tab does not reach the menu's button")
    page.keyboard.press("Enter")
    if toggle.get_attribute("aria-expanded") != "true" or not menu.is_visible():
        problems.append("Enter does not open the menu")
    if not page.evaluate("document.getElementById('site-nav').contains(document.activeElement)"):
        problems.append("the focus is not in the open menu")
    page.keyboard.press("Tab")  # on to the next entry, still in the menu
    if not page.evaluate("document.getElementById('site-nav').contains(document.activeElement)"):
        problems.append("Tab leaves the open menu at once")
    found = violations(page, ".site-header")
    if found:
        problems.append(f"axe on the open menu:\n{describe(found)}")
    page.keyboard.press("Escape")
    if toggle.get_attribute("aria-expanded") != "false" or menu.is_visible():
        problems.append("Escape does not close the menu")
    if page.evaluate("document.activeElement?.dataset.testid") != "nav-toggle":
        problems.append("Escape does not give the focus back to the button")
    failures += [f"phone menu: {problem}" for problem in problems]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_fits_a_phone_and_a_laptop(
    chromium_browser, live_site, site_database, finished_club, language
):
    live = run_django(
        site_database,
        "from tests.support.every_state import live\n"
        f"emit(live('fit-{language}-{uuid.uuid4().hex[:6]}'))\n",
    )
    context = chromium_browser.new_context(base_url=live_site.url, locale=language, bypass_csp=True)
    context.set_default_timeout(20_000)
    page = context.new_page()
    failures: list[str] = []
    # One tab (a background tab's frames are throttled), each member's pages in a row.
    signed_in: object = "nobody yet"
    for what, address, session in sorted(
        pages_to_see(finished_club, live), key=lambda p: p[2] or ""
    ):
        if session != signed_in:
            context.clear_cookies()
            if session:
                context.add_cookies([{"name": "sessionid", "value": session, "url": live_site.url}])
            signed_in = session
        page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        page.goto(address)
        if what == "home with turn-based tables":
            walk_the_phone_menu(page, language, failures)
        if what == "lobby with turn-based tables":
            # The lobby marks the tables waiting for the member's move, as home does (A16).
            page.wait_for_selector("#table-lists [data-testid=playing-tables]")
            marked = page.locator("[data-testid=playing-tables] .your-turn [data-testid=your-turn]")
            if not marked.count() or not marked.first.is_visible():
                failures.append(
                    "the lobby marks none of the member's tables where it is their turn"
                )
        check(page, what, address, language, failures)
    context.close()
    assert not failures, f"{len(failures)} problems in {language}:\n" + "\n".join(failures)


def popped(bubble) -> None:
    """Wait until the bubble has popped to its resting size: for the first fifth of its
    animation it is drawn up to 10 % larger (static/css/table.css, `bubble`), which is
    not where it sits; measured then, it brushed the name by a pixel."""
    bubble.page.wait_for_function(
        "(el) => ['none', 'matrix(1, 0, 0, 1, 0, 0)'].includes(getComputedStyle(el).transform)",
        arg=bubble.element_handle(),
    )


def overlap(a: dict, b: dict) -> bool:
    return not (
        a["right"] <= b["left"]
        or b["right"] <= a["left"]
        or a["bottom"] <= b["top"]
        or b["bottom"] <= a["top"]
    )


BOX = "(el) => { const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }"
# Whether the middle of the element is what a finger touching there would hit.
ON_TOP = """(el) => {
  const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return Boolean(top && (top === el || el.contains(top)));
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_golf_on_a_touch_phone_shows_the_hint_the_turn_and_no_keys(
    chromium_browser, live_site, site_database, language
):
    """After Draw and "Discard it, flip a card": the hint is in view, not under your bar;
    the "you drew" bubble leaves "Your turn" and your name readable; a touch screen shows
    no key hints. Then, on the same touch phone (issue 42): your turn-based Golf tables
    (one where you come back holding a drawn card: both its actions above your bar) and
    a Devyatka table with three house bots (their level labels inside the screen) fit."""
    live = run_django(
        site_database,
        "from tests.support.every_state import live\n"
        f"emit(live('touch-{language}-{uuid.uuid4().hex[:6]}'))\n",
    )
    golf = live["games"]["Golf"]
    context = chromium_browser.new_context(
        base_url=live_site.url,
        locale=language,
        bypass_csp=True,
        viewport={"width": PHONE[0], "height": PHONE[1]},
        has_touch=True,
        is_mobile=True,
    )
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "sessionid", "value": golf["turn"], "url": live_site.url}])
    page = context.new_page()
    page.goto(f"/tables/{golf['playing']}/")
    page.wait_for_selector("#table-app[data-turn=you]")
    # Taking the discard: the hint names the slot to pick, without "(1–9)" on a touch screen.
    page.locator(".golf-actions [data-action=take]").tap()
    hint = page.get_by_test_id("golf-hint")
    page.wait_for_selector(".board[data-mode=take] [data-testid=golf-hint]:not([hidden])")
    assert "1–9" not in hint.inner_text() and "(" not in hint.inner_text(), hint.inner_text()
    page.locator(".golf-actions [data-action=cancel]").tap()
    page.wait_for_selector(".board[data-mode='']")
    page.locator(".golf-actions [data-action=draw]").tap()
    drawn = page.get_by_test_id("golf-drawn")
    drawn.wait_for()
    bubble = page.locator("[data-testid=me-bar] .bubble")
    bubble.wait_for()
    popped(bubble)
    me_turn = page.get_by_test_id("me-turn")
    assert me_turn.is_visible()
    assert not overlap(bubble.evaluate(BOX), me_turn.evaluate(BOX)), "the bubble covers Your turn"
    assert me_turn.evaluate(ON_TOP)
    me_name = page.locator("[data-testid=me-bar] .me-name")
    assert not overlap(bubble.evaluate(BOX), me_name.evaluate(BOX)), "the bubble covers your name"
    assert me_name.evaluate(ON_TOP) and me_name.evaluate("(el) => el.scrollWidth <= el.clientWidth")
    page.locator(".golf-actions [data-action=discard]").tap()
    page.wait_for_selector(".board[data-mode=discard]")
    page.wait_for_timeout(300)  # the layout fits itself again
    assert page.evaluate("window.scrollY") == 0
    assert hint.is_visible()
    assert hint.evaluate(ON_TOP), "the hint is under the player bar"
    assert not overlap(hint.evaluate(BOX), page.get_by_test_id("hand-dock").evaluate(BOX))
    # No key on a touch screen: not in the buttons, the hint, the cards or the help line.
    shown_keys = page.evaluate(
        "() => [...document.querySelectorAll('kbd, .keycap, [data-testid=hand-help]')]"
        ".filter((k) => k.getClientRects().length).map((k) => k.textContent)"
    )
    assert shown_keys == []
    context.clear_cookies()
    context.add_cookies([{"name": "sessionid", "value": live["me"], "url": live_site.url}])
    failures: list[str] = []
    tables = [t["table"] for t in live["turn_based"]["Golf"]] + [live["three_bots"]]
    for table in tables:
        page.goto(f"/tables/{table}/")
        settle(page, f"/tables/{table}/")
        failures += [f"table {table}: {p}" for p in page.evaluate(MEASURE_JS, language)]
    assert not failures, "\n".join(failures)
    context.close()


def test_golf_with_a_mouse_still_shows_its_keys(chromium_browser, live_site, site_database):
    live = run_django(
        site_database,
        f"from tests.support.every_state import live\nemit(live('mouse-{uuid.uuid4().hex[:6]}'))\n",
    )
    golf = live["games"]["Golf"]
    context = chromium_browser.new_context(
        base_url=live_site.url, bypass_csp=True, viewport={"width": 1366, "height": 768}
    )
    context.add_cookies([{"name": "sessionid", "value": golf["turn"], "url": live_site.url}])
    page = context.new_page()
    page.goto(f"/tables/{golf['playing']}/")
    page.wait_for_selector("#table-app[data-turn=you]")
    assert page.locator(".golf-actions [data-action=draw] kbd").is_visible()
    assert page.get_by_test_id("hand-help").is_visible()
    page.locator(".golf-actions [data-action=take]").click()
    page.wait_for_selector(".board[data-mode=take]")
    assert "(1–9)" in page.get_by_test_id("golf-hint").inner_text()
    # On a laptop too the "you drew" bubble leaves your name and "Your turn" readable.
    page.locator(".golf-actions [data-action=cancel]").click()
    page.wait_for_selector(".board[data-mode='']")
    page.locator(".golf-actions [data-action=draw]").click()
    bubble = page.locator("[data-testid=me-bar] .bubble")
    bubble.wait_for()
    popped(bubble)
    for covered in ("[data-testid=me-bar] .me-name", "[data-testid=me-turn]"):
        assert not overlap(bubble.evaluate(BOX), page.locator(covered).evaluate(BOX)), covered
    context.close()


def test_destructive_and_secondary_submit_buttons_keep_their_styles(
    chromium_browser, live_site, site_database, finished_club
):
    """The bare submit button's green must not win over .danger and .secondary (issue 35)."""
    live = run_django(
        site_database,
        "from tests.support.every_state import live\n"
        f"emit(live('buttons-{uuid.uuid4().hex[:6]}'))\n",
    )
    context = chromium_browser.new_context(base_url=live_site.url, bypass_csp=True)
    context.add_cookies([{"name": "sessionid", "value": live["me"], "url": live_site.url}])
    page = context.new_page()
    colours = {}
    for state, testids in (
        ("waiting", ["add-bot-button", "leave-button", "start-button"]),
        ("playing", ["resign-confirm", "resign-cancel"]),
    ):
        page.goto(f"/tables/{live['games']['Devyatka'][state]}/")
        for testid in testids:
            colours[testid] = page.get_by_test_id(testid).evaluate(
                "(b) => getComputedStyle(b).backgroundColor"
            )
    # A duplicate round's boards: Play is the main action, Play together the other one.
    context.clear_cookies()
    context.add_cookies([{"name": "sessionid", "value": finished_club["me"], "url": live_site.url}])
    page.goto(f"/duplicate/{finished_club['duplicate']}/rounds/2/")
    for testid in ("play-board", "play-together"):
        colours[testid] = page.get_by_test_id(testid).first.evaluate(
            "(b) => getComputedStyle(b).backgroundColor"
        )
    context.close()
    danger, white, felt = "rgb(176, 42, 55)", "rgb(255, 255, 255)", "rgb(15, 81, 50)"
    assert colours == {
        "add-bot-button": white,
        "leave-button": white,
        "start-button": felt,
        "resign-confirm": danger,
        "resign-cancel": white,
        "play-board": felt,
        "play-together": white,
    }


def test_without_javascript_the_phone_menu_stays_open(chromium_browser, live_site, site_database):
    """No script, no menu button: every entry of the header is shown on a phone (issue 42)."""
    live = run_django(
        site_database,
        f"from tests.support.every_state import live\nemit(live('nojs-{uuid.uuid4().hex[:6]}'))\n",
    )
    context = chromium_browser.new_context(
        base_url=live_site.url,
        viewport={"width": PHONE[0], "height": PHONE[1]},
        java_script_enabled=False,
    )
    context.add_cookies([{"name": "sessionid", "value": live["me"], "url": live_site.url}])
    page = context.new_page()
    page.goto("/")
    assert not page.get_by_test_id("nav-toggle").is_visible()
    entries = page.locator("#site-nav a, #site-nav button, #site-nav select")
    assert entries.count() >= 9
    hidden = [e.text_content() for e in entries.all() if not e.is_visible()]
    assert hidden == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    context.close()
