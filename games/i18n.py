"""Messages in the reader's language, decided when they are shown, not when made.

Services run in a database thread and raise `ServiceError`s whose message a
page request or a websocket shows later, each in its own language; so the
messages here are lazy: `str()` renders them in whatever language is active
at that moment (a request's, or the socket's `translation.override`).
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext


def _format(template: Any, params: dict) -> str:
    return str(template) % params


# A card code among a refusal's parameters ("9D", "TS") is shown as the page
# shows the card ("9♦", "10♠"), not as the protocol writes it.
_CARD = re.compile(r"^([2-9TJQKA])([CDHS])$")
_SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def _shown(value: Any) -> Any:
    match = _CARD.match(value) if isinstance(value, str) else None
    if match is None:
        return value
    rank, suit = match.groups()
    return f"{'10' if rank == 'T' else rank}{_SUIT_SYMBOLS[suit]}"


def _rule(template: str, params: dict) -> str:
    return gettext(template).format(**{key: _shown(value) for key, value in params.items()})


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
