"""Rule messages that the site can translate, without the engine knowing Django.

An engine raises ``IllegalMove("{card} is not in your hand.", card="QD")``:
the English template is the message id, the keywords its parameters.
``str(exc)`` is the English sentence, as before; the site looks the template
up in its catalogs and fills in the same parameters (games/i18n.py). The
templates are collected by ``make messages`` (xgettext keywords ``N_`` and
``IllegalMove``), so write them as literals: ``N_("...")`` where a template
is kept in a constant or a table.
"""

from __future__ import annotations

from typing import Any


def N_(template: str) -> str:  # noqa: N802 - gettext's conventional no-op marker
    """Mark a rule message template for the catalogs; returns it unchanged."""
    return template


class RuleMessage(ValueError):
    """A refusal in plain words: ``template`` (message id) + ``params``."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params) if params else template)
