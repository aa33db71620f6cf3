"""A table's pace: live (the variant's clock of seconds) or turn-based (hours or days a move).

The codes are stored on tables and in the admins' lists of allowed paces
(Variant.paces, Series.paces, DuplicateSeries.pace); they never change.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

LIVE = "live"

# Code -> time a member has for each move (None: live, the variant's own clock).
PACES: dict[str, datetime.timedelta | None] = {
    LIVE: None,
    "12h": datetime.timedelta(hours=12),
    "1d": datetime.timedelta(days=1),
    "2d": datetime.timedelta(days=2),
    "3d": datetime.timedelta(days=3),
    "5d": datetime.timedelta(days=5),
    "7d": datetime.timedelta(days=7),
}

LABELS = {
    LIVE: _("Live"),
    "12h": _("12 hours a move"),
    "1d": _("1 day a move"),
    "2d": _("2 days a move"),
    "3d": _("3 days a move"),
    "5d": _("5 days a move"),
    "7d": _("7 days a move"),
}

CHOICES = [(code, LABELS[code]) for code in PACES]


def all_paces() -> list[str]:
    """Every pace (the default of what a variant allows)."""
    return list(PACES)


def is_turn_based(pace: str) -> bool:
    return PACES.get(pace) is not None


def pace_delta(pace: str) -> datetime.timedelta | None:
    return PACES.get(pace)


def label(pace: str) -> str:
    return str(LABELS.get(pace, pace))


def clean_list(value: object) -> list[str]:
    """The known pace codes of `value`, in the club's order; ValueError for anything else."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("a list of pace codes")
    unknown = [v for v in value if v not in PACES]
    if unknown:
        raise ValueError(", ".join(unknown))
    return [code for code in PACES if code in value]


def time_left(delta: datetime.timedelta) -> str:
    """A duration as people read a deadline: "1 day 4 h", "5 h 20 min", "3 min"."""
    minutes = max(0, int(delta.total_seconds() // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        text = ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
        return f"{text} {_('%(hours)d h') % {'hours': hours}}" if hours else text
    if hours:
        return _("%(hours)d h %(minutes)d min") % {"hours": hours, "minutes": mins}
    return _("%(minutes)d min") % {"minutes": mins}


def turn_rule(pace: str) -> str:
    """A turn-based pace as a rule of the table ("1 day a move; when it runs out ...")."""
    limit = settings.TURN_BASED_MISSED_MOVES
    if not limit:
        return _("%(pace)s; when your time runs out, the house plays that move for you") % {
            "pace": label(pace)
        }
    return ngettext(
        "%(pace)s; when your time runs out, the house plays that move for you; "
        "after %(count)d such move in a row, your seat to the end of the game",
        "%(pace)s; when your time runs out, the house plays that move for you; "
        "after %(count)d such moves in a row, your seat to the end of the game",
        limit,
    ) % {"pace": label(pace), "count": limit}
