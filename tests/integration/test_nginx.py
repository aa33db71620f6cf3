"""The shipped nginx example in front of two daphne processes on PostgreSQL + Redis.

nginx runs docs/deploy/nginx-club.conf (only ports and the static path
replaced). Four players and a watcher connect through it, so its least_conn
balancing spreads their sockets over both processes; they play a whole
Devyatka game, and after ten moves one process is SIGKILLed. Its sockets
close, the players reconnect through nginx (which skips the dead process) and
finish on the other one. Nothing is lost: every move any client saw is in the
stored log, the log numbers run without a gap, and replaying it gives the
stored state and result.
"""

from __future__ import annotations

import asyncio
import http.client
import random
import re
import shutil
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.support.nginx import NGINX, Nginx
from tests.support.server import ROOT, DaphneServer, SiteDatabase
from tests.support.tables import (
    TIMEOUT,
    TableClient,
    close_all,
    replay_check,
    run_django,
    started_table,
)

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.server,
    pytest.mark.timeout(240),
    pytest.mark.skipif(
        not shutil.which(NGINX), reason="nginx is not installed (.ci/run installs it)"
    ),
]

KILL_AFTER_MOVES = 10


@pytest.fixture
def site(database: SiteDatabase, tmp_path: Path) -> Iterator[tuple[list[DaphneServer], Nginx]]:
    servers: list[DaphneServer] = []
    proxy = None
    try:
        for _ in range(2):
            # As deployed: the client's address from nginx's X-Forwarded-For.
            servers.append(DaphneServer(database, tmp_path, args=("--proxy-headers",)).start())
        proxy = Nginx(tmp_path / "nginx", [s.port for s in servers], ROOT / "static").start()
        yield servers, proxy
    finally:
        if proxy is not None:
            proxy.stop()
        for server in servers:
            server.stop()


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        return response.status, dict(response.headers), response.read()


def test_nginx_serves_pages_static_files_and_the_health_check(site):
    servers, proxy = site
    status, _, body = fetch(proxy.url + "/healthz")
    assert (status, body) == (200, b"ok\n")
    status, headers, body = fetch(proxy.url + "/static/js/cards.js")
    assert status == 200
    assert body == (ROOT / "static" / "js" / "cards.js").read_bytes()
    assert headers["Server"].startswith("nginx")
    assert "Expires" in headers  # served by nginx itself, not passed to a process
    status, _, body = fetch(proxy.url + "/tables/")
    assert status == 200 and b"<html" in body.lower()
    # A process that is down is skipped: every request still gets an answer.
    servers[0].kill()
    assert [fetch(proxy.url + "/healthz")[0] for _ in range(6)] == [200] * 6


class Player:
    """One connection through the proxy that plays its own turns and reconnects when cut."""

    def __init__(self, client: TableClient, seat: int | None, seed: int) -> None:
        self.client = client
        self.seat = seat
        self.rng = random.Random(seed)
        self.reconnects = 0
        self.events: dict[int, dict] = {}
        self.last: dict = {}

    def _saw(self, frame: dict) -> None:
        if frame.get("type") != "state":
            return
        for event in frame.get("log", []) + frame.get("events", []):
            self.events[event["n"]] = event
        self.last = frame

    async def _reopen(self) -> dict:
        self.reconnects += 1
        frame = await self.client.open()
        self._saw(frame)
        return frame

    async def play(self, first: dict, moved: asyncio.Event, killed: asyncio.Event) -> None:
        self._saw(first)
        frame = first
        while self.last["table"]["status"] == "playing":
            view = self.last["view"]
            try:
                if frame is self.last and self.seat is not None and view["to_move"] == self.seat:
                    await self.client.play(self.rng.choice(view["legal"]), self.last["version"])
                frame = await self.client.receive()
            except ConnectionClosed:
                assert killed.is_set(), "a connection closed before any process was killed"
                frame = await self._reopen()
                continue
            if frame["type"] == "error":
                # A move sent just before the cut may come back stale: ask again.
                assert frame["code"] in {"stale_version", "not_your_turn"}, frame
                await self.client.ws.send('{"type": "sync"}')
                continue
            self._saw(frame)
            if len(self.events) >= KILL_AFTER_MOVES:
                moved.set()
        await self.client.close()


async def test_a_game_through_nginx_survives_losing_one_process(database: SiteDatabase, site):
    servers, proxy = site
    setup = await asyncio.to_thread(started_table, database, 4, "Devyatka", 1)
    table_id = setup["table"]
    sessions = [p["session"] for p in setup["players"]] + [setup["watchers"][0]["session"]]
    players = [
        Player(TableClient(proxy, table_id, session), seat, seed=seat or 9)
        for seat, session in zip([0, 1, 2, 3, None], sessions, strict=True)
    ]
    firsts = []
    for player in players:  # one by one, so least_conn alternates between the processes
        firsts.append(await player.client.open())
    moved, killed = asyncio.Event(), asyncio.Event()

    async def kill_one_process() -> None:
        await moved.wait()
        killed.set()
        await asyncio.to_thread(servers[0].kill)

    try:
        await asyncio.wait_for(
            asyncio.gather(
                kill_one_process(),
                *(p.play(f, moved, killed) for p, f in zip(players, firsts, strict=True)),
            ),
            timeout=TIMEOUT * 4,
        )
    finally:
        await close_all([p.client for p in players])

    assert killed.is_set()
    cut = [p for p in players if p.reconnects]
    assert 1 <= len(cut) < len(players), "the sockets were spread over both processes"
    stored = await asyncio.to_thread(replay_check, database, table_id)
    assert stored["status"] == "finished"
    log = stored["log"]
    assert [e["n"] for e in log] == list(range(1, len(log) + 1))
    by_n = {e["n"]: e for e in log}
    for player in players:
        assert player.last["table"]["status"] == "finished"
        assert max(player.events) == len(log), f"seat {player.seat} missed the last moves"
        for n, event in player.events.items():
            assert by_n[n] == event, f"seat {player.seat} saw move {n} differently"
    assert stored["replayed_state"] == stored["state"]
    assert stored["replayed"] == stored["stored"]


# -- Limits in front (issue 22): nginx per address, allauth on the real address --


def request_from(
    address: str, port: int, method: str, path: str, body: str = "", headers: dict | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request to nginx from a chosen loopback address (127.0.0.2, ...)."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=TIMEOUT, source_address=(address, 0)
    )
    try:
        connection.request(method, path, body=body.encode(), headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


async def handshake_from(address: str, proxy: Nginx, session: str | None = None) -> int:
    """Open /ws/lobby/ through nginx from `address`: 101 when accepted, else the HTTP status."""
    headers = {"Cookie": f"sessionid={session}"} if session else {}
    try:
        async with connect(
            proxy.ws_url + "/ws/lobby/",
            origin=proxy.url,
            additional_headers=headers,
            local_addr=(address, 0),
            open_timeout=TIMEOUT,
        ):
            return 101
    except InvalidStatus as exc:
        return exc.response.status_code


def test_a_burst_of_handshakes_from_one_address_is_refused_while_another_connects(site):
    servers, proxy = site

    async def scenario() -> tuple[list[int], int]:
        burst = [await handshake_from("127.0.0.2", proxy) for _ in range(40)]
        return burst, await handshake_from("127.0.0.3", proxy)

    burst, other = asyncio.run(scenario())
    assert burst[:20] == [101] * 20  # a page reload's worth and more goes through
    assert 429 in burst[20:]  # a reconnect loop does not
    assert other == 101


def test_a_burst_of_log_in_posts_from_one_address_is_refused_while_another_signs_in(site):
    servers, proxy = site
    # Anonymous posts without a CSRF token: Django answers 403, nginx's limit 429.
    answers = [request_from("127.0.0.4", proxy.port, "POST", "/accounts/login/") for _ in range(12)]
    statuses = [status for status, _, _ in answers]
    assert statuses[:6] == [403] * 6  # a member's retries reach allauth's friendlier limit
    assert 429 in statuses[6:]  # a loop of password hashes does not
    # nginx's refusal, in the club's six languages.
    _, headers, body = answers[statuses.index(429)]
    assert headers["content-type"].startswith("text/html")
    assert "Подождите несколько секунд" in body.decode() and b"Please wait" in body
    assert request_from("127.0.0.4", proxy.port, "GET", "/accounts/signup/")[0] == 200
    assert request_from("127.0.0.5", proxy.port, "POST", "/accounts/signup/")[0] == 403


def test_a_burst_of_log_in_page_loads_from_one_address_is_refused_while_another_loads(site):
    servers, proxy = site
    statuses = [
        request_from("127.0.0.10", proxy.port, "GET", "/accounts/login/")[0] for _ in range(40)
    ]
    assert statuses[:30] == [200] * 30
    assert 429 in statuses[30:]
    assert request_from("127.0.0.5", proxy.port, "GET", "/accounts/login/")[0] == 200


def test_a_burst_of_posts_from_one_address_is_refused_while_its_pages_and_others_still_work(
    site,
):
    servers, proxy = site
    # Anonymous posts without a CSRF token: Django answers 403, nginx's limit 429.
    statuses = [request_from("127.0.0.8", proxy.port, "POST", "/tables/")[0] for _ in range(60)]
    assert statuses[:30] == [403] * 30  # a burst of clicks, and more, reaches the site
    assert 429 in statuses[30:]  # a script posting as fast as it is answered does not
    assert request_from("127.0.0.8", proxy.port, "GET", "/tables/")[0] == 200  # pages still load
    assert request_from("127.0.0.9", proxy.port, "POST", "/tables/")[0] == 403  # others post


def login_attempt(address: str, port: int, email: str, password: str) -> tuple[int, bytes]:
    """GET the form for its CSRF token, POST the password; (status, page)."""
    status, headers, body = request_from(address, port, "GET", "/accounts/login/")
    assert status == 200
    cookie = headers["set-cookie"].split(";", 1)[0]
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
    form = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "login": email, "password": password}
    )
    status, _, body = request_from(
        address,
        port,
        "POST",
        "/accounts/login/",
        form,
        {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": cookie,
            "Origin": f"http://127.0.0.1:{port}",
            "Referer": f"http://127.0.0.1:{port}/accounts/login/",
        },
    )
    return status, body


def test_log_in_limits_count_each_members_own_address_behind_nginx(database, site):
    servers, proxy = site
    run_django(
        database,
        "from django.contrib.auth import get_user_model\n"
        "get_user_model().objects.create_user('owner', 'owner@example.com', 'pw-owner-correct-1')\n"
        "emit(1)\n",
    )
    pages = [
        login_attempt("127.0.0.6", proxy.port, "owner@example.com", "wrong-guess-1")[1]
        for _ in range(6)
    ]
    assert b"Too many failed" not in pages[0] and b"Too many failed" in pages[-1]
    # Behind the proxy every request used to come from nginx's address: the
    # owner, on another address, was locked out with the attacker.
    status, _ = login_attempt("127.0.0.7", proxy.port, "owner@example.com", "pw-owner-correct-1")
    assert status == 302
