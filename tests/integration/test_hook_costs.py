"""What the apps' hooks cost a move (issue 44): nothing, when none of them wants it.

games.hooks delivers events after commit; a listener says which events it
`accepts`, so a move whose events nobody accepts schedules no work at all. The
test's transaction keeps the after-commit callbacks it was given
(`connection.run_on_commit`), so counting them shows what a move scheduled.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from games import broadcast, hooks, services
from games.models import Seat, Table, Variant
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]


def two_member_table(pace: str) -> Table:
    anna, boris = member("Anna"), member("Boris")
    with services.seeded_deals(44):
        table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2, pace=pace)
        services.join_table(boris, table.pk)
    table.refresh_from_db()
    return table


def mover(table: Table) -> Seat:
    game = services.current_game(table)
    engine = Variant.objects.get(pk=table.variant_id).engine
    seat = engine.actors(engine.from_json(game.state))[0]
    return table.seats.select_related("player").get(position=seat)


def scheduled_by_a_move(table: Table) -> int:
    """After-commit callbacks one member's move scheduled (its first legal card)."""
    seat = mover(table)
    game = services.current_game(table)
    engine = Variant.objects.get(pk=table.variant_id).engine
    card = engine.view(engine.from_json(game.state), seat.position)["legal"][0]
    before = len(connection.run_on_commit)
    services.play_move(seat.player_id, table.pk, card, table.version)
    return len(connection.run_on_commit) - before


def test_a_move_at_a_live_table_schedules_nothing_for_the_hooks():
    # The turn passes to a member at a live table: the notifications do not tell
    # members what they are looking at, and the nights only want finished games.
    assert scheduled_by_a_move(two_member_table("live")) == 0


def test_a_move_at_a_turn_based_table_still_tells_the_member_whose_turn_it_is():
    assert scheduled_by_a_move(two_member_table("1d")) == 1


def test_a_listener_is_told_only_what_it_accepts():
    told: list[hooks.Event] = []
    hooks.listen(told.append, accepts=lambda event: event.kind == "game_finished")
    try:
        table = two_member_table("live")
        assert scheduled_by_a_move(table) == 0
        assert told == []
    finally:
        hooks.unlisten(told.append)


def test_forget_drops_an_apps_registrations_and_only_those():
    def mine(event: hooks.Event) -> None: ...

    mine.__module__ = "benchonly.listeners"
    hooks.listen(mine)
    try:
        assert hooks.forget("benchonly") == 1
        assert hooks.forget("benchonly") == 0
        assert hooks.forget("benchonl") == 0  # a prefix of a package name is not its package
    finally:
        hooks.unlisten(mine)


@pytest.mark.asyncio
async def test_a_best_effort_send_from_the_database_thread_does_not_wait_for_the_loop():
    """A bell's unread count sent from a move's database work (a game's end) is handed to
    the loop, not waited for: the database thread is every table's."""
    await broadcast.publish([])  # as every move's publish: the server's loop is this one
    order: list[str] = []
    gate = threading.Event()

    async def send() -> None:
        # Let the database thread go on first; a send that were waited for would hold
        # it here until the gate's timeout, and be first in `order`.
        await asyncio.to_thread(gate.wait, 10)
        order.append("sent")

    def database_work() -> None:
        broadcast.soon(send, "test send")
        order.append("database thread went on")
        gate.set()

    await sync_to_async(database_work)()
    for _ in range(500):
        if "sent" in order:
            break
        await asyncio.sleep(0.01)
    assert order == ["database thread went on", "sent"]
