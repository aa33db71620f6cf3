"""What members read of the club's own data, in their language (issue 35, points 3, 7, 8).

A house bot is its first name with its level as a translated label, once; the
picker names each language in that language; the demo's variant and series
are shown translated while outside clients keep the stored names; figures,
percentages, dates and the "Recent" marks are written as the language writes
them.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from club.demo import PASS_RULE_VARIANT, SERIES
from club.models import Player, Series
from games import services
from games.models import Variant
from games.services.replays import replay
from games.services.snapshots import snapshot
from tests.support.finished import finished_game
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]


def _text(page: str) -> str:
    page = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


@pytest.fixture
def bot_table():
    anna = member("Anna")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 3)
    services.add_bot(anna, table.pk, "heuristic")
    return table, anna


def test_a_house_bots_level_is_a_translated_label_shown_once(bot_table):
    table, anna = bot_table
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(anna.user)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    seats = [_text(li) for li in re.findall(r'<li class="seat taken".*?</li>', page, re.S)]
    text = next(seat for seat in seats if "Hugo" in seat)
    assert "Hugo" in text
    assert text.count("эвристический бот") == 1
    assert "heuristic" not in _text(page)
    assert "(bot)" not in page


def test_the_state_frame_adds_a_bots_first_name_and_level_and_keeps_its_name(bot_table):
    table, _anna = bot_table
    seats = snapshot(table, None)["table"]["seats"]
    bot = next(s for s in seats if s["bot"])
    member_seat = next(s for s in seats if not s["bot"])
    assert bot["name"] == "Hugo (heuristic bot)"  # unchanged for outside clients
    assert (bot["bot_name"], bot["level"]) == ("Hugo", "heuristic")
    assert "bot_name" not in member_seat and "level" not in member_seat


def test_a_replays_bot_says_its_first_name_and_level():
    devyatka = Variant.objects.get(name="Devyatka")
    game, _players = finished_game(devyatka, ["Anna", "Boris"], seed=7)
    bot = Player.objects.bots().get(display_name="Sasha (search bot)")
    game.players = [game.players[0], bot.pk]
    game.save(update_fields=["players"])
    players = replay(game)["players"]
    assert players[1]["name"] == "Sasha (search bot)"
    assert (players[1]["bot_name"], players[1]["level"]) == ("Sasha", "search")
    assert "bot_name" not in players[0]


def test_a_bots_page_and_the_ratings_name_it_once(client):
    bot = Player.objects.bots().get(display_name="Hugo (heuristic bot)")
    with translation.override("it"):
        page = Client(HTTP_ACCEPT_LANGUAGE="it").get(f"/players/{bot.pk}/").content.decode()
    heading = _text(re.search(r'<h1 data-testid="profile-name">.*?</h1>', page, re.S).group(0))
    assert heading.split() == ["Hugo", "(bot", "euristico)"]
    assert "<title>Hugo ·" in page


def test_the_picker_names_every_language_in_its_own_language():
    names = dict(settings.LANGUAGES)
    for code in names:
        page = Client(HTTP_ACCEPT_LANGUAGE=code).get("/rules/").content.decode()
        options = dict(re.findall(r'<option value="(\w+)" lang="\w+"[^>]*>([^<]+)</option>', page))
        assert options == names, code
        assert "js/language-picker.js" in page  # switches on choosing; the button stays
        assert 'data-testid="language-go"' in page


def test_the_pickers_script_submits_the_form_on_change():
    script = (settings.BASE_DIR / "static" / "js" / "language-picker.js").read_text()
    assert 'addEventListener("change"' in script and "requestSubmit()" in script


def test_the_demos_variant_and_series_are_shown_translated_and_stored_in_english():
    variant = Variant.objects.create(
        **{**PASS_RULE_VARIANT, "options": PASS_RULE_VARIANT["options"]}
    )
    spec = SERIES[0]
    series = Series.objects.create(
        name=spec.name, slug=spec.slug, variant=variant, description=spec.description
    )
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/series/{series.slug}/").content.decode()
    text = _text(page)
    assert "Зимняя девятка" in text
    assert "Девятка, правило пасов" in text
    assert "Очки за места, с правилом пасов" in text
    assert spec.name not in text and spec.description not in text
    series.refresh_from_db()
    assert series.name == "Winter Nines"  # the stored name, as the admin and clients read it
    made_up = Series.objects.create(name="Пятничная лига", slug="friday", variant=variant)
    with translation.override("fr"):
        assert str(made_up) == "Пятничная лига"
        assert str(series) == "Les neuf d'hiver"


@pytest.mark.parametrize(
    ("code", "figure", "share", "when"),
    [
        ("en", "2.40", "50.00%", "5 Dec 2026, 18:00"),
        ("fr", "2,40", "50,00\u202f%", "5 déc 2026 à 18:00"),
        ("ru", "2,40", "50,00\u00a0%", "5 декабря 2026, 18:00"),
        ("it", "2,40", "50,00%", "5 dic 2026, alle 18:00"),
        ("es", "2,40", "50,00\u00a0%", "5 dic 2026, 18:00"),
        ("ro", "2,40", "50,00\u00a0%", "5 dec 2026, 18:00"),
    ],
)
def test_figures_percentages_and_dates_are_written_as_the_language_writes_them(
    code, figure, share, when
):
    template = Template(
        "{% load club_tags %}{{ figure|decimal }}|{{ share|percent }}|{{ when|day_month_year_time }}"
    )
    moment = datetime.datetime(2026, 12, 5, 18, 0, tzinfo=datetime.UTC)
    with translation.override(code):
        rendered = template.render(Context({"figure": "2.40", "share": "50.00", "when": moment}))
    assert rendered.split("|") == [figure, share, when]


def test_a_series_standings_use_the_languages_decimal_comma():
    devyatka = Variant.objects.get(name="Devyatka")
    series = Series.objects.create(name="Autumn", slug="autumn", variant=devyatka, min_games=1)
    finished_game(devyatka, ["Anna", "Boris", "Vera"], seed=7, series=series)
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/series/autumn/").content.decode()
    french = Client(HTTP_ACCEPT_LANGUAGE="fr").get("/series/autumn/").content.decode()
    figures = re.findall(r'<td class="num">(\d+\.\d+)</td>', english)
    assert figures, "the standings show decimal figures"
    for figure in figures:
        assert f'<td class="num">{figure.replace(".", ",")}</td>' in french


def test_a_single_loser_series_recent_marks_are_the_languages_letters():
    template = Template("{% load club_tags %}{% for m in marks %}{{ m|recent_mark }}{% endfor %}")
    with translation.override("ru"):
        assert template.render(Context({"marks": ["L", "W", "2"]})) == "ПН2"
    with translation.override("en"):
        assert template.render(Context({"marks": ["L", "W"]})) == "LW"


def test_the_turn_clock_unit_is_translated():
    script = (settings.BASE_DIR / "static" / "js" / "table.js").read_text()
    assert "`${left}s`" not in script
    assert 'interpolate(gettext("%(seconds)ss"), { seconds: left }, true)' in script


@pytest.mark.parametrize("lang", ["it", "fr", "ru", "es", "ro"])
def test_every_demo_name_and_description_has_a_translation(lang):
    from django.utils.translation import pgettext

    from duplicate import demo as duplicate_demo

    names = [spec.name for spec in SERIES] + [duplicate_demo.NAME]
    descriptions = [spec.description for spec in SERIES] + [duplicate_demo.DESCRIPTION]
    with translation.override(lang):
        untranslated = [n for n in names if pgettext("series name", n) == n]
        untranslated += [d for d in descriptions if pgettext("series description", d) == d]
        name = PASS_RULE_VARIANT["name"]
        if pgettext("variant name", name) == name:
            untranslated.append(name)
    assert untranslated == []
