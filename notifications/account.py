"""django-allauth's account mails go through the outbox like every other mail.

allauth sends its mails (address confirmation, password reset, "an account
already exists", "no such account") inside the request that asks for them: a
mail server that is down answered the sign-up with a 500 (the account created
anyway), and a slow one held the page for as long as it took. Here the mail is
rendered in the request, in the reader's language, and queued
(notifications.models.OutgoingMail); the task worker sends it
(notifications/mailer.py), tried again while the server is away.

The mails name the club, not the host: allauth's `current_site` and subject
prefix are the club's name in the reader's language (the mail footer's "Card
Club"), and the sender's display name is the same.

"An account already exists" and "no such account" go to an address someone
typed into a form: at most ACCOUNT_EXISTS_MAILS_PER_DAY of them a day per
address, whoever asks, so the forms cannot be used to fill a stranger's
mailbox (counted in the outbox itself, so across processes and restarts).
"""

from __future__ import annotations

import datetime
import logging
import uuid
from dataclasses import dataclass
from typing import Any

from allauth.core import context as allauth_context
from django.conf import settings
from django.core.mail import EmailMessage
from django.utils import timezone, translation

from club.adapters import AccountAdapter as ClubAccountAdapter
from club.models import Player
from notifications import render
from notifications.models import OutgoingMail

logger = logging.getLogger(__name__)

# allauth's template prefix -> the outbox's kind (the admin's filter).
KINDS = {
    "account/email/email_confirmation_signup": "account_confirm",
    "account/email/email_confirmation": "account_confirm",
    "account/email/password_reset_key": "account_reset",
    "account/email/account_already_exists": "account_exists",
    "account/email/unknown_account": "account_unknown",
}
# Mails to an address typed by anyone: counted per address and day.
LIMITED = ("account_exists", "account_unknown")


@dataclass(frozen=True)
class ClubSite:
    """What allauth's mail templates call `current_site`: the club, not the host."""

    name: str
    domain: str


def club_site() -> ClubSite:
    """The club in the active language, at SITE_URL's host."""
    return ClubSite(name=render.club_name(), domain=render.site_host())


def language_for(address: str) -> str:
    """The language of the member with this address, else the request's."""
    stored = (
        Player.objects.filter(user__email__iexact=address)
        .exclude(language="")
        .values_list("language", flat=True)
        .first()
    )
    return stored or translation.get_language() or settings.LANGUAGE_CODE


def over_the_limit(kind: str, address: str, now: datetime.datetime | None = None) -> bool:
    """True when `address` had its day's share of this kind of mail (LIMITED kinds)."""
    if kind not in LIMITED:
        return False
    since = (now or timezone.now()) - datetime.timedelta(days=1)
    sent = OutgoingMail.objects.filter(
        kind__in=LIMITED, address__iexact=address, created__gt=since
    ).count()
    return sent >= settings.ACCOUNT_EXISTS_MAILS_PER_DAY


def queue(message: EmailMessage, kind: str, player_id: int | None) -> OutgoingMail:
    """Put a rendered account mail in the outbox; the worker sends it."""
    html = ""
    for content, mimetype in getattr(message, "alternatives", []):
        if mimetype == "text/html":
            html = str(content)
    return OutgoingMail.objects.create(
        player_id=player_id,
        key=f"{kind}:{uuid.uuid4().hex}",
        kind=kind,
        address=message.to[0],
        sender=message.from_email,
        subject=message.subject[:300],
        body=message.body,
        html=html,
    )


class AccountAdapter(ClubAccountAdapter):
    """The club's allauth adapter (club.adapters) whose mails wait in the outbox."""

    def format_email_subject(self, subject: str) -> str:
        return f"[{render.club_name()}] {subject}"

    def get_from_email(self) -> str:
        return render.sender()

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        kind = KINDS.get(template_prefix, "account")
        if over_the_limit(kind, email):
            logger.info("account mail %s to an address mailed enough today: not sent", kind)
            return
        player_id = (
            Player.objects.filter(user__email__iexact=email).values_list("pk", flat=True).first()
        )
        with translation.override(language_for(email)):
            ctx = {
                "request": allauth_context.request,
                "email": email,
                "current_site": club_site(),
                "site_url": settings.SITE_URL,
            }
            ctx.update(context)
            message = self.render_mail(template_prefix, email, ctx)
        queue(message, kind, player_id)
