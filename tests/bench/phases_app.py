"""The site as served, with a move's phases timed, for tests/bench/bench_move_phases.py.

BENCH_PHASES=/path/out.json serves `club.asgi:application` with timers around
each `play` a table socket handles, and writes them there when the process
exits: for each move, the seconds from the socket's `receive_json` to the
start of `play_move` on a database thread, `play_move` itself (its
transaction and commit), from its end back to the socket's first
`table_update` (the mover's own frame), and from there to the end of the
handling (that frame and `publish`); and each SQL statement `play_move` ran
(its first two words and its seconds). Bench-only: the wrappers go around the
site's public functions and call them, nothing else changes.
"""

from __future__ import annotations

import atexit
import contextvars
import json
import os
import time
from typing import Any

from django.db import connection

from club.asgi import application as site
from games import consumers, services

OUT = os.environ.get("BENCH_PHASES", "")
moves: list[dict] = []
_current: contextvars.ContextVar[dict | None] = contextvars.ContextVar("move", default=None)

_play_move = services.play_move
_receive_json = consumers.TableConsumer.receive_json
_table_update = consumers.TableConsumer.table_update


def play_move(*args: Any) -> Any:
    # Runs on a database thread, in a copy of the socket's context: the dict is shared.
    move = _current.get()
    statements: list[tuple[str, float]] = []

    def timed(execute, sql, params, many, context):
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            statements.append((" ".join(sql.split()[:2])[:40], time.perf_counter() - began))

    began = time.perf_counter()
    try:
        with connection.execute_wrapper(timed):
            return _play_move(*args)
    finally:
        if move is not None:
            move.update(db_start=began, db_end=time.perf_counter(), statements=statements)


async def receive_json(self, content: Any, **kwargs: Any) -> None:
    if not (isinstance(content, dict) and content.get("type") == "play"):
        await _receive_json(self, content, **kwargs)
        return
    move = {"start": time.perf_counter()}
    token = _current.set(move)
    try:
        await _receive_json(self, content, **kwargs)
    finally:
        _current.reset(token)
    move["end"] = time.perf_counter()
    if "announce" in move and "db_end" in move:
        moves.append(move)


async def table_update(self, event: dict) -> None:
    # Inside a `play`'s handling, the first call is the mover's own frame (_announce);
    # the table's other sockets get theirs in their own turns, outside this context.
    move = _current.get()
    if move is not None and "db_end" in move and "announce" not in move:
        move["announce"] = time.perf_counter()
    await _table_update(self, event)


def _write() -> None:
    with open(OUT, "w") as out:
        json.dump(moves, out)


services.play_move = play_move
consumers.TableConsumer.receive_json = receive_json
consumers.TableConsumer.table_update = table_update
if OUT:
    atexit.register(_write)

application = site
