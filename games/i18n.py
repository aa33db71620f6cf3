"""Messages in the reader's language, decided when they are shown, not when made.

Services run in a database thread and raise `ServiceError`s whose message a
page request or a websocket shows later, each in its own language; so the
messages here are lazy: `str()` renders them in whatever language is active
at that moment (a request's, or the socket's `translation.override`).
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext


def _format(template: Any, params: dict) -> str:
    return str(template) % params


def _rule(template: str, params: dict) -> str:
    return gettext(template).format(**params)


_lazy_format = lazy(_format, str)
_lazy_rule = lazy(_rule, str)


def lazy_format(template: Any, **params: Any) -> Any:
    """`gettext_lazy("... %(name)s ...")` filled in with `params` once it is shown."""
    return _lazy_format(template, params)


def rule_message(exc: Exception) -> Any:
    """An engine's refusal (games/engine/messages.py) in the reader's language.

    The engine stays free of Django: its English template is the message id
    in the catalogs, and its parameters (card codes, seat numbers) are filled
    in after translation. An exception without a template is shown as is.
    """
    template = getattr(exc, "template", None)
    if template is None:
        return str(exc)
    return _lazy_rule(template, dict(getattr(exc, "params", {})))
