"""`manage.py check --deploy`: PUSH_TEST_ORIGIN is for the tests' loopback receiver only.

With it set the worker posts pushes to that loopback origin over plain http, so a
deployment that carries it over from a test environment is told so.
"""

from __future__ import annotations

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.security, deploy=True)
def no_test_origin(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    if not settings.PUSH_TEST_ORIGIN:
        return []
    return [
        checks.Warning(
            f"PUSH_TEST_ORIGIN is set ({settings.PUSH_TEST_ORIGIN}): the push worker may "
            "post to that loopback origin over http.",
            hint="It is for the tests' push receiver only: unset it in production.",
            id="push.W001",
        )
    ]
