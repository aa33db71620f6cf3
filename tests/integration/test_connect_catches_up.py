"""A socket that connects brings the table's other sockets up to date.

A process that dies between a move's commit and its publish takes that update
with it: the other processes' sockets would wait for a turn they were never
told of (seen in tests/integration/test_nginx.py, a process killed mid-game).
The dead process's sockets connect again, and each connection offers the
table's current state to every socket of the table; those already up to date
drop it. Here the lost publish is a move committed without being published.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import services
from tests.integration.test_table_ws import connect, started_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("default_variants"),
]

SEED = 1


async def test_a_connecting_socket_brings_a_socket_that_missed_a_move_up_to_date():
    # A deal where the other seat can answer the 9D: with none (seed 8, about one deal
    # in thirty) its pass is logged at once, in the same version, after the 9D.
    with services.seeded_deals(SEED):
        table, (anna, boris) = await database_sync_to_async(started_table)()
    sockets = [await connect(table.pk, user) for user in (anna, boris)]
    first = [await ws.receive_json_from() for ws in sockets]
    mover = first[0]["view"]["to_move"]
    other = 1 - mover
    # The move commits, and its publish is lost (never sent).
    await database_sync_to_async(services.play_move)(
        (anna, boris)[mover].player.pk, table.pk, "9D", first[0]["version"]
    )
    assert await sockets[other].receive_nothing(timeout=0.2)

    again = await connect(table.pk, (anna, boris)[mover])  # the mover's page, opened again
    mine = await again.receive_json_from()
    assert mine["version"] == first[0]["version"] + 1

    caught_up = await sockets[other].receive_json_from()  # tests/conftest.py: RECEIVE_SECONDS
    assert caught_up["type"] == "state"
    assert caught_up["version"] == first[0]["version"] + 1
    assert caught_up["log"][-1] == {"n": 1, "seat": mover, "move": "9D", "auto": False}
    assert caught_up["view"]["to_move"] == other
    assert "9D" not in (caught_up["view"]["hand"] or [])

    # A socket already up to date gets nothing more when another connects.
    late = await connect(table.pk, (anna, boris)[other])
    assert (await late.receive_json_from())["version"] == caught_up["version"]
    assert await sockets[other].receive_nothing(timeout=0.2)
    assert await again.receive_nothing(timeout=0.2)
    for ws in [*sockets, again, late]:
        await ws.disconnect()
