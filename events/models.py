"""Club nights: an event members sign up for, seated by the house at tables, round by round.

An Event names a variant and a pace, how many rounds and games per round, the
table sizes, the sign-up window and the start, how the night is scored (one of
the registry's scoring kinds) and its tie-breaks. Entries are the members who
signed up; each Round seats the present ones at tables (RoundTable: a games
Table whose games count for the night) with house bots in the seats left over.
No game is named here: everything about a game is asked of its registry entry.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from events import recurrence
from games import paces, registry


class Grouping(models.TextChoices):
    MIXED = "mixed", _("Mixed (new tablemates each round)")
    STANDINGS = "standings", _("By standings (later rounds group members by their place)")


class EventQuerySet(models.QuerySet):
    def upcoming(self) -> EventQuerySet:
        return self.filter(status=Event.Status.SCHEDULED).order_by("starts")

    def running(self) -> EventQuerySet:
        return self.filter(status=Event.Status.RUNNING).order_by("starts")

    def past(self) -> EventQuerySet:
        return self.filter(status=Event.Status.FINISHED).order_by("-starts")

    def shown(self) -> EventQuerySet:
        """What members see listed: running nights first, then the upcoming ones."""
        return self.filter(status__in=[Event.Status.RUNNING, Event.Status.SCHEDULED]).order_by(
            "starts"
        )


class Event(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(unique=True, max_length=100)
    variant = models.ForeignKey("games.Variant", on_delete=models.PROTECT, related_name="events")
    pace = models.CharField(
        _("pace"),
        max_length=4,
        choices=paces.CHOICES,
        default=paces.LIVE,
        help_text=_(
            "Live, or turn-based (hours or days a move) among the paces the variant allows."
        ),
    )
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)
    games_per_round = models.PositiveSmallIntegerField(_("games per round"), default=1)
    min_seats = models.PositiveSmallIntegerField(
        _("fewest seats at a table"),
        default=3,
        help_text=_("Within what the variant allows; house bots fill the seats left over."),
    )
    max_seats = models.PositiveSmallIntegerField(_("most seats at a table"), default=5)
    capacity = models.PositiveSmallIntegerField(
        _("most members"), null=True, blank=True, help_text=_("Empty: no limit.")
    )
    signup_opens = models.DateTimeField(_("sign-up opens"))
    signup_closes = models.DateTimeField(
        _("sign-up closes"),
        help_text=_(
            "May be after the start: members may then join late, until half the rounds "
            "have been played."
        ),
    )
    starts = models.DateTimeField(_("starts"))
    round_hours = models.PositiveSmallIntegerField(
        _("hours a round (turn-based)"),
        default=72,
        help_text=_(
            "Turn-based nights only: each round ends this long after it is seated; the "
            "house then plays out what is left."
        ),
    )
    scoring = models.CharField(
        _("scoring"),
        max_length=registry.SCORING_KEY_LENGTH,
        choices=registry.scoring_choices,
        blank=True,
        help_text=_("Empty: the variant's own (its first scoring kind)."),
    )
    tie_breaks = models.JSONField(
        _("tie-breaks"),
        default=list,
        blank=True,
        help_text=_(
            "Keys of tie-breaks in order, after the scoring's own figure; empty: the "
            "game's declared ones."
        ),
    )
    series = models.ForeignKey(
        "club.Series",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="events",
        verbose_name=_("house series"),
        help_text=_("The night's games also count in this house series (same variant)."),
    )
    away_allowed = models.BooleanField(
        _("away days allowed"),
        default=True,
        help_text=_("Turn-based nights: members' declared away days stop their clocks."),
    )
    grouping = models.CharField(
        _("grouping"), max_length=10, choices=Grouping.choices, default=Grouping.MIXED
    )
    bot_level = models.CharField(
        _("house bot level"),
        max_length=10,
        choices=[("random", _("Random")), ("heuristic", _("Heuristic")), ("search", _("Search"))],
        default="heuristic",
    )
    recurrence = models.CharField(
        _("recurrence"),
        max_length=200,
        blank=True,
        help_text=_(
            "An RFC 5545 RRULE in the club's time zone, e.g. FREQ=WEEKLY;BYDAY=FR "
            "(every Friday at this start time). Empty: one night only."
        ),
    )
    # The first night of a recurring chain (null for that one and for one-off nights).
    recurs_from = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="recurrences",
        editable=False,
    )
    description = models.TextField(_("description"), blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED
    )
    # Bumped by every change members see (a table finished, a round seated): the page's
    # socket frame carries it, and the page fetches the standings again.
    version = models.PositiveIntegerField(default=0, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-starts"]
        verbose_name = _("club night")
        verbose_name_plural = _("club nights")
        indexes = [models.Index(fields=["status", "starts"])]

    def __str__(self) -> str:
        # The demo's nights have a name in every language; an admin's is shown as written.
        return pgettext("event name", self.name)

    def get_absolute_url(self) -> str:
        return reverse("event_detail", args=[self.slug])

    @property
    def engine(self) -> registry.Engine:
        return registry.engine(self.variant.game)

    @property
    def turn_based(self) -> bool:
        return paces.is_turn_based(self.pace)

    @property
    def scoring_key(self) -> str:
        return self.scoring or self.engine.scoring_default(self.variant.options)

    @property
    def scoring_kind(self) -> registry.ScoringKind:
        return registry.scoring_kind(self.scoring_key)

    @property
    def round_length(self) -> datetime.timedelta:
        return datetime.timedelta(hours=self.round_hours)

    def tie_break_list(self) -> list[registry.TieBreak]:
        """The night's tie-breaks in turn: the admin's choice, else the game's declared ones."""
        available = tie_break_choices(self.engine)
        if self.tie_breaks:
            return [available[key] for key in self.tie_breaks if key in available]
        return self.engine.tie_break_list()

    def clean(self) -> None:
        errors: dict[str, object] = {}
        if self.variant_id:
            variant = self.variant
            engine = registry.engine(variant.game)
            low, high = variant.min_players, variant.max_players
            for field in ("min_seats", "max_seats"):
                value = getattr(self, field)
                if value is not None and not low <= value <= high:
                    errors[field] = _("%(variant)s tables have %(low)s to %(high)s seats.") % {
                        "variant": variant,
                        "low": low,
                        "high": high,
                    }
            if (
                not errors
                and self.min_seats is not None
                and self.max_seats is not None
                and self.min_seats > self.max_seats
            ):
                errors["max_seats"] = _(
                    "The most seats at a table cannot be fewer than the fewest."
                )
            if self.pace and self.pace not in paces.clean_list(variant.paces or [paces.LIVE]):
                errors["pace"] = _("%(variant)s is not played at that pace.") % {"variant": variant}
            scoring = self.scoring or engine.scoring_default(variant.options)
            if scoring not in engine.scoring_kinds(variant.options):
                kind = registry.all_scoring_kinds().get(scoring)
                refusal = (kind and kind.refusal) or _("%(variant)s cannot be scored that way.")
                errors["scoring"] = refusal % {"variant": variant}
            if not isinstance(self.tie_breaks, list) or not all(
                isinstance(k, str) for k in self.tie_breaks
            ):
                errors["tie_breaks"] = _("Give the tie-breaks as a list of their keys.")
            else:
                unknown = [k for k in self.tie_breaks if k not in tie_break_choices(engine)]
                if unknown:
                    errors["tie_breaks"] = _(
                        "Not a tie-break of this game: %(keys)s. Choose from: %(choices)s."
                    ) % {
                        "keys": ", ".join(unknown),
                        "choices": ", ".join(tie_break_choices(engine)),
                    }
            if self.series_id and self.series.variant_id != variant.pk:
                errors["series"] = _("%(series)s is played with %(variant)s.") % {
                    "series": self.series,
                    "variant": self.series.variant,
                }
        if self.rounds is not None and self.rounds < 1:
            errors["rounds"] = _("A night needs at least one round.")
        if self.games_per_round is not None and self.games_per_round < 1:
            errors["games_per_round"] = _("A round needs at least one game.")
        elif (
            self.games_per_round is not None
            and self.min_seats
            and "min_seats" not in errors
            and self.games_per_round > self.min_seats
        ):
            # Seat 0 passes round a table once a round at most: more games would have a
            # member deal twice at a full table, and the deals would no longer even out.
            errors["games_per_round"] = _(
                "A round may have at most as many games as the fewest seats at a table "
                "(%(seats)s), so that nobody deals twice in one round."
            ) % {"seats": self.min_seats}
        if self.round_hours is not None and self.round_hours < 1:
            errors["round_hours"] = _("A round lasts at least one hour.")
        if self.signup_opens and self.signup_closes and self.signup_closes <= self.signup_opens:
            errors["signup_closes"] = _("Sign-up must close after it opens.")
        if self.signup_opens and self.starts and self.signup_opens > self.starts:
            errors["signup_opens"] = _("Sign-up must open before the night starts.")
        if self.recurrence and self.starts:
            try:
                recurrence.parse(self.recurrence, self.starts, settings.TIME_ZONE)
            except recurrence.RecurrenceError as exc:
                errors["recurrence"] = _(
                    "This is not a recurrence the club can use (%(reason)s). Write an RFC "
                    "5545 RRULE such as FREQ=WEEKLY;BYDAY=FR."
                ) % {"reason": exc}
        if errors:
            raise ValidationError(errors)

    # -- what members see -------------------------------------------------------

    @property
    def over(self) -> bool:
        """Finished or cancelled: nothing to sign up for or withdraw from."""
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    def signup_open(self, now: datetime.datetime | None = None) -> bool:
        now = now or timezone.now()
        return (
            self.status in (self.Status.SCHEDULED, self.Status.RUNNING)
            and self.signup_opens <= now < self.signup_closes
        )


def tie_break_choices(engine: registry.Engine) -> dict[str, registry.TieBreak]:
    """Every tie-break a night of this game may name: the shipped ones (scored ones only for a
    scored game) and the game's own."""
    found = {
        key: tie_break
        for key, tie_break in registry.TIE_BREAKS.items()
        if engine.scored or not tie_break.scored
    }
    for tie_break in engine.tie_break_list():
        found.setdefault(tie_break.key, tie_break)
    return found


class Entry(models.Model):
    """A member's place in a night: signed up (on time or late), withdrawn, or absent."""

    class Status(models.TextChoices):
        SIGNED_UP = "signed_up", _("Signed up")
        LATE = "late", _("Late")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        ABSENT = "absent", _("Absent")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="entries")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SIGNED_UP)
    created = models.DateTimeField(auto_now_add=True)
    # When the member's page or socket was last open (live nights seat the present).
    seen = models.DateTimeField(null=True, blank=True)
    online = models.BooleanField(default=False)

    class Meta:
        ordering = ["event", "created"]
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="event_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"

    @property
    def taking_part(self) -> bool:
        return self.status != self.Status.WITHDRAWN


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    seated = models.DateTimeField(auto_now_add=True)
    # The seating (events.seating: member ids per table, None for a bot's seat). The house
    # deals its tables one by one, each in its own short transaction (events.running
    # `deal_round`), and sets `dealt` after the last: until then the round is still being
    # dealt (and a process that died midway has the rest dealt by the next duty).
    plan = models.JSONField(default=list, blank=True)
    dealt = models.DateTimeField(null=True, blank=True)
    # Turn-based nights: the house plays out what is left at this time.
    deadline = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="event_round_once"),
        ]

    def __str__(self) -> str:
        return _("%(event)s · round %(number)s") % {"event": self.event, "number": self.number}


class RoundTable(models.Model):
    """One table of a round: the games Table its games are played at, and who sat where."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="event_table"
    )
    # Player ids in seat order, house bots included (seat 0 deals), as
    # seated for the round's first game; later games turn the seats round
    # (events.seating.game_seats).
    players = models.JSONField(default=list)
    bots = models.JSONField(default=list)  # the seats a house bot holds
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]

    def __str__(self) -> str:
        return f"{self.round} · {self.number}"

    @property
    def members(self) -> list[int]:
        bots = set(self.bots)
        return [p for seat, p in enumerate(self.players) if seat not in bots]
