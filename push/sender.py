"""Web Push for notifications, sent by the task worker (`manage.py worker`).

The worker runs `run` in a thread of its own (the push AppConfig's `worker_duty`),
beside the mail's: a push service that is slow or down never holds up a mail, and
no page, move or socket ever talks to a push service. Every NOTIFY_PUMP_SECONDS
`pump` does one pass:

1. compose: the members' new notifications (the last LOOKBACK) become one
   PushMessage per device, or one "skipped" row saying why not: push off for
   that kind, the member has the site open (the same check as the mail,
   notifications.presence), already read, or its move no longer waits. A "your
   turn" push replaces the one still queued for the same table, carries the
   table's Topic (RFC 8030: the push service keeps only the newest) and lives
   (TTL) until the move's deadline.
2. send: due rows are claimed (queued -> sending), encrypted for their device
   (RFC 8291, aes128gcm, pywebpush's encoder), signed (VAPID, RFC 8292) and
   posted, with no redirect followed, to the address the host resolved to
   right before, once checked public (push/endpoints.post_target: a name that
   now resolves inside a network fails that push and is never connected to,
   and its answer is never looked up again between the check and the
   connection). 2xx: sent. 404/410: the browser dropped the
   subscription, which is deleted. 429, 5xx, a timeout or a refused
   connection: tried again after PUSH_RETRY_SECONDS, doubling to
   PUSH_RETRY_MAX_SECONDS (or the service's Retry-After), and that service's
   other pushes wait with it; past its expiry a push is dropped. Other 4xx:
   that push fails alone.
"""

from __future__ import annotations

import datetime
import json
import logging
import threading
import time
from collections import defaultdict
from urllib.parse import urlsplit

import requests.certs
import urllib3
from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import F
from django.utils import timezone, translation
from pywebpush import WebPusher

from club import i18n
from games.db import DATABASE_DOWN
from notifications import kinds, presence, render
from notifications.models import Notification
from push import channel, endpoints, keys
from push.models import PushMessage, Subscription

logger = logging.getLogger(__name__)
BATCH = 200
# A notification older than this when the worker first sees it is not pushed (the
# worker was stopped meanwhile: the mail and the bell still tell it).
LOOKBACK = datetime.timedelta(hours=1)
CLAIM_TIMEOUT = datetime.timedelta(minutes=10)
# RFC 8030 5.2: most push services keep a message at most four weeks.
TTL_MAX = 28 * 24 * 3600
TOPIC_KINDS = {kinds.TURN.key}
# Pushes that mean nothing later than this (seconds): "starts in 10 minutes".
SHORT_LIVED = {"event_soon": 15 * 60}


def backoff(failures: int) -> float:
    return min(
        settings.PUSH_RETRY_MAX_SECONDS, settings.PUSH_RETRY_SECONDS * 2 ** max(0, failures - 1)
    )


class _Outages:
    """Push services that did not answer: host -> (failures, monotonic time to try again)."""

    def __init__(self) -> None:
        self.hosts: dict[str, tuple[int, float]] = {}

    def waiting(self, host: str) -> float:
        failures, at = self.hosts.get(host, (0, 0.0))
        return max(0.0, at - time.monotonic())

    def down(self, host: str, retry_after: float | None = None) -> float:
        failures = self.hosts.get(host, (0, 0.0))[0] + 1
        wait = backoff(failures)
        if retry_after is not None:
            wait = min(settings.PUSH_RETRY_MAX_SECONDS, max(wait, retry_after))
        self.hosts[host] = (failures, time.monotonic() + wait)
        if failures == 1:
            logger.warning("push: %s is not taking pushes; they wait and are tried again", host)
        return wait

    def up(self, host: str) -> None:
        if self.hosts.pop(host, None) is not None:
            logger.warning("push: %s takes pushes again", host)


_outages = _Outages()


def reset() -> None:
    """Forget every push service's outage (tests)."""
    global _outages
    _outages = _Outages()


def pump(now: datetime.datetime | None = None) -> dict[str, int]:
    now = now or timezone.now()
    if not keys.configured():
        return {"composed": 0, "sent": 0, "lost": 0}
    return {"lost": recover(now), "composed": compose(now), "sent": send_queued()}


# -- 1. compose ---------------------------------------------------------------------


def _topic(notification: Notification) -> str:
    if notification.kind in TOPIC_KINDS and notification.table_id:
        return f"turn-{notification.table_id}"  # RFC 8030 Topic: <= 32 base64url characters
    return ""


def _expiry(notification: Notification, now: datetime.datetime) -> datetime.datetime:
    deadline = notification.data.get("deadline") if notification.kind in TOPIC_KINDS else None
    if isinstance(deadline, str):
        try:
            at = datetime.datetime.fromisoformat(deadline)
        except ValueError:
            at = None
        if at is not None:
            if timezone.is_naive(at):
                at = timezone.make_aware(at, datetime.UTC)
            return min(at, now + datetime.timedelta(seconds=TTL_MAX))
    seconds = SHORT_LIVED.get(notification.kind, settings.PUSH_TTL_SECONDS)
    return notification.created + datetime.timedelta(
        seconds=min(seconds, settings.PUSH_TTL_SECONDS)
    )


def compose(now: datetime.datetime) -> int:
    """The new notifications of subscribed members -> queued pushes (or skipped rows)."""
    since = now - LOOKBACK
    considered = PushMessage.objects.filter(created__gte=since - LOOKBACK).values("notification_id")
    notes = list(
        Notification.objects.filter(
            created__gte=since, player_id__in=Subscription.objects.values("player_id")
        )
        .exclude(pk__in=considered)
        .order_by("pk")[:BATCH]
    )
    if not notes:
        return 0
    ids = {n.player_id for n in notes}
    devices: dict[int, list[Subscription]] = defaultdict(list)
    for subscription in Subscription.objects.filter(player_id__in=ids).order_by("pk"):
        devices[subscription.player_id].append(subscription)
    here = presence.online(ids)
    wants: dict[str, set[int]] = {}
    rows: list[PushMessage] = []
    replacing: list[tuple[int, str]] = []
    for note in notes:
        kind = kinds.get(note.kind)
        if kind is not None and kind.key not in wants:
            wants[kind.key] = channel.wanted(ids, kind)
        expires = _expiry(note, now)
        mine = [s for s in devices.get(note.player_id, []) if s.created <= note.created]
        reason = ""
        if kind is None or note.player_id not in wants[kind.key]:
            reason = "off"
        elif note.data.get("site_only"):
            reason = "site_only"  # e.g. an invitation from a member never played with
        elif note.site and note.read_at is not None:
            reason = "seen"  # read, or replaced by a newer turn at the same table
        elif note.player_id in here:
            reason = "online"  # they see it live, as with the mail
        elif expires <= now:
            reason = "expired"
        elif not mine:
            reason = "no_device"
        if reason:
            rows.append(_skipped(note, reason, expires, now))
            continue
        topic = _topic(note)
        if topic:
            replacing.append((note.player_id, topic))
        rows.extend(
            PushMessage(
                key=f"{note.pk}:{device.pk}",
                notification=note,
                player_id=note.player_id,
                subscription=device,
                topic=topic,
                expires=expires,
                created=now,
                next_try=now,
            )
            for device in mine
        )
    with transaction.atomic():
        for player_id, topic in set(replacing):
            # The newest turn at a table replaces the push still waiting for it.
            PushMessage.objects.filter(
                player_id=player_id, topic=topic, state=PushMessage.State.QUEUED
            ).update(state=PushMessage.State.SKIPPED, reason="replaced")
        PushMessage.objects.bulk_create(rows, ignore_conflicts=True)
    return sum(1 for row in rows if row.state == PushMessage.State.QUEUED)


def _skipped(note: Notification, reason: str, expires, now) -> PushMessage:
    return PushMessage(
        key=f"{note.pk}:-",
        notification=note,
        player_id=note.player_id,
        state=PushMessage.State.SKIPPED,
        reason=reason,
        expires=expires,
        created=now,
    )


# -- 2. send --------------------------------------------------------------------------


def send_queued() -> int:
    """Post the due pushes, one at a time; how many the push services took."""
    due = list(
        PushMessage.objects.filter(state=PushMessage.State.QUEUED, next_try__lte=timezone.now())
        .order_by("next_try", "pk")
        .values_list("pk", flat=True)[:BATCH]
    )
    if not due:
        return 0
    sent = 0
    poster = _Poster()
    try:
        for pk in due:
            sent += _send_one(pk, poster)
    finally:
        poster.close()
    return sent


class _Poster:
    """HTTP posts to checked addresses: one connection pool per (host, address) for a pass.

    urllib3 is given the address, never the name, so it looks nothing up; TLS is
    verified for the name (SNI and certificate), which is also the Host header.
    """

    def __init__(self) -> None:
        self.pools: dict[endpoints.Target, urllib3.HTTPConnectionPool] = {}

    def post(self, target: endpoints.Target, path: str, body: bytes, headers: dict):
        pool = self.pools.get(target)
        if pool is None:
            if target.scheme == "https":
                pool = urllib3.HTTPSConnectionPool(
                    target.address,
                    target.port,
                    server_hostname=target.host,
                    assert_hostname=target.host,
                    cert_reqs="CERT_REQUIRED",
                    ca_certs=requests.certs.where(),
                    maxsize=1,
                )
            else:  # only the tests' loopback receiver (endpoints.post_target)
                pool = urllib3.HTTPConnectionPool(target.address, target.port, maxsize=1)
            self.pools[target] = pool
        return pool.urlopen(
            "POST",
            path,
            body=body,
            headers={**headers, "Host": target.host_header},
            timeout=settings.PUSH_TIMEOUT_SECONDS,
            retries=False,
            redirect=False,
        )

    def close(self) -> None:
        for pool in self.pools.values():
            pool.close()


def _send_one(pk: int, poster: _Poster) -> int:
    claimed = PushMessage.objects.filter(pk=pk, state=PushMessage.State.QUEUED).update(
        state=PushMessage.State.SENDING, attempts=F("attempts") + 1, next_try=timezone.now()
    )
    if not claimed:
        return 0  # another worker has it
    message = (
        PushMessage.objects.select_related("notification", "subscription", "player")
        .filter(pk=pk)
        .first()
    )
    if message is None or message.subscription is None:
        return 0  # its device was removed meanwhile (the row went with it)
    now = timezone.now()
    note, device = message.notification, message.subscription
    if note.site and note.read_at is not None:
        return _finish(message, PushMessage.State.SKIPPED, reason="seen")
    if presence.online([message.player_id]):
        return _finish(message, PushMessage.State.SKIPPED, reason="online")
    if message.expires <= now:
        return _finish(message, PushMessage.State.EXPIRED)
    host = (urlsplit(device.endpoint).hostname or "").lower()
    wait = _outages.waiting(host)
    if wait > 0:
        return _retry(message, wait, "", count=False)
    target = endpoints.post_target(device.endpoint)
    if target is None:
        # Public when the member subscribed, now inside a network (or no longer a
        # known push service): nothing is sent there; the device stays, in case
        # the name is public again, and the admin shows why it gets nothing.
        return _failed(message, device, "the address is no longer a public push service")
    parts = urlsplit(device.endpoint)
    try:
        response = poster.post(
            target,
            (parts.path or "/") + (f"?{parts.query}" if parts.query else ""),
            _encrypt(device, payload(message)),
            _headers(message, device, now),
        )
    except (urllib3.exceptions.HTTPError, OSError) as exc:
        _device_failed(device, _why(exc))
        return _retry(message, _outages.down(host), _why(exc))
    status = response.status
    if status in (200, 201, 202):
        _outages.up(host)
        Subscription.objects.filter(pk=device.pk).update(last_sent=now)
        return _finish(message, PushMessage.State.SENT, sent=True)
    if status in (404, 410):
        # The browser dropped this subscription: it will never take a push again.
        Subscription.objects.filter(pk=device.pk).delete()
        logger.info("push: a subscription answered %s and is removed", status)
        return 0
    if status == 429 or status >= 500:
        _device_failed(device, f"HTTP {status}")
        return _retry(message, _outages.down(host, _retry_after(response)), f"HTTP {status}")
    text = response.data.decode("utf-8", "replace")[:200]
    return _failed(message, device, f"HTTP {status}: {text}")


def payload(message: PushMessage) -> dict:
    """What the service worker shows, in the member's language (push/templates/push/sw.js)."""
    note = message.notification
    language = message.player.language or settings.LANGUAGE_CODE
    with translation.override(language):
        # A deadline in the push is written in the member's own time zone (club.i18n).
        [item] = render.shown([note], i18n.member_time_zone(message.player))
        kind = kinds.get(note.kind)
        return {
            "title": str(kind.label) if kind else translation.gettext("Card Club"),
            "body": " ".join(item.text.split())[:300],
            "url": item.url or render.absolute("/"),
            "tag": message.topic or f"n-{note.pk}",
            "lang": language,
        }


def _encrypt(device: Subscription, data: dict) -> bytes:
    info = {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}}
    body = json.dumps(data, ensure_ascii=False).encode()
    return WebPusher(info).encode(body, "aes128gcm")["body"]


def _headers(message: PushMessage, device: Subscription, now: datetime.datetime) -> dict:
    parts = urlsplit(device.endpoint)
    ttl = max(0, min(TTL_MAX, int((message.expires - now).total_seconds())))
    headers = {
        "TTL": str(ttl),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "Urgency": "normal",
        "Authorization": keys.authorization(
            f"{parts.scheme}://{parts.netloc}", time.time() + 12 * 3600
        ),
    }
    if message.topic:
        headers["Topic"] = message.topic
    return headers


def _device_failed(device: Subscription, error: str) -> None:
    Subscription.objects.filter(pk=device.pk).update(
        last_failure=timezone.now(), last_error=error[:300]
    )


def _failed(message: PushMessage, device: Subscription, error: str) -> int:
    _device_failed(device, error)
    return _finish(message, PushMessage.State.FAILED, error)


def _retry_after(response) -> float | None:
    try:
        return float(response.headers.get("Retry-After", ""))
    except ValueError:
        return None


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:300]


def _finish(message: PushMessage, state: str, error: str = "", reason: str = "", sent=False) -> int:
    PushMessage.objects.filter(pk=message.pk).update(
        state=state, error=error, reason=reason, sent_at=timezone.now() if sent else None
    )
    if state == PushMessage.State.FAILED:
        logger.info("push: %s not sent: %s", message.key, error)
    return 1 if sent else 0


def _retry(message: PushMessage, wait: float, error: str, count: bool = True) -> int:
    next_try = timezone.now() + datetime.timedelta(seconds=wait)
    if next_try >= message.expires:
        return _finish(message, PushMessage.State.EXPIRED, error)
    PushMessage.objects.filter(pk=message.pk).update(
        state=PushMessage.State.QUEUED,
        attempts=message.attempts if count else max(0, message.attempts - 1),
        error=error or message.error,
        next_try=next_try,
    )
    return 0


def recover(now: datetime.datetime) -> int:
    """Rows a stopped worker left "sending": failed, not posted twice."""
    return PushMessage.objects.filter(
        state=PushMessage.State.SENDING, next_try__lt=now - CLAIM_TIMEOUT
    ).update(state=PushMessage.State.FAILED, error="the worker stopped while sending")


# -- the worker's thread ---------------------------------------------------------------


def run(stop: threading.Event) -> None:
    """The worker duty: a pass every NOTIFY_PUMP_SECONDS until `stop` is set."""
    if keys.configured():
        try:
            keys.vapid()
        except ValueError as exc:
            logger.error("push: %s; no push is sent", exc)
            return
    database_down = False
    while not stop.is_set():
        try:
            pump()
            database_down = False
        except DATABASE_DOWN as exc:
            if not database_down:
                logger.warning("push: the database is not answering (%s); pushes wait", _why(exc))
            database_down = True
        except Exception:  # noqa: BLE001 - the push thread must outlive any one bad pass
            logger.exception("push: a pass failed")
        finally:
            close_old_connections()
        stop.wait(settings.NOTIFY_PUMP_SECONDS)
