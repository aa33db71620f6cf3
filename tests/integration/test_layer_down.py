"""With Redis unreachable from the start, one process's table still plays (in-process, fast).

The real pub/sub layer (club.serving.channel_layers) points at a port where nothing listens:
sockets still connect (their subscriptions are kept for when Redis comes),
a move is answered to the mover and reaches the other socket of this process
at once, nothing is answered with an error, and `table_state` (what a process
sends its sockets when the layer comes back) is the state a viewer would get.
The outage tests with real services are tests/integration/test_outages.py.
"""

from __future__ import annotations

import json

import pytest
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator

from club.asgi import application
from games import broadcast, services
from tests.integration.test_table_ws import session_cookie, started_table
from tests.support.server import free_port

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("default_variants"),
]


@pytest.fixture
def dead_redis(settings):
    """The pub/sub layer, on a Redis that is not there."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "club.serving.channel_layers.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": f"redis://127.0.0.1:{free_port()}/0"}],
                "on_reconnect": "games.broadcast.layer_reconnected",
            },
        }
    }
    settings.CHANNEL_LAYER_TIMEOUT = 1.0
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


async def open_socket(table_id: int, user) -> WebsocketCommunicator:
    from channels.db import database_sync_to_async

    cookie = await database_sync_to_async(session_cookie)(user)
    communicator = WebsocketCommunicator(
        application,
        f"/ws/tables/{table_id}/",
        headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
    )
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@pytest.mark.asyncio
async def test_a_move_reaches_this_process_sockets_while_redis_is_unreachable(dead_redis):
    from channels.db import database_sync_to_async

    table, users = await database_sync_to_async(started_table)()
    sockets = [await open_socket(table.pk, user) for user in users]
    try:
        firsts = [json.loads(await s.receive_from(timeout=10)) for s in sockets]
        assert all(f["type"] == "state" for f in firsts)
        mover = next(i for i, f in enumerate(firsts) if f["view"]["legal"])
        state = firsts[mover]
        await sockets[mover].send_json_to(
            {"type": "play", "move": state["view"]["legal"][0], "version": state["version"]}
        )
        answers = [json.loads(await s.receive_from(timeout=10)) for s in sockets]
        assert [a["type"] for a in answers] == ["state", "state"], answers
        assert all(a["version"] > state["version"] for a in answers)
    finally:
        for s in sockets:
            await s.disconnect()
        broadcast.reset()


def test_table_state_is_what_a_viewer_gets():
    table, users = started_table()
    state = services.table_state(table.pk)
    viewer = services.table_for_viewer(table.pk, users[0].player.pk)
    # Server-side only: `stamp` names one snapshot (the frame cache's key: each
    # read has its own), `invited` tells the consumer how the viewer got in.
    for internal in ("stamp", "invited"):
        state.pop(internal, None)
        viewer.pop(internal, None)
    assert state == viewer
    assert services.table_state(10**9) is None
