"""A seeded game's frames, replay and record are byte for byte what they were.

Issue 26 made the per-move path cheaper (fewer statements, each viewer
class's frame built once): nothing a client sees may change. A fixed deal is
played by members over real sockets (three seats and a spectator); every
frame each socket receives, and the finished game's replay.json and
record.json, are compared with the files in tests/integration/golden/, which
were written by the code before that work (commit 09ce0b5).

What differs from run to run is set aside first: database ids (players,
table, game) become their order of appearance, and clock times their
presence. Each frame must also be exactly the standard encoding of its JSON
value (`json.dumps` with its defaults), so comparing values compares bytes.

UPDATE_GOLDEN=1 rewrites the files (only when a change is meant to show).
"""

from __future__ import annotations

import gzip
import json
import os
import random
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import registry, services
from games.models import Game, Table, Variant
from tests.integration.test_table_ws import connect, make_player

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("default_variants"),
]

GOLDEN = Path(__file__).parent / "golden"
TIMES = {"turn_deadline", "clock_deadline", "handover_at", "created", "finished", "started"}
PLAYER_KEYS = {"creator", "player", "player_id"}
# Which entity an id names, by its key (and, for a bare "id", the object it is in).
ID_KINDS = {
    "table": "table",
    "table_id": "table",
    "game_id": "game",
    ("table", "id"): "table",
    ("", "id"): "game",
}


class Ids:
    """Database ids renamed by kind and order of first appearance (stable across runs).

    Each kind is one entity type, so two different rows that happen to share a
    number in one run never share a name.
    """

    def __init__(self) -> None:
        self.seen: dict[tuple[str, int], str] = {}

    def name(self, kind: str, value: int) -> str:
        return self.seen.setdefault((kind, value), f"{kind}#{len(self.seen)}")


def _id_kind(key: str, parent: str) -> str | None:
    if key in PLAYER_KEYS:
        return "player"
    return (
        ID_KINDS.get(key)
        or ID_KINDS.get((parent, key))
        or (f"{parent}.{key}" if key == "id" else None)
    )


def normalise(value, ids: Ids, key: str = "", parent: str = ""):
    if isinstance(value, dict):
        return {k: normalise(v, ids, k, key) for k, v in value.items()}
    if isinstance(value, list):
        if key in ("players", "player_ids") and all(isinstance(v, int) for v in value):
            return [ids.name("player", v) for v in value]
        return [normalise(v, ids, "", key) for v in value]
    if key in TIMES and value is not None:
        return "<time>"
    kind = _id_kind(key, parent)
    if kind and isinstance(value, int) and not isinstance(value, bool):
        return ids.name(kind, value)
    return value


def seated_game(game_name: str, names: list[str], seed: int):
    users = [make_player(n) for n in names]
    watcher = make_player("Watcher")
    variant = Variant.objects.get(name=game_name)
    table, _ = services.create_table(users[0].player, variant, len(users))
    for user in users[1:]:
        services.join_table(user.player, table.pk)
    table = Table.objects.get(pk=table.pk)
    game = services.current_game(table)
    engine = registry.engine(game.game)
    # The deal the golden files were written from.
    game.seed = seed
    game.state = engine.to_json(engine.deal(len(users), seed, engine.options(game.options)))
    game.save(update_fields=["seed", "state"])
    return table.pk, users, watcher


def next_move(table_id: int, rng: random.Random) -> tuple[int, str, int] | None:
    table = Table.objects.get(pk=table_id)
    if table.status != Table.Status.PLAYING:
        return None
    game = services.current_game(table)
    engine = registry.engine(game.game)
    state = engine.from_json(game.state)
    seat = rng.choice(engine.actors(state))
    return seat, rng.choice(engine.view(state, seat)["legal"]), table.version


def finished_files(table_id: int) -> dict:
    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    user = game.table.created_by.user
    client = Client()
    client.force_login(user)
    return {
        kind: client.get(f"/games/{game.pk}/{kind}.json").json() for kind in ("replay", "record")
    }


@pytest.mark.parametrize(
    ("variant", "names", "seed", "max_moves"),
    [("Devyatka", ["Anna", "Boris", "Vera"], 2026, 400), ("Golf", ["Anna", "Boris"], 7, 600)],
)
async def test_seeded_game_frames_replay_and_record_are_unchanged(
    variant, names, seed, max_moves, settings
):
    # The members here move far faster than people: the rate limit is not under test.
    settings.WS_RATE_BURST = settings.WS_RATE_PER_SECOND = 10_000
    table_id, users, watcher = await database_sync_to_async(seated_game)(variant, names, seed)
    sockets = [await connect(table_id, user) for user in [*users, watcher]]
    frames: list[list[str]] = [[await ws.receive_from()] for ws in sockets]
    rng = random.Random(seed)
    for _ in range(max_moves):
        move = await database_sync_to_async(next_move)(table_id, rng)
        if move is None:
            break
        seat, action, version = move
        await sockets[seat].send_json_to({"type": "play", "move": action, "version": version})
        for received, ws in zip(frames, sockets, strict=True):
            received.append(await ws.receive_from(timeout=5))
    for ws in sockets:
        assert await ws.receive_nothing(timeout=0.05)
        await ws.disconnect()

    for received in frames:
        for text in received:
            # Exactly the default encoding of its value: comparing values compares bytes.
            assert text == json.dumps(json.loads(text))
    ids = Ids()
    seen = {
        "frames": [[normalise(json.loads(t), ids) for t in received] for received in frames],
        "files": normalise(await database_sync_to_async(finished_files)(table_id), ids),
    }
    path = GOLDEN / f"frames-{variant.lower()}-{seed}.json.gz"
    if os.environ.get("UPDATE_GOLDEN"):
        with gzip.open(path, "wt", encoding="utf-8") as out:
            json.dump(seen, out, sort_keys=True)
    with gzip.open(path, "rt", encoding="utf-8") as golden:
        expected = json.load(golden)
    assert len(seen["frames"][0]) > 10
    assert seen == expected
