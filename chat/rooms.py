"""Chat rooms are named by strings: the lobby's, or one table's.

One implementation serves both: a socket joins a room's channel-layer group
("chat-" + room) and every message of that room is fanned out through it,
on every server process, as table updates are (games/broadcast.py).
"""

from __future__ import annotations

LOBBY = "lobby"


def table_room(table_id: int) -> str:
    return f"table-{table_id}"


def table_of(room: str) -> int | None:
    """The table id of a table's room; None for the lobby."""
    if room.startswith("table-"):
        return int(room.removeprefix("table-"))
    return None


def group(room: str) -> str:
    return f"chat-{room}"
