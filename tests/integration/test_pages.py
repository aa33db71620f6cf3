"""The public pages render, work as empty states, and errors use our templates."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("url", "text"),
    [
        ("/", "Open tables"),
        ("/rules/", "Devyatka"),
        ("/series/", "House series"),
        ("/tables/", "Tables"),
        ("/accounts/signup/", "Sign up"),
        ("/accounts/login/", "Sign in"),
    ],
)
def test_pages_render(client, url, text):
    response = client.get(url)
    assert response.status_code == 200
    assert text in response.content.decode()
    assert 'name="viewport"' in response.content.decode()


def test_home_empty_state(client):
    content = client.get("/").content.decode()
    assert "No table is waiting" in content
    assert "No house series is running" in content


def test_unknown_url_is_templated_404(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "not on the table" in response.content.decode()


def test_server_error_uses_500_template(settings):
    from club import views

    request = Client().get("/").wsgi_request
    response = views.server_error(request)
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()


def test_admin_requires_login(client):
    response = client.get("/admin/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_demo_data_is_idempotent():
    from django.core.management import call_command

    from club.demo import MEMBERS
    from club.models import Player

    # The games are tested in test_demo_data.py: here, the accounts only.
    call_command("demo_data", "--games", "0")
    call_command("demo_data", "--games", "0")
    assert Player.objects.filter(display_name="Admin", user__is_staff=True).count() == 1
    assert Player.objects.members().count() == 1 + len(MEMBERS)
