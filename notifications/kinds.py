"""The kinds of notification, each declared once: key, label, default channels, text.

A kind's `text` is a translatable template filled from the notification's
`data` (plus `table`: the table's name, when the event names a table); it is
rendered in the reader's language when shown or mailed, never stored
rendered. `mail_default` is the mail channel's default for a member who never
changed it (README, "Notifications"); the site channel is on by default for
every kind; `push_default` is the push channel's (push/: sent to the devices a
member turned push on for). `batched` kinds are mailed together, at most one mail per member
per NOTIFY_MAIL_MINUTES (a digest listing every table waiting for them).
No game is named here: events come through games.hooks.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

SITE = "site"
MAIL = "mail"
PUSH = "push"
CHANNELS = (SITE, MAIL, PUSH)
# Not a channel: a member's choice for invitations by mail from members they have
# never played with (a Preference row of the `invited` kind; off when there is none).
# At most 8 characters, as every channel (Preference.channel).
STRANGERS = "stranger"


@dataclass(frozen=True)
class Kind:
    key: str
    label: Promise
    text: Promise
    mail_default: bool
    batched: bool = False
    # Only at turn-based tables (an event whose data says "pace": "live" is dropped):
    # a member at a live table is looking at it.
    turn_based_only: bool = False
    # The text when the notification carries the member's deadline (`until`).
    text_until: Promise | None = None
    # Pushed to the member's devices unless they turned it off (push/channel.py).
    push_default: bool = False


KINDS: dict[str, Kind] = {}


def declare(kind: Kind) -> Kind:
    KINDS[kind.key] = kind
    return kind


TURN = declare(
    Kind(
        "turn",
        pgettext_lazy("notification kind", "Your turn"),
        _("It is your turn at %(table)s."),
        mail_default=True,
        batched=True,
        turn_based_only=True,
        text_until=_("It is your turn at %(table)s: you have until %(until)s."),
        push_default=True,
    )
)
TABLE_STARTED = declare(
    Kind(
        "table_started",
        _("A table started"),
        _("The game at %(table)s has started."),
        mail_default=False,
    )
)
GAME_FINISHED = declare(
    Kind(
        "game_finished",
        _("Game finished"),
        _("The game at %(table)s is over. Your place: %(place)s of %(count)s."),
        mail_default=False,
    )
)
SEAT_TO_HOUSE = declare(
    Kind(
        "seat_to_house",
        _("Seat handed to the house"),
        _("You missed too many moves at %(table)s: the house plays your seat to the end."),
        mail_default=True,
    )
)
INVITED = declare(
    Kind(
        "invited",
        _("Invitations"),
        _("%(by)s invites you to %(table)s."),
        mail_default=True,
        push_default=True,
    )
)
ROUND_OPENED = declare(
    Kind(
        "round_opened",
        _("Round opened"),
        _("Round %(round)s of %(series)s is open."),
        mail_default=True,
    )
)
ROUND_CLOSING = declare(
    Kind(
        "round_closing",
        _("Round closing"),
        _("Round %(round)s of %(series)s closes within 24 hours and you have boards to play."),
        mail_default=True,
    )
)
# Club nights (the events app): named in the data by the emitter, "event" being the night.


def club_night(key: str, label: Promise, text: Promise, push: bool = False) -> Kind:
    """A club night's kind: mailed unless the member turned it off, pushed too when `push`
    (the reminders and the table to go to: worth a member's phone)."""
    return declare(Kind(key, label, text, mail_default=True, push_default=push))


EVENT_SOON = club_night(
    "event_soon",
    _("Club night about to start"),
    _("The club night %(event)s starts in 10 minutes."),
    push=True,
)
EVENT_TOMORROW = club_night(
    "event_tomorrow",
    _("Club night tomorrow"),
    _("The club night %(event)s starts tomorrow."),
    push=True,
)
EVENT_TABLE_READY = club_night(
    "event_table_ready",
    _("Club night table ready"),
    _("Round %(round)s of %(event)s is seated: your table is ready."),
    push=True,
)
EVENT_RESULTS = club_night(
    "event_results",
    _("Club night results"),
    _("%(event)s is over: the night's standings are on its page."),
)
EVENT_CANCELLED = club_night(
    "event_cancelled",
    _("Club night cancelled"),
    _("The club night %(event)s was cancelled."),
)
MESSAGE = declare(
    Kind(
        "message",
        pgettext_lazy("notification kind", "Message from the club"),
        _("Message from the club: %(text)s"),
        mail_default=True,
    )
)

# A member's copy of their data is ready (club.export): "days" it stays downloadable.
DATA_EXPORT = declare(
    Kind(
        "data_export",
        _("Your data"),
        _("The copy of your data is ready: download it from your data page before it expires."),
        mail_default=True,
    )
)


def get(key: str) -> Kind | None:
    return KINDS.get(key)
