"""The analysis worker's run: judge every member decision of a game, saving as it goes.

Run by the task `analysis.tasks.analyse_game` in the background worker, never in a
web process. The requests, the queue and its limits are in analysis/services.py,
which enqueues that task: services -> tasks -> judging, one way.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from analysis import search
from analysis.chart import measure_of
from analysis.coaching import decisions
from analysis.models import GameAnalysis
from club.models import Player
from games import registry
from games.engine.coach import FLAGGED, Measure

logger = logging.getLogger(__name__)


def run(analysis_id: int) -> None:
    """The worker's job: judge every member decision of the game, saving as it goes."""
    with transaction.atomic():
        analysis = (
            GameAnalysis.objects.select_for_update()
            .select_related("game")
            .filter(pk=analysis_id)
            .first()
        )
        if analysis is None or analysis.status in (
            GameAnalysis.Status.DONE,
            GameAnalysis.Status.FAILED,
        ):
            return
        now = timezone.now()
        analysis.status = GameAnalysis.Status.RUNNING
        analysis.attempts += 1
        analysis.started = analysis.started or now
        analysis.heartbeat = now
        # The budget is the worker's, fixed at the first run: a resumed run keeps it.
        analysis.samples = analysis.samples or settings.ANALYSIS_SAMPLES
        analysis.save(update_fields=["status", "attempts", "started", "heartbeat", "samples"])
    attempt = analysis.attempts
    mine = GameAnalysis.objects.filter(
        pk=analysis.pk, attempts=attempt, status=GameAnalysis.Status.RUNNING
    )
    try:
        _run(analysis, mine)
    except Exception as exc:
        logger.exception("analysis %s failed", analysis.pk)
        mine.update(
            status=GameAnalysis.Status.FAILED,
            error=gettext("The analysis failed: %(why)s") % {"why": str(exc)[:120]},
            finished=timezone.now(),
        )


def _run(analysis: GameAnalysis, mine: Any) -> None:
    game = analysis.game
    engine = registry.engine(game.game)
    rows = list(game.moves.order_by("number").values_list("number", "seat", "move", "auto"))
    humans = set(
        Player.objects.filter(pk__in=game.players, bot_level="").values_list("pk", flat=True)
    )
    seats = [seat for seat, pk in enumerate(game.players) if pk in humans]
    state = engine.deal(len(game.players), game.seed, engine.options(game.options))
    todo = decisions(engine, state, rows, seats)
    judged = list(analysis.decisions)
    start = min(analysis.saved, len(todo))
    spent = analysis.cpu_seconds  # the search's CPU, wherever it runs (analysis/search.py)
    reported = saved = time.monotonic()
    samples = analysis.samples
    for i in range(start, len(todo)):
        # The coach's sampling is salted with the game's id, a public fact: the seed
        # deals every hidden card, and a coach must not be able to deal again from it.
        got, cpu = search.judge(game.game, todo[i], game.pk, samples)
        if got is not None:
            judged.append(got)
        spent += cpu
        if spent > settings.ANALYSIS_CPU_SECONDS:
            mine.update(
                status=GameAnalysis.Status.FAILED,
                error=gettext("The analysis ran over its CPU budget of %(seconds)d seconds.")
                % {"seconds": settings.ANALYSIS_CPU_SECONDS},
                cpu_seconds=spent,
                finished=timezone.now(),
            )
            return
        now = time.monotonic()
        if i + 1 < len(todo) and now - reported >= settings.ANALYSIS_PROGRESS_SECONDS:
            reported = now
            fields: dict[str, Any] = {"done": i + 1, "total": len(todo)}
            if now - saved >= settings.ANALYSIS_SAVE_SECONDS:
                saved = now
                fields.update(decisions=judged, saved=i + 1)
            if not mine.update(**fields, cpu_seconds=spent, heartbeat=timezone.now()):
                return  # taken over by another run (see recover_stale)
    mine.update(
        status=GameAnalysis.Status.DONE,
        done=len(todo),
        total=len(todo),
        saved=len(todo),
        decisions=judged,
        summary=summarise(measure_of(game.game, analysis.measure), judged),
        cpu_seconds=spent,
        heartbeat=timezone.now(),
        finished=timezone.now(),
    )


def summarise(measure: Measure, judged: list[dict]) -> dict[str, dict]:
    """Per seat: verdict counts and the accuracy.

    Accuracy: over the seat's decisions with a choice, the mean of 1 - (the
    loss of a flagged move / the measure's blunder threshold, capped at 1);
    a fine move counts 1. 100% means no flagged move.
    """
    out: dict[str, dict] = {}
    for d in judged:
        row = out.setdefault(
            str(d["seat"]),
            {
                "inaccuracy": 0,
                "mistake": 0,
                "blunder": 0,
                "decisions": 0,
                "choices": 0,
                "_acc": 0.0,
            },
        )
        row["decisions"] += 1
        if d["verdict"] == "forced":
            continue
        row["choices"] += 1
        if d["verdict"] in FLAGGED:
            row[d["verdict"]] += 1
            row["_acc"] += 1.0 - min(1.0, d["loss"] / measure.blunder)
        else:
            row["_acc"] += 1.0
    for row in out.values():
        acc = row.pop("_acc")
        row["accuracy"] = round(100 * acc / row["choices"]) if row["choices"] else 100
    return out
