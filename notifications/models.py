"""Notifications, their mail outbox, members' preferences and who has the site open."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from notifications import kinds


class Notification(models.Model):
    """One thing a member is told about, in the site and maybe by mail."""

    class Mail(models.TextChoices):
        NONE = "none", _("not mailed")
        PENDING = "pending", _("waiting for its mail")
        QUEUED = "queued", _("in a mail")
        SKIPPED = "skipped", _("seen in the site")

    player = models.ForeignKey(
        "club.Player", on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(_("kind"), max_length=32)
    # Plain ids, not keys: a notification outlives a deleted table (its link then 404s).
    table_id = models.BigIntegerField(null=True, blank=True)
    game_id = models.BigIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    # An emitter's key for an event that must reach a member once (a round's reminder).
    key = models.CharField(max_length=80, blank=True, default="")
    created = models.DateTimeField(_("created"), default=timezone.now)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)
    site = models.BooleanField(_("shown in the site"), default=True)
    mail_state = models.CharField(max_length=8, choices=Mail.choices, default=Mail.NONE)
    mail_due = models.DateTimeField(null=True, blank=True)
    mail = models.ForeignKey(
        "notifications.OutgoingMail",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="notifications",
    )

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        indexes = [
            models.Index(fields=["player", "read_at"]),
            models.Index(fields=["mail_state", "mail_due"]),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "key"], condition=~models.Q(key=""), name="notification_once"
            )
        ]
        # Writing to members is not viewing notifications: a permission of its own (issue 42).
        permissions = [("send_message", _("Can send a message to members"))]

    def __str__(self) -> str:
        return f"{self.kind} for {self.player_id} ({self.created:%Y-%m-%d %H:%M})"

    @property
    def kind_info(self) -> kinds.Kind | None:
        return kinds.get(self.kind)


class OutgoingMail(models.Model):
    """One mail in the outbox: its notifications, sent at most once.

    The worker claims a row (queued -> sending) in its own committed
    transaction, sends, then marks it sent. Its `key` is unique, so composing
    the same notifications twice (two workers, a restart) makes one row.

    An account mail (allauth's: address confirmation, password reset, "an
    account already exists") has no notification: it is rendered in the request
    that asks for it and waits here, `address`, `sender`, `subject`, `body` and
    `html` filled, so that no page waits for the mail server
    (notifications/account.py). Its texts hold one-time links: they are emptied
    once the mail is sent or given up, and the admin never shows them.
    """

    class State(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        # Claimed by a worker that died before saying whether the server took it:
        # not sent again (at most once), see notifications/mailer.py.
        UNKNOWN = "unknown", _("unknown (worker stopped mid-send)")

    # No member for an account mail to an address nobody has (the reset of an unknown account).
    player = models.ForeignKey(
        "club.Player", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    key = models.CharField(max_length=80, unique=True)
    kind = models.CharField(max_length=32)
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    created = models.DateTimeField(default=timezone.now)
    next_try = models.DateTimeField(default=timezone.now)
    attempts = models.PositiveSmallIntegerField(default=0)
    claimed_by = models.CharField(max_length=64, blank=True, default="")
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True, default="")
    # An account mail, rendered when it was asked for (empty for notifications' mail).
    address = models.EmailField(max_length=254, blank=True, default="")
    sender = models.CharField(max_length=300, blank=True, default="")
    subject = models.CharField(max_length=300, blank=True, default="")
    body = models.TextField(blank=True, default="")
    html = models.TextField(blank=True, default="")

    class Meta:
        verbose_name = _("outgoing mail")
        verbose_name_plural = _("outgoing mails")
        indexes = [models.Index(fields=["state", "next_try"])]

    def __str__(self) -> str:
        return self.key


class Preference(models.Model):
    """A member's choice for one kind and channel; no row: the kind's default."""

    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    channel = models.CharField(max_length=8)
    enabled = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "kind", "channel"], name="notification_preference_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind}/{self.channel}: {self.enabled}"


class Online(models.Model):
    """An open lobby socket of a signed-in member (every page with the bell has one).

    Its process vouches for it (`seen`) while it is open; a row not vouched for
    within PRESENCE_STALE_SECONDS does not count (its process died).
    """

    channel = models.CharField(max_length=120, primary_key=True)
    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="+")
    server = models.CharField(max_length=120)
    seen = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"{self.player_id} on {self.channel}"


class Invitation(models.Model):
    """A member invited another to a private table (notifications.services.invite).

    Kept to count: an inviter's invitations an hour and a day (INVITATIONS_PER_HOUR,
    INVITATIONS_PER_DAY) and a table's, never more than its free seats. `delivered` is
    false when the guest had muted the inviter: the guest was told nothing.
    """

    inviter = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="+")
    guest = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="+")
    # A plain id, as on Notification: the record outlives a deleted table.
    table_id = models.BigIntegerField()
    created = models.DateTimeField(default=timezone.now)
    delivered = models.BooleanField(default=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        indexes = [
            models.Index(fields=["inviter", "created"]),
            models.Index(fields=["table_id", "created"]),
        ]

    def __str__(self) -> str:
        return f"{self.inviter_id} invites {self.guest_id} to {self.table_id}"


class ClubMessage(models.Model):
    """A moderator's message to members, with who sent it (the admin history shows it too)."""

    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("sent by"),
    )
    text = models.TextField(_("message"))
    recipients = models.PositiveIntegerField(_("members told"))
    created = models.DateTimeField(_("sent"), default=timezone.now)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("message to members")
        verbose_name_plural = _("messages to members")

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d %H:%M}: {self.text[:40]}"
