"""The attacker of `bench_flood.py --attack ...`: one member, every way it can hurt the club.

Runs in a process of its own at nice 19 (bench_flood starts it), so that it
stands for a client on another machine and shares no event loop with the
clients it is measured against. Every loop reconnects or retries at once and
is bounded in count, whatever the server does.

The attacks (issue 22), by the name `--attack` takes:

- `reconnect`: `sync` frames on its table socket as fast as it can send them,
  reconnecting the moment it is closed (4429) or refused.
- `sockets`: as many sockets as the server takes, to every table it can see.
- `tables`: the lobby form posted as fast as the server answers.
- `lobby`: a frame flood on a lobby socket, reconnecting at once.
- `accounts`: sign-up and failed log-in posts in a loop.
- `chat`: chat spam. A `chat_send` flood on a table socket with `?chat=1`,
  reconnecting at once; and, on as many chat sockets as it can hold
  (lobby and tables), messages paced just within each socket's chat bucket,
  so that none is closed and every one reaches the per-member chat limit in
  the database.
- `all`: every one of them at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import re
import urllib.parse

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

TIMEOUT = 30.0
ATTACK_MAX_ATTEMPTS = 100_000  # handshakes / requests per attack per period, whatever happens
ATTACK_MAX_SOCKETS = 200
HOLD_ATTEMPTS = 40  # handshakes the socket-holding attacks try before the floods begin
ATTACKS = ("reconnect", "sockets", "tables", "lobby", "accounts", "chat")
# A paced chat socket's pause between messages: just within the socket's chat
# bucket (one a second at the default CHAT_PER_MINUTE), so it is never closed.
CHAT_PACE_SECONDS = 1.05


class Attack:
    """One member attacking in the chosen ways at once, until stopped (all loops bounded)."""

    def __init__(self, url: str, layout: dict, session: str, kinds: list[str], local: str | None):
        self.url, self.layout, self.session, self.local = url, layout, session, local
        self.kinds = list(ATTACKS) if "all" in kinds else kinds
        self.ws_url = url.replace("http", "ws", 1)
        self.stop = asyncio.Event()
        # Floods wait until the socket-holding attacks have opened theirs: a
        # flood's cooldown refuses the account's next handshakes, so a
        # determined attacker opens every socket it will hold first.
        self.holders: list[asyncio.Event] = []
        self.counts = {
            "frames": 0,
            "handshakes": 0,
            "refused_handshakes": 0,
            "closes": 0,
            "watch_sockets": 0,
            "tables_opened": 0,
            "tables_refused": 0,
            "account_posts": 0,
            "account_refused": 0,
            "chat_sent": 0,
            "chat_answered": 0,
            "chat_refused": 0,
        }

    async def run(self) -> None:
        table = f"/ws/tables/{self.layout['a']}/"
        jobs = {
            "reconnect": lambda: self.flood(table),
            "sockets": lambda: self.watch_everything(self._holder()),
            "tables": self.open_tables,
            "lobby": lambda: self.flood("/ws/lobby/"),
            "accounts": self.accounts,
            "chat": lambda: asyncio.gather(
                self.flood(table + "?chat=1", chat=True), self.chat_paced(self._holder())
            ),
        }
        await asyncio.gather(*(jobs[kind]() for kind in self.kinds))

    def _holder(self) -> asyncio.Event:
        opened = asyncio.Event()
        self.holders.append(opened)
        return opened

    async def _holders_opened(self) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(h.wait() for h in self.holders)), 10)

    async def _socket(self, path: str):
        self.counts["handshakes"] += 1
        return await connect(
            self.ws_url + path,
            origin=self.url,
            additional_headers={"Cookie": f"sessionid={self.session}"},
            open_timeout=TIMEOUT,
            max_size=None,
            **({"local_addr": (self.local, 0)} if self.local else {}),
        )

    async def flood(self, path: str, chat: bool = False) -> None:
        """Send frames as fast as possible; reconnect at once when closed or refused."""
        await asyncio.sleep(0)  # the holders first register
        await self._holders_opened()
        for n in range(ATTACK_MAX_ATTEMPTS):
            if self.stop.is_set():
                return
            try:
                ws = await self._socket(path)
            except Exception:  # noqa: BLE001 - refused (cooldown, cap, proxy): try again at once
                self.counts["refused_handshakes"] += 1
                await asyncio.sleep(0)
                continue
            reader = asyncio.ensure_future(self._drain(ws))
            try:
                while not self.stop.is_set():
                    if chat:
                        n += 1
                        await ws.send(json.dumps({"type": "chat_send", "text": f"spam {n}"}))
                        self.counts["chat_sent"] += 1
                    else:
                        await ws.send('{"type": "sync"}')
                    self.counts["frames"] += 1
                    if self.counts["frames"] % 50 == 0:
                        await asyncio.sleep(0)
            except ConnectionClosed:
                self.counts["closes"] += 1
            finally:
                await _close(ws, reader)

    async def watch_everything(self, opened: asyncio.Event) -> None:
        """As many sockets as the server takes, to every table it can see."""
        tables = [self.layout["a"], *[t[0] for t in self.layout["b"]]]
        sockets = []
        try:
            for attempt in range(ATTACK_MAX_ATTEMPTS):
                if attempt == HOLD_ATTEMPTS:
                    opened.set()
                if self.stop.is_set() or len(sockets) >= ATTACK_MAX_SOCKETS:
                    break
                try:
                    ws = await self._socket(f"/ws/tables/{tables[len(sockets) % len(tables)]}/")
                except Exception:  # noqa: BLE001
                    self.counts["refused_handshakes"] += 1
                    await asyncio.sleep(0.05)
                    continue
                sockets.append((ws, asyncio.ensure_future(self._drain(ws))))
                self.counts["watch_sockets"] += 1
                sockets = [(w, r) for w, r in sockets if not r.done()]
            opened.set()
            await self.stop.wait()
        finally:
            opened.set()
            for ws, reader in sockets:
                await _close(ws, reader)

    async def chat_paced(self, opened: asyncio.Event) -> None:
        """Chat sockets to the lobby and every table, each writing as fast as it is let."""
        paths = ["/ws/lobby/", *[f"/ws/tables/{t[0]}/" for t in self.layout["b"]]]
        tasks = []
        try:
            for path in paths[:HOLD_ATTEMPTS]:
                if self.stop.is_set():
                    break
                try:
                    ws = await self._socket(path + "?chat=1")
                except Exception:  # noqa: BLE001 - over a cap or cooling down: the next one
                    self.counts["refused_handshakes"] += 1
                    continue
                tasks.append(asyncio.ensure_future(self._chat_on(ws)))
            opened.set()
            await self.stop.wait()
        finally:
            opened.set()
            for task in tasks:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

    async def _chat_on(self, ws) -> None:
        reader = asyncio.ensure_future(self._drain(ws))
        try:
            for n in range(ATTACK_MAX_ATTEMPTS):
                if self.stop.is_set():
                    return
                await ws.send(json.dumps({"type": "chat_send", "text": f"buy gold {n}"}))
                self.counts["chat_sent"] += 1
                await asyncio.sleep(CHAT_PACE_SECONDS)
        except ConnectionClosed:
            self.counts["closes"] += 1
        finally:
            await _close(ws, reader)

    async def _drain(self, ws) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in ws:
                if '"type": "chat"' in message or '"type":"chat"' in message:
                    self.counts["chat_answered"] += 1
                elif '"chat_' in message and '"error"' in message:
                    self.counts["chat_refused"] += 1

    async def open_tables(self) -> None:
        """POST the lobby's form as fast as the server answers."""
        for _ in range(ATTACK_MAX_ATTEMPTS):
            if self.stop.is_set():
                return
            status = await asyncio.to_thread(self._post_table)
            key = "tables_opened" if status == 302 else "tables_refused"
            self.counts[key] += 1

    def _post_table(self) -> int:
        status, headers, body = request(
            self.url, "GET", "/tables/", cookie=f"sessionid={self.session}", local=self.local
        )
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        variant = re.search(rb'<option value="(\d+)"', body)
        if status != 200 or token is None or variant is None:
            return status
        csrf = cookie_value(headers, "csrftoken")
        form = urllib.parse.urlencode(
            {
                "csrfmiddlewaretoken": token.group(1).decode(),
                "variant": variant.group(1).decode(),
                "seats": "2",
            }
        )
        return request(
            self.url,
            "POST",
            "/tables/",
            form,
            cookie=f"sessionid={self.session}; csrftoken={csrf}",
            local=self.local,
        )[0]

    async def accounts(self) -> None:
        """Sign-up and failed log-in posts in a loop (fresh emails, wrong passwords)."""
        for n in range(ATTACK_MAX_ATTEMPTS):
            if self.stop.is_set():
                return
            status = await asyncio.to_thread(self._post_account, n)
            self.counts["account_posts"] += 1
            if status == 429 or status == 403:
                self.counts["account_refused"] += 1

    def _post_account(self, n: int) -> int:
        path = "/accounts/signup/" if n % 2 else "/accounts/login/"
        status, headers, body = request(self.url, "GET", path, local=self.local)
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        if status != 200 or token is None:
            return status
        fields = {"csrfmiddlewaretoken": token.group(1).decode(), "password": "wrong-guess-1"}
        if n % 2:
            fields = {
                **fields,
                "email": f"attacker{os.getpid()}x{n}@example.com",
                "display_name": f"Attacker {os.getpid()} {n}",
                "password1": "attack-password-1",
                "password2": "attack-password-1",
            }
        else:
            fields["login"] = "nobody@example.com"
        return request(
            self.url,
            "POST",
            path,
            urllib.parse.urlencode(fields),
            cookie=f"csrftoken={cookie_value(headers, 'csrftoken')}",
            local=self.local,
        )[0]


async def _close(ws, reader) -> None:
    reader.cancel()
    with contextlib.suppress(BaseException):
        await reader
    with contextlib.suppress(BaseException):
        await asyncio.wait_for(ws.close(), 2)


def cookie_value(headers: list[tuple[str, str]], name: str) -> str:
    for key, value in headers:
        if key.lower() == "set-cookie" and value.startswith(name + "="):
            return value.split(";", 1)[0].split("=", 1)[1]
    return ""


def request(
    url: str, method: str, path: str, body: str = "", cookie: str = "", local: str | None = None
):
    parsed = urllib.parse.urlparse(url)
    connection = http.client.HTTPConnection(
        parsed.hostname, parsed.port, timeout=TIMEOUT, source_address=(local, 0) if local else None
    )
    headers = {"Cookie": cookie, "Origin": url, "Referer": url + path}
    if body:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        connection.request(method, path, body=body.encode(), headers=headers)
        response = connection.getresponse()
        return response.status, response.getheaders(), response.read()
    except OSError:
        return 0, [], b""
    finally:
        connection.close()
