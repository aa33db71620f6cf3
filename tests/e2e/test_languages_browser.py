"""The club in a visitor's language, in a real Chromium (issue 21).

A browser asking for Russian gets Russian pages, signs up, plays a Devyatka
series table with two house bots to the end and reads results and standings
in Russian, then picks Italian in the header and the table page follows. Golf
in Romanian and Keft in Spanish on a phone-sized screen. "No English" is
checked against the catalogs' own English source strings.
"""

from __future__ import annotations

import re
import uuid
from functools import cache
from pathlib import Path

import polib
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_house_browser import play_until_over
from tests.e2e.test_table_browser import app

pytestmark = pytest.mark.browser

LOCALE = Path(__file__).resolve().parents[2] / "locale"
PASSWORD = "a-long-enough-passphrase-9"


@cache
def english_sources() -> list[str]:
    """Whole English sentences from the catalogs: none may show on a translated page."""
    found = set()
    for domain in ("django", "djangojs"):
        for entry in polib.pofile(str(LOCALE / "ru" / "LC_MESSAGES" / f"{domain}.po")):
            text = entry.msgid
            if "%" in text or "{" in text or "<" in text or "&" in text or len(text) < 12:
                continue
            if len(text.split()) >= 3:
                found.add(text)
    return sorted(found)


def assert_no_english(page: Page, where: str) -> None:
    text = page.locator("body").inner_text()
    left = [s for s in english_sources() if s in text]
    assert left == [], f"{where}: English source strings on the page: {left}"


def open_page(browser, site, locale: str, width: int = 1280, height: int = 900) -> Page:
    context = browser.new_context(
        base_url=site.url, locale=locale, viewport={"width": width, "height": height}
    )
    context.set_default_timeout(20_000)
    return context.new_page()


def sign_up(page: Page, prefix: str) -> str:
    name = f"{prefix}{uuid.uuid4().hex[:6]}"
    page.goto("/accounts/signup/")
    page.locator("input[name=email]").fill(f"{name.lower()}@example.com")
    page.locator("input[name=display_name]").fill(name)
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.get_by_test_id("nav-me")).to_have_text(name)
    return name


def open_bot_table(page: Page, variant_label: str, seats: int, bots: int, series: str = "") -> None:
    page.goto("/tables/")
    form = page.get_by_test_id("create-table")
    form.locator("select[name=variant]").select_option(label=variant_label)
    form.locator("input[name=seats]").fill(str(seats))
    if series:
        form.locator("select[name=series]").select_option(label=series)
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    for _ in range(bots):
        page.get_by_test_id("add-bot-button").click()
        page.wait_for_load_state()
    expect(page.get_by_test_id("board")).to_be_visible()


def test_russian_visitor_plays_devyatka_reads_standings_then_switches_to_italian(
    chromium_browser, live_site, site_database
):
    series = f"Кубок {uuid.uuid4().hex[:4]}"
    site_database.shell(
        "from club.models import Series; from games.models import Variant; "
        f"Series.objects.create(name={series!r}, slug='kubok-{uuid.uuid4().hex[:6]}', "
        "variant=Variant.objects.get(name='Devyatka'), min_games=1)"
    )
    page = open_page(chromium_browser, live_site, "ru-RU")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.get_by_test_id("sign-in")).to_have_text("Войти")
    sign_up(page, "Ivan")
    assert_no_english(page, "home")

    open_bot_table(page, "Девятка", 3, 2, series)
    # Plurals, straight from the page's catalog: 1, 2, 5 and 21 cards.
    counts = page.evaluate(
        "[1, 2, 5, 21].map((n) => interpolate(ngettext('%(count)s card', '%(count)s cards', n), {count: n}, true))"
    )
    assert counts == ["1 карта", "2 карты", "5 карт", "21 карта"]
    # A bot's level, translated, once beside its first name.
    expect(page.get_by_test_id("opponents").locator(".bot-badge").first).to_have_text(
        re.compile(r"^(случайный бот|эвристический бот|бот с перебором)$")
    )
    stats = page.get_by_test_id("opponents").locator(".opponent-stats").first.inner_text()
    assert re.fullmatch(r"\d+ карт[аы]? · \d+ пас(а|ов)?", stats), stats
    assert_no_english(page, "table in play")

    play_until_over([page])
    expect(page.get_by_test_id("results")).to_be_visible()
    expect(page.get_by_test_id("results")).to_contain_text("Результаты")
    expect(page.get_by_test_id("turn-indicator")).to_contain_text("Партия окончена")
    assert_no_english(page, "results")

    page.goto("/series/")
    page.get_by_role("link", name=series).click()
    expect(page.get_by_test_id("standings")).to_contain_text("Игрок")
    assert_no_english(page, "standings")

    # The picker: Italian, back on the same table page.
    page.go_back()
    page.go_back()
    table_url = page.url
    page.get_by_test_id("language-select").select_option("it")
    page.get_by_test_id("language-go").click()
    page.wait_for_url(table_url)
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.get_by_test_id("results")).to_contain_text("Risultati")
    expect(page.get_by_test_id("turn-indicator")).to_contain_text("Partita finita")
    # Stored on the profile: a reload asking for Russian stays Italian.
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "it")
    assert app(page).get_attribute("data-status") == "finished"


@pytest.mark.parametrize(
    ("locale", "lang", "variant", "seats", "expect_text"),
    [
        ("ro-RO", "ro", "Golf", 2, "Pachet"),
        ("es-ES", "es", "Keft", 3, "cartas"),
    ],
)
def test_golf_in_romanian_and_keft_in_spanish_on_a_phone(
    chromium_browser, live_site, locale, lang, variant, seats, expect_text
):
    page = open_page(chromium_browser, live_site, locale, width=390, height=844)
    sign_up(page, "Mobil")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    open_bot_table(page, variant, seats, seats - 1)
    expect(page.get_by_test_id("game")).to_contain_text(expect_text, timeout=30_000)
    assert_no_english(page, f"{variant} in {lang}")
