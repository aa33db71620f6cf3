"""A notification in words and links, in the active language (the reader's)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from email.headerregistry import Address
from email.utils import parseaddr

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from club import i18n
from games import services
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


def text(
    notification: Notification,
    names: dict[int, str],
    zone: datetime.tzinfo | None = None,
    zone_named: bool = False,
) -> str:
    """The notification's sentence; a deadline in `zone` (the reader's), named in a mail."""
    kind = notification.kind_info
    fields = {k: str(v) for k, v in notification.data.items() if isinstance(v, str | int)}
    until = _moment(notification.data.get("deadline"))
    if until is not None:
        zone = zone or timezone.get_default_timezone()
        fields["until"] = i18n.day_month_year_time(until, zone)
        if zone_named:
            fields["until"] = _("%(moment)s (%(zone)s time)") % {
                "moment": fields["until"],
                "zone": str(zone),
            }
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
    template = kind.text_until if kind.text_until and "until" in fields else kind.text
    try:
        return str(template) % _Fields(fields)
    except (KeyError, TypeError, ValueError):
        return str(kind.label)


class _Fields(dict):
    """A field an emitter left out reads as nothing rather than failing."""

    def __missing__(self, key: str) -> str:
        return "…"


def _moment(value: object) -> datetime.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def shown(
    notifications: list[Notification],
    zone: datetime.tzinfo | None = None,
    zone_named: bool = False,
) -> list[Shown]:
    """The notifications in words, their times in `zone` (the reader's; else the club's)."""
    names = table_names(notifications)
    return [Shown(n, text(n, names, zone, zone_named), path(n)) for n in notifications]


def still_true(notifications: list[Notification]) -> list[Notification]:
    """Leave out each "your turn" whose turn is over (moved, handed over, game over).

    Checked just before a mail goes out: a digest waits up to NOTIFY_MAIL_MINUTES.
    The deadline kept is the one that holds now (away days may have moved it).
    """
    kept = []
    for notification in notifications:
        if notification.kind == kinds.TURN.key and notification.table_id:
            waiting, deadline = services.turn_waiting(
                notification.table_id, notification.player_id, notification.game_id
            )
            if not waiting:
                continue
            notification.data = {
                **notification.data,
                "deadline": deadline.isoformat() if deadline else None,
            }
        kept.append(notification)
    return kept


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
