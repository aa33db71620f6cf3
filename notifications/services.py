"""What the notifications app does: record events, count, read, invite, message, prefer.

Views and the admin call these; `on_event` is the games.hooks listener. It
runs on the emitter's thread right after its transaction committed (a move,
a page, a duty), so it only writes rows and pushes the bell's count: mail is
sent later by the task worker (notifications/mailer.py), never here.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from collections.abc import Iterable

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Case, F, QuerySet, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from chat import services as chat
from club import i18n
from club.models import AccountClosure, GameResult, Player
from games import broadcast, hooks
from games.broadcast import player_group
from games.models import Seat, Table
from games.services import ServiceError
from games.services.common import insert_rows
from notifications import kinds, presence
from notifications.models import ClubMessage, Invitation, Notification, Preference

logger = logging.getLogger(__name__)
# An event's data key: notify in the site only, never by mail nor push (kept in the
# notification's data, where push/sender.py reads it).
SITE_ONLY = "site_only"


# -- preferences ---------------------------------------------------------------


def channel_defaults(kind: kinds.Kind) -> dict[str, bool]:
    return {kinds.SITE: True, kinds.MAIL: kind.mail_default, kinds.PUSH: kind.push_default}


def told_members(player_ids: Iterable[int], kind: kinds.Kind) -> dict[int, dict[str, bool]]:
    """The members among `player_ids` who are told anything (not a house bot, their
    account not closed: club.leaving), each with their channels for `kind`.

    One statement, written out: `record` runs at every game's start and end, on
    the database thread every table's moves share, and building the two ORM
    queries it replaces cost about 25 times what SQLite took to run them
    (docs/PERFORMANCE.md, "A game's end").
    """
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    player, closure, preference = (
        model._meta.db_table for model in (Player, AccountClosure, Preference)
    )
    marks = ", ".join(["%s"] * len(ids))
    sql = (
        f"SELECT p.id, pr.channel, pr.enabled FROM {player} p "  # noqa: S608 - names from _meta
        f"LEFT JOIN {closure} c ON c.player_id = p.id "
        f"LEFT JOIN {preference} pr ON pr.player_id = p.id AND pr.kind = %s "
        f"WHERE p.id IN ({marks}) AND p.bot_level = '' AND c.id IS NULL ORDER BY p.id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [kind.key, *ids])
        rows = cursor.fetchall()
    chosen: dict[int, dict[str, bool]] = {}
    for pid, channel, enabled in rows:
        channels = chosen.setdefault(pid, channel_defaults(kind))
        if channel is not None:
            channels[channel] = bool(enabled)
    return chosen


def all_preferences(player: Player) -> dict[str, dict[str, bool]]:
    """kind key -> channel -> on, for the preferences page."""
    chosen = {key: channel_defaults(kind) for key, kind in kinds.KINDS.items()}
    for kind, channel, enabled in Preference.objects.filter(player=player).values_list(
        "kind", "channel", "enabled"
    ):
        if kind in chosen and channel in kinds.CHANNELS:
            chosen[kind][channel] = enabled
    return chosen


def set_preference(player: Player, kind_key: str, channel: str, enabled: bool) -> None:
    kind = kinds.get(kind_key)
    if kind is None or channel not in kinds.CHANNELS:
        raise ServiceError("bad_preference", _("There is no such kind of notification."))
    if channel_defaults(kind)[channel] == enabled:
        Preference.objects.filter(player=player, kind=kind_key, channel=channel).delete()
    else:
        Preference.objects.update_or_create(
            player=player, kind=kind_key, channel=channel, defaults={"enabled": enabled}
        )


# -- events ------------------------------------------------------------------------


def wanted(event: hooks.Event) -> bool:
    """What `on_event` may act on, from the event alone (games.hooks `accepts`).

    A turn at a live table is not: the member is looking at it. Nobody is told of
    it, so such a move schedules nothing here (issue 44).
    """
    kind = kinds.get(event.kind)
    return kind is not None and not (kind.turn_based_only and event.data.get("pace") == "live")


def on_event(event: hooks.Event) -> None:
    """The games.hooks listener. Never raises: a notification must not undo a move."""
    if not settings.NOTIFY_ENABLED:
        return
    kind = kinds.get(event.kind)
    if kind is None:
        return
    if kind.turn_based_only and event.data.get("pace") == "live":
        return  # the member is at the live table, looking at it
    try:
        told = record(event, kind)
    except Exception:  # noqa: BLE001 - logged; the emitter's change stands
        logger.exception("notifications: could not record %s", event.kind)
        return
    if told:
        push_unread(told)


def record(event: hooks.Event, kind: kinds.Kind) -> list[int]:
    """Write the event's notifications; the members whose bell changed."""
    # A closed account (club.leaving) is told nothing more: its notifications are gone
    # and stay gone, even for the game the house finishes for it.
    chosen = told_members(event.player_ids, kind)
    members = list(chosen)
    if kind.turn_based_only and event.table_id is not None and members:
        # A member with the table open is playing there: the turn is on their screen,
        # neither the bell nor a mail needs to say it (a turn played at the table).
        watching = presence.at_table(event.table_id, members)
        members = [pid for pid in members if pid not in watching]
    if not members:
        return []
    now = timezone.now()
    key = str(event.data.get("key", ""))[:80]
    # The emitter says the event is for the site only (an invitation from a stranger).
    site_only = bool(event.data.get(SITE_ONLY))
    rows = []
    for pid in members:
        site, mail = chosen[pid][kinds.SITE], chosen[pid][kinds.MAIL] and not site_only
        # Pushed (push/sender.py reads the rows) even when neither shown nor mailed.
        if not site and not mail and not (chosen[pid][kinds.PUSH] and not site_only):
            continue
        rows.append(
            Notification(
                player_id=pid,
                kind=kind.key,
                table_id=event.table_id,
                game_id=event.game_id,
                data={k: v for k, v in event.data.items() if k != "key"},
                key=key,
                created=now,
                # Not wanted in the site: counted as read, kept only for its mail.
                read_at=None if site else now,
                site=site,
                mail_state=Notification.Mail.PENDING if mail else Notification.Mail.NONE,
                mail_due=now if mail else None,
            )
        )
    if not rows:
        return []
    # One write transaction: the rows commit once (not once a row), and a new "your
    # turn" lands with the one it replaces.
    with transaction.atomic():
        if kind.batched and event.table_id is not None:
            # One "your turn" per member and table: a new one replaces the one still
            # unread (read, and not mailed if it was waiting), so the bell and the
            # digest count tables, not turns.
            Notification.objects.filter(
                player_id__in=[row.player_id for row in rows],
                kind=kind.key,
                table_id=event.table_id,
                read_at=None,
            ).update(
                read_at=now,
                mail_state=Case(
                    When(
                        mail_state=Notification.Mail.PENDING, then=Value(Notification.Mail.SKIPPED)
                    ),
                    default=F("mail_state"),
                ),
            )
        if key:
            # An emitter's key: told once (the unique constraint skips a repeat).
            Notification.objects.bulk_create(rows, ignore_conflicts=True)
        else:
            # The rows as values, without the ORM's insert compiler (a game's start and
            # end, on the moves' database thread: docs/PERFORMANCE.md, "A game's end").
            fields = [Notification._meta.get_field(name) for name in _WRITTEN]
            insert_rows(
                Notification, _WRITTEN, [[getattr(row, f.attname) for f in fields] for row in rows]
            )
    return [row.player_id for row in rows if row.site]


# What `record` writes of a notification (its mail, none yet, stays NULL).
_WRITTEN = (
    "player",
    "kind",
    "table_id",
    "game_id",
    "data",
    "key",
    "created",
    "read_at",
    "site",
    "mail_state",
    "mail_due",
)


def unread_count(player: Player) -> int:
    return Notification.objects.filter(player=player, site=True, read_at=None).count()


def unread_counts(player_ids: Iterable[int]) -> dict[int, int]:
    """Each member's unread count (`unread_count`), in one statement.

    Written out for the reason `told_members` gives: the ORM's grouped count cost
    ten times the statement (docs/PERFORMANCE.md, "A game's end").
    """
    ids = sorted(set(player_ids))
    counts = dict.fromkeys(ids, 0)
    if not ids:
        return counts
    marks = ", ".join(["%s"] * len(ids))
    sql = (
        f"SELECT player_id, COUNT(*) FROM {Notification._meta.db_table} "  # noqa: S608 - _meta
        f"WHERE player_id IN ({marks}) AND site = %s AND read_at IS NULL GROUP BY player_id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*ids, True])
        counts.update(cursor.fetchall())
    return counts


def push_unread(player_ids: Iterable[int]) -> None:
    """Tell the members' open pages (their lobby sockets) their unread count. Never raises."""
    counts = unread_counts(player_ids)
    # Not waited for: this runs in a move's database work (a game's end or start),
    # which must not wait for the event loop (games.broadcast.soon).
    broadcast.soon(lambda: _send_counts(counts), "notifications: the unread count")


async def _send_counts(counts: dict[int, int]) -> None:
    layer = get_channel_layer()
    sends = [
        layer.group_send(player_group(pid), {"type": "notifications.unread", "unread": n})
        for pid, n in counts.items()
    ]
    await asyncio.wait_for(asyncio.gather(*sends), settings.CHANNEL_LAYER_TIMEOUT)


# -- reading -----------------------------------------------------------------------


def visible(player: Player) -> QuerySet[Notification]:
    return Notification.objects.filter(player=player, site=True)


def mark_read(player: Player, notification_id: int) -> Notification:
    """Mark one of the member's notifications read; ServiceError if it is not theirs."""
    notification = visible(player).filter(pk=notification_id).first()
    if notification is None:
        raise ServiceError("not_found", _("There is no such notification."))
    if notification.read_at is None:
        notification.read_at = timezone.now()
        notification.save(update_fields=["read_at"])
        push_unread([player.pk])
    return notification


def mark_all_read(player: Player) -> int:
    changed = visible(player).filter(read_at=None).update(read_at=timezone.now())
    if changed:
        push_unread([player.pk])
    return changed


def mail_from_strangers(player: Player) -> bool:
    """Does the member take invitations by mail from members they never played with?"""
    return Preference.objects.filter(
        player=player, kind=kinds.INVITED.key, channel=kinds.STRANGERS, enabled=True
    ).exists()


def set_mail_from_strangers(player: Player, enabled: bool) -> None:
    if enabled:
        Preference.objects.update_or_create(
            player=player,
            kind=kinds.INVITED.key,
            channel=kinds.STRANGERS,
            defaults={"enabled": True},
        )
    else:
        Preference.objects.filter(
            player=player, kind=kinds.INVITED.key, channel=kinds.STRANGERS
        ).delete()


def played_together(first: Player, second: Player) -> bool:
    """Have these members played a game together (finished, or under way now)?"""
    finished = GameResult.objects.filter(
        player=second, game__in=GameResult.objects.filter(player=first).values("game_id")
    )
    playing = Seat.objects.filter(
        player=second,
        is_bot=False,
        table__status=Table.Status.PLAYING,
        table__in=Seat.objects.filter(player=first, is_bot=False).values("table_id"),
    )
    return finished.exists() or playing.exists()


def member_language(player_id: int) -> str | None:
    """A member's stored language (None: none stored, or no such member)."""
    stored = Player.objects.filter(pk=player_id).values_list("language", flat=True).first()
    return i18n.supported(stored)


def unsubscribe(player_id: int, kind_key: str) -> Player | None:
    """Mail of this kind off for this member (a signed link's work); None if no such member."""
    player = Player.objects.filter(pk=player_id, bot_level="").first()
    if player is not None:
        set_preference(player, kind_key, kinds.MAIL, False)
    return player


# -- what members and moderators send ---------------------------------------------------


def invite(by: Player, table_id: int, name: str) -> Player:
    """`by` (a member of the private table) invites the member called `name` to it.

    Nobody can turn invitations on a member (issue 42): an inviter sends at most
    INVITATIONS_PER_HOUR in any hour and INVITATIONS_PER_DAY in any day, one member at
    most INVITATIONS_TO_ONE_MEMBER_PER_DAY times a day, and a table
    has no more invitations waiting (sent within a day to members not seated since)
    than free seats. A guest who muted the inviter (chat) is told nothing, and the
    inviter is told nothing that gives the mute away. A guest who never played with
    the inviter gets the invitation in the site only, unless they asked for those
    by mail too (`mail_from_strangers`); mail goes only to a confirmed address.
    """
    name = (name or "").strip()
    with transaction.atomic():
        table = Table.objects.filter(pk=table_id).first()
        if table is None or not table.visible_to(by):
            raise ServiceError("not_found", _("There is no such table."))
        seated = set(
            Seat.objects.filter(table=table, is_bot=False).values_list("player_id", flat=True)
        )
        if by.pk not in seated and table.created_by_id != by.pk:
            raise ServiceError("not_member", _("Only the table's players may invite."))
        if not table.private or hooks.is_sealed(table):
            raise ServiceError("not_private", _("Only a private table takes invitations."))
        if table.status not in (Table.Status.OPEN, Table.Status.PLAYING):
            raise ServiceError("closed", _("This table is over: nobody can be invited to it."))
        if not name:
            raise ServiceError("no_name", _("Write the name of the member to invite."))
        # A closed account (inactive user) cannot be invited.
        guest = (
            Player.objects.members()
            .named(name[:30])
            .filter(user__isnull=False, user__is_active=True)
            .first()
        )
        if guest is None:
            raise ServiceError("no_member", _("No member has that name."))
        if guest.pk == by.pk or guest.pk in seated:
            raise ServiceError("already_there", _("That member is already at this table."))
        # The inviter's row lock: two invitations sent at once are counted in turn.
        Player.objects.select_for_update().filter(pk=by.pk).first()
        if Invitation.objects.filter(table_id=table.pk, guest=guest).exists():
            return guest  # invited to this table already: nothing new to tell them
        _check_invitation_limits(by, guest, table, seated)
        muted = by.pk in chat.muted_by(guest.pk)
        Invitation.objects.create(inviter=by, guest=guest, table_id=table.pk, delivered=not muted)
        if not muted:
            data = {
                "by": by.display_name,
                "path": table.invite_url(),
                # Once a table and guest: a second invite tells them nothing new.
                "key": f"invite:{table.pk}",
            }
            if not played_together(by, guest) and not mail_from_strangers(guest):
                data[SITE_ONLY] = True
            hooks.emit(hooks.Event("invited", (guest.pk,), table.pk, data=data))
    return guest


def _check_invitation_limits(by: Player, guest: Player, table: Table, seated: set[int]) -> None:
    now = timezone.now()
    sent = Invitation.objects.filter(inviter=by)
    again = settings.INVITATIONS_TO_ONE_MEMBER_PER_DAY
    day = now - datetime.timedelta(days=1)
    if again and sent.filter(guest=guest, created__gt=day).count() >= again:
        raise ServiceError(
            "too_many_invitations",
            _(
                "You invited %(name)s as many times in the last 24 hours as a member may "
                "(%(count)d); try again later."
            )
            % {"name": guest.display_name, "count": again},
        )
    for limit, window, words in (
        (
            settings.INVITATIONS_PER_HOUR,
            datetime.timedelta(hours=1),
            _(
                "You sent as many invitations in the last hour as a member may "
                "(%(count)d); wait a while."
            ),
        ),
        (
            settings.INVITATIONS_PER_DAY,
            datetime.timedelta(days=1),
            _(
                "You sent as many invitations in the last 24 hours as a member may "
                "(%(count)d); try again later."
            ),
        ),
    ):
        if limit and sent.filter(created__gt=now - window).count() >= limit:
            raise ServiceError("too_many_invitations", words % {"count": limit})
    free = table.seat_count - Seat.objects.filter(table=table).count()
    if free <= 0:
        raise ServiceError(
            "table_invitations", _("Every seat at this table is taken: nobody can be invited.")
        )
    waiting = (
        Invitation.objects.filter(table_id=table.pk, created__gt=now - datetime.timedelta(days=1))
        .exclude(guest_id__in=seated)
        .values("guest_id")
        .distinct()
        .count()
    )
    if waiting >= free:
        raise ServiceError(
            "table_invitations",
            _(
                "Every free seat at this table already has an invitation waiting; invite "
                "again when a guest has come, or tomorrow."
            ),
        )


def send_message(player_ids: Iterable[int], text: str, sent_by=None) -> ClubMessage:
    """A moderator's message to these members, recorded with who sent it (`sent_by`, a
    user); its `recipients` says how many were told. The caller checks the permission."""
    text = (text or "").strip()[:1000]
    if not text:
        raise ServiceError("empty", _("Write a message."))
    ids = tuple(sorted(set(player_ids)))
    with transaction.atomic():
        message = ClubMessage.objects.create(sent_by=sent_by, text=text, recipients=len(ids))
        hooks.emit(hooks.Event("message", ids, data={"text": text, "message": message.pk}))
    return message
