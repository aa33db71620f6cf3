"""Account mails (allauth's) and the sender of every mail, against a real SMTP server
(issue 42: mail points A18-A20, "account mail never holds a page", the
"account already exists" limit).

The sign-up, reset and sign-in pages only queue their mail (notifications/account.py);
the worker's send pass (tests/support/outbox.py, run on the test's thread) sends it.
"""

from __future__ import annotations

import datetime
import re
import time

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from club.models import Player
from notifications import mailer
from notifications.models import Notification, OutgoingMail
from tests.integration.mailbox import Mailbox, body
from tests.support.members import member
from tests.support.outbox import send_outbox

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]

SITE = "http://club.test"
PASSWORD = "a-long Passphrase 42!"
CLUB = {
    "en": "Card Club",
    "it": "Club di Carte",
    "fr": "Club de Cartes",
    "ru": "Карточный клуб",
    "es": "Club de Cartas",
    "ro": "Clubul de Cărți",
}
# One line of each kind's text, as a member reads it (the subject follows "[club] ").
SUBJECTS = {
    "en": ["Confirm your email address", "Choose a new password", "You already have an account",
           "No account uses this address"],
    "it": ["Conferma il tuo indirizzo email", "Scegli una nuova password", "Hai già un account",
           "Nessun account usa questo indirizzo"],
    "fr": ["Confirmez votre adresse e-mail", "Choisissez un nouveau mot de passe",
           "Vous avez déjà un compte", "Aucun compte n'utilise cette adresse"],
    "ru": ["Подтвердите адрес электронной почты", "Задайте новый пароль",
           "У вас уже есть учётная запись", "С этим адресом нет учётной записи"],
    "es": ["Confirma tu dirección de correo", "Elige una contraseña nueva", "Ya tienes una cuenta",
           "Ninguna cuenta usa esta dirección"],
    "ro": ["Confirmă-ți adresa de e-mail", "Alege o parolă nouă", "Ai deja un cont",
           "Niciun cont nu folosește această adresă"],
}  # fmt: skip
# What the review found in allauth's own texts (A20, I8, F7, R5, E3, N3).
NOT_READ = [
    "127.0.0.1", "Hello from", "Please Confirm", "Grazie per usare",
    "se connecter", "Ваш адрес", "vete a", "Ciao da",
]  # fmt: skip


@pytest.fixture
def mailbox(settings):
    box = Mailbox().start()
    for name, value in box.settings().items():
        setattr(settings, name, value)
    settings.SITE_URL = SITE
    settings.NOTIFY_RETRY_SECONDS = 0.05
    settings.NOTIFY_RETRY_MAX_SECONDS = 0.2
    # allauth's own per-address limits would stop the repeated forms below first.
    settings.ACCOUNT_RATE_LIMITS = False
    mailer.reset()
    yield box
    box.stop()
    mailer.reset()


def sign_up(lang: str, email: str, name: str) -> int:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    data = {"email": email, "display_name": name, "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", data).status_code


def reset(lang: str, email: str) -> int:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    return client.post("/accounts/password/reset/", {"email": email}).status_code


@pytest.mark.parametrize("lang", list(CLUB))
def test_each_account_mail_names_the_club_in_the_members_language(mailbox, lang):
    address = f"{lang}@example.com"
    assert sign_up(lang, address, f"Nuovo{lang}") == 302  # the confirmation
    assert reset(lang, address) == 302  # the password reset
    assert sign_up(lang, address, f"Altro{lang}") == 302  # "an account already exists"
    assert reset(lang, f"nobody-{lang}@example.com") == 302  # "no account uses this address"
    assert send_outbox() == 4
    messages = mailbox.wait_for(4)
    club = CLUB[lang]
    # (A non-ASCII subject is folded after "Subject:": the parser keeps a leading space.)
    subjects = [str(m["Subject"]).strip() for m in messages]
    assert subjects == [f"[{club}] {subject}" for subject in SUBJECTS[lang]]
    for message in messages:
        [sender] = message["From"].addresses
        assert (sender.display_name, sender.addr_spec) == (club, "club@localhost")
        text = body(message).replace("\r\n", "\n")
        assert "\n-- \n" in text, text  # a signature separator mail clients recognise
        assert text.rstrip().endswith(f"{club} · {SITE}")
        assert not [word for word in NOT_READ if word in text], text
        assert message["Auto-Submitted"] == "auto-generated"
    # The links are the request's own address (the test client's "testserver").
    confirm, password, exists, unknown = (body(m) for m in messages)
    assert "/accounts/confirm-email/" in confirm and f"Nuovo{lang}" in confirm
    assert "/accounts/password/reset/key/" in password
    assert "/accounts/password/reset/" in exists and address in exists
    assert "/accounts/signup/" in unknown
    # The one-time links are not kept once the mail went out.
    assert not OutgoingMail.objects.exclude(body="").exists()


def test_the_notification_mails_sender_and_signature_are_the_members_language(mailbox):
    for lang in ["fr", "ru"]:
        reader = member(f"Reader{lang}")
        reader.language = lang
        reader.save()
        Notification.objects.create(
            player=reader,
            kind="message",
            data={"text": "Bonjour"},
            mail_state=Notification.Mail.PENDING,
            mail_due=timezone.now(),
        )
    mailer.pump()
    by_language = {m["To"].addresses[0].addr_spec[6:8]: m for m in mailbox.wait_for(2)}
    for lang, message in by_language.items():
        assert message["From"].addresses[0].display_name == CLUB[lang]
        assert "\n-- \n" in body(message).replace("\r\n", "\n")
    # French typography: a space before the colon, inside the translation (F2).
    french = body(by_language["fr"])
    assert re.search(r"« Messages du club » : http://club\.test/notifications/unsubscribe/", french)
    assert "Réglages des notifications : http://club.test/notifications/" in french


def test_a_sign_up_while_the_mail_server_is_down_answers_and_the_mail_follows(mailbox):
    mailbox.stop()  # the server is down: the connection is refused
    assert sign_up("it", "giulia@example.com", "Giulia") == 302  # not a 500
    assert Player.objects.filter(display_name="Giulia").exists()
    assert send_outbox() == 0  # still down: the mail waits
    [queued] = OutgoingMail.objects.all()
    assert (queued.state, queued.kind, queued.address) == (
        "queued",
        "account_confirm",
        "giulia@example.com",
    )
    mailbox.start()  # back on the same port
    mailer.reset()  # the worker's retry time has come
    assert send_outbox() == 1
    [message] = mailbox.wait_for(1)
    assert str(message["Subject"]).strip() == "[Club di Carte] Conferma il tuo indirizzo email"
    assert OutgoingMail.objects.get().state == "sent"


def test_a_slow_mail_server_does_not_hold_the_sign_up(mailbox):
    mailbox.hold = 30.0  # the server would wait 30 s before accepting a mail
    started = time.monotonic()
    assert sign_up("ro", "ioana@example.com", "Ioana") == 302
    assert time.monotonic() - started < 10
    assert mailbox.messages == []  # the page did not even talk to the server
    assert OutgoingMail.objects.get().state == "queued"


def test_account_exists_mails_at_most_three_a_day_per_address(mailbox, settings):
    assert settings.ACCOUNT_EXISTS_MAILS_PER_DAY == 3
    member("Anna")  # anna@example.com
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        for n in range(6):
            assert sign_up("en", "ANNA@example.com", f"Someone{n}") == 302
            assert reset("en", "stranger@example.com") == 302
        assert send_outbox() == 6
        mails = [(m["To"].addresses[0].addr_spec, str(m["Subject"])) for m in mailbox.messages]
        assert mails.count(("anna@example.com", "[Card Club] You already have an account")) == 3
        assert (
            mails.count(("stranger@example.com", "[Card Club] No account uses this address")) == 3
        )
        clock.shift(datetime.timedelta(hours=23))
        sign_up("en", "anna@example.com", "Again")
        assert send_outbox() == 0  # still within the day
        clock.shift(datetime.timedelta(hours=1, minutes=1))
        sign_up("en", "anna@example.com", "Tomorrow")
        assert send_outbox() == 1  # a day after the first: one more
    assert len(mailbox.wait_for(7)) == 7
