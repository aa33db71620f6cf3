"""No English left on a page, in any of the five languages: the equivalent of a pseudo-locale run.

Every kind of page (home, lobby, a table, a game page of each game, series list
and detail with standings, duplicate series, round and traveller, player,
ratings, rules, sign-up, log-in and a sign-up refused by the password rules,
password change, 404, CSRF failure) is rendered for a visitor, and for a
signed-in member, whose language is Italian, French, Russian, Spanish or
Romanian, with members, series and variants whose names are Russian. The
table's live frames are checked the same way.

Russian is written in Cyrillic, so any Latin word of three letters or more
left in the visible text (or in an attribute people read: title, aria-label,
placeholder, alt, value of a button) is English that was never marked for
translation. The other four are written in Latin letters: there a word is
English when it is a word of the club's English texts (every msgid of its
catalogs, and of Django's and django-allauth's) that the language's own
translations never use. Both allow the few deliberate exceptions below (card
codes, protocol words, proper names).
"""

from __future__ import annotations

import datetime
import functools
import html
import json
import re
from pathlib import Path

import allauth
import django
import polib
import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone

from club.asgi import application
from club.models import Player, Series
from games import services
from games.models import Variant
from tests.support import duplicate as dup
from tests.support.finished import finished_game

pytestmark = pytest.mark.django_db(transaction=True)

# Words that are not English prose: key names, the Golf protocol's move words
# quoted in help texts, brands and formats, the picker's own language names.
ALLOWED = {
    "json",
    "csv",
    "ics",  # the calendar file's format (RFC 5545), as the download link names it
    "openskill",
    "plackett",
    "luce",
    "esc",
    "enter",
    "home",
    "end",
    "flip",
    "ready",
    "draw",
    "swap",
    "discard",
    "take",
    "pass",
    "english",
    "italiano",
    "français",
    "español",
    "română",
    "out",  # Golf score table's "out" mark is translated; the CSS class is not text
    "mail",  # "E-mail", as Russian writes it (allauth's own Russian)
}
LANGUAGES = ["it", "fr", "ru", "es", "ro"]
WORD = re.compile(r"\b[A-Za-z][A-Za-z']{2,}\b")
ATTRS = re.compile(r'\s(?:title|aria-label|placeholder|alt|aria-valuetext)="([^"]*)"')


def _visible_text(page: str) -> str:
    page = re.sub(r"<(script|style|svg|noscript)\b.*?</\1>", " ", page, flags=re.S | re.I)
    page = re.sub(r"[\w.+-]+@[\w-]+\.[\w.]+", " ", page)  # the member's own e-mail address
    attributes = " ".join(ATTRS.findall(page))
    buttons = " ".join(re.findall(r'<input[^>]*type="submit"[^>]*value="([^"]*)"', page))
    text = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(f"{text} {attributes} {buttons}")


def english_words(page: str, names: set[str]) -> list[str]:
    words = []
    for word in WORD.findall(_visible_text(page)):
        low = word.lower()
        if low in ALLOWED or word in names or re.fullmatch(r"[0-9TJQKA]+[CDHS]", word):
            continue
        words.append(word)
    return sorted(set(words))


# ---------------------------------------------------------------------------
# English in a language written in Latin letters: a word of the club's English
# texts that the language's own translations never use.

_PLACEHOLDER = re.compile(r"%\([A-Za-z_]+\)[sdf]|%[sd]|\{[A-Za-z_0-9]*\}|<[^>]+>|&[a-z]+;")


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(_PLACEHOLDER.sub(" ", text))}


def _catalogs(lang: str) -> list[Path]:
    django_dir = Path(django.__file__).parent
    allauth_dir = Path(allauth.__file__).parent
    club = Path(settings.BASE_DIR) / "locale"
    return [
        club / lang / "LC_MESSAGES" / "django.po",
        club / lang / "LC_MESSAGES" / "djangojs.po",
        club / "overrides" / lang / "LC_MESSAGES" / "django.po",
        django_dir / "conf" / "locale" / lang / "LC_MESSAGES" / "django.po",
        django_dir / "contrib" / "auth" / "locale" / lang / "LC_MESSAGES" / "django.po",
        allauth_dir / "locale" / lang / "LC_MESSAGES" / "django.po",
    ]


@functools.cache
def _vocabulary(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the English texts' words, the language's translations' words)."""
    english, native = set(), set()
    for path in _catalogs(lang):
        if not path.exists():
            continue
        for entry in polib.pofile(str(path)):
            english |= _words(f"{entry.msgid} {entry.msgid_plural}")
            for text in [entry.msgstr, *entry.msgstr_plural.values()]:
                native |= _words(text)
    return frozenset(english), frozenset(native)


def leftover_english(page: str, lang: str, names: set[str]) -> list[str]:
    """English words on `page` for a reader of `lang` (ru: any Latin word)."""
    if lang == "ru":
        return english_words(page, names)
    english, native = _vocabulary(lang)
    words = []
    for word in WORD.findall(_visible_text(page)):
        low = word.lower()
        if low in ALLOWED or word in names or re.fullmatch(r"[0-9TJQKA]+[CDHS]", word):
            continue
        if low in english and low not in native:
            words.append(word)
    return sorted(set(words))


def test_the_gate_sees_english_in_every_language():
    # What the gate is for: Django's password message that Italian showed in English.
    english = "This password is too short. It must contain at least 8 characters."
    for lang in LANGUAGES:
        assert leftover_english(f"<p>{english}</p>", lang, set()), lang
    assert leftover_english("<p>Questa password è troppo corta.</p>", "it", set()) == []


# ---------------------------------------------------------------------------
# The club every language is checked on


@pytest.fixture
def russian_club(default_variants):
    """A club whose own data is Russian: names, a series, finished games of each
    game, a duplicate series with an open round one member has finished."""
    devyatka = Variant.objects.get(name="Devyatka")
    golf = Variant.objects.get(name="Golf")
    series = Series.objects.create(
        name="Осенняя серия", slug="autumn", variant=devyatka, min_games=1
    )
    game, players = finished_game(devyatka, ["Анна", "Борис", "Вера"], seed=7, series=series)
    golf_game, _ = finished_game(golf, ["Глеб", "Дина"], seed=3)
    duplicate = dup.make_series(devyatka)
    duplicate.name = "Дубль-серия"
    duplicate.save(update_fields=["name"])
    round_ = dup.open_round(duplicate, boards=2)
    dup.finish(dup.start(players[0], round_))
    # A club night under way (issue 43): round 1 seated, one table played out.
    from events import running
    from events import services as event_services
    from events.models import Event, RoundTable

    now = timezone.now()
    night = Event.objects.create(
        name="Пятничный вечер",
        slug="friday",
        variant=devyatka,
        rounds=2,
        min_seats=2,
        max_seats=3,
        signup_opens=now - datetime.timedelta(days=1),
        signup_closes=now + datetime.timedelta(hours=1),
        starts=now + datetime.timedelta(minutes=30),
    )
    for player in players:
        event_services.sign_up(player, night.pk)
    running.start(night.pk)
    services.play_out(RoundTable.objects.filter(round__event=night).first().table_id)
    bots = set(Player.objects.bots().values_list("display_name", flat=True))
    bots |= {name.split(" (")[0] for name in bots}
    return {
        "game": game,
        "golf": golf_game,
        "players": players,
        "series": series,
        "duplicate": duplicate,
        "round": round_,
        "bots": bots,
    }


def _pages(club) -> list[str]:
    anna = club["players"][0]
    duplicate, round_ = club["duplicate"], club["round"]
    return [
        "/",
        "/tables/",
        f"/games/{club['game'].pk}/",
        f"/games/{club['golf'].pk}/",
        "/series/",
        f"/series/{club['series'].slug}/",
        "/duplicate/",
        f"/duplicate/{duplicate.slug}/",
        f"/duplicate/{duplicate.slug}/rounds/{round_.number}/",
        "/nights/",
        "/nights/friday/",
        "/nights/friday/live/",
        f"/players/{anna.pk}/",
        "/ratings/",
        "/rules/",
        "/accounts/signup/",
        "/accounts/login/",
        "/accounts/password/reset/",
        "/no/such/page/",
    ]


def _client(lang: str) -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE=lang)


def test_every_page_is_in_the_visitors_language(russian_club):
    # One club for the five languages: the languages loop inside the test.
    found = {lang: _visitor_leftovers(russian_club, lang) for lang in LANGUAGES}
    assert {lang: f for lang, f in found.items() if f} == {}, "English never marked for translation"


def _visitor_leftovers(russian_club, lang: str) -> dict:
    client = _client(lang)
    names = russian_club["bots"]
    found = {}
    for url in _pages(russian_club):
        response = client.get(url)
        assert response.status_code in (200, 404), url
        words = leftover_english(response.content.decode(), lang, names)
        if words:
            found[url] = words
    # A sign-up refused by the password rules: Django's own messages.
    response = client.post(
        "/accounts/signup/",
        {
            "email": "new@example.com",
            "display_name": "Новичок",
            "password1": "123",
            "password2": "123",
        },
    )
    words = leftover_english(response.content.decode(), lang, names)
    if words:
        found["sign-up refused"] = words
    return found


def test_signed_in_pages_and_forms_are_in_the_members_language(russian_club):
    found = {lang: _member_leftovers(russian_club, lang) for lang in LANGUAGES}
    assert {lang: f for lang, f in found.items() if f} == {}, "English never marked for translation"


def _member_leftovers(russian_club, lang: str) -> dict:
    anna = russian_club["players"][0]
    client = _client(lang)
    client.force_login(anna.user)
    found = {}
    duplicate = russian_club["duplicate"]
    for url in [
        "/",
        "/tables/",
        f"/players/{anna.pk}/",
        f"/tables/{russian_club['game'].table_id}/",
        f"/duplicate/{duplicate.slug}/rounds/1/boards/1/",
        "/accounts/password/change/",
        "/accounts/email/",
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        words = leftover_english(response.content.decode(), lang, russian_club["bots"])
        if words:
            found[url] = words
    # Forms with errors: the lobby's (seats out of range), a password change
    # refused by Django's password rules.
    variant = Variant.objects.get(name="Devyatka")
    response = client.post("/tables/", {"variant": variant.pk, "seats": 40})
    words = leftover_english(response.content.decode(), lang, russian_club["bots"])
    if words:
        found["lobby form errors"] = words
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": "wrong", "password1": "123", "password2": "123"},
    )
    words = leftover_english(response.content.decode(), lang, russian_club["bots"])
    if words:
        found["password change errors"] = words
    return found


def test_csrf_failure_page_is_in_the_visitors_language(default_variants):
    for lang in LANGUAGES:
        client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=lang)
        response = client.post("/i18n/setlang/", {"language": lang})
        assert response.status_code == 403
        assert leftover_english(response.content.decode(), lang, set()) == [], lang


@pytest.mark.asyncio
async def test_live_frames_carry_no_english(default_variants):
    from tests.integration.test_table_ws import session_cookie, started_table

    table, (anna, boris) = await database_sync_to_async(started_table)()
    found = {}
    for lang in LANGUAGES:
        # The socket speaks the member's stored language, read when it connects.
        await database_sync_to_async(Player.objects.filter(pk=anna.player.pk).update)(language=lang)
        cookie = await database_sync_to_async(session_cookie)(anna)
        ws = WebsocketCommunicator(
            application,
            f"/ws/tables/{table.pk}/",
            headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
        )
        assert (await ws.connect())[0]
        state = await ws.receive_json_from()
        version = state["version"]
        bad_frames = [
            "not json",
            '["a list"]',
            '{"type": "dance"}',
            '{"type": "play"}',
            json.dumps({"type": "play", "move": "XX", "version": version}),
            '{"type": "play", "move": "9D", "version": "x"}',
            json.dumps({"type": "handover", "version": version}),
            '{"type": "back"}',
        ]
        messages = []
        for frame in bad_frames:
            await ws.send_to(text_data=frame)
            reply = await ws.receive_json_from()
            assert reply["type"] == "error"
            messages.append(reply["message"])
        await ws.disconnect()
        # Quoted client input ('dance', 'XX') and field names stay as sent.
        quoted = {"dance", "move", "card", "version", "str", "int"}
        for message in messages:
            words = [w for w in leftover_english(message, lang, set()) if w not in quoted]
            if words:
                found[(lang, message)] = words
    assert found == {}
