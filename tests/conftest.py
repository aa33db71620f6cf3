"""Shared fixtures: a real daphne site for end-to-end tests, and a real Chromium."""

from __future__ import annotations

import os
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator

from tests.support.server import DaphneServer, SiteDatabase

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# Channels' test communicator gives up on a frame after 1 s unless told otherwise. With
# CI's two passes sharing two cores a consumer can take longer than that to answer; a
# frame that never comes still fails its test, after RECEIVE_SECONDS. An explicit
# timeout (and receive_nothing's) is kept.
RECEIVE_SECONDS = 10


def _patient(method):
    async def wait(self, timeout=RECEIVE_SECONDS):  # noqa: ASYNC109 (channels' own signature)
        return await method(self, timeout)

    wait.__doc__ = method.__doc__
    return wait


for _name in ("connect", "receive_from", "receive_json_from"):
    setattr(WebsocketCommunicator, _name, _patient(getattr(WebsocketCommunicator, _name)))


def pytest_configure(config: pytest.Config) -> None:
    """The test database is a file, as the site's; parallel workers (`make check`
    runs pytest-xdist) keep their databases, Redis keys and groups apart."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    from django.conf import settings

    # On SQLite the test database is a file in WAL mode, like the site's own
    # (club/settings.py), not pytest-django's in-memory shared cache: there a
    # read on a thread meets a move committing on the event loop at once with
    # "database table is locked" (SQLITE_LOCKED, no busy wait), which no member
    # can meet (CI failed on it once). Measured side by side on the in-process
    # integration tests (farm-bench, A B A B): the same time, 1.01x.
    # A file per process: the club's SQLite engine is not the one pytest-django
    # recognises as in-memory, and xdist workers would share one name.
    database = settings.DATABASES["default"]
    if "sqlite3" in database["ENGINE"] and not database.get("TEST", {}).get("NAME"):
        folder = Path(tempfile.mkdtemp(prefix=f"club-{worker or 'tests'}-"))
        database.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")
    if not worker:
        return
    prefix = f"{settings.CHANNELS_PREFIX}_{worker}"
    if "KEY_PREFIX" in settings.CACHES["default"]:
        settings.CACHES["default"]["KEY_PREFIX"] = prefix
    config_ = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    if "prefix" in config_:
        config_["prefix"] = prefix
    # The socket caps and cooldowns (games.limits) key Redis by it: two workers'
    # members share ids, and shared counts made the flood tests flaky under -n 2.
    settings.CHANNELS_PREFIX = prefix


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup) -> Iterator[None]:
    """pytest-django's test database, with the database threads' connections given
    back before it is dropped (games.db.release_connections says why)."""
    yield
    from games import db

    db.release_connections()


@pytest.fixture(autouse=True)
def _no_house_runner(settings) -> None:
    """In-process tests drive the house runner themselves (games.runner.run_once)."""
    settings.BOT_RUNNER = False


@pytest.fixture(autouse=True)
def _english_between_tests() -> Iterator[None]:
    """A request in another language leaves it active in this thread: reset it after each test."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _seeded_deals(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every deal a test makes in this process comes from a seed of its own name.

    A real table's deal is secret (games.services.draw_seed); a test's must not be
    random, or a rare hand fails it now and then (with two players, about one deal in
    thirty leaves the seat after the 9D no card to play: it passes at once). The seed follows from the test's id, so a failure
    comes back on every run of that test. Deals made by a daphne process a test
    starts stay random; a test that needs a given hand still says its own seed.
    """
    from games import services

    with services.seeded_deals(zlib.crc32(request.node.nodeid.encode())):
        yield


@pytest.fixture(autouse=True)
def _fresh_limits() -> None:
    """No cooldown or socket count carries over from one test to the next (games/limits.py)."""
    from games import limits

    limits.reset()


@pytest.fixture(autouse=True)
def _fresh_account_limits() -> None:
    """allauth counts sign-ups per address in the cache (20 a minute): every test
    client comes from 127.0.0.1, and with fast password hashing the suite signs
    up more than that in a minute. Each test starts with no count, as with limits."""
    from django.conf import settings
    from django.core.cache import cache

    if not settings.REDIS_URL:
        cache.clear()  # the in-process LocMemCache: this process's alone
        return
    import redis

    # On Redis only allauth's keys go: the channel layer shares the database.
    client = redis.Redis.from_url(settings.REDIS_URL)
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")  # per xdist worker
    keys = list(client.scan_iter(f"{prefix}:*:allauth:rl:*"))
    if keys:
        client.delete(*keys)
    client.close()


# Fixtures that start real daphne processes: a test using one is a `server` test
# (left out of `make check`) whether or not its file says so.
SERVER_FIXTURES = {"database", "site_database", "live_site"}


def only_pass(item: pytest.Item) -> str | None:
    """The one CI pass that runs `item` ("embedded" or "postgres"), or None for both.

    CI runs the suite twice, on the embedded default and on PostgreSQL + Redis
    (.ci/run names the pass in TEST_PASS). A test whose outcome cannot depend on
    the database or the channel layer runs in one of them (tests/README.md): the
    pure unit tests and those marked `once` (layout, accessibility, CSP) in the
    embedded pass; those marked `once("postgres")` (they start services of their
    own whatever the pass) in the PostgreSQL one.
    """
    marker = item.get_closest_marker("once")
    if marker is not None:
        return marker.args[0] if marker.args else "embedded"
    return "embedded" if item.path.parent.name == "unit" else None


@pytest.hookimpl(tryfirst=True)  # before `-m` selects on the `server` marks set here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip what needs a service that is not configured, so `make test` is green anywhere."""
    database_url = os.environ.get("DATABASE_URL", "")
    on_postgres = database_url.startswith("postgres")
    skip_pg = pytest.mark.skip(reason="needs DATABASE_URL pointing at PostgreSQL")
    skip_redis = pytest.mark.skip(reason="needs REDIS_URL")
    test_pass = os.environ.get("TEST_PASS", "")
    if test_pass:
        if test_pass not in ("embedded", "postgres"):
            raise pytest.UsageError(f"TEST_PASS is embedded or postgres, not {test_pass!r}")
        other = [item for item in items if only_pass(item) not in (None, test_pass)]
        if other:
            config.hook.pytest_deselected(items=other)
            items[:] = [item for item in items if only_pass(item) in (None, test_pass)]
    # Browser tests last: Playwright's sync API keeps an event loop running in
    # the main thread while a browser is open, which async tests cannot share.
    items.sort(key=lambda item: "browser" in item.keywords)
    for item in items:
        if SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.server)
        if "postgres" in item.keywords and not on_postgres:
            item.add_marker(skip_pg)
        if "redis" in item.keywords and not os.environ.get("REDIS_URL"):
            item.add_marker(skip_redis)


@pytest.fixture(scope="session")
def site_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteDatabase]:
    database = SiteDatabase(tmp_path_factory.mktemp("site"))
    database.create()
    yield database
    database.drop()


@pytest.fixture(scope="session")
def live_site(
    site_database: SiteDatabase, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[DaphneServer]:
    """One real daphne process serving the whole site, shared by the browser tests."""
    server = DaphneServer(site_database, tmp_path_factory.mktemp("logs")).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but no Chromium at {CHROMIUM}: apt-get install -y chromium")
        pytest.skip(f"browser tests need Chromium at {CHROMIUM} (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(chromium_browser, live_site: DaphneServer):
    """Open a fresh browser context (its own cookies) on the live site; call it per person."""
    contexts = []

    def open_page(width: int = 1280, height: int = 900):
        # bypass_csp: Playwright's string predicates (wait_for_function)
        # are evaluated with eval(), which the site's strict CSP forbids;
        # tests/e2e/test_csp_browser.py opens the pages under the policy.
        context = chromium_browser.new_context(
            base_url=live_site.url, viewport={"width": width, "height": height}, bypass_csp=True
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def default_variants():
    """The variants and house bots the migrations create; transactional tests flush them."""
    from club.migrations._house_bots import create_named_bots
    from games.migrations import _defaults

    _defaults.create_default_variants()
    create_named_bots()
