"""A notification in words and links, in the active language (the reader's)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from email.headerregistry import Address
from email.utils import parseaddr

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext as _

from games.models import Table
from notifications import kinds
from notifications.models import Notification

UNSUBSCRIBE_SALT = "notifications.unsubscribe"


@dataclass
class Shown:
    notification: Notification
    text: str
    path: str | None

    @property
    def url(self) -> str | None:
        return absolute(self.path) if self.path else None


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def site_host() -> str:
    """SITE_URL's host (and port): what a mail shows as the club's address."""
    return settings.SITE_URL.split("//", 1)[-1].split("/", 1)[0] or "localhost"


def club_name() -> str:
    """The club's name in the active language, as every mail's footer gives it."""
    return _("Card Club")


def sender() -> str:
    """The From header in the active language: the club's name at DEFAULT_FROM_EMAIL's address.

    The display name the operator configured is kept unless it is the default
    "Card Club", which reads in the member's language.
    """
    name, address = parseaddr(settings.DEFAULT_FROM_EMAIL)
    if not name or name == "Card Club":
        name = club_name()
    if "@" not in address:
        return settings.DEFAULT_FROM_EMAIL
    return str(Address(display_name=name, addr_spec=address))


def table_names(notifications: Iterable[Notification]) -> dict[int, str]:
    ids = {n.table_id for n in notifications if n.table_id}
    tables = Table.objects.filter(pk__in=ids).select_related("variant")
    return {table.pk: str(table) for table in tables}


def path(notification: Notification) -> str | None:
    """Where the notification leads: what the emitter said, else the replay or the table."""
    given = notification.data.get("path")
    if isinstance(given, str) and given.startswith("/") and not given.startswith("//"):
        return given
    if notification.kind == kinds.GAME_FINISHED.key and notification.game_id:
        return reverse("game_detail", args=[notification.game_id])
    if notification.table_id:
        return reverse("table", args=[notification.table_id])
    return None


def text(notification: Notification, names: dict[int, str]) -> str:
    kind = notification.kind_info
    fields = {k: str(v) for k, v in notification.data.items() if isinstance(v, str | int)}
    if notification.table_id:
        fields["table"] = names.get(notification.table_id) or _("Table %(number)s") % {
            "number": notification.table_id
        }
    players, places = notification.data.get("players"), notification.data.get("places")
    if isinstance(players, list) and isinstance(places, list) and notification.player_id in players:
        seat = players.index(notification.player_id)
        if seat < len(places):
            fields["place"], fields["count"] = str(places[seat]), str(len(players))
    if kind is None:
        return notification.kind
    try:
        return str(kind.text) % _Fields(fields)
    except (KeyError, TypeError, ValueError):
        return str(kind.label)


class _Fields(dict):
    """A field an emitter left out reads as nothing rather than failing."""

    def __missing__(self, key: str) -> str:
        return "…"


def shown(notifications: list[Notification]) -> list[Shown]:
    names = table_names(notifications)
    return [Shown(n, text(n, names), path(n)) for n in notifications]


def unsubscribe_token(player_id: int, kind: str) -> str:
    return signing.dumps({"p": player_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    """(player id, kind) of a token this site signed; None for any other string."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if not isinstance(data, dict):
        return None
    player, kind = data.get("p"), data.get("k")
    if not isinstance(player, int) or not isinstance(kind, str) or kinds.get(kind) is None:
        return None
    return player, kind


def unsubscribe_url(player_id: int, kind: str) -> str:
    return absolute(reverse("notifications_unsubscribe", args=[unsubscribe_token(player_id, kind)]))
