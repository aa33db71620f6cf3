"""A push service on loopback for the tests (issue 46): it does what a real one checks.

Each POST /push/<device> must carry a VAPID authorization (RFC 8292) whose JWT is
signed (ES256) by the site's public key given in `k`, with `aud` this service's
origin, `exp` in the future and at most 24 hours away, and a mailto:/https: `sub`;
its body is decrypted (RFC 8291, aes128gcm, http_ece) with the device's own
private key and auth secret. Anything else is answered 401/400 and recorded as
refused. A device may be told to answer 410, 503 or to be slow. Every
connection is counted, so a test can show that nothing reached it.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's subscription: its key pair and auth secret, as PushManager makes them."""

    name: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, origin: str) -> dict:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{origin}/push/{self.name}",
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }


@dataclass
class Received:
    device: str
    headers: dict
    message: dict
    at: float


def verify_vapid(authorization: str, public_key: str, audience: str) -> dict:
    """The JWT's claims if the header is a valid VAPID authorization; AssertionError if not."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme.lower() == "vapid", authorization[:20]
    parts = dict(item.strip().split("=", 1) for item in rest.split(","))
    assert parts["k"] == public_key, "signed with another key"
    header_b64, claims_b64, signature_b64 = parts["t"].split(".")
    header = json.loads(unb64url(header_b64))
    assert header == {"typ": "JWT", "alg": "ES256"}, header
    signature = unb64url(signature_b64)
    assert len(signature) == 64
    der = encode_dss_signature(
        int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    )
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    try:
        key.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("bad signature") from None
    claims = json.loads(unb64url(claims_b64))
    assert claims["aud"] == audience, claims
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600, claims
    assert claims["sub"].startswith(("mailto:", "https:")), claims
    return claims


class PushReceiver:
    def __init__(self, public_key: str) -> None:
        self.public_key = public_key
        self.devices: dict[str, Device] = {}
        self.answers: dict[str, int] = {}  # device -> status to answer (default 201)
        self.delay: dict[str, float] = {}  # device -> seconds to wait before answering
        self.received: list[Received] = []
        self.refused: list[str] = []
        self.connections = 0
        self.changed = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def setup(self) -> None:
                with receiver.changed:
                    receiver.connections += 1
                    receiver.changed.notify_all()
                super().setup()

            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                receiver._handle(self)

            def do_GET(self) -> None:  # noqa: N802
                self.send_response(405)
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> PushReceiver:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def device(self, name: str) -> Device:
        self.devices[name] = Device(name)
        return self.devices[name]

    def _handle(self, request: BaseHTTPRequestHandler) -> None:
        name = request.path.rsplit("/", 1)[-1]
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length)
        device = self.devices.get(name)
        status, refusal = 201, ""
        try:
            verify_vapid(request.headers.get("Authorization", ""), self.public_key, self.origin)
        except (AssertionError, KeyError, ValueError) as exc:
            status, refusal = 401, f"vapid: {exc}"
        if not refusal and device is None:
            status, refusal = 404, "no such device"
        if not refusal:
            try:
                assert request.headers.get("Content-Encoding") == "aes128gcm"
                plain = http_ece.decrypt(
                    body, private_key=device.key, auth_secret=device.auth, version="aes128gcm"
                )
                message = json.loads(plain)
            except Exception as exc:  # noqa: BLE001 - any failure is a refusal here
                status, refusal = 400, f"decrypt: {type(exc).__name__}: {exc}"
        time.sleep(self.delay.get(name, 0))
        answer = self.answers.get(name)
        if not refusal and answer is not None:
            status = answer
        with self.changed:
            if refusal:
                self.refused.append(f"{name}: {refusal}")
            elif status < 300:
                headers = {k: request.headers.get(k) for k in ("TTL", "Topic", "Urgency")}
                self.received.append(Received(name, headers, message, time.time()))
            self.changed.notify_all()
        request.send_response(status)
        request.send_header("Content-Length", "0")
        request.end_headers()

    def wait_for(self, predicate, timeout: float = 30.0):
        """Wait (on the receiver's own notifications, no polling) until predicate() is true."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"push receiver: timed out; received {self.received}, "
                        f"refused {self.refused}"
                    )
                self.changed.wait(left)

    def to(self, name: str) -> list[Received]:
        return [r for r in self.received if r.device == name]
