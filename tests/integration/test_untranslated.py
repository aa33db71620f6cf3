"""No English left on a Russian page: the equivalent of a pseudo-locale run.

Every page (home, lobby, table, game, replay data, series list and detail with
standings, player, ratings, rules, sign-up and log-in, 404, CSRF failure) is
rendered for a visitor whose browser asks for Russian, with members, series
and variants whose names are Russian too. Russian is written in Cyrillic, so
any Latin word of three letters or more that is left in the visible text (or
in an attribute people read: title, aria-label, placeholder, alt, value of a
button) is English that was never marked for translation, unless it is one of
the few deliberate exceptions below (card codes, protocol words, proper names).
The table's live frames are checked the same way.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from club.asgi import application
from club.models import Player, Series
from games.models import Variant
from tests.support.finished import finished_game

pytestmark = pytest.mark.django_db(transaction=True)

# Words that are not English prose: key names, the Golf protocol's move words
# quoted in help texts, brands and formats, the picker's own language names.
ALLOWED = {
    "json",
    "csv",
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
}
WORD = re.compile(r"\b[A-Za-z][A-Za-z']{2,}\b")
ATTRS = re.compile(r'\s(?:title|aria-label|placeholder|alt|aria-valuetext)="([^"]*)"')


def _visible_text(page: str) -> str:
    page = re.sub(r"<(script|style|svg|noscript)\b.*?</\1>", " ", page, flags=re.S | re.I)
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


@pytest.fixture
def russian_club(default_variants):
    """A club whose own data is Russian: names, a series, finished games of each game."""
    devyatka = Variant.objects.get(name="Devyatka")
    golf = Variant.objects.get(name="Golf")
    series = Series.objects.create(
        name="Осенняя серия", slug="autumn", variant=devyatka, min_games=1
    )
    game, players = finished_game(devyatka, ["Анна", "Борис", "Вера"], seed=7, series=series)
    golf_game, _ = finished_game(golf, ["Глеб", "Дина"], seed=3)
    bots = set(Player.objects.bots().values_list("display_name", flat=True))
    return {"game": game, "golf": golf_game, "players": players, "series": series, "bots": bots}


def _pages(club) -> list[str]:
    anna = club["players"][0]
    return [
        "/",
        "/tables/",
        f"/games/{club['game'].pk}/",
        f"/games/{club['golf'].pk}/",
        "/series/",
        f"/series/{club['series'].slug}/",
        f"/players/{anna.pk}/",
        "/ratings/",
        "/rules/",
        "/accounts/signup/",
        "/accounts/login/",
        "/no/such/page/",
    ]


def test_every_page_is_russian_for_a_russian_visitor(russian_club):
    client = Client(HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9")
    names = russian_club["bots"]
    found = {}
    for url in _pages(russian_club):
        response = client.get(url)
        assert response.status_code in (200, 404), url
        words = english_words(response.content.decode(), names)
        if words:
            found[url] = words
    assert found == {}, f"English never marked for translation: {found}"


def test_signed_in_pages_and_forms_are_russian(russian_club):
    anna = russian_club["players"][0]
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(anna.user)
    found = {}
    for url in [
        "/",
        "/tables/",
        f"/players/{anna.pk}/",
        f"/tables/{russian_club['game'].table_id}/",
    ]:
        words = english_words(client.get(url).content.decode(), russian_club["bots"])
        if words:
            found[url] = words
    # A form with errors: the lobby's, with a number of seats out of range.
    variant = Variant.objects.get(name="Devyatka")
    response = client.post("/tables/", {"variant": variant.pk, "seats": 40})
    words = english_words(response.content.decode(), russian_club["bots"])
    if words:
        found["lobby form errors"] = words
    assert found == {}, f"English never marked for translation: {found}"


def test_csrf_failure_page_is_russian(russian_club):
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="ru")
    response = client.post("/i18n/setlang/", {"language": "ru"})
    assert response.status_code == 403
    assert english_words(response.content.decode(), set()) == []


@pytest.mark.asyncio
async def test_live_frames_carry_no_english_for_a_russian_socket(default_variants):
    from tests.integration.test_table_ws import session_cookie, started_table

    table, (anna, boris) = await database_sync_to_async(started_table)()
    await database_sync_to_async(Player.objects.filter(pk=anna.player.pk).update)(language="ru")
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
    leftovers = {m: english_words(m, set()) for m in messages}
    # Quoted client input ('dance', 'XX') and field names stay as sent.
    leftovers = {
        m: [w for w in ws_ if w not in {"dance", "move", "card", "version", "str", "int"}]
        for m, ws_ in leftovers.items()
    }
    assert {m: w for m, w in leftovers.items() if w} == {}
