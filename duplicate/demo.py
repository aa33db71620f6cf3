"""The demo club's duplicate series (`manage.py demo_data`, through DuplicateConfig).

One series on the demo's friendly nines variant: round 1 played by four demo
members over the past week and closed (its standings, boards and travellers
are public), and an open round that Anna, or anyone, can play now. Its boards
get seeds from their series, round and number, and the members' cards are
chosen as in the rest of the demo club (`club.demo.play`, handed over by the
`demo_data` command with the rest of the site's demo, which this app may not
import: it is above the side apps), so every machine gets the same series. Run again, it adds nothing, except a new open round
once the last one has ended.
"""

from __future__ import annotations

import datetime
import random
import zlib
from types import ModuleType

from django.db import transaction
from django.test.utils import override_settings
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from club.models import Player
from duplicate.models import DuplicateSeries, Round
from duplicate.services import close_round, play_board
from games.models import Variant

SLUG = "nines-duplicate"
NAME = "Nines Duplicate"
DESCRIPTION = (
    "The same deals for everyone, against house bots: each board is scored in matchpoints "
    "against the members who held the same cards."
)
# Stored in English, as outside clients and the admin read them, and shown in
# the reader's language (DuplicateSeries.__str__ and shown_description): these
# markers put them in the catalogs (locale/README.md).
SHOWN_TRANSLATED = [
    pgettext_lazy("series name", "Nines Duplicate"),
    pgettext_lazy(
        "series description",
        "The same deals for everyone, against house bots: each board is scored in matchpoints "
        "against the members who held the same cards.",
    ),
]
BOARDS = 3
# Round 1's players (demo.MEMBERS order) and the boards each played.
ROUND_ONE = {"Anna": 3, "Boris": 3, "Vera": 2, "Dmitri": 3}
OPEN_DAYS = 7


def _seed(*parts: object) -> int:
    return zlib.crc32(":".join(map(str, parts)).encode())


def build(people: list[Player], demo: ModuleType) -> int:
    """Make what is missing of the demo's duplicate series; returns the boards played now.

    `demo` is the site's demo (club.demo): its variants and its `play`.
    """
    variant = Variant.objects.get(name=demo.PASS_RULE_VARIANT["name"])
    series, _ = DuplicateSeries.objects.get_or_create(
        slug=SLUG,
        defaults={
            "name": NAME,
            "variant": variant,
            "seats": 3,
            "bot_level": "heuristic",
            "min_boards": 2,
            "description": DESCRIPTION,
        },
    )
    played = 0
    now = timezone.now()
    if not series.rounds.exists():
        played = _played_round(series, people, now, demo)
    last = series.rounds.order_by("-number").first()
    if last.ends <= now:
        _round(series, last.number + 1, max(now, last.ends), max(now, last.ends) + _days(OPEN_DAYS))
    return played


def _days(days: int) -> datetime.timedelta:
    return datetime.timedelta(days=days)


def _round(series: DuplicateSeries, number: int, starts, ends) -> Round:
    round_ = Round.objects.create(
        series=series, number=number, boards=BOARDS, starts=starts, ends=ends
    )
    for board in round_.board_set.all():
        board.seed = _seed("duplicate", series.slug, number, board.number)
        board.save(update_fields=["seed"])
    return round_


def _played_round(series: DuplicateSeries, people: list[Player], now, demo: ModuleType) -> int:
    """Round 1: open for its members' plays, played out, then moved into the past and closed."""
    by_name = {p.display_name: p for p in people}
    played = 0
    with transaction.atomic(), override_settings(BOT_DELAY_SECONDS=0):
        first = _round(series, 1, now - _days(OPEN_DAYS + 1), now + _days(1))
        for name, boards in ROUND_ONE.items():
            for board in first.board_set.filter(number__lte=boards):
                play, _ = play_board(by_name[name], board.pk)
                demo.play(play.table_id, random.Random(_seed("play", name, board.number)))
                played += 1
        Round.objects.filter(pk=first.pk).update(ends=now - _days(1))
        close_round(first.pk)
    return played
