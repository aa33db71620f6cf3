"""The club's members: a Player profile on every auth user."""

from __future__ import annotations

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse

DISPLAY_NAME_RE = re.compile(r"^[\w][\w .'-]{1,28}[\w.]$")


def validate_display_name(value: str) -> None:
    if not DISPLAY_NAME_RE.match(value):
        raise ValidationError(
            "Use 3 to 30 letters, digits, spaces, dots, dashes or apostrophes, "
            "starting with a letter or digit."
        )


class PlayerQuerySet(models.QuerySet):
    def named(self, name: str) -> PlayerQuerySet:
        return self.filter(display_name__iexact=name)

    def display_name_taken(self, name: str) -> bool:
        return self.named(name).exists()


class Player(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(
        max_length=30,
        validators=[validate_display_name],
        help_text="Shown at tables and in standings. Unique, whatever the case.",
    )
    joined = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["display_name"]
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                name="player_display_name_unique_ci",
                violation_error_message="That display name is taken.",
            )
        ]

    def __str__(self) -> str:
        return self.display_name

    def get_absolute_url(self) -> str:
        return reverse("player", args=[self.display_name])


def unique_display_name(base: str) -> str:
    """A free display name close to `base` (for users made outside sign-up)."""
    cleaned = re.sub(r"[^\w .'-]", "", base).strip(" .'-")[:24] or "player"
    if len(cleaned) < 3:
        cleaned = f"{cleaned}-player"
    candidate, n = cleaned, 1
    while Player.objects.display_name_taken(candidate):
        n += 1
        candidate = f"{cleaned}-{n}"
    return candidate
