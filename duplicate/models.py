"""Duplicate series: rounds of boards, each board one deal that every entrant plays.

A board is a seed the server draws and keeps secret; every entrant's game of
that board is dealt from it at a table of the same size, with house bots of
the series' level in the other seats, so each seat holds the same cards in
every entrant's game. Entrants are compared only with those who held the same
seat of the same board (matchpoints, club.standings).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from games import paces, registry


def draw_seed() -> int:
    """A board's seed: secret, like a table's deal (inside `seeded_deals`, that one's)."""
    from games import services  # at call time: the model module loads before services may

    return services.draw_seed()


class DuplicateSeries(models.Model):
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(unique=True)
    variant = models.ForeignKey(
        "games.Variant", on_delete=models.PROTECT, related_name="duplicate_series"
    )
    seats = models.PositiveSmallIntegerField(
        _("seats"),
        default=4,
        help_text=_("Players at each board's table: one member, house bots in the other seats."),
    )
    bot_level = models.CharField(
        _("house bot level"),
        max_length=10,
        choices=[("random", _("Random")), ("heuristic", _("Heuristic")), ("search", _("Search"))],
        default="heuristic",
        help_text=_("Every entrant meets house bots of this strength."),
    )
    min_boards = models.PositiveIntegerField(
        _("minimum boards"), default=1, help_text=_("Boards a member must play to be ranked.")
    )
    shared_tables = models.BooleanField(
        _("members may play together"),
        default=False,
        help_text=_(
            "Members may also play a board together at one table (house bots in the empty "
            "seats); each member is then scored at the seat they held."
        ),
    )
    pace = models.CharField(
        _("pace"),
        max_length=4,
        choices=paces.CHOICES,
        default=paces.LIVE,
        # Blank is read as live: a form that does not send it keeps the old behaviour.
        blank=True,
        help_text=_(
            "The pace of each board's table: live, or turn-based over the round's window "
            "(hours or days a move)."
        ),
    )
    description = models.TextField(_("description"), blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("duplicate series")
        verbose_name_plural = _("duplicate series")

    def __str__(self) -> str:
        # The demo's and the club's own series have a name and a description in
        # every language (club/demo.py marks them); a name an admin made up is
        # shown as written.
        return pgettext("series name", self.name)

    def save(self, *args, **kwargs) -> None:
        self.pace = self.pace or paces.LIVE
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("duplicate_series", args=[self.slug])

    @property
    def shown_description(self) -> str:
        return pgettext("series description", self.description) if self.description else ""

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.variant_id:
            variant = self.variant
            engine = registry.engine(variant.game)
            if not engine.duplicate or engine.duplicate_key is None:
                errors["variant"] = _("%(game)s does not support duplicate play.") % {
                    "game": engine.label
                }
            elif not variant.min_players <= self.seats <= variant.max_players:
                errors["seats"] = _("%(variant)s tables have %(low)s to %(high)s seats.") % {
                    "variant": variant,
                    "low": variant.min_players,
                    "high": variant.max_players,
                }
        if self.min_boards < 1:
            errors["min_boards"] = _("A member must play at least one board to be ranked.")
        if errors:
            raise ValidationError(errors)


class RoundQuerySet(models.QuerySet):
    def closed(self) -> RoundQuerySet:
        return self.filter(closed__isnull=False)

    def due_to_close(self) -> RoundQuerySet:
        return self.filter(closed__isnull=True, ends__lte=timezone.now())


class Round(models.Model):
    series = models.ForeignKey(DuplicateSeries, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    starts = models.DateTimeField(_("starts"))
    ends = models.DateTimeField(_("ends"))
    boards = models.PositiveSmallIntegerField(_("boards"), default=4)
    # Set once the round is over and every started board has been played out:
    # from then on everything about it is public.
    closed = models.DateTimeField(_("closed"), null=True, blank=True, editable=False)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["series", "number"]
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="duplicate_round_number"),
        ]
        verbose_name = _("round")

    def __str__(self) -> str:
        return f"{self.series} · {_('round')} {self.number}"

    def save(self, *args, **kwargs) -> None:
        super().save(*args, **kwargs)
        self.sync_boards()

    def get_absolute_url(self) -> str:
        return reverse("duplicate_round", args=[self.series.slug, self.number])

    @property
    def is_closed(self) -> bool:
        return self.closed is not None

    def is_open(self, now=None) -> bool:
        """Taking plays: inside its window and not closed early."""
        now = now or timezone.now()
        return self.closed is None and self.starts <= now < self.ends

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.boards is not None and self.boards < 1:
            errors["boards"] = _("A round needs at least one board.")
        if self.starts and self.ends and self.ends <= self.starts:
            errors["ends"] = _("A round must end after it starts.")
        elif self.starts and self.ends and self.series_id:
            clash = (
                Round.objects.filter(
                    series_id=self.series_id, starts__lt=self.ends, ends__gt=self.starts
                )
                .exclude(pk=self.pk)
                .first()
            )
            if clash is not None:
                errors["starts"] = _("This window overlaps round %(n)s (%(s)s to %(e)s).") % {
                    "n": clash.number,
                    "s": clash.starts,
                    "e": clash.ends,
                }
        if self.pk and self.boards is not None:
            played = Play.objects.filter(board__round=self, board__number__gt=self.boards)
            if played.exists():
                errors["boards"] = _("Boards above %(n)s have been played: they stay.") % {
                    "n": self.boards
                }
        if errors:
            raise ValidationError(errors)

    def sync_boards(self) -> None:
        """One Board per number 1..boards, each with its own secret seed."""
        have = set(self.board_set.values_list("number", flat=True))
        Board.objects.bulk_create(
            Board(round=self, number=n) for n in range(1, self.boards + 1) if n not in have
        )
        self.board_set.filter(number__gt=self.boards, plays__isnull=True).delete()


class Board(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField()
    # Secret while the round is open: never shown in admin or on a page before it closes.
    seed = models.BigIntegerField(default=draw_seed, editable=False)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="duplicate_board_number"),
        ]

    def __str__(self) -> str:
        # One string, so that each language words and orders it (the title of a traveller).
        return _("%(round)s · board %(number)s") % {"round": self.round, "number": self.number}

    def get_absolute_url(self) -> str:
        return reverse(
            "duplicate_board", args=[self.round.series.slug, self.round.number, self.number]
        )

    def seat_for(self, seats: int) -> int:
        """The seat every entrant holds on this board: it moves round the table board by board."""
        return (self.number - 1) % seats


class Play(models.Model):
    """One entrant's game of one board (each board once per member)."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="plays")
    player = models.ForeignKey(
        "club.Player", on_delete=models.CASCADE, related_name="duplicate_plays"
    )
    seat = models.PositiveSmallIntegerField()
    # One table and game per play, or several plays of one table when members of a
    # series with shared tables played the board together (each at their own seat).
    table = models.ForeignKey(
        "games.Table", on_delete=models.CASCADE, related_name="duplicate_plays"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="duplicate_plays")
    started = models.DateTimeField(auto_now_add=True)
    # The game's comparison key of this entrant's outcome (its registry entry's
    # `duplicate_key`, as a JSON list), written in the transaction that finishes
    # the game; None while the board is being played. The standings read only
    # these, not the results: one small query however many boards a series has.
    outcome_key = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["board", "started"]
        constraints = [
            models.UniqueConstraint(fields=["board", "player"], name="duplicate_play_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} on {self.board}"


class Gathering(models.Model):
    """Members waiting to play one board together (a series with shared tables).

    They sit in the order they joined, from the board's seat round the table;
    when the table is full, or a member starts it, house bots take the empty
    seats and the board is dealt. The gathering is then gone: its plays remain.
    """

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="gatherings")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["board", "created"]

    def __str__(self) -> str:
        return f"{self.board} · {_('waiting table')} {self.pk}"

    def members(self) -> list:
        """The waiting players, in the order they joined."""
        return [m.player for m in self.seats.select_related("player").order_by("pk")]


class GatheringMember(models.Model):
    gathering = models.ForeignKey(Gathering, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(
        "club.Player", on_delete=models.CASCADE, related_name="duplicate_gatherings"
    )
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["gathering", "pk"]
        constraints = [
            # Waiting at one table of a board at a time.
            models.UniqueConstraint(fields=["board", "player"], name="duplicate_gather_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.gathering}"
