"""The load tool's HTTP side: form posts as a browser sends them, and a prober.

While the load tool (`python -m tools.loadtest`) plays its tables over websockets, the prober asks
the server what a member clicking around would: a page view (the lobby), and
the table-changing posts of the lobby and the table page (join, leave, add a
house bot, remove it) at a table of its own. It records each one's latency by
kind, so the report can say whether posts queue behind the moves.
"""

from __future__ import annotations

import asyncio
import http.client
import secrets
import time
from collections import defaultdict
from urllib.parse import urlencode, urlparse

from tools import synthetic

PROBE_KINDS = ("page", "join", "leave", "bot_add", "bot_remove")


def request(
    base_url: str, method: str, path: str, session: str, data: dict | None = None
) -> tuple[int, float]:
    """One request with the session and CSRF cookies a browser has: (status, seconds)."""
    url = urlparse(base_url)
    token = secrets.token_hex(16)  # 32 characters: a valid unmasked CSRF secret
    connection_class = (
        http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
    )
    connection = connection_class(url.hostname, url.port, timeout=30)
    headers = {"Cookie": f"sessionid={session}; csrftoken={token}"}
    body = ""
    if method == "POST":
        origin = f"{url.scheme}://{url.netloc}"
        headers.update(
            {
                "X-CSRFToken": token,
                "Origin": origin,
                "Referer": f"{origin}{path}",
                "Content-Type": "application/x-www-form-urlencoded",
            }
        )
        body = urlencode(data or {})
    started = time.perf_counter()
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, time.perf_counter() - started
    finally:
        connection.close()


def post_again(base_url: str, table_id: int, session: str) -> tuple[int, float]:
    """The "play again" form post of one member: (status, seconds)."""
    return request(base_url, "POST", f"/tables/{table_id}/again/", session)


def make_probe(prefix: str) -> dict:
    """Two members and an open table of the first one's, for the prober."""
    host, guest = synthetic.make_players(f"{prefix}-probe", 2)
    table = synthetic.open_table(host, seats=4)
    return {"table": table, "host": host.session_key, "guest": guest.session_key}


class Prober:
    """Every `interval` seconds: a page view, then join/leave/add bot/remove bot, in turn."""

    def __init__(self, base_url: str, probe: dict, interval: float) -> None:
        self.base_url = base_url
        self.probe = probe
        self.interval = interval
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.failures: dict[str, int] = defaultdict(int)

    def _cycle(self) -> None:
        table, host, guest = self.probe["table"], self.probe["host"], self.probe["guest"]
        steps = [
            ("page", "GET", "/tables/", host, None, 200),
            ("join", "POST", f"/tables/{table}/join/", guest, {}, 302),
            ("leave", "POST", f"/tables/{table}/leave/", guest, {}, 302),
            ("bot_add", "POST", f"/tables/{table}/bots/add/", host, {"level": "random"}, 302),
            ("bot_remove", "POST", f"/tables/{table}/bots/remove/", host, {"position": 1}, 302),
        ]
        for kind, method, path, session, data, expected in steps:
            status, seconds = request(self.base_url, method, path, session, data)
            if status == expected:
                self.latencies[kind].append(seconds)
            else:
                self.failures[f"{kind}: HTTP {status}"] += 1

    async def run(self, until: float) -> None:
        while time.perf_counter() < until:
            started = time.perf_counter()
            await asyncio.to_thread(self._cycle)
            await asyncio.sleep(max(0.0, self.interval - (time.perf_counter() - started)))
