"""A whole nine-round Golf match over the protocol: one member and three house bots.

A real daphne process runs the house runner; the member is a `websockets`
client with a real session cookie that only ever sends a move its view lists
in `legal` (docs/PROTOCOL.md). The match ends, every round is scored, the
member never sees a face-down card, and the stored match equals a replay of
its move log.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from tests.support.server import DaphneServer, SiteDatabase
from tests.support.tables import TableClient, run_django

pytestmark = [pytest.mark.server, pytest.mark.timeout(300)]


def golf_table_with_bots(database: SiteDatabase) -> dict:
    return run_django(
        database,
        "from club.models import Player\n"
        "from games import services\n"
        "from tools import synthetic\n"
        "from games.models import Variant\n"
        "[member] = synthetic.make_players(synthetic.new_prefix('golf'), 1)\n"
        "player = Player.objects.get(pk=member.player_id)\n"
        "table, _ = services.create_table(player, Variant.objects.get(name='Golf'), 4)\n"
        "for level in ('random', 'heuristic', 'search'):\n"
        "    services.add_bot(player, table.pk, level)\n"
        "emit({'table': table.pk, 'session': member.session_key})\n",
    )


def hidden_cards_absent(view: dict, seat: int) -> None:
    """A player's view shows only face-up cards, and no drawn card but their own."""
    for grid in view["grids"]:
        assert len(grid) == 9
    if view["drawn"] is not None:
        assert view["holding"][seat]


async def play_match(client: TableClient, rng: random.Random) -> dict:
    try:
        return await asyncio.wait_for(_play(client, rng), 240)
    finally:
        await client.close()


async def _play(client: TableClient, rng: random.Random) -> dict:
    state = await client.open()
    seat = state["table"]["you"]
    rounds_seen = set()
    for _ in range(3000):
        view = state["view"]
        hidden_cards_absent(view, seat)
        rounds_seen.add(view["round"])
        if view["over"]:
            return {"state": state, "rounds": rounds_seen}
        sent = False
        if view["legal"]:
            # Turning cards up ends rounds soonest: a nine-round match in ~2 minutes less.
            flips = [m for m in view["legal"] if m.startswith("flip") or m == "ready"]
            move = rng.choice(flips or view["legal"])
            await client.ws.send(
                json.dumps({"type": "play", "move": move, "version": state["version"]})
            )
            sent = True
        # After a move, wait for it (others' moves may arrive first and still show
        # this seat's old choices); otherwise for the next change.
        while True:
            frame = await client.receive()
            if frame["type"] == "error":
                # The house moved first; or, after several of those in a row on a
                # busy machine, the rate limit: wait as told, like any client.
                assert frame["code"] in {"stale_version", "rate_limited"}, frame
                await asyncio.sleep(frame.get("retry_after", 0))
                break  # choose again on the newest state
            if frame["type"] != "state" or frame["version"] <= state["version"]:
                continue
            state = frame
            mine = any(e["seat"] == seat and not e["auto"] for e in frame.get("events", []))
            if not sent or mine or state["view"]["over"]:
                break
    raise AssertionError("the match did not end")


def test_a_nine_round_golf_match_against_three_bots(database: SiteDatabase, tmp_path: Path):
    # Bots move almost at once: a nine-round match is about 700 moves.
    server = DaphneServer(database, tmp_path, env={"BOT_DELAY_SECONDS": "0.01"}).start()
    try:
        setup = golf_table_with_bots(database)
        client = TableClient(server, setup["table"], setup["session"])
        outcome = asyncio.run(play_match(client, random.Random(7)))
    finally:
        server.stop()
    final = outcome["state"]
    assert outcome["rounds"] == set(range(1, 10))
    result = final["view"]["result"]
    assert sorted(result["places"])[0] == 1
    assert all(len(scores) == 9 for scores in result["round_scores"])
    assert result["totals"] == [sum(s) for s in result["round_scores"]]
    stored = run_django(
        database,
        "from games import registry, services\n"
        "from games.models import Game\n"
        f"game = Game.objects.get(table_id={setup['table']})\n"
        "engine = registry.engine('golf')\n"
        "log = [(e['seat'], e['move']) for e in services.move_log(game)]\n"
        "state = engine.replay(len(game.players), game.seed, game.options, log)\n"
        "emit({'stored': game.result, 'replayed': engine.result(state),\n"
        "      'results': list(game.results.order_by('seat').values_list('score', flat=True))})\n",
    )
    assert stored["stored"] == stored["replayed"]
    assert stored["results"] == result["totals"]
