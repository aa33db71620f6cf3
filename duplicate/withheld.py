"""The one rule of what an open round withholds from everyone (docs/PROTOCOL.md, the rules
page): every page, export and rating of the club asks here.

While a round is open, its boards' seeds, and what their games add up to (the series'
standings, page and CSV; rating changes and so the ratings; the player figures built on
them) are shown to nobody: not to staff, not to a member who finished a board. A member
who finished a board sees that board's traveller (duplicate.rules.open_board), never the
sums, which would tell how the others did on boards they have not played yet. Not "until
the viewer finished the board" for the sums: they mix boards, and a rating is one number
for every viewer. When the round closes (duplicate.services.close_round) everything is
public and its games are rated, in the order they finished.
"""

from __future__ import annotations

from django.db import models

from duplicate.models import Play, Round


def withheld_rounds() -> models.QuerySet:
    """The rounds whose boards are still withheld: every round not closed yet."""
    return Round.objects.filter(closed__isnull=True)


def withheld_plays() -> models.QuerySet:
    """The plays (and so the tables and games) of those rounds' boards."""
    return Play.objects.filter(board__round__in=withheld_rounds())
