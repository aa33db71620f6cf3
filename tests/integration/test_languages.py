"""Which language a visitor and a member get (README, "Languages")."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from club.i18n import language_from_scope
from club.models import Player
from tests.support.members import member

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def _lang(response) -> str:
    content = response.content.decode()
    return content.split('<html lang="', 1)[1].split('"', 1)[0]


def test_first_visit_follows_accept_language():
    client = Client(HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9,en;q=0.5")
    response = client.get("/")
    assert _lang(response) == "ru"
    assert "Открытые столы" in response.content.decode()
    assert response["Content-Language"] == "ru"


def test_unknown_language_falls_back_to_english():
    response = Client(HTTP_ACCEPT_LANGUAGE="pt-BR,pt;q=0.9").get("/")
    assert _lang(response) == "en"
    assert "Open tables" in response.content.decode()


def test_picker_sets_the_language_and_returns_to_the_page():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.post("/i18n/setlang/", {"language": "it", "next": "/series/"})
    assert response.status_code == 302
    assert response["Location"] == "/series/"
    assert response.cookies[COOKIE].value == "it"
    assert _lang(client.get("/series/")) == "it"


def test_picker_is_a_form_on_every_page_that_needs_no_javascript():
    content = Client().get("/rules/").content.decode()
    assert 'action="/i18n/setlang/"' in content
    assert 'name="next" value="/rules/"' in content
    for code, _name in settings.LANGUAGES:
        assert f'<option value="{code}"' in content


def test_picker_refuses_an_unknown_language_and_changes_nothing():
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert response.status_code == 302
    assert COOKIE not in response.cookies
    assert _lang(client.get("/")) == "en"


def test_members_choice_is_stored_and_wins_on_another_device():
    anna = member("Anna")
    laptop = Client(HTTP_ACCEPT_LANGUAGE="en")
    laptop.force_login(anna.user)
    laptop.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    anna.refresh_from_db()
    assert anna.language == "fr"

    phone = Client(HTTP_ACCEPT_LANGUAGE="es")
    phone.cookies[COOKIE] = "ro"
    phone.force_login(anna.user)
    response = phone.get("/")
    assert _lang(response) == "fr"
    assert response.cookies[COOKIE].value == "fr"  # the cookie follows, for the websocket


def test_signing_in_stores_the_language_being_browsed():
    anna = member("Anna")
    client = Client(HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9")
    response = client.post(
        "/accounts/login/", {"login": "anna@example.com", "password": "pw"}, follow=True
    )
    assert response.status_code == 200
    anna.refresh_from_db()
    assert anna.language == "es"
    assert _lang(response) == "es"


def test_signing_in_keeps_an_already_stored_language():
    anna = member("Anna")
    Player.objects.filter(pk=anna.pk).update(language="ru")
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    response = client.post(
        "/accounts/login/", {"login": "anna@example.com", "password": "pw"}, follow=True
    )
    anna.refresh_from_db()
    assert anna.language == "ru"
    assert _lang(response) == "ru"


def _scope(user=None, cookie=None, accept=None) -> dict:
    headers = [(b"accept-language", accept.encode())] if accept else []
    return {"user": user, "cookies": {COOKIE: cookie} if cookie else {}, "headers": headers}


def test_socket_language_order_profile_then_cookie_then_accept_language():
    from django.contrib.auth.models import AnonymousUser

    anna = member("Anna")
    anon = AnonymousUser()
    assert language_from_scope(_scope(anon)) == "en"
    assert language_from_scope(_scope(anon, accept="fr-CA,fr;q=0.8")) == "fr"
    assert language_from_scope(_scope(anon, accept="de,ro;q=0.5")) == "ro"
    assert language_from_scope(_scope(anon, cookie="es", accept="fr")) == "es"
    assert language_from_scope(_scope(anon, cookie="xx", accept="fr")) == "fr"
    assert language_from_scope(_scope(anna.user, cookie="es", accept="fr")) == "es"
    Player.objects.filter(pk=anna.pk).update(language="it")
    fresh = type(anna.user).objects.get(pk=anna.user_id)
    assert language_from_scope(_scope(fresh, cookie="es", accept="fr")) == "it"
