"""Which push subscription a member may register: a push service's https address, never
one of ours or of the machine's neighbours, with keys that are what RFC 8291 says.

A browser gives the page an endpoint (the push service's URL for this device) and
two keys; a forged request could give any URL, and the worker would then post to
it (a server-side request to wherever the forger likes). So an endpoint must be
https, on a known push service (PUSH_SERVICE_HOSTS), at most ENDPOINT_MAX long,
and its host must resolve to public addresses only (no loopback, private,
link-local, reserved...). Nothing is fetched to check it; the worker checks the
addresses again before each post (a name may resolve elsewhere later).
PUSH_TEST_ORIGIN lets the tests' loopback receiver through, and nothing else.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from push.keys import b64url_decode

ENDPOINT_MAX = 1000


class Refused(Exception):
    """A subscription the site will not store: a stable code and a message for the member."""

    def __init__(self, code: str, message) -> None:
        super().__init__(code)
        self.code = code
        self.message = message


def _test_origin(url: str) -> bool:
    """Is `url` on PUSH_TEST_ORIGIN, which is honoured only on a loopback address?"""
    origin = settings.PUSH_TEST_ORIGIN
    if not origin or not (url == origin or url.startswith(origin + "/")):
        return False
    ip = _literal_ip((urlsplit(origin).hostname or "").lower())
    return ip is not None and ip.is_loopback


def _known_service(host: str) -> bool:
    allowed = settings.PUSH_SERVICE_HOSTS
    if "*" in allowed:
        return True
    for entry in allowed:
        entry = entry.lower()
        if entry.startswith("."):
            if host.endswith(entry) and len(host) > len(entry):
                return True
        elif host == entry:
            return True
    return False


def public_address(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def resolves_publicly(host: str, port: int) -> bool:
    """Does every address `host` resolves to lie on the public internet?"""
    try:
        found = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return False
    addresses = {info[4][0] for info in found}
    return bool(addresses) and all(public_address(a) for a in addresses)


def check_endpoint(endpoint: object) -> str:
    """The endpoint if the worker may post to it; else Refused (and nothing is contacted)."""
    if not isinstance(endpoint, str) or not endpoint:
        raise Refused("bad_endpoint", _("This device gave no push address."))
    if len(endpoint) > ENDPOINT_MAX:
        raise Refused("too_long", _("This device's push address is too long."))
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise Refused("bad_endpoint", _("This device's push address is not an address.")) from None
    host = (parts.hostname or "").lower()
    if not host or parts.username is not None or parts.password is not None:
        raise Refused("bad_endpoint", _("This device's push address is not an address."))
    if _test_origin(endpoint):
        return endpoint  # the tests' own receiver on loopback (PUSH_TEST_ORIGIN)
    if parts.scheme != "https":
        raise Refused("not_https", _("A push address must use https."))
    if _literal_ip(host) is not None:
        if not public_address(host):
            raise Refused("private_address", _("This push address points inside a network."))
        raise Refused("unknown_service", _("This push address is not a known push service."))
    if not _known_service(host):
        raise Refused("unknown_service", _("This push address is not a known push service."))
    if not resolves_publicly(host, port or 443):
        raise Refused("private_address", _("This push address points inside a network."))
    return endpoint


def _literal_ip(host: str) -> ipaddress._BaseAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return None


def check_keys(keys: object) -> tuple[str, str]:
    """(p256dh, auth) as given, if they are a P-256 public key and a 16-byte secret."""
    if not isinstance(keys, dict):
        raise Refused("bad_keys", _("This device's push keys are missing."))
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(p256dh, str) or not isinstance(auth, str) or len(p256dh) > 200:
        raise Refused("bad_keys", _("This device's push keys are missing."))
    try:
        point = b64url_decode(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        secret = b64url_decode(auth)
    except (ValueError, TypeError):
        raise Refused("bad_keys", _("This device's push keys are not valid.")) from None
    if len(point) != 65 or len(secret) != 16:
        raise Refused("bad_keys", _("This device's push keys are not valid."))
    return p256dh, auth


def may_post(endpoint: str) -> bool:
    """The worker's check right before a post: still a public address (or the test origin)."""
    if _test_origin(endpoint):
        return True
    parts = urlsplit(endpoint)
    host = (parts.hostname or "").lower()
    return (
        parts.scheme == "https"
        and _literal_ip(host) is None
        and _known_service(host)
        and resolves_publicly(host, parts.port or 443)
    )
