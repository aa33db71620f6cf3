"""The websocket origin check: the site's own origins, scheme, host and port exactly.

Channels' AllowedHostsOriginValidator compares only the host name, so
`http://127.0.0.1:9999` or `ftp://localhost:21` passed for a site on
127.0.0.1:8000. A browser always sends its page's origin; a socket is
accepted only when that origin is

- the origin the request itself was made to: `http(s)://` + its Host header
  (https when the socket is wss, or when DJANGO_BEHIND_PROXY trusts the
  proxy's X-Forwarded-Proto), with that host in DJANGO_ALLOWED_HOSTS, as
  Django's CSRF check compares a form's origin; or
- one of DJANGO_CSRF_TRUSTED_ORIGINS, exactly (a proxy on another origin).

A request without a Host header (only in-process test clients; HTTP/1.1
requires one) is matched against `http(s)://<allowed host>` on the scheme's
default port.
"""

from __future__ import annotations

from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def _scheme(scope: dict) -> str:
    if scope.get("scheme") == "wss":
        return "https"
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy and _header(scope, b"x-forwarded-proto") == proxy[1]:
        return "https"
    return "http"


def origin_allowed(scope: dict) -> bool:
    origin = _header(scope, b"origin")
    if not origin:
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    host = _header(scope, b"host")
    if host is None:
        return any(
            origin == f"{scheme}://{allowed}"
            for allowed in settings.ALLOWED_HOSTS
            if not allowed.startswith(".") and allowed != "*"
            for scheme in ("http", "https")
        )
    domain, _ = split_domain_port(host)
    return (
        bool(domain)
        and validate_host(domain, settings.ALLOWED_HOSTS)
        and (origin == f"{_scheme(scope)}://{host.lower()}")
    )


class ExactOriginValidator:
    """ASGI middleware: refuse (HTTP 403 at the handshake) a socket from any other origin."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket" or origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
