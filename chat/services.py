"""Chat: what a room shows, sending, reporting, muting, hiding, banning.

Sync functions over the database; the sockets call them through
`games.db.on_database` and fan out what they return (chat.broadcast). Every
refusal is a `ServiceError` with a code and a message, and changes nothing.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections.abc import Iterable

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from chat.models import PHRASE_CHOICES, ChatBan, ChatMessage, ChatMute, ChatReport
from chat.rooms import LOBBY, table_of
from club.models import Player
from club.names import is_invisible
from games.i18n import lazy_format
from games.models import Game, Table
from games.services import ServiceError

PHRASES = [key for key, _label in PHRASE_CHOICES]
REASON_MAX_LENGTH = 300
WINDOW = datetime.timedelta(minutes=1)
# Bidirectional overrides and isolates can make a message read backwards
# (or disguise a link); they are stripped like the control characters.
_BIDI = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))
_SPACES = re.compile(r"\s+")


def clean_text(text: str) -> str:
    """The text with control characters stripped and runs of white space made one space."""
    text = text.translate(_BIDI)
    # Line breaks and tabs are control characters too: a message is one line.
    text = _SPACES.sub(" ", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cs"))
    return text.strip()


def message_dict(message: ChatMessage, name: str | None) -> dict:
    """A message as the protocol sends it (docs/PROTOCOL.md, "Chat")."""
    return {
        "id": message.pk,
        "room": message.room,
        "author": message.author_id,
        "name": name,
        "house": message.house,
        "text": message.text,
        "phrase": message.phrase,
        "at": message.created.timestamp(),
    }


def _dicts(messages: Iterable[ChatMessage]) -> list[dict]:
    return [message_dict(m, m.author.display_name if m.author_id else None) for m in messages]


def muted_by(player_id: int | None) -> list[int]:
    if player_id is None:
        return []
    return list(ChatMute.objects.filter(player_id=player_id).values_list("muted_id", flat=True))


def active_ban(player_id: int) -> ChatBan | None:
    return (
        ChatBan.objects.filter(player_id=player_id, until__gt=timezone.now())
        .order_by("-until")
        .first()
    )


def _ban_dict(ban: ChatBan | None) -> dict | None:
    if ban is None:
        return None
    return {"until": ban.until.timestamp(), "reason": ban.reason}


def history(room: str, player_id: int | None) -> dict:
    """The `chat_history` frame for a socket joining `room`: its latest shown messages."""
    muted = muted_by(player_id)
    latest = (
        ChatMessage.objects.filter(room=room, hidden=False)
        .exclude(author_id__in=muted)
        .select_related("author")
        .order_by("-id")[: settings.CHAT_HISTORY]
    )
    return {
        "type": "chat_history",
        "room": room,
        "messages": _dicts(reversed(list(latest))),
        "muted": muted,
        "ban": _ban_dict(active_ban(player_id)) if player_id is not None else None,
        "limits": {"length": settings.CHAT_MAX_LENGTH, "per_minute": settings.CHAT_PER_MINUTE},
        "phrases": PHRASES,
    }


def room_links(room: str) -> tuple[int | None, int | None]:
    """(table id, game id) a new message of this room belongs to."""
    table_id = table_of(room)
    if table_id is None:
        return None, None
    table = Table.objects.filter(pk=table_id).values("status").first()
    if table is None:
        raise ServiceError("not_found", _("There is no such table."))
    game_id = None
    if table["status"] in (Table.Status.PLAYING, Table.Status.FINISHED):
        # During a game, and on its results (a "good game" belongs to that game).
        game_id = (
            Game.objects.filter(table_id=table_id)
            .order_by("-number")
            .values_list("pk", flat=True)
            .first()
        )
    return table_id, game_id


def _checked_body(text: object, phrase: object) -> tuple[str, str]:
    if phrase is not None:
        if text is not None:
            raise ServiceError("bad_field", _("Send either a text or a phrase, not both."))
        if not isinstance(phrase, str):
            raise ServiceError("bad_field", _("The 'phrase' field must be a str."))
        if phrase not in PHRASES:
            raise ServiceError("chat_bad_phrase", _("There is no such quick phrase."))
        return "", phrase
    if not isinstance(text, str):
        raise ServiceError("bad_field", _("The 'text' field must be a str."))
    limit = settings.CHAT_MAX_LENGTH
    cleaned = clean_text(text)
    # Characters that render as nothing (zero-width spaces, Hangul fillers) alone would
    # show as a blank message.
    if not any(not is_invisible(ch) and not ch.isspace() for ch in cleaned):
        raise ServiceError("chat_empty", _("Write something first."))
    if len(cleaned) > limit:
        raise ServiceError(
            "chat_too_long",
            lazy_format(_("A message may be at most %(limit)d characters."), limit=limit),
            limit=limit,
        )
    return cleaned, ""


def send(room: str, player_id: int, text: object = None, phrase: object = None) -> dict:
    """Store a member's message in `room`; returns it to fan out."""
    body, phrase_id = _checked_body(text, phrase)
    now = timezone.now()
    with transaction.atomic():
        # The member's row is the lock for their rate limit: two sockets (two
        # tabs, two processes) sending at once are counted one after the other.
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise ServiceError("login_required", _("Sign in to chat."))
        ban = active_ban(player_id)
        if ban is not None:
            raise ServiceError(
                "chat_banned",
                lazy_format(
                    _("You may not chat until %(until)s."),
                    until=timezone.localtime(ban.until).strftime("%Y-%m-%d %H:%M"),
                ),
                until=ban.until.timestamp(),
                reason=ban.reason,
            )
        limit = settings.CHAT_PER_MINUTE
        recent = list(
            ChatMessage.objects.filter(author_id=player_id, created__gt=now - WINDOW)
            .order_by("-created")
            .values_list("created", flat=True)[:limit]
        )
        if len(recent) >= limit:
            wait = (recent[-1] + WINDOW - now).total_seconds()
            raise ServiceError(
                "chat_rate_limited",
                lazy_format(
                    _("You can send %(limit)d messages a minute; wait a moment."), limit=limit
                ),
                retry_after=max(0.01, round(wait, 2)),
            )
        table_id, game_id = room_links(room)
        message = ChatMessage.objects.create(
            room=room,
            table_id=table_id,
            game_id=game_id,
            author=player,
            text=body,
            phrase=phrase_id,
            created=now,
        )
    return message_dict(message, player.display_name)


def post_as_house(room: str, text: str) -> ChatMessage:
    """An admin's message in `room`, shown as the house's. Limits do not apply."""
    body = clean_text(text)
    if not body:
        raise ServiceError("chat_empty", _("Write something first."))
    table_id, game_id = room_links(room)
    return ChatMessage.objects.create(
        room=room, table_id=table_id, game_id=game_id, house=True, text=body
    )


def report(room: str, player_id: int, message_id: object, reason: object = None) -> dict:
    """A member reports a message of the room they are in: one report per member and message."""
    if not isinstance(message_id, int) or isinstance(message_id, bool):
        raise ServiceError("bad_field", _("The 'id' field must be an int."))
    if reason is None:
        reason = ""
    if not isinstance(reason, str):
        raise ServiceError("bad_field", _("The 'reason' field must be a str."))
    reason = clean_text(reason)[:REASON_MAX_LENGTH]
    # Only a message of this room: a socket reports what it may see, nothing else.
    message = ChatMessage.objects.filter(pk=message_id, room=room).first()
    if message is None:
        raise ServiceError("chat_no_message", _("There is no such message here."))
    if message.author_id == player_id:
        raise ServiceError("chat_own_message", _("You cannot report your own message."))
    report, created = ChatReport.objects.get_or_create(
        message=message, reporter_id=player_id, defaults={"reason": reason}
    )
    if not created and reason and not report.reason:
        # Reported with one click; the reason may follow.
        report.reason = reason
        report.save(update_fields=["reason"])
    return {"type": "chat_reported", "id": message.pk}


def mute(player_id: int, other_id: object, muted: object = True) -> dict:
    """Mute (or unmute) a member for `player_id`, in every room; kept on the member."""
    if not isinstance(other_id, int) or isinstance(other_id, bool):
        raise ServiceError("bad_field", _("The 'player' field must be an int."))
    if not isinstance(muted, bool):
        raise ServiceError("bad_field", _("The 'muted' field must be true or false."))
    if other_id == player_id:
        raise ServiceError("chat_mute_self", _("You cannot mute yourself."))
    if not Player.objects.filter(pk=other_id).exists():
        raise ServiceError("chat_no_member", _("There is no such member."))
    if muted:
        ChatMute.objects.get_or_create(player_id=player_id, muted_id=other_id)
    else:
        ChatMute.objects.filter(player_id=player_id, muted_id=other_id).delete()
    return {"type": "chat_muted", "player": other_id, "muted": muted, "all": muted_by(player_id)}


def hide(messages: Iterable[ChatMessage], by_user=None) -> list[tuple[str, int]]:
    """Hide messages (moderation): their open reports are closed as hidden.

    Returns (room, id) of each message newly hidden, to tell its room's sockets.
    """
    newly = [m for m in messages if not m.hidden]
    ids = [m.pk for m in newly]
    with transaction.atomic():
        ChatMessage.objects.filter(pk__in=ids).update(hidden=True, hidden_by=by_user)
        ChatReport.objects.filter(message_id__in=ids, status=ChatReport.Status.OPEN).update(
            status=ChatReport.Status.HIDDEN
        )
    return [(m.room, m.pk) for m in newly]


def dismiss_reports(messages: Iterable[ChatMessage]) -> int:
    """Close the open reports on these messages without hiding them."""
    return ChatReport.objects.filter(
        message__in=list(messages), status=ChatReport.Status.OPEN
    ).update(status=ChatReport.Status.DISMISSED)


def ban(player: Player, until: datetime.datetime, reason: str = "", by_user=None) -> ChatBan:
    return ChatBan.objects.create(player=player, until=until, reason=reason, created_by=by_user)


def game_messages(game: Game, viewer_id: int | None) -> list[dict]:
    """A game's conversation for its page (the page already checked who may see the game)."""
    messages = (
        ChatMessage.objects.filter(game=game, hidden=False)
        .exclude(author_id__in=muted_by(viewer_id))
        .select_related("author")
        .order_by("id")
    )
    return _dicts(messages)


def context(message: ChatMessage, around: int = 5) -> list[ChatMessage]:
    """The messages of its room just before and after it (for moderators)."""
    room = ChatMessage.objects.filter(room=message.room).select_related("author")
    before = list(room.filter(id__lt=message.pk).order_by("-id")[:around])
    after = list(room.filter(id__gt=message.pk).order_by("id")[:around])
    return [*reversed(before), message, *after]


__all__ = [
    "LOBBY",
    "PHRASES",
    "active_ban",
    "ban",
    "clean_text",
    "context",
    "dismiss_reports",
    "game_messages",
    "hide",
    "history",
    "message_dict",
    "mute",
    "muted_by",
    "post_as_house",
    "report",
    "room_links",
    "send",
]
