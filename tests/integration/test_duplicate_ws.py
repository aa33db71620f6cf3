"""No peeking over the websocket: a duplicate board's table answers only its own member."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tests.integration.test_table_ws import connect
from tests.support.duplicate import finish, make_series, open_round, start
from tests.support.members import member

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("default_variants"),
]


def _board_played_by_anna():
    series = make_series("Golf", seats=3)
    round_ = open_round(series)
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    finish(start(anna, round_))
    boris_play = start(boris, round_)
    anna_play = anna.duplicate_plays.get()
    return anna_play.table, boris_play.table, (anna, boris, vera)


async def test_other_entrants_and_spectators_cannot_open_a_board_table():
    table, boris_table, (anna, boris, vera) = await database_sync_to_async(_board_played_by_anna)()
    token = str(table.invite_token)
    for viewer in (boris, vera):
        for path in (f"/ws/tables/{table.pk}/", f"/ws/tables/{table.pk}/?invite={token}"):
            ws = await connect(table.pk, viewer.user, path=path)
            message = await ws.receive_json_from()
            assert message["type"] == "error" and message["code"] == "not_found"
            assert (await ws.receive_output())["code"] == 4404
    # Nor Boris's own table to anyone else, even to Anna who finished the board.
    ws = await connect(boris_table.pk, anna.user)
    assert (await ws.receive_json_from())["code"] == "not_found"
    await ws.disconnect()
    # Their own tables answer as usual.
    ws = await connect(table.pk, anna.user)
    message = await ws.receive_json_from()
    assert message["type"] == "state" and message["table"]["you"] == 0
    await ws.disconnect()
