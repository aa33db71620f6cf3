"""Players, started tables and websocket clients against a real daphne process.

The database side runs in the servers' own database through `manage.py shell`
(`tools.synthetic`); the clients are the `websockets` library speaking the
protocol in docs/PROTOCOL.md with a real session cookie, like a browser.
"""

from __future__ import annotations

import asyncio
import json
import os
import zlib
from collections import Counter
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from tests.support.server import DaphneServer, SiteDatabase

TIMEOUT = 30.0  # generous: a loaded machine must not fail a test
MARK = "@@result@@ "


def run_django(database: SiteDatabase, code: str) -> Any:
    """Run `code` in the site's database; it must `emit(value)` once; returns value."""
    prelude = f"import json\ndef emit(value):\n    print({MARK!r} + json.dumps(value))\n"
    output = database.shell(prelude + code)
    for line in output.splitlines():
        if line.startswith(MARK):
            return json.loads(line[len(MARK) :])
    raise AssertionError(f"no result from the shell snippet:\n{output}")


_tables_made: Counter[str] = Counter()


def seed_of_running_test() -> int | None:
    """A seed for the running test's next deal: its id and how many tables it made.

    Like tests/conftest.py's `_seeded_deals` for in-process deals: a test's tables are
    dealt the same way on every run. None outside a test (the benchmarks deal at random).
    """
    current = os.environ.get("PYTEST_CURRENT_TEST")  # "<node id> (setup|call|teardown)"
    if not current:
        return None
    nodeid = current.rsplit(" ", 1)[0]
    _tables_made[nodeid] += 1
    return zlib.crc32(f"{nodeid}#{_tables_made[nodeid]}".encode())


def started_table(
    database: SiteDatabase,
    seats: int = 3,
    variant: str = "Keft",
    watchers: int = 0,
    seed: int | None = None,
) -> dict:
    """{"table": id, "players": [...] in seat order, "watchers": [...]}.

    Each player and watcher is {"player": id, "name": ..., "session": key}. With `seed`
    the deal is that seed's (services.seeded_deals), for a test that needs a given hand;
    without, one the test's id gives (`seed_of_running_test`).
    """
    if seed is None:
        seed = seed_of_running_test()
    return run_django(
        database,
        "import contextlib\n"
        "from games import services\n"
        "from tools import synthetic\n"
        "prefix = synthetic.new_prefix('test')\n"
        f"players = synthetic.make_players(prefix, {seats + watchers})\n"
        f"seed = {seed!r}\n"
        "with services.seeded_deals(seed) if seed is not None else contextlib.nullcontext():\n"
        f"    table = synthetic.started_table(players[:{seats}], {variant!r})\n"
        "emit({'table': table, 'players': [p.as_dict() for p in players[:%d]],\n"
        "      'watchers': [p.as_dict() for p in players[%d:]]})\n" % (seats, seats),
    )


def replay_check(database: SiteDatabase, table_id: int) -> dict:
    """The stored game, its Move log (as the protocol sends it), and a replay of that log."""
    return run_django(
        database,
        "from games import registry, services\n"
        "from games.models import Game, Table\n"
        f"game = Game.objects.filter(table_id={table_id}).order_by('-number').first()\n"
        "engine = registry.engine(game.game)\n"
        "log = services.move_log(game)\n"
        "cards = [e['move'] for e in log if e['move'] != 'pass']\n"
        "state = engine.replay(len(game.players), game.seed, game.options, cards)\n"
        "emit({'stored': game.result, 'replayed': engine.result(state),\n"
        "      'replayed_state': engine.to_json(state), 'state': game.state,\n"
        "      'log': log, 'version': game.version,\n"
        f"      'status': Table.objects.get(pk={table_id}).status}})\n",
    )


class TableClient:
    """One websocket connection to one table, as one player."""

    def __init__(self, server: DaphneServer, table_id: int, session: str) -> None:
        self.server = server
        self.table_id = table_id
        self.session = session
        self.ws: ClientConnection | None = None

    async def open(self) -> dict:
        """Connect and return the first frame (the full `state` with `log`)."""
        self.ws = await connect(
            f"{self.server.ws_url}/ws/tables/{self.table_id}/",
            origin=self.server.url,
            additional_headers={"Cookie": f"sessionid={self.session}"},
            open_timeout=TIMEOUT,
            max_size=None,
        )
        first = await self.receive()
        assert first["type"] == "state", first
        assert "log" in first, first
        return first

    async def receive(self) -> dict:
        assert self.ws is not None
        return json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))

    async def state(self) -> dict:
        frame = await self.receive()
        assert frame["type"] == "state", frame
        return frame

    async def play(self, card: str, version: int) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps({"type": "play", "card": card, "version": version}))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def open_all(clients: list[TableClient]) -> list[dict]:
    return list(await asyncio.gather(*(c.open() for c in clients)))


async def close_all(clients: list[TableClient]) -> None:
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
