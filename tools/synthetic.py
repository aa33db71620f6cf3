"""Synthetic players and started tables, for the load tool and the server tests.

Everything made here is marked: usernames and display names start with a
`prefix` (``load-…`` for the load tool), passwords are unusable, and
`remove()` deletes all of it again (users, their players, tables, games,
moves, and the sessions made for them).

Players get real sessions (`SessionStore`), so a websocket client that sends
``Cookie: sessionid=<key>`` is signed in exactly as a browser would be.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import transaction

from club.models import Player
from games import services
from games.migrations._defaults import DEFAULTS
from games.models import Table, Variant

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"

# The variant played unless one is named: the first of the variants every club starts with.
DEFAULT_VARIANT = DEFAULTS[0]["name"]


@dataclass
class SyntheticPlayer:
    player_id: int
    name: str
    session_key: str

    def as_dict(self) -> dict:
        return {"player": self.player_id, "name": self.name, "session": self.session_key}


def new_prefix(kind: str = "load") -> str:
    return f"{kind}-{uuid.uuid4().hex[:6]}"


def session_for(user) -> str:
    """A signed-in session for `user`, as `django.contrib.auth.login` would store it."""
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = MODEL_BACKEND
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def make_players(prefix: str, count: int, start: int = 0) -> list[SyntheticPlayer]:
    """`count` users with players named ``<prefix>-<n>`` and a session each."""
    user_model = get_user_model()
    made = []
    with transaction.atomic():
        for n in range(start, start + count):
            name = f"{prefix}-{n:04d}"
            user = user_model(username=name, email=f"{name}@load.invalid")
            user._display_name = name  # read by club.signals when it makes the Player
            user.set_unusable_password()
            user.save()
            player = Player.objects.get(user=user)
            if player.display_name != name:
                player.display_name = name
                player.save(update_fields=["display_name"])
            made.append(SyntheticPlayer(player.pk, name, session_for(user)))
    return made


def started_table(players: list[SyntheticPlayer], variant: str = DEFAULT_VARIANT) -> int:
    """A table for `players` (seat order = list order), started through the services.

    Nothing is published: nobody is connected yet, and whoever connects gets
    the full state.
    """
    by_id = {p.pk: p for p in Player.objects.filter(pk__in=[s.player_id for s in players])}
    first = by_id[players[0].player_id]
    table, _ = services.create_table(first, Variant.objects.get(name=variant), len(players))
    for seat in players[1:]:
        services.join_table(by_id[seat.player_id], table.pk)
    status = Table.objects.values_list("status", flat=True).get(pk=table.pk)
    if status != Table.Status.PLAYING:
        raise RuntimeError(f"table {table.pk} did not start ({status})")
    return table.pk


def open_table(host: SyntheticPlayer, seats: int = 4, variant: str = DEFAULT_VARIANT) -> int:
    """An open table of `host`'s with `seats` seats, waiting for players."""
    player = Player.objects.get(pk=host.player_id)
    table, _ = services.create_table(player, Variant.objects.get(name=variant), seats)
    return table.pk


def remove(prefix: str, session_keys: list[str] | None = None) -> int:
    """Delete the users made with `prefix` and everything that hangs off them."""
    user_model = get_user_model()
    users = user_model.objects.filter(username__startswith=f"{prefix}-")
    count = users.count()
    with transaction.atomic():
        # Lock the table rows first, in the order the services do, so a server
        # still handling these players' disconnects waits instead of deadlocking.
        tables = Table.objects.filter(created_by__user__in=users)
        list(tables.select_for_update(of=("self",)).order_by("pk").values_list("pk", flat=True))
        # Tables cascade from their creator (a synthetic player): games and moves go too.
        tables.delete()
        users.delete()
        if session_keys:
            for start in range(0, len(session_keys), 500):
                Session.objects.filter(session_key__in=session_keys[start : start + 500]).delete()
    return count
