"""What crawlers and audits read: robots.txt and each page's description."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_robots_txt_keeps_crawlers_to_the_pages():
    response = Client().get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert lines[0] == "User-agent: *"
    assert "Disallow: /admin/" in lines
    # The pages themselves stay crawlable (an audit's "is-crawlable").
    assert not any(line in ("Disallow: /", "Disallow: /accounts/") for line in lines)


@pytest.mark.parametrize("path", ["/", "/series/", "/ratings/", "/rules/", "/accounts/login/"])
def test_every_page_has_a_meta_description(path):
    content = Client().get(path).content.decode()
    assert '<meta name="description" content="' in content
    description = content.split('<meta name="description" content="', 1)[1].split('"', 1)[0]
    assert len(description) > 50
