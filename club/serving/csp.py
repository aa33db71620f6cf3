"""A strict Content-Security-Policy on every response (Django 5.2 has none built in).

The templates load scripts and styles only from the site's own files (no
inline <script>, no on*= handlers), so the policy allows nothing else: an
injected script in a display name or a chat line could not run even if
escaping failed. `connect-src 'self'` covers the site's own websockets
(ws:/wss: of the same host). The policy is settings.CONTENT_SECURITY_POLICY;
DJANGO_CSP replaces it whole.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response
