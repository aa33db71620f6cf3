"""Which push subscription a member may register: a push service's https address, never
one of ours or of the machine's neighbours, with keys that are what RFC 8291 says.

A browser gives the page an endpoint (the push service's URL for this device) and
two keys; a forged request could give any URL, and the worker would then post to
it (a server-side request to wherever the forger likes). So an endpoint must be
https, on a known push service (PUSH_SERVICE_HOSTS), at most ENDPOINT_MAX long,
and its host must resolve to public addresses only (no loopback, private,
link-local, reserved...). Nothing is fetched to check it.

A name may resolve elsewhere later (DNS rebinding: public when the member
subscribed, 127.0.0.1 or a neighbour's address when the worker posts). So the
worker never lets its HTTP client look the name up: right before each post,
`post_target` resolves the host once, refuses it unless every address is public,
and the worker connects to the address it checked (TLS still verified for the
host's name, which is also the Host header and the SNI).

PUSH_TEST_ORIGIN lets the tests' loopback receiver through, and nothing else: an
origin spelled with a literal loopback address (a name that resolves to loopback
is refused like any other), set only by the tests.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
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


def _public_addresses(host: str, port: int) -> list[str]:
    """The addresses `host` resolves to, in the resolver's order, if every one is public; else []."""
    try:
        found = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return []
    addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
    if not addresses or not all(public_address(a) for a in addresses):
        return []
    return addresses


def resolves_publicly(host: str, port: int) -> bool:
    """Does every address `host` resolves to lie on the public internet?"""
    return bool(_public_addresses(host, port))


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


@dataclass(frozen=True)
class Target:
    """Where the worker posts an endpoint: its host's name (TLS, Host) and the address it checked."""

    scheme: str
    host: str
    port: int
    address: str

    @property
    def host_header(self) -> str:
        default = 443 if self.scheme == "https" else 80
        return self.host if self.port == default else f"{self.host}:{self.port}"


def post_target(endpoint: str) -> Target | None:
    """The worker's check right before a post: where to connect, or None if it may not.

    The host is resolved here, once, and every address it gives must be public;
    the worker then connects to the first of them and to nothing else, so a name
    that turns private between this check and the connection is never followed.
    """
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if _test_origin(endpoint):
        # A literal loopback address (checked by _test_origin): no lookup at all.
        return Target(parts.scheme, host, port or 80, str(_literal_ip(host)))
    if parts.scheme != "https" or _literal_ip(host) is not None or not _known_service(host):
        return None
    addresses = _public_addresses(host, port or 443)
    if not addresses:
        return None
    return Target("https", host, port or 443, addresses[0])


def may_post(endpoint: str) -> bool:
    """Would the worker post to `endpoint` now (a public address, or the test origin)?"""
    return post_target(endpoint) is not None
