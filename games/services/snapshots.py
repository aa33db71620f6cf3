"""Snapshots of a table, and `project()`: the one path by which state reaches a client."""

from __future__ import annotations

import datetime
import json
import threading
import uuid
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from club.bots import bot_fields
from games import paces, registry
from games.models import Game, Seat, Table
from games.services import pace
from games.services.common import (
    ServiceError,
    current_game,
    id_in_range,
    invite_matches,
    may_see_private,
    table_seats,
)


def snapshot(
    table: Table, game: Game | None, seats: list[Seat] | None = None, state: Any = None
) -> dict:
    """Everything about a table at one version; server-side only (holds every hand).

    `state`: the game's engine state, when the caller holds it (a move just made it).
    The projections of this snapshot then use it instead of parsing the JSON again
    on the event loop (about 2 % of a live server's samples, docs/PERFORMANCE.md).
    """
    seats = table_seats(table) if seats is None else seats
    deadlines, away = pace.frame_fields(table, game, seats)
    turn_based = paces.is_turn_based(table.pace)
    stamp = uuid.uuid4().hex
    if state is not None and game is not None:
        _states.put(stamp, state)  # engine states are immutable: shared as they are
    return {
        "version": table.version,
        # Names this snapshot among all others (server-side only, never sent):
        # what `projected_text` remembers its frames by.
        "stamp": stamp,
        "table": {
            "id": table.pk,
            "status": table.status,
            "variant": table.variant.name,
            "game": table.variant.game,
            "seat_count": table.seat_count,
            "min_players": table.variant.min_players,
            "creator": table.created_by_id,
            "private": table.private,
            "series": table.series.name if table.series_id else None,
            "abort_reason": table.abort_reason,
            "seats": [
                {
                    "position": s.position,
                    "player": s.player_id,
                    "name": s.player.display_name,
                    "bot": s.is_bot,
                    "away": s.away_since is not None,
                    "handed_over": s.handed_over,
                    "resigned": s.resigned_at is not None,
                    "rematch": s.rematch,
                    # Turn-based tables (added fields): when this member's time for
                    # the current move runs out (null: not theirs to move), when they
                    # are back from declared away days (null: not away), and the
                    # moves in a row the house played for them.
                    "deadline": deadlines.get(s.position),
                    "away_until": away.get(s.player_id),
                    "missed": s.missed,
                    # A bot's seat also says its first name and level (added
                    # fields: `name` stays the stored, unique name).
                    **bot_fields(s.player.display_name, s.player.bot_level),
                }
                for s in seats
            ],
            "turn_seconds": table.variant.turn_seconds,
            # "live", or a turn-based pace ("12h", "1d", ... "7d"): its seconds a move.
            "pace": table.pace,
            "pace_seconds": (
                int(paces.pace_delta(table.pace).total_seconds()) if turn_based else None
            ),
            "turn_deadline": table.turn_deadline.timestamp() if table.turn_deadline else None,
            "handover_at": at.timestamp() if (at := handover_at(table)) else None,
            # The members' own clock for this turn (the house may act sooner for
            # a bot or an away seat: that is `turn_deadline`).
            "clock_deadline": (
                (
                    table.turn_started + datetime.timedelta(seconds=table.variant.turn_seconds)
                ).timestamp()
                if table.turn_started and table.variant.turn_seconds and not turn_based
                else None
            ),
            "game_number": game.number if game else None,
            # The game's page (/games/<id>/): its results and, once over, its replay.
            "game_id": game.pk if game else None,
        },
        "game": game.game if game else None,
        "state": game.state if game else None,
        # What was recorded at the end (with any resignations): it overrides the
        # result the engine computes from the state alone.
        "result": game.result if game else None,
    }


def move_log(game: Game | None) -> list[dict]:
    if game is None:
        return []
    rows = game.moves.order_by("number").values_list("number", "seat", "move", "auto")
    return [{"n": n, "seat": seat, "move": move, "auto": auto} for n, seat, move, auto in rows]


def table_for_viewer(table_id: int, player_id: int, invite: str | None = None) -> dict:
    """The snapshot and full move log for a connecting or resyncing client."""
    if not id_in_range(table_id):
        raise ServiceError("not_found", _("There is no such table."))
    table = Table.objects.select_related("variant", "series").filter(pk=table_id).first()
    if table is None:
        raise ServiceError("not_found", _("There is no such table."))
    seats = table_seats(table)
    if table.private and not may_see_private(table, player_id, seats, invite):
        # The same answer as a missing table, so table ids reveal nothing.
        raise ServiceError("not_found", _("There is no such table."))
    # A table open again after a game shows its seats, not the last game.
    game = None if table.status == Table.Status.OPEN else current_game(table)
    data = snapshot(table, game, seats)
    data["log"] = move_log(game)
    # Whether this viewer holds the invite (consumers keep it; never sent).
    data["invited"] = table.private and invite_matches(table, invite)
    return data


def table_state(table_id: int) -> dict | None:
    """The snapshot and full move log for the sockets already following a table (None: gone).

    What a process sends its own sockets after it missed updates (the channel
    layer was down): no viewer check, they passed it when they connected.
    """
    table = Table.objects.select_related("variant", "series").filter(pk=table_id).first()
    if table is None:
        return None
    seats = table_seats(table)
    game = None if table.status == Table.Status.OPEN else current_game(table)
    data = snapshot(table, game, seats)
    data["log"] = move_log(game)
    return data


def seat_of(snapshot_data: dict, player_id: int | None) -> int | None:
    for seat in snapshot_data["table"]["seats"]:
        if seat["player"] == player_id:
            return seat["position"]
    return None


def project(snapshot_data: dict, player_id: int | None) -> dict:
    """The `state` message for one recipient: public table info + the engine's view."""
    seat = seat_of(snapshot_data, player_id)
    table = dict(snapshot_data["table"])
    table["you"] = seat
    table["is_creator"] = player_id is not None and table["creator"] == player_id
    view = None
    entries = snapshot_data["log"] if "log" in snapshot_data else snapshot_data.get("events", [])
    if snapshot_data.get("state") is not None:
        engine = registry.engine(snapshot_data["game"])
        # Only a seated player of a running game sees a hand; everyone else watches.
        view_seat = seat if seat is not None and seat < len(table["seats"]) else None
        state = _parsed_state(snapshot_data, engine)
        view = engine.view(state, view_seat)
        if view.get("result") and snapshot_data.get("result"):
            view["result"] = {**view["result"], **snapshot_data["result"]}
        # A move this viewer may not see yet (registry: Engine.hidden_moves) goes as None.
        hidden = engine.hidden_entries(state, view_seat, [e["seat"] for e in entries])
        if hidden:
            entries = [{**e, "move": None} if i in hidden else e for i, e in enumerate(entries)]
    message = {"type": "state", "version": snapshot_data["version"], "table": table, "view": view}
    message["log" if "log" in snapshot_data else "events"] = entries
    return message


class _Recent:
    """The last `size` entries put, by key: a small LRU shared by the process's sockets."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict = OrderedDict()
        # Sockets project on the event loop, tests and the runner in other threads.
        self.lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self.lock:
            return self.entries.get(key)

    def put(self, key: Any, value: Any) -> None:
        with self.lock:
            self.entries[key] = value
            if len(self.entries) > self.size:
                self.entries.popitem(last=False)


# A table update reaches every socket of the table on this process: the
# engine state is parsed once, and each kind of viewer's frame (a seat, a
# spectator; the creator or not) encoded once, not once per socket.
_states = _Recent(256)
_frames = _Recent(1024)


def _parsed_state(snapshot_data: dict, engine: Any) -> Any:
    stamp = snapshot_data.get("stamp")
    state = _states.get(stamp) if stamp else None
    if state is None:
        state = engine.from_json(snapshot_data["state"])
        if stamp:
            _states.put(stamp, state)
    return state


def projected_text(snapshot_data: dict, player_id: int | None) -> str:
    """`project(snapshot_data, player_id)` as the JSON text a socket sends.

    Exactly `json.dumps(project(...))`; a table update's text is built once
    per viewer class (seat, and whether the viewer opened the table). A full
    state (with the move log) is built for its one reader.
    """
    stamp = snapshot_data.get("stamp")
    if stamp is None or "log" in snapshot_data:
        return json.dumps(project(snapshot_data, player_id))
    creator = player_id is not None and snapshot_data["table"]["creator"] == player_id
    key = (stamp, seat_of(snapshot_data, player_id), creator)
    text = _frames.get(key)
    if text is None:
        text = json.dumps(project(snapshot_data, player_id))
        _frames.put(key, text)
    return text


def handover_at(table: Table) -> datetime.datetime | None:
    """When the other members may hand the seat to move to the house, if ever.

    Only a turn nobody will play by itself has one: a member who is here, at a
    table whose variant has no clock (any other turn has a `turn_deadline`).
    """
    if table.status != Table.Status.PLAYING or table.turn_started is None:
        return None
    if table.turn_deadline is not None:
        return None
    return table.turn_started + datetime.timedelta(seconds=settings.IDLE_HANDOVER_SECONDS)
