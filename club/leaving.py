"""Leaving the club (issue 45): a member's account is closed, by themselves or an admin.

What is theirs alone goes: e-mail addresses, sessions, notifications and their mail,
preferences, away days, chat messages they wrote (and reports they filed, mutes they
set), push devices, invitations, rate-limit records, data exports. What other members'
results depend on stays, under a neutral name: the Player row keeps its game records,
results, ratings, duplicate plays and club-night entries, renamed "Former member N", so
every standings figure, series table and matchpoint stays exactly as it was. Their
seats are left as the member's own leaving would leave them (games.services.leave_table:
the house plays a running game to its end), their club-night entries withdrawn
(events.services.withdraw), their waiting duplicate tables left
(duplicate.services.leave_gathering); then, once it all commits, their sockets close
and the tables' new state goes out.

The freed name and addresses are kept only as keyed hashes (club.models.FreedIdentity),
so that nobody takes them before ACCOUNT_REUSE_DAYS.

This module sits in the site's layer (pyproject.toml, import-linter): it may call every
app's public functions, which is what a member's own steps there would call.
"""

from __future__ import annotations

import datetime
import logging

from allauth.account.models import EmailAddress
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from chat.broadcast import publish_hidden_sync
from chat.models import ChatMessage, ChatMute, ChatReport
from club import export
from club.models import AccountClosure, FreedIdentity, Player, identity_digests
from club.names import FORMER_MEMBER
from duplicate.models import GatheringMember
from duplicate.services import leave_gathering
from events.models import Entry, Event
from events.services import withdraw
from games import services
from games.broadcast import close_account_sockets, publish_sync
from games.models import Absence, RateLimitEvent, Seat, Table
from games.services import Broadcast, ServiceError
from notifications.models import Invitation, Notification, Online, OutgoingMail, Preference
from push.models import PushMessage, Subscription

logger = logging.getLogger(__name__)


def refusal(player: Player) -> ServiceError | None:
    """Why this account cannot be closed now, or None."""
    if player.is_bot or player.user_id is None:
        return ServiceError("not_a_member", _("House bots have no account to close."))
    if AccountClosure.objects.filter(player=player).exists():
        return ServiceError("already_closed", _("This account is already closed."))
    user = player.user
    if user.is_superuser and user.is_active:
        others = get_user_model().objects.filter(is_superuser=True, is_active=True)
        if not others.exclude(pk=user.pk).exists():
            return ServiceError(
                "last_admin",
                _(
                    "This is the club's only active superuser account: make another "
                    "superuser first, so that someone can still run the club."
                ),
            )
    return None


def close_account(player: Player, by_admin=None) -> AccountClosure:
    """Close this member's account now; `by_admin` is the admin's user (None: the member).

    Refused (ServiceError, nothing changed) for a house bot, a closed account, or the
    only active superuser.
    """
    updates: list[Broadcast] = []
    with transaction.atomic():
        # The member's row lock: two closings at once are done one after the other,
        # and the second one is refused.
        player = Player.objects.select_for_update().get(pk=player.pk)
        refused = refusal(player)
        if refused is not None:
            raise refused
        user = player.user
        closure = AccountClosure.objects.create(
            player=player,
            label="-",
            by=AccountClosure.By.SELF if by_admin is None else AccountClosure.By.ADMIN,
            closed_by=by_admin,
        )
        old_name = player.display_name
        _free(player, user)
        on_screens = _recent_chat(player)
        _delete_own_data(player, user)
        label = _label(closure.pk, player.pk)
        closure.label = label
        closure.save(update_fields=["label"])
        player.display_name = label
        player.language = ""
        player.time_zone = ""
        player.save(update_fields=["display_name", "language", "time_zone"])
        _anonymise_user(user, closure.pk)
        _scrub_mentions(player, user, old_name, label)
        updates += _withdraw_everywhere(player)
        transaction.on_commit(lambda: _after(player.pk, user.pk, updates, on_screens))
    return closure


def _label(number: int, player_id: int) -> str:
    """ "Former member N": N is the closure's number; another, if an old member took it."""
    label = f"{FORMER_MEMBER} {number}"
    taken = Player.objects.look_alikes(label).exclude(pk=player_id)
    return f"{FORMER_MEMBER} {number}-{player_id}" if taken.exists() else label


def _free(player: Player, user) -> None:
    """Hold the name and the addresses back from others for ACCOUNT_REUSE_DAYS."""
    now = timezone.now()
    addresses = {
        a.lower() for a in EmailAddress.objects.filter(user=user).values_list("email", flat=True)
    }
    if user.email:
        addresses.add(user.email.lower())
    wanted = [(FreedIdentity.NAME, player.display_name)]
    wanted += [(FreedIdentity.EMAIL, address) for address in sorted(addresses)]
    rows = [
        FreedIdentity(kind=kind, digest=digest, freed_at=now)
        for kind, value in wanted
        for digest in identity_digests(kind, value)
    ]
    FreedIdentity.objects.bulk_create(rows)


# The member's chat messages open pages may still show (a room sends its latest
# CHAT_HISTORY to a socket that connects): told to those pages as hidden, so that
# no open chat keeps the old name after the messages are deleted.
CHAT_ON_SCREENS = datetime.timedelta(days=1)
CHAT_ON_SCREENS_MAX = 500


def _recent_chat(player: Player) -> list[tuple[str, int]]:
    since = timezone.now() - CHAT_ON_SCREENS
    recent = ChatMessage.objects.filter(author=player, created__gt=since, hidden=False)
    return list(recent.order_by("-created").values_list("room", "pk")[:CHAT_ON_SCREENS_MAX])


def _delete_own_data(player: Player, user) -> None:
    EmailAddress.objects.filter(user=user).delete()
    Notification.objects.filter(player=player).delete()
    OutgoingMail.objects.filter(player=player).delete()
    Preference.objects.filter(player=player).delete()
    Online.objects.filter(player=player).delete()
    Invitation.objects.filter(inviter=player).delete()
    Invitation.objects.filter(guest=player).delete()
    Absence.objects.filter(player=player).delete()
    ChatReport.objects.filter(reporter=player).delete()
    ChatMute.objects.filter(player=player).delete()
    ChatMessage.objects.filter(author=player).delete()
    PushMessage.objects.filter(player=player).delete()
    Subscription.objects.filter(player=player).delete()
    RateLimitEvent.objects.filter(player=player).delete()
    export.delete_exports(player)


def _anonymise_user(user, number: int) -> None:
    """The auth user stays (the Player hangs on it) but can never sign in again."""
    user.username = f"former-member-{number}"
    user.email = ""
    user.first_name = ""
    user.last_name = ""
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.set_unusable_password()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


def _scrub_mentions(player: Player, user, old_name: str, label: str) -> None:
    """Where the old name was written down as text: other members' invitations from
    this member, and the admin's history of changes to this member."""
    for note in Notification.objects.filter(kind="invited", data__by=old_name):
        note.data = {**note.data, "by": label}
        note.save(update_fields=["data"])
    kinds = ContentType.objects.get_for_models(Player, type(user))
    LogEntry.objects.filter(content_type=kinds[Player], object_id=str(player.pk)).update(
        object_repr=label, change_message=""
    )
    LogEntry.objects.filter(content_type=kinds[type(user)], object_id=str(user.pk)).update(
        object_repr=user.username, change_message=""
    )


def _withdraw_everywhere(player: Player) -> list[Broadcast]:
    """What the member's own withdrawals would do: club nights, waiting duplicate
    tables, then every open or running seat (a running game: the house plays it to
    the end)."""
    updates: list[Broadcast] = []
    open_nights = Entry.objects.filter(
        player=player, status__in=[Entry.Status.SIGNED_UP, Entry.Status.LATE]
    ).exclude(event__status__in=[Event.Status.FINISHED, Event.Status.CANCELLED])
    for event_id in open_nights.values_list("event_id", flat=True):
        _quietly(withdraw, player, event_id)
    waiting = GatheringMember.objects.filter(player=player).values_list("gathering_id", flat=True)
    for gathering_id in list(waiting):
        _quietly(leave_gathering, player, gathering_id)
    # Open and running tables only: leaving a finished one would reopen it for a rematch,
    # which a club night's or a duplicate board's finished table must never do (their
    # pages would show it waiting again); a finished table keeps the former member's seat.
    seats = Seat.objects.filter(
        player=player,
        is_bot=False,
        table__status__in=[Table.Status.OPEN, Table.Status.PLAYING],
    )
    for table_id in sorted(set(seats.values_list("table_id", flat=True))):
        update = _quietly(services.leave_table, player, table_id)
        if update is not None:
            updates.append(update)
    return updates


def _quietly(step, *args):
    """One withdrawal; one that has nothing left to do (already withdrawn, already
    resigned) is no reason to keep the account open."""
    try:
        return step(*args)
    except ServiceError as exc:
        logger.info(
            "closing an account: %s skipped (%s)", getattr(step, "__name__", step), exc.code
        )
        return None


def _after(
    player_id: int, user_id: int, updates: list[Broadcast], on_screens: list[tuple[str, int]]
) -> None:
    """Once committed: the sessions go, the sockets close, the tables and the chat rooms
    hear of it."""
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        try:
            owner = session.get_decoded().get("_auth_user_id")
        except Exception:  # noqa: BLE001 - an unreadable session is nobody's
            continue
        if owner == str(user_id):
            session.delete()
    close_account_sockets(player_id)
    if updates:
        publish_sync(updates)
    for room, message_id in on_screens:
        try:
            publish_hidden_sync(room, message_id)
        except Exception:  # noqa: BLE001 - best effort, like every broadcast
            logger.warning("could not tell chat room %s that a message went", room)
            break
