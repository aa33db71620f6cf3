"""The site's VAPID key pair (RFC 8292): the private key from settings, the public key
derived from it (what a browser subscribes with), and the claims' subject."""

from __future__ import annotations

import base64
from email.utils import parseaddr
from functools import lru_cache

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid02


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def make_pair() -> tuple[str, str]:
    """A new (private, public) pair, both base64url: the raw 32-byte scalar and the
    uncompressed point, the forms browsers and the other Web Push tools use."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(private), public_of(key)


def public_of(key: ec.EllipticCurvePrivateKey) -> str:
    return b64url(
        key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )


@lru_cache(maxsize=4)
def _vapid(private: str) -> Vapid02:
    return Vapid02.from_string(private_key=private)


def configured() -> bool:
    return bool(settings.PUSH_VAPID_PRIVATE_KEY)


def vapid() -> Vapid02:
    """The site's signer; ValueError when PUSH_VAPID_PRIVATE_KEY is missing or malformed."""
    if not settings.PUSH_VAPID_PRIVATE_KEY:
        raise ValueError("PUSH_VAPID_PRIVATE_KEY is not set")
    try:
        return _vapid(settings.PUSH_VAPID_PRIVATE_KEY.strip())
    except Exception as exc:  # noqa: BLE001 - py_vapid raises several kinds
        raise ValueError(f"PUSH_VAPID_PRIVATE_KEY is not a VAPID key ({exc})") from None


def public_key() -> str:
    """The applicationServerKey browsers subscribe with (base64url, uncompressed point)."""
    return public_of(vapid().private_key)


def subject() -> str:
    """The `sub` claim: PUSH_VAPID_SUBJECT, else a mailto: of the site's sender address."""
    if settings.PUSH_VAPID_SUBJECT:
        return settings.PUSH_VAPID_SUBJECT
    address = parseaddr(settings.DEFAULT_FROM_EMAIL)[1] or "club@localhost"
    return f"mailto:{address}"


def authorization(audience: str, expires: int) -> str:
    """The `Authorization: vapid t=<JWT>, k=<public key>` header for one push service."""
    claims = {"aud": audience, "exp": int(expires), "sub": subject()}
    return vapid().sign(claims)["Authorization"]
