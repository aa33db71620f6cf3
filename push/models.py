"""Members' push subscriptions (one per device) and the pushes the worker sends to them."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from push.endpoints import ENDPOINT_MAX


class Subscription(models.Model):
    """One device of a member (a browser's PushSubscription): where, and its keys.

    At most PUSH_DEVICES_MAX per member; removed when its push service answers
    404 or 410 (the browser dropped it) or when the member turns push off there.
    """

    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="+")
    # The push service's address for this device: a secret, never shown or logged whole.
    endpoint = models.CharField(max_length=ENDPOINT_MAX, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=64)
    created = models.DateTimeField(_("created"), default=timezone.now)
    # "Firefox on Android": for the member's list of devices, from the User-Agent.
    label = models.CharField(_("device"), max_length=80, blank=True, default="")
    # The push service's last answers, for the admin: when it last took a push, and
    # when and why it last did not (an error status, no answer, an address refused).
    last_sent = models.DateTimeField(_("last push taken"), null=True, blank=True)
    last_failure = models.DateTimeField(_("last failure"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=300, blank=True, default="")

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        indexes = [models.Index(fields=["player", "created"])]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.label or 'device'} ({self.pk})"


class PushMessage(models.Model):
    """One notification for one device, or the record that it is not pushed (skipped).

    `key` is unique ("<notification>:<subscription>", or "<notification>:-" when
    it is not pushed at all), so two workers composing the same notification make
    one row.
    """

    class State(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        SKIPPED = "skipped", _("not pushed")
        EXPIRED = "expired", _("expired")
        FAILED = "failed", _("failed")

    key = models.CharField(max_length=80, unique=True)
    notification = models.ForeignKey(
        "notifications.Notification", on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="+")
    subscription = models.ForeignKey(
        Subscription, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    reason = models.CharField(max_length=40, blank=True, default="")
    # A "your turn" push replaces the last one for the same table (RFC 8030 Topic).
    topic = models.CharField(max_length=32, blank=True, default="")
    expires = models.DateTimeField()
    created = models.DateTimeField(default=timezone.now)
    next_try = models.DateTimeField(default=timezone.now)
    attempts = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        verbose_name = _("push message")
        verbose_name_plural = _("push messages")
        indexes = [
            models.Index(fields=["state", "next_try"]),
            models.Index(fields=["created"]),
        ]

    def __str__(self) -> str:
        return self.key
