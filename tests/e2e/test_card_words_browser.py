"""Cards named as each language's sentence needs them, in Chromium (issue 42: I6, F4,
R2, E6, O6).

A card a verb acts on carries the article or case of its language ("il dieci di
fiori", "le six de pique", "восьмёрку треф", "el ocho de tréboles", "optul de
caro"), and a row's ends read "from ... to ..." ("от восьмёрки пик до дамы пик").
static/js/cards.js takes each form from the catalog (contexts "rank, object",
"rank, from", "rank, to"); the page's own catalog is the one a member gets.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

NAMES = """async () => {
  const cards = await import("/static/js/cards.js");
  const label = cards.cardLabel("7D", "object");
  return [
    cards.cardName("TC", "object"), cards.cardName("6S", "object"), cards.cardName("QC", "object"),
    cards.cardName("8S", "from"), cards.cardName("QS", "to"), cards.cardName("8D"), label.title,
  ];
}"""

EXPECTED = {
    "en": ["the ten of clubs", "the six of spades", "the queen of clubs",
           "from the eight of spades", "to the queen of spades", "eight of diamonds",
           "the seven of diamonds"],
    "it": ["il dieci di fiori", "il sei di picche", "la donna di fiori", "dall'otto di picche",
           "alla donna di picche", "otto di quadri", "il sette di quadri"],
    "fr": ["le dix de trèfle", "le six de pique", "la dame de trèfle", "du huit de pique",
           "à la dame de pique", "huit de carreau", "le sept de carreau"],
    "ru": ["десятку треф", "шестёрку пик", "даму треф", "от восьмёрки пик", "до дамы пик",
           "восьмёрка бубён", "семёрку бубён"],
    "es": ["el diez de tréboles", "el seis de picas", "la dama de tréboles", "del ocho de picas",
           "a la dama de picas", "ocho de diamantes", "el siete de diamantes"],
    "ro": ["zecele de treflă", "șasele de pică", "dama de treflă", "de la optul de pică",
           "până la dama de pică", "opt de caro", "șeptarul de caro"],
}  # fmt: skip


def test_card_names_take_each_languages_article_and_case(chromium_browser, live_site):
    for lang, expected in EXPECTED.items():
        context = chromium_browser.new_context(
            base_url=live_site.url, locale=lang, extra_http_headers={"Accept-Language": lang}
        )
        try:
            page = context.new_page()
            page.goto("/rules/")
            assert page.locator("html").get_attribute("lang") == lang
            assert page.evaluate(NAMES) == expected, lang
        finally:
            context.close()
