"""The account pages, their messages and mails in each language's one register
(issue 35, points 5 and 6; locale/README.md).

Django's and django-allauth's own texts come from their catalogs, except
where those fall short: locale/overrides/ supplies Django's password messages
in Italian and Romanian, Romanian with its diacritics, Spanish in "tú", and
Italian and French without a guessed gender.
"""

from __future__ import annotations

import re
from pathlib import Path

import allauth
import django
import polib
import pytest
from django.conf import settings
from django.core import mail
from django.test import Client

from tests.support.outbox import send_outbox

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]


@pytest.fixture(autouse=True)
def _no_account_rate_limits(settings) -> None:
    """Many sign-ups and resets in a row: keep the other tests' per-address budget."""
    settings.ACCOUNT_RATE_LIMITS = False


OVERRIDES = Path(settings.BASE_DIR) / "locale" / "overrides"
STRONG = "a-long Passphrase 42!"
# Romanian written without its diacritics, as allauth's own catalog has it.
BARE_ROMANIAN = ["Conecteaza", "Inregistreaza", "Iti multumim", "Te rugam", "parola actuala"]


def _sign_up(lang: str, password: str = STRONG, email: str = "nou@example.com"):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    data = {
        "email": email,
        "display_name": f"Nou{lang}",
        "password1": password,
        "password2": password,
    }
    return client, client.post("/accounts/signup/", data, follow=True)


@pytest.mark.parametrize(
    ("lang", "short"),
    [
        ("it", "Questa password è troppo corta: deve contenere almeno 8 caratteri."),
        ("ro", "Parola este prea scurtă: trebuie să conțină cel puțin 8 caractere."),
        ("fr", "Ce mot de passe est trop court."),
        ("ru", "Введённый пароль слишком короткий."),
        ("es", "La contraseña es demasiado corta."),
    ],
)
def test_djangos_password_messages_are_in_the_members_language(lang, short):
    _client, response = _sign_up(lang, password="x7")
    page = response.content.decode()
    assert short in page
    assert "This password is too short" not in page


def test_romanian_account_pages_have_their_diacritics():
    client = Client(HTTP_ACCEPT_LANGUAGE="ro")
    for url in ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]:
        page = client.get(url).content.decode()
        assert not [w for w in BARE_ROMANIAN if w in page], url
    assert "Conectează-te" in client.get("/accounts/login/").content.decode()
    assert "Ai uitat parola?" in client.get("/accounts/login/").content.decode()


def test_romanian_sign_up_says_what_happened_and_mails_with_diacritics():
    _client, response = _sign_up("ro")
    page = response.content.decode()
    assert "Bun venit în club" in page
    # allauth's own Romanian said "Confirma e-mailul trimis" ("confirm the e-mail sent").
    assert "E-mailul de confirmare a fost trimis la nou@example.com." in page
    assert "Confirma e-mailul" not in page
    send_outbox()
    body = mail.outbox[-1].body
    assert "Ca să confirmi că este a ta, deschide acest link:" in body
    assert not [w for w in BARE_ROMANIAN if w in body]


def test_spanish_account_pages_and_mails_speak_tu():
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    page = client.get("/accounts/login/").content.decode()
    assert "¿Has olvidado tu contraseña?" in page
    assert not re.search(r"\b(usted|su contraseña|Introduzca|inicie sesión)\b", page)
    _client, response = _sign_up("es", email="nuevo@example.com")
    send_outbox()
    body = mail.outbox[-1].body
    assert not re.search(r"\b(usted|Usted|Está recibiendo)\b", body), body


@pytest.mark.parametrize(("lang", "guessed"), [("it", "Sei sicuro"), ("fr", "sûr(e)")])
def test_sign_out_asks_without_guessing_a_gender(lang, guessed):
    client, _response = _sign_up(lang, email=f"{lang}@example.com")
    page = client.get("/accounts/logout/").content.decode()
    assert guessed not in page
    assert {"it": "Vuoi davvero uscire?", "fr": "Voulez-vous vraiment vous déconnecter ?"}[
        lang
    ] in page


def test_every_override_still_names_a_message_django_or_allauth_has():
    # After an upgrade a moved message id would silently stop overriding.
    sources = []
    for root in [Path(django.__file__).parent / "contrib" / "auth", Path(allauth.__file__).parent]:
        for path in root.rglob("*"):
            if path.suffix in {".py", ".html", ".txt"} and "locale" not in path.parts:
                sources.append(path.read_text(encoding="utf-8", errors="ignore"))
    text = "\n".join(sources)
    missing = []
    for po in OVERRIDES.glob("*/LC_MESSAGES/django.po"):
        for entry in polib.pofile(str(po)):
            start = re.split(r"%\(|%d|<", entry.msgid, maxsplit=1)[0].strip()
            if start and start not in text:
                missing.append((po.parts[-3], entry.msgid[:60]))
    assert missing == []


def test_sign_up_page_reads_as_the_club_writes_in_english_french_and_russian():
    # Review 2026-12-06: N3 (Title Case), F6 (French sign-up), R6 ("распространенным").
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/accounts/signup/").content.decode()
    assert "Sign up" in english and "Sign Up" not in english
    french = Client(HTTP_ACCEPT_LANGUAGE="fr").get("/accounts/signup/").content.decode()
    assert "Déjà membre ?" in french and "Créer mon compte" in french
    assert "Adresse e-mail" in french
    assert not [w for w in ["Courriel", "Vous pouvez donc", "Création de compte"] if w in french]
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get("/accounts/signup/").content.decode()
    assert "распространённым" in russian and "распространенным" not in russian
