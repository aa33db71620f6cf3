"""One post-game analysis per finished game, shared by everyone who may see it."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.registry import MEASURE_KEY_LENGTH


class GameAnalysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    requested_by = models.ForeignKey(
        "club.Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="analyses",
        verbose_name=_("requested by"),
    )
    measure = models.CharField(_("measure"), max_length=MEASURE_KEY_LENGTH, blank=True)
    samples = models.PositiveIntegerField(_("sampled deals per decision"), default=0)
    done = models.PositiveIntegerField(_("decisions judged"), default=0)
    total = models.PositiveIntegerField(_("decisions to judge"), default=0)
    # The judgements saved so far, in game order, made from the first `saved` decisions:
    # a restarted worker resumes there (`done` is the progress shown, saved more often).
    decisions = models.JSONField(_("decisions"), default=list, blank=True)
    saved = models.PositiveIntegerField(_("decisions saved"), default=0)
    # Per seat, once done: {"seat": {"blunder": 1, ..., "accuracy": 87}}.
    summary = models.JSONField(_("summary"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=200, blank=True)
    cpu_seconds = models.FloatField(_("CPU seconds"), default=0.0)
    # Each run takes the next attempt number; a run whose number is no longer the
    # row's stops writing (another worker took the analysis over).
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    task_id = models.CharField(_("task id"), max_length=64, blank=True)
    created = models.DateTimeField(_("asked"), auto_now_add=True)
    started = models.DateTimeField(_("started"), null=True, blank=True)
    heartbeat = models.DateTimeField(_("last progress"), null=True, blank=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"Analysis of game {self.game_id} ({self.status})"

    @property
    def active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)
