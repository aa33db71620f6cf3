"""Chat across two daphne processes on one PostgreSQL database and one Redis.

A message sent on one process reaches the sockets of its room on the other
(a table's room and the lobby's), a message hidden from a third process (as
Django admin would, in whichever process serves it) disappears on both, and
bad chat frames leave no traceback in either server's log.

Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/club_ci \\
     REDIS_URL=redis://127.0.0.1:6379/5 .venv/bin/python -m pytest tests/integration/test_chat_two_processes.py
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from tests.support.server import DaphneServer, SiteDatabase
from tests.support.tables import TIMEOUT, run_django, started_table

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.server,
    pytest.mark.timeout(180),
]


@pytest.fixture
def servers(database: SiteDatabase, tmp_path: Path) -> Iterator[list[DaphneServer]]:
    started: list[DaphneServer] = []
    try:
        for _ in range(2):
            started.append(DaphneServer(database, tmp_path).start())
        yield started
    finally:
        for server in started:
            server.stop()


class ChatClient:
    def __init__(self, server: DaphneServer, path: str, session: str) -> None:
        self.server, self.path, self.session = server, path, session

    async def open(self) -> dict:
        self.ws = await connect(
            f"{self.server.ws_url}{self.path}",
            origin=self.server.url,
            additional_headers={"Cookie": f"sessionid={self.session}"},
            open_timeout=TIMEOUT,
        )
        return await self.next_chat()

    async def next_chat(self) -> dict:
        """The next chat frame (or error), skipping table and lobby updates."""
        while True:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
            if frame["type"].startswith("chat") or frame["type"] == "error":
                return frame

    async def send(self, frame: dict) -> None:
        await self.ws.send(json.dumps(frame))

    async def close(self) -> None:
        await self.ws.close()


async def test_a_message_sent_on_one_process_reaches_its_room_on_the_other(
    database: SiteDatabase, servers: list[DaphneServer]
):
    setup = await asyncio.to_thread(started_table, database, 2, "Devyatka", 1)
    table = setup["table"]
    anna, boris = setup["players"]
    vera = setup["watchers"][0]
    path = f"/ws/tables/{table}/?chat=1"
    a = ChatClient(servers[0], path, anna["session"])
    b = ChatClient(servers[1], path, boris["session"])
    v = ChatClient(servers[1], path, vera["session"])
    lobby = [
        ChatClient(servers[0], "/ws/lobby/?chat=1", anna["session"]),
        ChatClient(servers[1], "/ws/lobby/?chat=1", vera["session"]),
    ]
    clients = [a, b, v, *lobby]
    try:
        for client in clients:
            assert (await client.open())["type"] == "chat_history"
        await a.send({"type": "chat_send", "text": "hello from process one"})
        frames = [await c.next_chat() for c in (a, b, v)]
        assert {f["message"]["text"] for f in frames} == {"hello from process one"}
        assert {f["message"]["name"] for f in frames} == {anna["name"]}
        message_id = frames[0]["message"]["id"]

        await v.send({"type": "chat_send", "phrase": "gl"})
        assert (await a.next_chat())["message"]["phrase"] == "gl"
        assert (await b.next_chat())["message"]["phrase"] == "gl"
        await v.next_chat()

        await lobby[1].send({"type": "chat_send", "text": "lobby, process two"})
        for client in lobby:
            assert (await client.next_chat())["message"]["text"] == "lobby, process two"

        # Hidden from a third process (an admin's request may land on any): gone on both.
        await asyncio.to_thread(
            run_django,
            database,
            "from chat import services\n"
            "from chat.broadcast import publish_hidden_sync\n"
            "from chat.models import ChatMessage\n"
            f"for room, pk in services.hide(ChatMessage.objects.filter(pk={message_id})):\n"
            "    publish_hidden_sync(room, pk)\n"
            "emit(True)\n",
        )
        for client in (a, b, v):
            assert await client.next_chat() == {"type": "chat_hidden", "id": message_id}

        # Bad chat frames on both processes: an error each, no traceback.
        for client in (a, b, lobby[0], lobby[1]):
            for frame in (
                '{"type": "chat_send"}',
                '{"type": "chat_send", "text": "   "}',
                '{"type": "chat_send", "text": [1]}',
                '{"type": "chat_send", "phrase": "nope"}',
                '{"type": "chat_report", "id": 999999}',
                '{"type": "chat_report", "id": null}',
                '{"type": "chat_mute", "player": "x"}',
                '{"type": "chat_mute", "player": 999999}',
                '{"type": "chat_dance"}',
                '{"type": "chat_send", "text": "x", "phrase": "gg"}',
            ):
                await client.ws.send(frame)
                answer = await client.next_chat()
                assert answer["type"] == "error" and answer["code"], (frame, answer)
    finally:
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    for server in servers:
        assert "Traceback" not in server.log_path.read_text(), server.log_path.read_text()[-3000:]
