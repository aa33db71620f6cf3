"""Fixtures for the tests that start real daphne processes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.server import SiteDatabase


@pytest.fixture
def database(tmp_path: Path) -> Iterator[SiteDatabase]:
    """A database of its own (SQLite file, or a fresh PostgreSQL database) for the servers."""
    database = SiteDatabase(tmp_path)
    database.create()
    yield database
    database.drop()
