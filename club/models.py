"""The club's members: a Player profile on every auth user."""

from __future__ import annotations

import datetime
import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from club.names import (
    has_visible_letter,
    is_invisible,
    is_reserved,
    name_key,
    normalize_display_name,
)
from games import paces, registry

DISPLAY_NAME_RE = re.compile(r"[\w][\w .'-]{1,28}[\w.]")


def validate_display_name(value: str) -> None:
    # fullmatch, not match with "$": "$" also accepts a trailing newline.
    # One spelling per name (NFKC) and a visible letter (club/names.py).
    if DISPLAY_NAME_RE.fullmatch(value) and normalize_display_name(value) == value:
        if not has_visible_letter(value):
            raise ValidationError(
                _("A display name needs at least one letter, and nothing invisible."),
                code="display_name",
            )
        return
    raise ValidationError(
        _(
            "Use 3 to 30 letters, digits, spaces, dots, dashes or apostrophes, starting with "
            "a letter or digit and ending with a letter, digit or dot (no slashes, symbols, "
            "emoji or invisible characters)."
        ),
        code="display_name",
    )


class PlayerQuerySet(models.QuerySet):
    def bots(self) -> PlayerQuerySet:
        return self.exclude(bot_level="")

    def members(self) -> PlayerQuerySet:
        return self.filter(bot_level="")

    def named(self, name: str) -> PlayerQuerySet:
        return self.filter(display_name__iexact=name)

    def look_alikes(self, name: str) -> PlayerQuerySet:
        """Players whose name is this one or could pass for it (club/names.py)."""
        return self.filter(models.Q(display_name__iexact=name) | models.Q(name_key=name_key(name)))

    def display_name_taken(self, name: str) -> bool:
        """Taken by a player (or a look-alike), reserved for the house or the site, or a
        departed member's, not free again yet (FreedIdentity)."""
        return (
            is_reserved(name)
            or self.look_alikes(name).exists()
            or reuse_date(FreedIdentity.NAME, name) is not None
        )


class Player(models.Model):
    class BotLevel(models.TextChoices):
        RANDOM = "random", _("Random")
        HEURISTIC = "heuristic", _("Heuristic")
        SEARCH = "search", _("Search")

    # House bots have no user, so nobody can log in as one.
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="player",
    )
    bot_level = models.CharField(
        max_length=10, choices=BotLevel.choices, blank=True, help_text=_("Set for house bots only.")
    )
    display_name = models.CharField(
        max_length=30,
        validators=[validate_display_name],
        help_text=_("Shown at tables and in standings. Unique, whatever the case."),
    )
    # name_key(display_name), kept on every save: what "taken" compares.
    name_key = models.CharField(max_length=120, db_index=True, editable=False, default="")
    joined = models.DateTimeField(auto_now_add=True)
    # The member's language (README, "Languages"): wins over the browser's on
    # any device; empty until they sign in or pick one.
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        default="",
        help_text=_("The language the site speaks to this member, on any device."),
    )
    # The member's time zone (an IANA name such as "Europe/Rome"), as their browser
    # last said (club.i18n.MemberTimeZoneMiddleware): the times in their mail.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True, default="")

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["display_name"]
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                name="player_display_name_unique_ci",
                violation_error_message=_("That display name is taken."),
            )
        ]
        # Closing someone else's account (club.leaving, the admin's action) is not
        # changing a member: a permission of its own (issue 45).
        permissions = [("close_account", _("Can close a member's account"))]

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args, **kwargs) -> None:
        self.name_key = name_key(self.display_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("player", args=[self.pk])

    def clean(self) -> None:
        if self.pk and Player.objects.filter(pk=self.pk, display_name=self.display_name).exists():
            return  # unchanged: a former member keeps their label
        # The case-insensitive unique constraint catches "ANNA"; this, "Аnna".
        reusable = reuse_date(FreedIdentity.NAME, self.display_name)
        if reusable is not None:
            raise ValidationError({"display_name": name_not_yet_free(reusable)})
        others = Player.objects.look_alikes(self.display_name).exclude(pk=self.pk)
        if self.display_name and (others.exists() or is_reserved(self.display_name)):
            raise ValidationError({"display_name": _("That display name is taken.")})

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)


def display_name_from(base: str) -> str:
    """A valid display name made from any text (an email's local part, a username).

    Copied into migration 0006: change both together.
    """
    cleaned = re.sub(r"[^\w .'-]", "", base).strip(" .'-")[:24].rstrip(" '-") or "player"
    return cleaned if len(cleaned) >= 3 else f"{cleaned}-player"


def unique_display_name(base: str) -> str:
    """A free, valid display name close to `base` (for users made outside sign-up)."""
    visible = "".join(c for c in normalize_display_name(base) if not is_invisible(c))
    cleaned = display_name_from(visible)
    if not has_visible_letter(cleaned):
        cleaned = display_name_from(f"player {cleaned}")
    candidate, n = cleaned, 1
    while Player.objects.display_name_taken(candidate):
        n += 1
        candidate = f"{cleaned}-{n}"
    return candidate


class SeriesQuerySet(models.QuerySet):
    def active(self) -> SeriesQuerySet:
        today = timezone.localdate()
        return self.filter(active=True, starts__lte=today).filter(
            models.Q(ends__isnull=True) | models.Q(ends__gte=today)
        )

    def past(self) -> SeriesQuerySet:
        return self.exclude(pk__in=self.active().values("pk"))

    def for_variant(self, variant) -> SeriesQuerySet:
        return self.filter(variant=variant)


class Series(models.Model):
    class Scoring:
        """The shipped scoring kinds; every kind is in games.registry.all_scoring_kinds()."""

        LOSS = registry.LOSS
        PLACEMENT = registry.PLACEMENT

    name = models.CharField(max_length=80)
    slug = models.SlugField(unique=True)
    variant = models.ForeignKey("games.Variant", on_delete=models.PROTECT, related_name="series")
    scoring = models.CharField(
        max_length=registry.SCORING_KEY_LENGTH,
        choices=registry.scoring_choices,
        blank=True,
        help_text=_(
            "Leave empty to follow the variant: each game says which scoring kinds "
            "it supports and which comes first (single-loser variants: a loss per game; "
            "placement variants: placement points)."
        ),
    )
    starts = models.DateField(default=timezone.localdate)
    ends = models.DateField(null=True, blank=True, help_text=_("Empty: open-ended."))
    active = models.BooleanField(default=True, help_text=_("Inactive series take no new tables."))
    min_games = models.PositiveIntegerField(
        default=3, help_text=_("Games a player needs before being ranked.")
    )
    paces = models.JSONField(
        default=list,
        blank=True,
        help_text=_(
            "The paces a member may choose for a table of this series, among those "
            "its variant allows; empty: every pace the variant allows."
        ),
    )
    description = models.TextField(blank=True)

    objects = SeriesQuerySet.as_manager()

    class Meta:
        ordering = ["-starts", "name"]
        verbose_name_plural = "series"

    def __str__(self) -> str:
        # The demo's and the club's own series have a name and a description in
        # every language (club/demo.py marks them); a name an admin made up is
        # shown as written.
        return pgettext("series name", self.name)

    def save(self, *args, **kwargs) -> None:
        if not self.scoring and self.variant_id:
            self.scoring = self.variant.engine.scoring_default(self.variant.options)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("series_detail", args=[self.slug])

    @property
    def shown_description(self) -> str:
        return pgettext("series description", self.description) if self.description else ""

    @property
    def is_loss(self) -> bool:
        """Scored by losses (a single-loser kind: games.registry.ScoringKind)."""
        kinds = registry.all_scoring_kinds()
        return kinds[self.scoring].single_loser if self.scoring in kinds else False

    @property
    def scored(self) -> bool:
        """Its games have scores (lower is better): standings read GameResult.score."""
        return self.variant.engine.scored

    @property
    def standings_columns(self) -> tuple[registry.Column, ...]:
        """The game's own standings figures (page and CSV), after the scoring kind's."""
        return () if self.is_loss else self.variant.engine.standings_columns

    def clean(self) -> None:
        errors = {}
        if self.variant_id:
            engine, options = self.variant.engine, self.variant.options
            if not self.scoring:
                self.scoring = engine.scoring_default(options)
            if self.scoring not in engine.scoring_kinds(options):
                kind = registry.all_scoring_kinds().get(self.scoring)
                refusal = (kind and kind.refusal) or _("%(variant)s cannot be scored that way.")
                errors["scoring"] = refusal % {"variant": self.variant}
        if self.starts and self.ends and self.ends < self.starts:
            errors["ends"] = "The series cannot end before it starts."
        try:
            self.paces = paces.clean_list(self.paces or [])
        except ValueError:
            errors["paces"] = _("Choose paces from the list.")
        if errors:
            raise ValidationError(errors)


class GameResultQuerySet(models.QuerySet):
    def in_series(self, series: Series) -> GameResultQuerySet:
        return self.filter(series=series)


class GameResult(models.Model):
    """One player's outcome of one finished game; written with the game's last move."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="results")
    # No index of its own: both indexes below start with the series, and a
    # lone series index tempts PostgreSQL into reading the (wide) rows.
    series = models.ForeignKey(
        Series,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="results",
        db_index=False,
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField(help_text=_("Players in the game."))
    place = models.PositiveSmallIntegerField(
        help_text=_("1-based; shared places repeat (1, 2, 2, 4).")
    )
    score = models.IntegerField(
        null=True, blank=True, help_text=_("Lower is better; empty for games without a score.")
    )
    lost = models.BooleanField(
        default=False, help_text=_("The game's single loser (games with one loser only).")
    )
    resigned = models.BooleanField(
        default=False, help_text=_("The player left the game while still playing.")
    )
    # The game's own figures (games.registry: Engine.result_row, described by its
    # result_columns), e.g. cards left and passes.
    detail = models.JSONField(default=dict, blank=True)
    # Twice the placement points, so sums stay exact integers in the database.
    half_points = models.PositiveSmallIntegerField()
    finished = models.DateTimeField()

    objects = GameResultQuerySet.as_manager()

    class Meta:
        ordering = ["-finished", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="result_once_per_seat"),
        ]
        indexes = [
            # Each player's latest results in a series (club.standings.recent_marks),
            # read off the index alone (10x faster on a big series).
            models.Index(
                fields=["series", "player", "-finished", "-id", "place", "lost", "half_points"],
                name="result_standings_idx",
            ),
            # The standings aggregate: every figure it sums, and nothing else, so
            # the query is index-only on SQLite and PostgreSQL and never reads a
            # row's `detail` JSON. Narrow on purpose: equal keys are stored once
            # (PostgreSQL's deduplication), about 50 pages for 40,000 results,
            # where the index above takes 460 and the rows 1,000.
            models.Index(
                fields=["series", "player", "place", "lost", "half_points", "score"],
                name="result_figures_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.game}: place {self.place}"

    @property
    def placement_points(self) -> float:
        return self.half_points / 2

    @property
    def summary(self) -> str:
        """This result in words for the player page: the game's own, or "place N of M"."""
        game = self.game
        text = registry.engine(game.game).result_text(
            self.place, self.players, self.lost, self.detail, game.options
        )
        return text or _("place %(place)s of %(players)s") % {
            "place": self.place,
            "players": self.players,
        }

    def figures(self) -> list[tuple[str, object]]:
        """(label, value) of the game's own figures, as its registry entry names them."""
        columns = registry.engine(self.game.game).result_columns
        return [(str(c.label), self.detail.get(c.key)) for c in columns if c.key in self.detail]


# ---------------------------------------------------------------------------
# Closed accounts (club.leaving, issue 45)


class AccountClosure(models.Model):
    """That a member's account was closed: when, by whom, and the name it goes by now.

    Nothing of what was deleted is kept here: the Player row stays (its results count
    in everyone's standings) under `label`.
    """

    class By(models.TextChoices):
        SELF = "self", _("the member")
        ADMIN = "admin", _("an admin")

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, related_name="closure", verbose_name=_("player")
    )
    label = models.CharField(_("name now"), max_length=30)
    closed_at = models.DateTimeField(_("closed"), default=timezone.now)
    by = models.CharField(_("closed by"), max_length=8, choices=By.choices)
    # The admin who closed it (empty when the member did, or that admin's user is gone).
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("admin"),
    )

    class Meta:
        ordering = ["-closed_at", "-pk"]
        verbose_name = _("closed account")
        verbose_name_plural = _("closed accounts")

    def __str__(self) -> str:
        return self.label


class FreedIdentity(models.Model):
    """A closed account's display name or e-mail address, not free again before
    ACCOUNT_REUSE_DAYS: kept as a keyed hash (HMAC with SECRET_KEY) of its normalised
    form, never in plain text."""

    NAME = "name"
    EMAIL = "email"

    kind = models.CharField(max_length=5)
    digest = models.CharField(max_length=64)
    freed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["kind", "digest"])]

    def __str__(self) -> str:
        return f"{self.kind} freed {self.freed_at:%Y-%m-%d}"


def identity_digests(kind: str, value: str) -> list[str]:
    """The keyed hashes a name or an address is kept as: an address in lower case; a
    name case-folded and by its look-alike key (club.names), as "taken" compares names."""
    value = " ".join(value.split())
    forms = [value.casefold()]
    if kind == FreedIdentity.NAME:
        forms.append(name_key(value))
    return [salted_hmac(f"club.leaving.{kind}", form).hexdigest() for form in dict.fromkeys(forms)]


def reuse_date(kind: str, value: str) -> datetime.date | None:
    """The day a departed member's name or address may be taken again; None: free now."""
    if not value:
        return None
    since = timezone.now() - datetime.timedelta(days=settings.ACCOUNT_REUSE_DAYS)
    freed = (
        FreedIdentity.objects.filter(
            kind=kind, digest__in=identity_digests(kind, value), freed_at__gt=since
        )
        .order_by("-freed_at")
        .values_list("freed_at", flat=True)
        .first()
    )
    if freed is None:
        return None
    return timezone.localdate(freed + datetime.timedelta(days=settings.ACCOUNT_REUSE_DAYS))


def _day(day: datetime.date) -> str:
    return date_format(day, pgettext("date format: day, month, year", "j M Y"))


def name_not_yet_free(day: datetime.date) -> str:
    return _(
        "That display name belonged to a member who left the club; it can be taken "
        "again from %(date)s."
    ) % {"date": _day(day)}


def address_not_yet_free(day: datetime.date) -> str:
    return _(
        "That address belonged to a member who left the club; it can be used again from %(date)s."
    ) % {"date": _day(day)}


class DataExport(models.Model):
    """A member's copy of their data (club.export): made by the task worker, downloadable
    by that member only until `expires`; the zip lives under EXPORT_DIR, never served as
    a static or media file."""

    class State(models.TextChoices):
        QUEUED = "queued", _("being prepared")
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="exports")
    # The download link's last part: unguessable, but the page checks the member anyway.
    token = models.CharField(max_length=43, unique=True)
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    created = models.DateTimeField(_("asked for"), default=timezone.now)
    ready_at = models.DateTimeField(_("ready"), null=True, blank=True)
    expires = models.DateTimeField(_("expires"), null=True, blank=True)
    # The file's name inside EXPORT_DIR, and its size in bytes.
    file = models.CharField(max_length=100, blank=True, default="")
    size = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("data export")
        verbose_name_plural = _("data exports")
        constraints = [
            # At most one waiting export per member (a second request finds the first).
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(state="queued"), name="one_waiting_export"
            )
        ]

    def __str__(self) -> str:
        return f"export {self.pk} for {self.player_id} ({self.state})"
