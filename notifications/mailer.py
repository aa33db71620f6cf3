"""Mail for notifications, sent by the task worker (`manage.py worker`).

The worker runs `run` in a thread beside django-tasks' db_worker (the
AppConfig's `worker_duty`); every NOTIFY_PUMP_SECONDS `pump` does one pass:

1. compose: pending notifications that are due become outbox rows
   (OutgoingMail). Only a member's confirmed primary address is mailed
   (`addresses`); a member without one is told in the site only. A member who has the site open (a lobby or table socket,
   notifications/presence.py) saw them live: they are not mailed. "Your turn"
   notifications (batched kinds) go out as one digest per member at most once
   per NOTIFY_MAIL_MINUTES, listing every table waiting; the others one mail each.
2. send: queued rows are claimed, sent over one SMTP connection and marked sent.
   Account mails (allauth's, notifications/account.py) are queued rendered by
   the request that asked for them and sent here the same way.

At most once. A row is claimed (queued -> sending, committed) BEFORE it is
handed to the SMTP server, and marked sent right after the server accepted
it. A worker killed between the two leaves the row "sending"; the next worker
finds its claimer dead (analysis.workers.alive) and marks it "unknown" instead
of sending it again: the server may well have taken it, and a member mailed
twice is worse than one mail lost in a crash that lasts milliseconds. The
outbox key (unique) makes composing the same notifications twice (two
workers, a restart between compose and send) one row. An SMTP error is not
that case: smtplib raised before the server's "250 OK", so the mail is tried
again.

Faults: a server that is down or refuses the connection (or answers 4xx)
leaves every mail queued; the worker tries again after NOTIFY_RETRY_SECONDS,
doubling up to NOTIFY_RETRY_MAX_SECONDS, and logs one warning when the outage
starts and one line when it ends. A refused address (5xx) fails that mail
alone; the others go on.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import smtplib
import threading
import time
from collections import defaultdict

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.db import close_old_connections, transaction
from django.db.models import F, Max
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from analysis import workers
from club import i18n
from games.db import DATABASE_DOWN
from notifications import kinds, presence, render
from notifications.models import Notification, OutgoingMail, Preference

logger = logging.getLogger(__name__)
BATCH = 200
# A row "sending" for this long whose worker cannot be checked from here is given up.
CLAIM_TIMEOUT = datetime.timedelta(minutes=10)


class _Outage:
    def __init__(self) -> None:
        self.since: float | None = None
        self.failures = 0
        self.retry_at = 0.0


_outage = _Outage()


def reset() -> None:
    """Forget any SMTP outage (tests)."""
    global _outage
    _outage = _Outage()


def backoff(failures: int) -> float:
    return min(
        settings.NOTIFY_RETRY_MAX_SECONDS, settings.NOTIFY_RETRY_SECONDS * 2 ** max(0, failures - 1)
    )


def pump(now: datetime.datetime | None = None) -> dict[str, int]:
    """One pass: give up dead workers' claims, compose what is due, send what is queued."""
    now = now or timezone.now()
    return {"lost": recover(now), "composed": compose(now), "sent": send_queued(now)}


# -- 1. compose -------------------------------------------------------------------------


def addresses(player_ids: list[int]) -> dict[int, str]:
    """Each member's address that may be mailed: their primary address, confirmed
    (allauth's EmailAddress). A member without one gets the site channel only: an
    address somebody typed at sign-up and never confirmed is nobody's to mail (issue 42).
    """
    rows = EmailAddress.objects.filter(
        user__player__pk__in=player_ids, primary=True, verified=True
    ).values_list("user__player__pk", "email")
    return {pid: email for pid, email in rows if email}


def compose(now: datetime.datetime) -> int:
    """Turn due pending notifications into outbox rows; how many rows were made."""
    pending = list(
        Notification.objects.filter(mail_state=Notification.Mail.PENDING, mail_due__lte=now)
        .order_by("pk")
        .values_list("pk", "player_id", "kind", "site", "read_at")
    )
    if not pending:
        return 0
    by_player: dict[int, list[tuple]] = defaultdict(list)
    for row in pending:
        by_player[row[1]].append(row)
    ids = list(by_player)
    emails = addresses(ids)
    here = presence.online(ids)
    refused = set(
        Preference.objects.filter(player_id__in=ids, channel=kinds.MAIL, enabled=False).values_list(
            "player_id", "kind"
        )
    )
    batched = [key for key, kind in kinds.KINDS.items() if kind.batched]
    last = {
        (pid, kind): at
        for pid, kind, at in OutgoingMail.objects.filter(player_id__in=ids, kind__in=batched)
        .values_list("player_id", "kind")
        .annotate(at=Max("created"))
    }
    window = datetime.timedelta(minutes=settings.NOTIFY_MAIL_MINUTES)
    skipped: list[int] = []
    later: dict[datetime.datetime, list[int]] = defaultdict(list)
    mails: list[tuple[OutgoingMail, list[int]]] = []
    for pid, rows in by_player.items():
        groups: dict[str, list[int]] = defaultdict(list)
        for pk, _pid, kind, site, read_at in rows:
            info = kinds.get(kind)
            seen = site and read_at is not None
            if pid in here or not emails.get(pid) or info is None or seen or (pid, kind) in refused:
                skipped.append(pk)
            elif info.batched:
                groups[kind].append(pk)
            else:
                mails.append(
                    (
                        OutgoingMail(
                            player_id=pid, key=f"n:{pk}", kind=kind, created=now, next_try=now
                        ),
                        [pk],
                    )
                )
        for kind, pks in groups.items():
            previous = last.get((pid, kind))
            if previous is not None and previous + window > now:
                later[previous + window].extend(pks)
            else:
                key = f"{kind}:{pid}:{pks[0]}"
                mails.append(
                    (
                        OutgoingMail(player_id=pid, key=key, kind=kind, created=now, next_try=now),
                        pks,
                    )
                )
    with transaction.atomic():
        pending_rows = Notification.objects.filter(mail_state=Notification.Mail.PENDING)
        if skipped:
            pending_rows.filter(pk__in=skipped).update(mail_state=Notification.Mail.SKIPPED)
        for due, pks in later.items():
            pending_rows.filter(pk__in=pks).update(mail_due=due)
        if mails:
            OutgoingMail.objects.bulk_create([mail for mail, _pks in mails], ignore_conflicts=True)
            made = dict(
                OutgoingMail.objects.filter(key__in=[mail.key for mail, _ in mails]).values_list(
                    "key", "pk"
                )
            )
            for mail, pks in mails:
                pending_rows.filter(pk__in=pks).update(
                    mail_state=Notification.Mail.QUEUED, mail_id=made[mail.key]
                )
    return len(mails)


# -- 2. send ------------------------------------------------------------------------------


def send_queued(now: datetime.datetime) -> int:
    """Send the queued mails that are due, over one connection; how many went out."""
    if _outage.since is not None and time.monotonic() < _outage.retry_at:
        return 0
    due = list(
        OutgoingMail.objects.filter(state=OutgoingMail.State.QUEUED, next_try__lte=now)
        .order_by("next_try", "pk")
        .values_list("pk", flat=True)[:BATCH]
    )
    if not due:
        return 0
    connection = get_connection(fail_silently=False)
    try:
        connection.open()
    except (OSError, smtplib.SMTPException) as exc:
        _went_down(exc, len(due))
        return 0
    sent = 0
    try:
        for pk in due:
            outcome = _send_one(pk, connection)
            if outcome is None:
                return sent  # the server went away: the rest wait for it
            sent += outcome
    finally:
        with contextlib.suppress(Exception):
            connection.close()
    return sent


def _send_one(pk: int, connection: BaseEmailBackend) -> int | None:
    """1 sent, 0 not (failed, retried later, or taken by another worker); None: server gone."""
    claimed = OutgoingMail.objects.filter(pk=pk, state=OutgoingMail.State.QUEUED).update(
        state=OutgoingMail.State.SENDING,
        claimed_by=workers.worker_id(),
        next_try=timezone.now(),
        attempts=F("attempts") + 1,
    )
    if not claimed:
        return 0  # another worker has it
    mail = OutgoingMail.objects.select_related("player__user").get(pk=pk)
    try:
        message = build(mail, connection)
    except Exception as exc:  # noqa: BLE001 - one mail that cannot be built stops no other
        logger.exception("notifications: mail %s could not be built", mail.key)
        _finish(mail, OutgoingMail.State.FAILED, f"{type(exc).__name__}: {exc}")
        return 0
    if message is None:
        _finish(
            mail,
            OutgoingMail.State.FAILED,
            "nothing left to send (the turns were played meanwhile) or no address",
        )
        return 0
    try:
        accepted = message.send()
    except smtplib.SMTPRecipientsRefused as exc:
        codes = [code for code, _text in exc.recipients.values()]
        if codes and all(code >= 500 for code in codes):  # a bad address: this mail alone fails
            _finish(mail, OutgoingMail.State.FAILED, _why(exc))
        else:
            _retry(mail, _why(exc))
        return 0
    except smtplib.SMTPResponseException as exc:
        if exc.smtp_code >= 500:  # this mail is refused for good (its address, its size)
            _finish(mail, OutgoingMail.State.FAILED, _why(exc))
        else:  # 4xx: try this one again later
            _retry(mail, _why(exc))
        return 0
    except (OSError, smtplib.SMTPException) as exc:
        _retry(mail, _why(exc), count=False)
        _went_down(exc, 1)
        return None
    if not accepted:  # Django's backend lost its connection without saying why
        _retry(mail, "the connection closed", count=False)
        _went_down(ConnectionError("the connection closed"), 1)
        return None
    _finish(mail, OutgoingMail.State.SENT, "")
    _came_back()
    return 1


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:300]


def _finish(mail: OutgoingMail, state: str, error: str) -> None:
    # An account mail's texts hold one-time links: not kept once it is done.
    OutgoingMail.objects.filter(pk=mail.pk).update(
        state=state,
        error=error,
        sent_at=timezone.now() if state == OutgoingMail.State.SENT else None,
        body="",
        html="",
    )
    if state == OutgoingMail.State.FAILED:
        logger.info("notifications: mail %s not sent: %s", mail.key, error)


def _retry(mail: OutgoingMail, error: str, count: bool = True) -> None:
    attempts = mail.attempts if count else max(0, mail.attempts - 1)
    OutgoingMail.objects.filter(pk=mail.pk).update(
        state=OutgoingMail.State.QUEUED,
        attempts=attempts,
        error=error,
        next_try=timezone.now() + datetime.timedelta(seconds=backoff(max(1, attempts))),
    )


def _went_down(exc: BaseException, waiting: int) -> None:
    _outage.failures += 1
    _outage.retry_at = time.monotonic() + backoff(_outage.failures)
    if _outage.since is None:
        _outage.since = time.monotonic()
        logger.warning(
            "notifications: the mail server is not taking mail (%s); %d mail(s) wait and are "
            "tried again from %s s on",
            _why(exc),
            waiting,
            f"{backoff(1):g}",
        )


def _came_back() -> None:
    if _outage.since is not None:
        logger.warning(
            "notifications: the mail server takes mail again after %.0f s",
            time.monotonic() - _outage.since,
        )
        reset()


def recover(now: datetime.datetime) -> int:
    """Rows a dead worker left "sending": unknown, never sent again; how many."""
    lost = 0
    for pk, claimer, claimed_at in OutgoingMail.objects.filter(
        state=OutgoingMail.State.SENDING
    ).values_list("pk", "claimed_by", "next_try"):
        alive = workers.alive(claimer)
        if alive or (alive is None and claimed_at > now - CLAIM_TIMEOUT):
            continue
        lost += OutgoingMail.objects.filter(pk=pk, state=OutgoingMail.State.SENDING).update(
            state=OutgoingMail.State.UNKNOWN,
            error="the worker stopped while sending: not sent again",
            body="",
            html="",
        )
    if lost:
        logger.warning("notifications: %d mail(s) were being sent by a worker that stopped", lost)
    return lost


# -- the mail itself --------------------------------------------------------------------------


def build(
    mail: OutgoingMail, connection: BaseEmailBackend | None = None
) -> EmailMultiAlternatives | None:
    """The mail of this outbox row, in its member's language; None if there is nothing to send."""
    if mail.address:
        return _account_mail(mail, connection)
    player = mail.player
    # Looked up again at sending: an address unconfirmed since composing gets nothing.
    address = addresses([player.pk]).get(player.pk, "")
    notes = list(mail.notifications.order_by("created", "pk"))
    # Checked again now, not when composed: a "your turn" whose move was made, or
    # whose seat went to the house, meanwhile is not mailed (nor counted).
    true = render.still_true(notes)
    if len(true) < len(notes):
        kept = {n.pk for n in true}
        Notification.objects.filter(pk__in=[n.pk for n in notes if n.pk not in kept]).update(
            mail_state=Notification.Mail.SKIPPED
        )
    notes = true
    if not address or not notes:
        return None
    kind = kinds.get(mail.kind)
    language = player.language or settings.LANGUAGE_CODE
    zone = i18n.member_time_zone(player)
    with translation.override(language), timezone.override(zone):
        items = render.shown(notes, zone, zone_named=True)
        if len(items) == 1:
            subject = items[0].text
        else:
            subject = f"{kind.label if kind else mail.kind} ({len(items)})"
        subject = " ".join(subject.split())[:150]
        unsubscribe = render.unsubscribe_url(player.pk, mail.kind)
        context = {
            "player": player,
            "items": items,
            "kind": kind,
            "subject": subject,
            "unsubscribe_url": unsubscribe,
            "preferences_url": render.absolute(reverse("notifications_preferences")),
            "site_url": settings.SITE_URL,
            "language": language,
        }
        body = render_to_string("notifications/mail/notice.txt", context)
        html = render_to_string("notifications/mail/notice.html", context)
        sender = render.sender()
    message = EmailMultiAlternatives(
        subject,
        body,
        sender,
        [address],
        connection=connection,
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Message-ID": f"<notify.{mail.pk}.{mail.key.replace(':', '.')}@{_domain()}>",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def _domain() -> str:
    return render.site_host().split(":", 1)[0] or "localhost"


def _account_mail(
    mail: OutgoingMail, connection: BaseEmailBackend | None
) -> EmailMultiAlternatives | None:
    """An account mail (notifications/account.py), rendered when it was asked for."""
    if not mail.body:
        return None
    message = EmailMultiAlternatives(
        mail.subject,
        mail.body,
        mail.sender or render.sender(),
        [mail.address],
        connection=connection,
        headers={
            "Message-ID": f"<account.{mail.pk}.{mail.key.replace(':', '.')}@{_domain()}>",
            "Auto-Submitted": "auto-generated",
        },
    )
    if mail.html:
        message.attach_alternative(mail.html, "text/html")
    return message


# -- the worker's thread --------------------------------------------------------------------------


def run(stop: threading.Event) -> None:
    """The worker duty: a pass every NOTIFY_PUMP_SECONDS until `stop` is set."""
    database_down = False
    while not stop.is_set():
        try:
            pump()
            if database_down:
                logger.warning("notifications: the database answers again; mail goes on")
            database_down = False
        except DATABASE_DOWN as exc:
            if not database_down:
                logger.warning(
                    "notifications: the database is not answering (%s); mail waits", _why(exc)
                )
            database_down = True
        except Exception:  # noqa: BLE001 - the mail thread must outlive any one bad pass
            logger.exception("notifications: a mail pass failed")
        finally:
            close_old_connections()
        stop.wait(settings.NOTIFY_PUMP_SECONDS)
