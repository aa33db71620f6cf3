"""Benchmark: one account attacking the server, and other tables' move latency.

    .venv/bin/python tests/bench/bench_flood.py [--rounds 3] [--moves 30] [--no-limit]
    .venv/bin/python tests/bench/bench_flood.py --attack all [--deploy nginx] [--seconds 20]

`--attack all` (issue 22): the attacker, one member, in its own niced process,
for `--seconds` at a time runs every attack at once: a `sync` flood that
reconnects the moment it is closed; as many sockets as it can open to every
table it can see; opening tables as fast as it is allowed; a lobby-socket
flood; and sign-up / failed log-in loops. `--deploy nginx` runs the shipped
deployment: docs/deploy/nginx-club.conf in front of two `club.server`
processes on PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), the attacker
on its own loopback address (127.0.0.2) as it would be on its own machine;
without it, one process on the embedded default (SQLite, in-memory layer).

Starts a real daphne process (tests/support/server.py) on a throwaway
database (SQLite file, or a fresh PostgreSQL database when DATABASE_URL
points at one), with two members at table A and two at table B (Devyatka,
two seats; fresh B tables as games end). It then alternates, `--rounds`
times, two conditions of `--moves` moves each at table B:

* quiet: nothing else happens on the server;
* flood: one socket at table A sends `{"type": "sync"}` as fast as it can
  (reconnecting when the server closes it for flooding, as a determined
  client would), while a reader drains whatever the server answers. The
  flooding client is a process of its own at the lowest CPU priority
  (nice 19): on this 2-core machine it stands for a client on another
  machine, and it must not slow table B's clients, which share no event
  loop or CPU priority with it, so what is measured is the server.

A move's round trip: from sending `play` at table B to the moment both
seats there have the new version. The conditions alternate within one run
because the machine's speed drifts 10-30% over minutes. `--no-limit` runs
the server with the rate limit effectively off (a burst of 10^9), to show
what the limit buys. All traffic goes to 127.0.0.1; every loop is bounded
in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from tests.bench.common import machine  # noqa: E402
from tests.support.nginx import Nginx  # noqa: E402
from tests.support.server import DaphneServer, SiteDatabase  # noqa: E402
from tests.support.tables import run_django  # noqa: E402

TIMEOUT = 30.0
FLOOD_MAX_FRAMES = 200_000  # per flood period, whatever the machine's speed
FLOOD_MAX_RECONNECTS = 200


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def setup(database: SiteDatabase, b_tables: int) -> dict:
    return run_django(
        database,
        "from games import synthetic\n"
        f"players = synthetic.make_players(synthetic.new_prefix('bench'), {2 + 2 * b_tables})\n"
        "a = synthetic.started_table(players[:2])\n"
        f"bs = [synthetic.started_table(players[2 + 2 * i : 4 + 2 * i]) for i in range({b_tables})]\n"
        "emit({'a': a, 'a_sessions': [p.session_key for p in players[:2]],\n"
        "      'b': [[t, players[2 + 2 * i].session_key, players[3 + 2 * i].session_key]\n"
        "            for i, t in enumerate(bs)]})\n",
    )


async def open_socket(server: DaphneServer, table_id: int, session: str, local: str | None = None):
    ws = await connect(
        f"{server.ws_url}/ws/tables/{table_id}/",
        origin=server.url,
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=TIMEOUT,
        max_size=None,
        **({"local_addr": (local, 0)} if local else {}),
    )
    first = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    assert first["type"] == "state", first
    return ws, first


class StaleVersion(Exception):
    pass


class TableB:
    """Two members at a fresh table; play() makes one move and times its round trip."""

    def __init__(self, server: DaphneServer, tables: list[list]) -> None:
        self.server = server
        self.tables = list(tables)
        self.sockets: list = []
        self.latest: list[dict] = []

    async def next_table(self) -> None:
        for ws in self.sockets:
            await ws.close()
        table_id, *sessions = self.tables.pop(0)
        opened = [await open_socket(self.server, table_id, s) for s in sessions]
        self.sockets = [ws for ws, _ in opened]
        self.latest = [frame for _, frame in opened]

    async def play(self, tries: int = 3) -> float:
        if not self.sockets or self.latest[0]["table"]["status"] != "playing":
            await self.next_table()
        try:
            return await self._play()
        except StaleVersion:
            # Another process's change (a seat coming back) reached one seat
            # first: resynchronise both and time the next move instead.
            if tries <= 0:
                raise
            for seat, ws in enumerate(self.sockets):
                await ws.send(json.dumps({"type": "sync"}))
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                    if frame["type"] == "state" and "log" in frame:
                        self.latest[seat] = frame
                        break
            return await self.play(tries - 1)

    async def _play(self) -> float:
        version = self.latest[0]["version"]
        mover = self.latest[0]["view"]["to_move"]
        card = self.latest[mover]["view"]["legal"][0]
        start = time.perf_counter()
        await self.sockets[mover].send(
            json.dumps({"type": "play", "card": card, "version": version})
        )
        for seat, ws in enumerate(self.sockets):
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                if frame["type"] == "state" and frame["version"] > version:
                    self.latest[seat] = frame
                    break
                if frame.get("code") == "stale_version":
                    raise StaleVersion(frame)
                assert frame["type"] != "error", frame
        return time.perf_counter() - start

    async def close(self) -> None:
        for ws in self.sockets:
            await ws.close()


class Flood:
    """One client at table A sending `sync` as fast as it can, until stopped."""

    def __init__(self, server: DaphneServer, table_id: int, session: str) -> None:
        self.server, self.table_id, self.session = server, table_id, session
        self.sent = self.answered = self.refused = self.closes = 0
        self.stop = asyncio.Event()

    async def run(self) -> None:
        frame = json.dumps({"type": "sync"})
        reconnects = 0
        while not self.stop.is_set() and reconnects < FLOOD_MAX_RECONNECTS:
            ws, _ = await open_socket(self.server, self.table_id, self.session)
            reader = asyncio.ensure_future(self._drain(ws))
            try:
                while not self.stop.is_set() and self.sent < FLOOD_MAX_FRAMES:
                    await ws.send(frame)
                    self.sent += 1
                    if self.sent % 50 == 0:
                        await asyncio.sleep(0)  # let the reader and the stop flag in
                if self.sent >= FLOOD_MAX_FRAMES:
                    await self.stop.wait()
            except ConnectionClosed:
                self.closes += 1
            finally:
                reader.cancel()
                with contextlib.suppress(BaseException):
                    await reader
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(ws.close(), 5)
            reconnects += 1

    async def _drain(self, ws) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in ws:
                self.answered += 1
                if '"rate_limited"' in message:
                    self.refused += 1


async def measure(server: DaphneServer, layout: dict, rounds: int, moves: int) -> dict:
    table_b = TableB(server, layout["b"])
    results: dict[str, list[float]] = {"quiet": [], "flood": []}
    floods: list[dict] = []
    try:
        for _ in range(3):  # warm-up: first requests, first queries
            await table_b.play()
        for _ in range(rounds):
            for condition in ("quiet", "flood"):
                flood = None
                if condition == "flood":
                    flood = start_flood_process(server, layout["a"], layout["a_sessions"][0])
                    await asyncio.sleep(1.0)  # the flood is under way
                for _ in range(moves):
                    results[condition].append(await table_b.play())
                if flood is not None:
                    floods.append(await stop_flood_process(flood))
                    await asyncio.sleep(0.5)  # let the server drain before the quiet round
    finally:
        await table_b.close()
    return {
        "results": results,
        **{key: sum(f[key] for f in floods) for key in ("sent", "answered", "refused", "closes")},
    }


def start_flood_process(server: DaphneServer, table_id: int, session: str):
    """The flooding client, in a process of its own at the lowest CPU priority."""
    return subprocess.Popen(
        [sys.executable, __file__, "--flood-worker", server.url, str(table_id), session],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        preexec_fn=lambda: os.nice(19),
        text=True,
    )


async def stop_flood_process(process) -> dict:
    """Tell the flooding process to stop (close its stdin); its counts come back as JSON."""
    out, _ = await asyncio.to_thread(process.communicate, None, TIMEOUT)
    return json.loads(out.strip().splitlines()[-1])


async def flood_worker(url: str, table_id: int, session: str) -> None:
    """The child process: flood until the parent closes our stdin, then print the counts."""

    class Server:  # the parts of DaphneServer that open_socket uses
        pass

    server = Server()
    server.url = url
    server.ws_url = url.replace("http", "ws", 1)
    flood = Flood(server, table_id, session)
    task = asyncio.ensure_future(flood.run())
    await asyncio.to_thread(sys.stdin.read)  # EOF: the parent says stop
    flood.stop.set()
    await asyncio.wait_for(task, TIMEOUT)
    counts = {"sent": flood.sent, "answered": flood.answered, "refused": flood.refused}
    print(json.dumps({**counts, "closes": flood.closes}), flush=True)


# -- `--attack all`: every attack one account can make, at once -----------------

ATTACK_MAX_ATTEMPTS = 100_000  # handshakes / requests per attack per period, whatever happens
ATTACK_MAX_SOCKETS = 200


class Attack:
    """One member attacking in every way at once, until stopped (all loops bounded)."""

    def __init__(self, url: str, layout: dict, local: str | None) -> None:
        self.url, self.layout, self.local = url, layout, local
        self.ws_url = url.replace("http", "ws", 1)
        self.session = layout["a_sessions"][0]
        self.stop = asyncio.Event()
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
        }

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

    async def flood(self, path: str) -> None:
        """Send frames as fast as possible; reconnect at once when closed or refused."""
        frame = json.dumps({"type": "sync"})
        for _ in range(ATTACK_MAX_ATTEMPTS):
            if self.stop.is_set():
                return
            try:
                ws = await self._socket(path)
            except Exception:  # noqa: BLE001 - refused (cooldown, cap, proxy): try again at once
                self.counts["refused_handshakes"] += 1
                await asyncio.sleep(0)
                continue
            reader = asyncio.ensure_future(_drain(ws))
            try:
                while not self.stop.is_set():
                    await ws.send(frame)
                    self.counts["frames"] += 1
                    if self.counts["frames"] % 50 == 0:
                        await asyncio.sleep(0)
            except ConnectionClosed:
                self.counts["closes"] += 1
            finally:
                reader.cancel()
                with contextlib.suppress(BaseException):
                    await reader
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(ws.close(), 2)

    async def watch_everything(self) -> None:
        """As many sockets as the server takes, to every table it can see."""
        tables = [self.layout["a"], *[t[0] for t in self.layout["b"]]]
        sockets = []
        try:
            for _ in range(ATTACK_MAX_ATTEMPTS):
                if self.stop.is_set() or len(sockets) >= ATTACK_MAX_SOCKETS:
                    break
                try:
                    ws = await self._socket(f"/ws/tables/{tables[len(sockets) % len(tables)]}/")
                except Exception:  # noqa: BLE001
                    self.counts["refused_handshakes"] += 1
                    await asyncio.sleep(0.05)
                    continue
                sockets.append((ws, asyncio.ensure_future(_drain(ws))))
                self.counts["watch_sockets"] += 1
                sockets = [(w, r) for w, r in sockets if not r.done()]
            await self.stop.wait()
        finally:
            for ws, reader in sockets:
                reader.cancel()
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(ws.close(), 2)

    async def open_tables(self) -> None:
        """POST the lobby's form as fast as the server answers."""
        for _ in range(ATTACK_MAX_ATTEMPTS):
            if self.stop.is_set():
                return
            status = await asyncio.to_thread(self._post_table)
            key = "tables_opened" if status == 302 else "tables_refused"
            self.counts[key] += 1

    def _post_table(self) -> int:
        status, headers, body = _http(
            self.url, "GET", "/tables/", cookie=f"sessionid={self.session}", local=self.local
        )
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        variant = re.search(rb'<option value="(\d+)"', body)
        if status != 200 or token is None or variant is None:
            return status
        csrf = _cookie(headers, "csrftoken")
        form = urllib.parse.urlencode(
            {
                "csrfmiddlewaretoken": token.group(1).decode(),
                "variant": variant.group(1).decode(),
                "seats": "2",
            }
        )
        return _http(
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
        status, headers, body = _http(self.url, "GET", path, local=self.local)
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        if status != 200 or token is None:
            return status
        fields = {"csrfmiddlewaretoken": token.group(1).decode(), "password": "wrong-guess-1"}
        if n % 2:
            fields = {
                **fields,
                "email": f"attacker{os.getpid()}x{n}@example.com",
                "display_name": f"Attacker {n}",
                "password1": "attack-password-1",
                "password2": "attack-password-1",
            }
        else:
            fields["login"] = "nobody@example.com"
        return _http(
            self.url,
            "POST",
            path,
            urllib.parse.urlencode(fields),
            cookie=f"csrftoken={_cookie(headers, 'csrftoken')}",
            local=self.local,
        )[0]

    async def run(self) -> None:
        await asyncio.gather(
            self.flood(f"/ws/tables/{self.layout['a']}/"),
            self.flood("/ws/lobby/"),
            self.watch_everything(),
            self.open_tables(),
            self.accounts(),
        )


async def _drain(ws) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            pass


def _cookie(headers: list[tuple[str, str]], name: str) -> str:
    for key, value in headers:
        if key.lower() == "set-cookie" and value.startswith(name + "="):
            return value.split(";", 1)[0].split("=", 1)[1]
    return ""


def _http(
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


def start_attack_process(url: str, layout: dict, local: str | None):
    """The attacker, in a process of its own at the lowest CPU priority."""
    return subprocess.Popen(
        [sys.executable, __file__, "--attack-worker", url, json.dumps(layout), local or ""],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        preexec_fn=lambda: os.nice(19),
        text=True,
    )


async def attack_worker(url: str, layout: dict, local: str | None) -> None:
    attack = Attack(url, layout, local)
    task = asyncio.ensure_future(attack.run())
    await asyncio.to_thread(sys.stdin.read)  # EOF: the parent says stop
    attack.stop.set()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(task, TIMEOUT)
    with contextlib.suppress(BrokenPipeError):
        print(json.dumps(attack.counts), flush=True)


async def measure_attack(
    url: str, layout: dict, rounds: int, seconds: float, local: str | None
) -> dict:
    """Alternate quiet and attack periods of `seconds` each; table B's moves in both."""
    server = type("Server", (), {"url": url, "ws_url": url.replace("http", "ws", 1)})()
    table_b = TableB(server, layout["b"])
    results: dict[str, list[float]] = {"quiet": [], "attack": []}
    counts: list[dict] = []
    try:
        for _ in range(3):
            await table_b.play()
        for _ in range(rounds):
            for condition in ("quiet", "attack"):
                attacker = None
                if condition == "attack":
                    attacker = start_attack_process(url, layout, local)
                    await asyncio.sleep(1.0)  # the attack is under way
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    results[condition].append(await table_b.play())
                if attacker is not None:
                    counts.append(await stop_flood_process(attacker))
                    await asyncio.sleep(1.0)
    finally:
        await table_b.close()
    return {"results": results, "counts": {k: sum(c[k] for c in counts) for k in counts[0]}}


def report_attack(out: dict, deploy: str, rounds: int, seconds: float) -> None:
    info = machine()
    print(f"{info['cpu']}, {info['nproc']} CPUs, {info['python']}")
    print(
        f"deploy: {deploy}; {rounds} rounds of {seconds:.0f} s per condition, alternating quiet / attack"
    )
    quiet, attack = out["results"]["quiet"], out["results"]["attack"]
    for name, values in (("quiet", quiet), ("attack", attack)):
        ms = [v * 1000 for v in values]
        print(
            f"  table B move round trip, {name:<6}: p50 {percentile(ms, 0.5):6.1f} ms, "
            f"p95 {percentile(ms, 0.95):6.1f} ms, mean {statistics.fmean(ms):6.1f} ms ({len(ms)} moves)"
        )
    q95, a95 = percentile(quiet, 0.95) * 1000, percentile(attack, 0.95) * 1000
    target = max(3 * q95, q95 + 20)
    verdict = "met" if a95 <= target else "MISSED"
    print(
        f"  p95 under attack {a95:.1f} ms; target max(3 x {q95:.1f}, {q95:.1f} + 20) = {target:.1f} ms: {verdict}"
    )
    print("  attacker: " + ", ".join(f"{k} {v}" for k, v in out["counts"].items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--no-limit", action="store_true", help="rate limit off (burst 10^9)")
    parser.add_argument("--flood-worker", nargs=3, metavar=("URL", "TABLE", "SESSION"))
    parser.add_argument("--attack", choices=["flood", "all"], default="flood")
    parser.add_argument("--deploy", choices=["embedded", "nginx"], default="embedded")
    parser.add_argument(
        "--seconds", type=float, default=20.0, help="length of each --attack all period"
    )
    parser.add_argument("--attack-worker", nargs=3, metavar=("URL", "LAYOUT", "LOCAL"))
    args = parser.parse_args()
    if args.attack_worker:
        url, layout, local = args.attack_worker
        asyncio.run(attack_worker(url, json.loads(layout), local or None))
        return
    if args.attack == "all":
        run_attack(args)
        return
    if args.flood_worker:
        url, table_id, session = args.flood_worker
        asyncio.run(flood_worker(url, int(table_id), session))
        return
    # About 36 moves a game: enough fresh B tables for every move of the run.
    b_tables = (args.rounds * 2 * args.moves + 3) // 15 + 2

    with tempfile.TemporaryDirectory() as tmp:
        database = SiteDatabase(Path(tmp))
        database.create()
        env = {"WS_RATE_BURST": str(10**9)} if args.no_limit else {}
        server = DaphneServer(database, Path(tmp), env=env)
        server.start()
        try:
            layout = setup(database, b_tables)
            out = asyncio.run(measure(server, layout, args.rounds, args.moves))
        finally:
            server.stop()
            database.drop()

    info = machine()
    print(f"{info['cpu']}, {info['nproc']} CPUs, {info['python']}")
    limit = "off (--no-limit)" if args.no_limit else "on (defaults)"
    print(
        f"rate limit {limit}; {args.rounds} rounds x {args.moves} moves per condition, "
        "alternating quiet / flood"
    )
    quiet, flood = out["results"]["quiet"], out["results"]["flood"]
    for name, values in (("quiet", quiet), ("flood", flood)):
        ms = [v * 1000 for v in values]
        print(
            f"  table B move round trip, {name:<5}: p50 {percentile(ms, 0.5):6.1f} ms, "
            f"p95 {percentile(ms, 0.95):6.1f} ms, mean {statistics.fmean(ms):6.1f} ms "
            f"({len(ms)} moves)"
        )
    ratio50 = percentile(flood, 0.5) / percentile(quiet, 0.5)
    ratio95 = percentile(flood, 0.95) / percentile(quiet, 0.95)
    print(f"  flood / quiet: p50 x{ratio50:.2f}, p95 x{ratio95:.2f}")
    print(
        f"  flood socket: {out['sent']} frames sent, {out['answered']} answered "
        f"({out['refused']} rate_limited), closed by the server {out['closes']} times"
    )


def run_attack(args) -> None:
    # A move every ~10-20 ms for `seconds` in each period: enough fresh B tables.
    b_tables = int(args.rounds * args.seconds * 100 // 30) + 4
    with tempfile.TemporaryDirectory() as tmp:
        database = SiteDatabase(Path(tmp))
        database.create()
        servers, proxy = [], None
        try:
            if args.deploy == "nginx":
                assert database.url.startswith("postgres") and os.environ.get("REDIS_URL"), (
                    "--deploy nginx needs DATABASE_URL (PostgreSQL) and REDIS_URL"
                )
                for _ in range(2):
                    servers.append(
                        DaphneServer(database, Path(tmp), args=("--proxy-headers",)).start()
                    )
                proxy = Nginx(
                    Path(tmp) / "nginx", [s.port for s in servers], ROOT / "static"
                ).start()
                url, local = proxy.url, "127.0.0.2"
            else:
                servers.append(DaphneServer(database, Path(tmp)).start())
                url, local = servers[0].url, None
            layout = setup(database, b_tables)
            out = asyncio.run(measure_attack(url, layout, args.rounds, args.seconds, local))
        finally:
            if proxy is not None:
                proxy.stop()
            for server in servers:
                server.stop()
            database.drop()
    report_attack(out, args.deploy, args.rounds, args.seconds)


if __name__ == "__main__":
    main()
