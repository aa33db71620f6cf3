"""Members talk: one message model for every room (a table's, or the lobby's).

A room is named by a string: "lobby", or "table-<id>" (chat.rooms). A message
of a table's room keeps its table, and the game that was being played when it
was sent, so a finished game's page can show that game's conversation.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Player
from games.models import Game, Table

# Quick phrases: sent as ids, shown in the reader's language (chat.phrases).
PHRASE_CHOICES = [
    ("gg", _("Good game")),
    ("gl", _("Good luck")),
    ("wp", _("Well played")),
    ("thanks", _("Thanks")),
    ("again", _("One more?")),
    ("bye", _("Sorry, I have to go")),
]


class ChatMessage(models.Model):
    room = models.CharField(_("room"), max_length=32, db_index=False)
    table = models.ForeignKey(
        Table,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("table"),
    )
    game = models.ForeignKey(
        Game,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chat_messages",
        verbose_name=_("game"),
    )
    # None for the house (an admin posting as the club).
    author = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("author"),
    )
    house = models.BooleanField(_("from the house"), default=False)
    text = models.TextField(_("text"), blank=True)
    phrase = models.CharField(_("quick phrase"), max_length=16, blank=True, choices=PHRASE_CHOICES)
    created = models.DateTimeField(_("sent"), default=timezone.now)
    hidden = models.BooleanField(_("hidden"), default=False)
    hidden_by = models.ForeignKey(
        "auth.User",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("hidden by"),
    )

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["-created", "-id"]
        indexes = [
            # The history of a room: its latest messages.
            models.Index(fields=["room", "-id"], name="chat_room_latest"),
            # The per-member rate limit: a member's messages of the last minute.
            models.Index(fields=["author", "created"], name="chat_author_recent"),
        ]

    def __str__(self) -> str:
        who = self.author.display_name if self.author_id else _("the house")
        return f"{who}: {self.body[:60]}"

    @property
    def body(self) -> str:
        """The text as stored, or the quick phrase in English (the admin's view)."""
        return self.text or str(dict(PHRASE_CHOICES).get(self.phrase, ""))


class ChatReport(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        HIDDEN = "hidden", _("message hidden")
        DISMISSED = "dismissed", _("dismissed")

    message = models.ForeignKey(
        ChatMessage, on_delete=models.CASCADE, related_name="reports", verbose_name=_("message")
    )
    reporter = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="chat_reports", verbose_name=_("reporter")
    )
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    created = models.DateTimeField(_("reported"), default=timezone.now)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        ordering = ["-created"]
        constraints = [
            # One report per member per message: a second click changes nothing.
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")
        ]

    def __str__(self) -> str:
        return f"{self.reporter} on #{self.message_id}"


class ChatMute(models.Model):
    """`player` does not see `muted`'s messages, in any room. Kept on the member."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="chat_mutes", verbose_name=_("member")
    )
    muted = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("muted member")
    )
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        constraints = [models.UniqueConstraint(fields=["player", "muted"], name="chat_mute_once")]

    def __str__(self) -> str:
        return f"{self.player} mutes {self.muted}"


class ChatBan(models.Model):
    """The member may not write in any room until `until` (they still play and read)."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="chat_bans", verbose_name=_("member")
    )
    until = models.DateTimeField(_("banned until"))
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created = models.DateTimeField(_("created"), default=timezone.now)
    created_by = models.ForeignKey(
        "auth.User",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )

    class Meta:
        verbose_name = _("chat ban")
        verbose_name_plural = _("chat bans")
        ordering = ["-until"]
        indexes = [models.Index(fields=["player", "until"], name="chat_ban_player_until")]

    def __str__(self) -> str:
        return f"{self.player} until {self.until:%Y-%m-%d %H:%M}"
