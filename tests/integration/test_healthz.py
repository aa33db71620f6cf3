"""/healthz: what a proxy or a monitor asks each process."""

from __future__ import annotations

import pytest
from django.db import DatabaseError


@pytest.mark.django_db
def test_healthz_answers_ok_when_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok\n"


@pytest.mark.django_db
def test_healthz_answers_503_when_the_database_does_not(client, monkeypatch):
    def refuse(*args, **kwargs):
        raise DatabaseError("connection refused")

    monkeypatch.setattr("django.db.backends.utils.CursorWrapper.execute", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert b"database unavailable" in response.content
