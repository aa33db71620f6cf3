"""A form sent with a stale or missing CSRF token gets a plain-words page, not Django's."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.integration.test_series import make_players

pytestmark = pytest.mark.django_db


def assert_friendly(response) -> None:
    content = response.content.decode()
    assert response.status_code == 403
    assert "Your session changed" in content and "Nothing was changed." in content
    assert 'href="/"' in content  # a way back
    assert "CSRF verification failed" not in content  # not Django's debug-style page
    assert "Card Club" in content  # the site's own layout


def test_csrf_failure_signed_out():
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("account_login"), {"login": "a@example.com", "password": "x"})
    assert_friendly(response)
    assert 'data-testid="sign-in"' in response.content.decode()


def test_csrf_failure_signed_in():
    (anna,) = make_players("Anna")
    client = Client(enforce_csrf_checks=True)
    client.force_login(anna.user)
    response = client.post(reverse("lobby"), {"variant": 1, "seats": 2})
    assert_friendly(response)
    assert 'data-testid="nav-me"' in response.content.decode()


def test_a_valid_token_still_works():
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("account_login"))
    token = client.cookies["csrftoken"].value
    response = client.post(
        reverse("account_login"),
        {"login": "a@example.com", "password": "x", "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 200  # the form's own error, not a CSRF failure


def test_back_link_only_to_this_site():
    client = Client(enforce_csrf_checks=True)
    url = reverse("account_login")
    here = client.post(url, {}, HTTP_REFERER="http://testserver/tables/?series=x")
    assert 'href="http://testserver/tables/?series=x"' in here.content.decode()
    away = client.post(url, {}, HTTP_REFERER="https://evil.example/")
    assert_friendly(away)
    assert "evil.example" not in away.content.decode()


def test_renders_before_the_user_is_known(rf):
    from club.views import csrf_failure

    request = rf.post("/accounts/login/")  # no session or user middleware ran
    assert_friendly(csrf_failure(request, "CSRF cookie not set."))
