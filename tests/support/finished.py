"""Finished games with a chosen deal, played to the end through the services.

Used in-process (tests/integration) and inside a live site's database through
`manage.py shell` (tests/e2e, `tests.support.tables.run_django`). Every seat
is a member, so the house never moves and the game is the same on every run:
the deal comes from `seed`, each move is a seeded random pick among the legal
ones of a seat that may act.
"""

from __future__ import annotations

import random

from club.models import Player
from games import registry, services
from games.models import Game, Table, Variant
from tests.support.members import member


def finished_game(
    variant: Variant,
    names: list[str],
    seed: int,
    private: bool = False,
    series=None,
) -> tuple[Game, list[Player]]:
    """A game of `variant` between new members called `names` (seat order), played out."""
    players = [member(name) for name in names]
    return play_game(variant, players, seed, private, series), players


def play_game(
    variant: Variant, players: list[Player], seed: int, private: bool = False, series=None
) -> Game:
    """A game of `variant` between these members (seat order), dealt from `seed`, played out."""
    table, _ = services.create_table(
        players[0], variant, len(players), private=private, series=series
    )
    for player in players[1:]:
        services.join_table(player, table.pk, str(table.invite_token))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    game = services.current_game(table)
    engine = registry.engine(game.game)
    game.seed = seed
    game.state = engine.to_json(engine.deal(len(players), seed, engine.options(game.options)))
    game.save(update_fields=["seed", "state"])
    play_out(table, seed)
    return services.current_game(table)


def play_out(table: Table, seed: int, stop_after: int | None = None) -> None:
    """Members move at random (seeded) among their legal moves until the game ends."""
    rng = random.Random(seed)
    moves = 0
    while stop_after is None or moves < stop_after:
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return
        game = services.current_game(table)
        engine = registry.engine(game.game)
        state = engine.from_json(game.state)
        seat = rng.choice(engine.actors(state))
        move = rng.choice(engine.view(state, seat)["legal"])
        services.play_move(game.players[seat], table.pk, move, table.version)
        moves += 1
