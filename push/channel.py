"""Push as a channel of the notifications: which kinds a member wants pushed.

A member's choice is a notifications.Preference row with channel "push" (the
settings page writes it); without one, the kind's default. Push is on by default
for what a member on a phone waits for: their turn at a turn-based table,
invitations, club nights' reminders and a night's table being ready
(notifications.kinds declares each kind's `push_default`).
"""

from __future__ import annotations

from collections.abc import Iterable

from notifications import kinds
from notifications.models import Preference

PUSH = kinds.PUSH


def default(kind: kinds.Kind) -> bool:
    return kind.push_default


def wanted(player_ids: Iterable[int], kind: kinds.Kind) -> set[int]:
    """Which of these members want `kind` pushed."""
    ids = set(player_ids)
    on = set(ids) if default(kind) else set()
    for pid, enabled in Preference.objects.filter(
        player_id__in=ids, kind=kind.key, channel=PUSH
    ).values_list("player_id", "enabled"):
        (on.add if enabled else on.discard)(pid)
    return on
