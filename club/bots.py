"""What pages and frames show of a house bot: its first name, and its level once.

A house bot's stored name carries its level in English ("Hugo (heuristic bot)",
club/migrations/_house_bots.py), which stays as it is: it is the bot's
identity (unique, in every frame's `name` and every outside client's view).
What members read splits it: the first name ("Hugo") and the level as a
translated label ("эвристический бот"), shown once beside it.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, pgettext_lazy

_SUFFIX = re.compile(r"^(?P<first>.+?) \((?:random|heuristic|search) bot\)$")

# The level as a label beside a bot's first name.
LEVEL_LABELS = {
    "random": pgettext_lazy("bot level label", "random bot"),
    "heuristic": pgettext_lazy("bot level label", "heuristic bot"),
    "search": pgettext_lazy("bot level label", "search bot"),
}


def bot_first_name(display_name: str) -> str:
    """ "Hugo (heuristic bot)" -> "Hugo"; a name without the suffix stays whole."""
    match = _SUFFIX.match(display_name)
    return match.group("first") if match else display_name


def bot_level_label(level: str) -> str:
    """The level's translated label ("heuristic bot"), or "" for a member."""
    label = LEVEL_LABELS.get(level)
    return str(label) if label is not None else ""


def shown_name(display_name: str, level: str = "") -> str:
    """A player's name as plain text reads it: a member's as it is, a bot's as
    its first name with the translated level once: "Hugo (эвристический бот)"."""
    if not level:
        return display_name
    return gettext("%(name)s (%(level)s)") % {
        "name": bot_first_name(display_name),
        "level": bot_level_label(level),
    }


def bot_fields(display_name: str, level: str) -> dict[str, str]:
    """What a frame adds for a bot's seat: `bot_name` ("Hugo") and `level`
    ("heuristic", which the page translates); nothing for a member's."""
    if not level:
        return {}
    return {"bot_name": bot_first_name(display_name), "level": level}
