"""Ratings: one OpenSkill rating per player per game family, and its change per result.

See ratings.services for how they are computed and what the displayed number means.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from club.models import GameResult, Player
from games import registry

# The families come from the games' registry entries (Engine.families).
FAMILY_CHOICES = registry.rating_family_choices
# openskill's defaults (PlackettLuce): a new player is mu 25, sigma 25/3, ordinal 0.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
# The displayed rating: DISPLAY_BASE + DISPLAY_SCALE * ordinal (ordinal = mu - 3 sigma).
DISPLAY_BASE = 1500
DISPLAY_SCALE = 40


def display(ordinal: float) -> int:
    """The human-sized number shown everywhere: 1500 for a new player, rising as sigma shrinks."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal)


class Rating(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    family = models.CharField(max_length=20, choices=FAMILY_CHOICES)
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    # mu - 3 sigma, kept so the leaderboard sorts on an index.
    ordinal = models.FloatField(default=0.0)
    games = models.PositiveIntegerField(default=0, help_text=_("Rated games in this family."))
    # The ordinal's change in the player's last rated game: the leaderboard's trend.
    last_change = models.FloatField(default=0.0)
    updated = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["family", "-ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["player", "family"], name="rating_once_per_family")
        ]
        indexes = [models.Index(fields=["family", "-ordinal", "games"], name="rating_board_idx")]

    def __str__(self) -> str:
        return f"{self.player} · {self.get_family_display()}: {self.display}"

    @property
    def display(self) -> int:
        return display(self.ordinal)

    @property
    def provisional(self) -> bool:
        return self.games < settings.RATING_PROVISIONAL_GAMES

    @property
    def trend(self) -> int:
        return round(DISPLAY_SCALE * self.last_change)


class RatingChange(models.Model):
    """What one GameResult did to its player's rating, written in the same transaction."""

    result = models.OneToOneField(
        GameResult, on_delete=models.CASCADE, related_name="rating_change"
    )
    family = models.CharField(max_length=20, choices=FAMILY_CHOICES)
    # False when the result did not move the rating (a bot in several seats of one game).
    rated = models.BooleanField(default=True)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_before = models.FloatField()
    ordinal_after = models.FloatField()

    class Meta:
        ordering = ["-result__finished", "-result__game_id"]

    def __str__(self) -> str:
        return f"{self.result}: {self.display_before} -> {self.display_after}"

    @property
    def display_before(self) -> int:
        return display(self.ordinal_before)

    @property
    def display_after(self) -> int:
        return display(self.ordinal_after)

    @property
    def display_change(self) -> int:
        return self.display_after - self.display_before
