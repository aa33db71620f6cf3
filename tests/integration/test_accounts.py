"""Sign-up, profiles and the account pages, through allauth's real views."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import IntegrityError
from django.urls import reverse

from club.models import Player
from tests.support.outbox import send_outbox

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"


def signup(client, email="anna@example.com", name="Anna", password=PASSWORD, password2=None):
    return client.post(
        reverse("account_signup"),
        {
            "email": email,
            "display_name": name,
            "password1": password,
            "password2": password if password2 is None else password2,
        },
    )


def test_signup_creates_user_and_player_and_logs_in(client):
    response = signup(client)
    assert response.status_code == 302
    player = Player.objects.members().get()
    assert player.display_name == "Anna"
    assert player.user.email == "anna@example.com"
    home = client.get("/")
    assert home.context["user"].is_authenticated
    assert b"Anna" in home.content


def test_signup_page_renders_display_name_field(client):
    response = client.get(reverse("account_signup"))
    assert response.status_code == 200
    assert b'name="display_name"' in response.content


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"name": "anna"}, "display name is taken"),
        ({"email": "b@example.com", "name": "Bee", "password": "123"}, "too short"),
        (
            {"email": "b@example.com", "name": "Bee", "password2": "different-pass-1"},
            "same password",
        ),
        ({"email": "b@example.com", "name": "x"}, "3 to 30"),
    ],
)
def test_bad_signup_shows_form_error_and_creates_nothing(client, kwargs, error):
    signup(client)
    client.logout()
    before = (get_user_model().objects.count(), Player.objects.count())
    response = signup(client, **kwargs)
    assert response.status_code == 200
    assert error in response.content.decode()
    assert (get_user_model().objects.count(), Player.objects.count()) == before


def test_every_user_gets_a_player_even_outside_signup():
    user = get_user_model().objects.create_user("zed", "zed@example.com", "pw-123456789")
    assert user.player.display_name == "zed"
    other = get_user_model().objects.create_user("zed2", "ZED@other.org", "pw-123456789")
    assert other.player.display_name != "zed"


def test_display_name_unique_whatever_the_case_in_database():
    user = get_user_model().objects.create_user("a1", "a1@example.com", "pw-123456789")
    user.player.display_name = "Anna"
    user.player.save()
    other = get_user_model().objects.create_user("a2", "a2@example.com", "pw-123456789")
    other.player.display_name = "ANNA"
    with pytest.raises(IntegrityError):
        other.player.save()


def test_login_and_logout(client):
    signup(client)
    client.post(reverse("account_logout"))
    assert not client.get("/").context["user"].is_authenticated
    response = client.post(
        reverse("account_login"), {"login": "anna@example.com", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert client.get("/").context["user"].is_authenticated


def test_wrong_password_is_a_form_error(client):
    signup(client)
    client.post(reverse("account_logout"))
    response = client.post(
        reverse("account_login"), {"login": "anna@example.com", "password": "nope-nope-1"}
    )
    assert response.status_code == 200
    assert "not correct" in response.content.decode()


def test_password_reset_sends_mail(client, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    signup(client)
    client.post(reverse("account_logout"))
    send_outbox()  # the confirmation mail
    mail.outbox.clear()
    response = client.post(reverse("account_reset_password"), {"email": "anna@example.com"})
    assert response.status_code == 302
    send_outbox()
    assert len(mail.outbox) == 1
    assert "/accounts/password/reset/key/" in mail.outbox[0].body


def test_profile_page_by_id_and_old_name_address_redirects(client):
    signup(client)
    anna = Player.objects.get(display_name="Anna")
    response = client.get(f"/players/{anna.pk}/")
    assert response.status_code == 200
    assert b"Anna" in response.content
    old = client.get("/players/anna/")  # case-insensitive, permanent
    assert old.status_code == 301 and old["Location"] == f"/players/{anna.pk}/"
    assert client.get("/players/nobody-here/").status_code == 404
    assert client.get("/players/999999/").status_code == 404
