"""The only code that changes a table: create, join, leave, start, play, again.

One module per concern: `tables` (seats, start, deal, bots, abort), `moves`
(one move), `presence` (who is connected), `house` (turns the house plays),
`results`, `snapshots` (what a client may see) and `clock` (every change:
version and turn deadline). Callers import from `games.services` only.

Every change runs in one transaction that first locks the table row, so
joins, starts and moves at one table happen one at a time (PostgreSQL:
`select_for_update`; SQLite: the IMMEDIATE transaction already holds the
database's write lock from BEGIN). The table's `version` goes up with every
change; a move names the version it was made against, so a double click or a
second tab cannot apply the same move twice.

Functions return `Broadcast`s describing what changed; the caller publishes
them after the transaction commits (`games.broadcast`). A broadcast carries
the full engine state, and `project()` turns it into what one seat may see
through the engine's `view()`: the one path by which state reaches a client.
"""

from games.services.common import Broadcast, ServiceError, current_game
from games.services.house import (
    AutoTurn,
    automatic_turn,
    choose_automatic_move,
    due_tables,
    play_automatic,
    play_out,
)
from games.services.moves import play_move
from games.services.pace import turn_waiting
from games.services.presence import (
    SERVER_ID,
    away_unless_here,
    refresh_presence,
    seat_connected,
    seat_disconnected,
)
from games.services.results import rate_games
from games.services.snapshots import (
    move_log,
    project,
    projected_text,
    seat_of,
    snapshot,
    table_for_viewer,
    table_state,
)
from games.services.tables import (
    abort_table,
    add_bot,
    come_back,
    create_table,
    deal_fixed_table,
    deal_next,
    draw_seed,
    hand_over,
    join_table,
    leave_table,
    play_again,
    play_again_by_id,
    quick_game,
    remove_bot,
    seeded_deals,
    start_table,
)
from games.services.turns import waiting_on

__all__ = [
    "SERVER_ID",
    "AutoTurn",
    "Broadcast",
    "ServiceError",
    "abort_table",
    "add_bot",
    "automatic_turn",
    "choose_automatic_move",
    "come_back",
    "create_table",
    "current_game",
    "deal_fixed_table",
    "deal_next",
    "draw_seed",
    "due_tables",
    "hand_over",
    "join_table",
    "leave_table",
    "move_log",
    "play_again",
    "play_again_by_id",
    "play_automatic",
    "play_out",
    "play_move",
    "project",
    "projected_text",
    "quick_game",
    "rate_games",
    "refresh_presence",
    "away_unless_here",
    "remove_bot",
    "seat_connected",
    "seat_disconnected",
    "seat_of",
    "seeded_deals",
    "snapshot",
    "start_table",
    "waiting_on",
    "table_for_viewer",
    "table_state",
    "turn_waiting",
]
