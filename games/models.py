"""Variants, tables, seats, games and their move logs.

The database is the source of truth for every live table: a game's engine
state is stored as JSON with a version, and `games.services` is the only code
that changes these rows.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from games import paces, registry, visibility

if TYPE_CHECKING:
    from club.models import Player


# Below this nobody can read the table and play before the house plays for them.
MIN_TURN_SECONDS = 5


class VariantQuerySet(models.QuerySet):
    def active(self) -> VariantQuerySet:
        return self.filter(active=True)


class Variant(models.Model):
    name = models.CharField(max_length=60, unique=True)
    game = models.CharField(
        max_length=20, choices=registry.game_choices, default=registry.first_game
    )
    options = models.JSONField(
        default=dict,
        blank=True,
        help_text="The game's rules for this variant, by the names the game declares "
        "(games.registry: Engine.option_schema); missing ones take their defaults.",
    )
    min_players = models.PositiveSmallIntegerField(
        default=2, help_text=_("A table can start with this many seated.")
    )
    max_players = models.PositiveSmallIntegerField(
        default=6, help_text=_("The most seats a table of this variant may have.")
    )
    turn_seconds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_(
            "Seconds a player has for each move; empty means no clock. When the time "
            "runs out, the house bot plays a card for that player (marked in the log)."
        ),
    )
    active = models.BooleanField(
        default=True, help_text=_("Inactive variants cannot get new tables.")
    )
    paces = models.JSONField(
        default=paces.all_paces,
        blank=True,
        help_text=_(
            "The paces a member may choose when opening a table: live (the turn clock "
            "above) or turn-based (hours or days a move)."
        ),
    )
    description = models.TextField(blank=True)

    objects = VariantQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        # The club's own variants have a name in every language; a name an
        # admin made up is shown as written.
        return pgettext("variant name", self.name)

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Every option present, defaults filled in: a Game's snapshot of them
        # (Game.options, replay.json, record.json) names every rule in force.
        if self.game in dict(registry.game_choices()):
            self.options = {**registry.engine(self.game).default_options(), **(self.options or {})}
        super().save(*args, **kwargs)

    @property
    def engine(self) -> registry.Engine:
        return registry.engine(self.game)

    @property
    def single_loser(self) -> bool:
        """Its games have one loser and no other order (a loss per game can be counted)."""
        kinds = registry.all_scoring_kinds()
        return any(
            kinds[key].single_loser
            for key in self.engine.scoring_kinds(self.options)
            if key in kinds
        )

    def rules_in_force(self, pace: str = "live") -> list[str]:
        """This variant's rules, one short line each, for the lobby and the table page."""
        return [*self.game_rules(), self.clock_rule(pace)]

    def game_rules(self) -> list[str]:
        """The game's own rules in force (its options), one short line each."""
        return list(registry.engine(self.game).rules_in_force(self.options))

    def clock_rule(self, pace: str = "live") -> str:
        """The clock at a table of this variant played at `pace`: a turn-based table
        states its pace, never the live clock of seconds it does not run."""
        if paces.is_turn_based(pace):
            return paces.turn_rule(pace)
        if self.turn_seconds:
            return _("%(seconds)s s a move, then the house plays for you") % {
                "seconds": self.turn_seconds
            }
        return str(_("No turn clock"))

    def pace_rules(self) -> list[tuple[str, str]]:
        """(pace, clock line) for every pace: the lobby shows the one chosen."""
        return [(code, self.clock_rule(code)) for code in paces.PACES]

    def clean(self) -> None:
        try:
            engine = registry.engine(self.game)
        except ValueError:
            raise ValidationError({"game": _("Choose one of the club's games.")}) from None
        errors: dict[str, Any] = {}
        low, high = engine.PLAYERS
        if not low <= self.min_players <= high:
            errors["min_players"] = _("%(game)s needs %(low)s to %(high)s players.") % {
                "game": self.get_game_display(),
                "low": low,
                "high": high,
            }
        if not low <= self.max_players <= high:
            errors["max_players"] = _("%(game)s needs %(low)s to %(high)s players.") % {
                "game": self.get_game_display(),
                "low": low,
                "high": high,
            }
        if not errors and self.min_players > self.max_players:
            errors["max_players"] = "The most players cannot be fewer than the fewest."
        if self.turn_seconds is not None and self.turn_seconds < MIN_TURN_SECONDS:
            errors["turn_seconds"] = _(
                "A turn clock needs at least %(seconds)s seconds, so that a player "
                "can see the cards and move; leave it empty for no clock."
            ) % {"seconds": MIN_TURN_SECONDS}
        try:
            self.paces = paces.clean_list(self.paces)
        except ValueError:
            errors["paces"] = _("Choose paces from the list.")
        else:
            if not self.paces:
                errors["paces"] = _("Allow at least one pace.")
        try:
            self.options = engine.clean_options(self.options)
        except registry.OptionsError as exc:
            # Not keyed by option: a form shows them beside its own fields (games.admin).
            errors[NON_FIELD_ERRORS] = [m for messages in exc.errors.values() for m in messages]
        if errors:
            raise ValidationError(errors)


def canonical_invite(invite: str | None) -> uuid.UUID | None:
    """The invite token in its one accepted spelling (the invite link's), else None.

    uuid.UUID() also reads braces, upper case, "urn:uuid:" and no dashes; the
    pages, the join form and the websocket must agree, so only the exact form
    of `Table.invite_url` counts anywhere.
    """
    if not isinstance(invite, str) or len(invite) != 36:
        return None
    try:
        token = uuid.UUID(invite)
    except ValueError:
        return None
    return token if str(token) == invite else None


def _may_see_q(player: Player | None, invite: str | None, table: str = "") -> models.Q:
    """Who may see a table (`table` is the lookup prefix to it), the one rule every page uses.

    Public tables are open to all. A private one is seen by its seated
    players, its creator and whoever holds the invite token: the same rule as
    games.services.common.may_see_private for the websockets and every action.
    """
    rule = models.Q(**{f"{table}private": False})
    token = canonical_invite(invite)
    if token is not None:
        # A sealed table (a duplicate board) is not opened by its invite link.
        rule |= models.Q(**{f"{table}invite_token": token}) & visibility.not_sealed_q(table)
    if player is not None:
        seated = Seat.objects.filter(player=player, is_bot=False).values("table_id")
        rule |= models.Q(**{f"{table}created_by": player}) | models.Q(**{f"{table}pk__in": seated})
    return rule


class TableQuerySet(models.QuerySet):
    def visible_to(self, player: Player | None, invite: str | None = None) -> TableQuerySet:
        return self.filter(_may_see_q(player, invite))

    def open(self) -> TableQuerySet:
        return self.filter(status=Table.Status.OPEN)

    def playing(self) -> TableQuerySet:
        return self.filter(status=Table.Status.PLAYING)

    def listed(self) -> TableQuerySet:
        return self.filter(private=False)

    def with_seats(self) -> TableQuerySet:
        return self.select_related("variant", "created_by").prefetch_related("seats__player")

    def delete(self) -> tuple[int, dict[str, int]]:
        """Delete with the tables' rows locked first, like every service that changes a table.

        Django deletes a table's seats, presence rows and games before the
        table row. A socket connecting at that moment locks the table row and
        then writes its presence row; without this lock the two wait on each
        other and PostgreSQL kills one (a deadlock).
        """
        with transaction.atomic(using=self.db):
            list(self.order_by("pk").select_for_update().values_list("pk", flat=True))
            return super().delete()


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Closed")

    variant = models.ForeignKey(Variant, on_delete=models.PROTECT, related_name="tables")
    created_by = models.ForeignKey(
        "club.Player", on_delete=models.CASCADE, related_name="tables_created"
    )
    series = models.ForeignKey(
        "club.Series",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tables",
        help_text=_("Finished games at this table count in this house series."),
    )
    seat_count = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    private = models.BooleanField(
        default=False, help_text=_("Not listed in the lobby; joined through the invite link.")
    )
    invite_token = models.UUIDField(default=uuid.uuid4, editable=False)
    abort_reason = models.CharField(max_length=200, blank=True)
    # Live (the variant's clock of seconds) or turn-based (games.paces: hours or days a move).
    pace = models.CharField(max_length=4, choices=paces.CHOICES, default=paces.LIVE)
    # When the house plays the current turn if nobody has (a bot's turn, the
    # turn timer, an absent player); the bot runner polls on this.
    turn_started = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # Bumped by every change at the table (seats, start, moves): what clients sync on.
    version = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = TableQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "private"])]

    def __str__(self) -> str:
        return _("Table %(number)s · %(variant)s") % {"number": self.pk, "variant": self.variant}

    def get_absolute_url(self) -> str:
        return reverse("table", args=[self.pk])

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        # The row lock first, for the reason given in TableQuerySet.delete.
        with transaction.atomic(using=kwargs.get("using")):
            list(Table.objects.filter(pk=self.pk).select_for_update().values_list("pk"))
            return super().delete(*args, **kwargs)

    def invite_url(self) -> str:
        return f"{self.get_absolute_url()}?invite={self.invite_token}"

    def visible_to(self, player: Player | None, invite: str | None = None) -> bool:
        if not self.private:
            return True
        return Table.objects.filter(pk=self.pk).visible_to(player, invite).exists()


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="seats")
    is_bot = models.BooleanField(default=False)
    # Set when the member's last connection (see Presence) went away.
    away_since = models.DateTimeField(null=True, blank=True)
    # The other members handed this idle seat to the house (a table without a
    # clock); the member takes it back by acting. See services.tables.
    handed_over = models.BooleanField(default=False)
    # The member left the running game: the house plays the seat to the end.
    resigned_at = models.DateTimeField(null=True, blank=True)
    # After a game: this member accepted the rematch offer (bots accept at once).
    rematch = models.BooleanField(default=False)
    # Turn-based tables: moves in a row the house played because the member's time ran
    # out (games.services.pace); at TURN_BASED_MISSED_MOVES the house keeps the seat.
    missed = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            # A house bot may fill several seats of one table; a member only one.
            models.UniqueConstraint(
                fields=["table", "player"],
                condition=models.Q(is_bot=False),
                name="seat_player_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table} seat {self.position}"


class Absence(models.Model):
    """Away days a member declared: their turn-based tables' clocks stop meanwhile."""

    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="absences")
    # The first day away at 00:00 and the day after the last at 00:00, in the
    # member's time zone when declared (games.away).
    starts = models.DateTimeField()
    ends = models.DateTimeField()
    created = models.DateTimeField(auto_now_add=True)
    # The house runner told the member's tables they are back (games.away.tell_returns).
    told_back = models.BooleanField(default=False)

    class Meta:
        ordering = ["starts"]
        indexes = [
            models.Index(fields=["player", "ends"]),
            models.Index(fields=["told_back", "ends"]),
        ]

    def __str__(self) -> str:
        return f"{self.player} away {self.starts:%Y-%m-%d} to {self.ends:%Y-%m-%d}"


class Presence(models.Model):
    """One open websocket of a seated member, kept fresh by its server process.

    A server that dies leaves its rows behind; they stop being refreshed, and
    the house runner of any live process expires them (games.services).
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="presences")
    channel = models.CharField(max_length=100, unique=True)
    server = models.CharField(max_length=60, db_index=True)
    seen = models.DateTimeField()

    class Meta:
        ordering = ["seen"]

    def __str__(self) -> str:
        return f"{self.seat} via {self.server}"


class GameQuerySet(models.QuerySet):
    def visible_to(self, player: Player | None, invite: str | None = None) -> GameQuerySet:
        """Games at tables the viewer may see, and every game the viewer played in."""
        rule = _may_see_q(player, invite, table="table__")
        if player is not None:
            # A finished game has one result per seat, also for players who left since.
            rule |= models.Q(pk__in=Game.objects.filter(results__player=player).values("pk"))
        extra = visibility.visible_games_q(player)
        if extra is not None:
            rule |= extra
        return self.filter(rule)


class Game(models.Model):
    """One deal at a table; replayable from seed + options + its moves."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(default=1)
    game = models.CharField(max_length=20, choices=registry.game_choices)
    options = models.JSONField(help_text=_("The variant's options when the game started."))
    players = models.JSONField(help_text=_("Player ids in seat order."))
    seed = models.BigIntegerField()
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    resigned = models.JSONField(
        default=list, blank=True, help_text=_("Seats that resigned while still playing, in order.")
    )
    # While everyone plays at once (Engine.simultaneous), a move made against any table
    # version from this one on still counts: the others' moves change nothing
    # it was chosen on. Null outside such a phase (services.moves).
    simultaneous_since = models.PositiveIntegerField(null=True, blank=True)
    started = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-started"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_number_unique")
        ]

    def __str__(self) -> str:
        return f"Game {self.number} at table {self.table_id}"

    def get_absolute_url(self) -> str:
        return reverse("game_detail", args=[self.pk])


class Move(models.Model):
    PASS = "pass"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    move = models.CharField(max_length=16, help_text=_('A card code, or "pass".'))
    auto = models.BooleanField(
        default=False, help_text=_("Played for the seat by the house (a bot, or time ran out).")
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="move_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.number}. seat {self.seat}: {self.move}"


class RateLimitEvent(models.Model):
    """A flood close or a refused socket, for Django admin (games/socket_limits.py).

    Written once per cooldown or refusal window, never per refused frame or
    handshake, so a flood cannot fill the table.
    """

    player = models.ForeignKey(
        "club.Player",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rate_limit_events",
    )
    address = models.CharField(max_length=45, blank=True)
    kind = models.CharField(max_length=20, db_index=True)
    detail = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.kind} by {self.player or self.address} at {self.created:%Y-%m-%d %H:%M}"
