"""Post-game analysis: who may ask, the queue and its limits, and the worker's run.

One analysis per game (GameAnalysis), shared by everyone who may see it:
asking again shows the same one. The work runs in the analysis worker
(`manage.py worker`, a django-tasks database worker at a lower CPU
priority), never in a web process, so a table never waits for it.

Limits (docs/OPERATIONS.md): one analysis under way per member
(queued or running, the ones they asked for), ``ANALYSIS_QUEUE_MAX`` under
way site-wide, ``ANALYSIS_CPU_SECONDS`` of CPU per analysis. A restarted
worker loses little: the judgements are saved every few seconds, and a
running analysis whose worker fell silent for ``ANALYSIS_STALE_SECONDS`` is
queued again and resumes after its last saved decision (the coach is
deterministic, so a resumed analysis equals an uninterrupted one). Nothing
is shown as finished until every decision is judged.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from analysis import workers
from analysis.chart import measure_of
from analysis.models import GameAnalysis
from analysis.tasks import analyse_game
from club.models import Player
from games import hooks, registry
from games.engine.coach import FLAGGED
from games.models import Game
from games.services.common import ServiceError

logger = logging.getLogger(__name__)

ACTIVE = (GameAnalysis.Status.QUEUED, GameAnalysis.Status.RUNNING)
# How often a running analysis writes its progress (ANALYSIS_PROGRESS_SECONDS, 3)
# and saves its judgements (ANALYSIS_SAVE_SECONDS, 15; a restarted worker resumes
# from the last save). Few writes on purpose: on SQLite a write from the niced
# worker holds the one write lock, and a worker descheduled while holding it
# stalls the tables' moves; the judgements less often, since the list grows (a
# nine-round match's is a few hundred KB).


def open_to(game: Game, player: Player | None) -> bool:
    """THE check of who may ask for a game's analysis and see it.

    The game's players always; everyone else once the game is public: its
    table is neither private nor sealed, or the apps that lay rules over
    tables (games.hooks: a duplicate series once its round has closed) open
    it to everybody. An open duplicate board is private and sealed, so only
    its player sees its analysis. Extend it here; every view, page and tag
    calls only this.
    """
    if game.result is None:
        return False
    if player is not None and player.pk in (game.players or []):
        return True
    if not game.table.private:  # public: never sealed (games.hooks)
        return True
    everybody = hooks.visible_games_q(None)
    return everybody is not None and Game.objects.filter(everybody, pk=game.pk).exists()


def analysable(game: Game) -> bool:
    """Does this game's engine have a coach?"""
    engine = registry.engine(game.game)
    return engine.judge is not None and engine.analysis_measure is not None


def find(game: Game) -> GameAnalysis | None:
    return GameAnalysis.objects.filter(game=game).first()


def request(game: Game, player: Player | None) -> GameAnalysis:
    """Ask for a game's analysis: the existing one, or a new one queued for the worker.

    ServiceError: ``login`` (members only), ``not_found`` (a game the member
    may not see or ask about), ``not_analysable``, ``busy`` (the member has one
    under way), ``queue_full``.
    """
    if player is None:
        raise ServiceError("login", gettext("Log in to ask for an analysis."))
    if not open_to(game, player):
        raise ServiceError("not_found", gettext("There is no such game."))
    if not analysable(game):
        raise ServiceError("not_analysable", gettext("This game cannot be analysed."))
    try:
        with transaction.atomic():
            existing = GameAnalysis.objects.select_for_update().filter(game=game).first()
            if existing is not None and existing.status != GameAnalysis.Status.FAILED:
                return existing  # shared: asking again shows the same analysis
            _lock_queue(player)
            if GameAnalysis.objects.filter(requested_by=player, status__in=ACTIVE).exists():
                raise ServiceError(
                    "busy",
                    gettext(
                        "You already have an analysis under way: ask for another when it is done."
                    ),
                )
            if (
                GameAnalysis.objects.filter(status__in=ACTIVE).count()
                >= settings.ANALYSIS_QUEUE_MAX
            ):
                raise ServiceError(
                    "queue_full",
                    gettext("Too many analyses are waiting: please ask again in a few minutes."),
                )
            engine = registry.engine(game.game)
            analysis = existing or GameAnalysis(game=game)
            analysis.status = GameAnalysis.Status.QUEUED
            analysis.requested_by = player
            analysis.measure = engine.analysis_measure(game.options)
            analysis.samples = 0  # the worker's ANALYSIS_SAMPLES, fixed when it starts
            analysis.done = analysis.total = analysis.saved = 0
            analysis.decisions = []
            analysis.summary = None
            analysis.error = ""
            analysis.cpu_seconds = 0.0
            analysis.started = analysis.heartbeat = analysis.finished = None
            analysis.save()
            _enqueue(analysis)
            return analysis
    except IntegrityError:  # asked twice at once: the other request created it
        return GameAnalysis.objects.get(game=game)


# The key of the site-wide queue's PostgreSQL advisory lock (a number no other lock uses).
_QUEUE_LOCK = 36_0001


def _lock_queue(player: Player) -> None:
    """Count the caps one request at a time, as the table quota does: plain SELECTs in
    concurrent transactions each see the others' new analyses not yet committed.

    The member's row is locked first (their own cap), then the site-wide queue (a
    transaction-level advisory lock on PostgreSQL; SQLite's IMMEDIATE transaction
    already holds the database's one write lock), always in this order.
    """
    Player.objects.select_for_update().filter(pk=player.pk).first()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_QUEUE_LOCK])


def _enqueue(analysis: GameAnalysis) -> None:
    result = analyse_game.enqueue(analysis.pk)
    analysis.task_id = str(result.id)[:64]
    analysis.save(update_fields=["task_id"])


def recover_stale() -> int:
    """Queue again the running analyses whose worker is gone; returns how many.

    Gone: known dead (a worker on this machine whose process ended,
    analysis.workers.alive), or, for a worker that cannot be checked from
    here, silent for ``ANALYSIS_STALE_SECONDS``. The new run resumes after the
    last saved decision; the dead run's task row, left "running" by
    django-tasks, is closed as failed (WorkerLost), and so is any other such
    row whose worker is gone. An old run that was only slow stops at its next
    save (its attempt number is no longer the row's).
    """
    cutoff = timezone.now() - timezone.timedelta(seconds=settings.ANALYSIS_STALE_SECONDS)
    count = 0
    running = GameAnalysis.objects.filter(status=GameAnalysis.Status.RUNNING)
    for pk, task_id, heartbeat in running.values_list("pk", "task_id", "heartbeat"):
        live = workers.alive(workers.last_worker(task_id)) if task_id else None
        if live or (live is None and heartbeat is not None and heartbeat >= cutoff):
            continue
        with transaction.atomic():
            analysis = (
                GameAnalysis.objects.select_for_update()
                .filter(pk=pk, status=GameAnalysis.Status.RUNNING, task_id=task_id)
                .first()
            )
            if analysis is None:
                continue
            analysis.status = GameAnalysis.Status.QUEUED
            analysis.attempts += 1
            analysis.save(update_fields=["status", "attempts"])
            _enqueue(analysis)
            if task_id:
                workers.close(task_id, f"The worker stopped; queued again as {analysis.task_id}.")
            count += 1
            logger.info("analysis %s: its worker is gone; queued again", pk)
    current = set(running.values_list("task_id", flat=True))
    workers.close_orphans(cutoff, current)
    return count


def summary_line(row: dict | None) -> str:
    """ "2 mistakes, 1 blunder; accuracy 87%" for one seat's summary row."""
    if not row:
        return ""
    parts = []
    if row.get("inaccuracy"):
        n = row["inaccuracy"]
        parts.append(ngettext("%(n)d inaccuracy", "%(n)d inaccuracies", n) % {"n": n})
    if row.get("mistake"):
        n = row["mistake"]
        parts.append(ngettext("%(n)d mistake", "%(n)d mistakes", n) % {"n": n})
    if row.get("blunder"):
        n = row["blunder"]
        parts.append(ngettext("%(n)d blunder", "%(n)d blunders", n) % {"n": n})
    flagged = ", ".join(parts) if parts else gettext("no inaccuracies, mistakes or blunders")
    return gettext("%(flagged)s; accuracy %(accuracy)d%%") % {
        "flagged": flagged[:1].upper() + flagged[1:],
        "accuracy": row.get("accuracy", 100),
    }


def queue_ahead(analysis: GameAnalysis) -> int:
    """Analyses under way that were asked for before this queued one."""
    if analysis.status != GameAnalysis.Status.QUEUED:
        return 0
    return GameAnalysis.objects.filter(status__in=ACTIVE, created__lt=analysis.created).count()


# ---------------------------------------------------------------------------
# What the pages show


def _names(game: Game) -> list[str]:
    players = {p.pk: p.display_name for p in Player.objects.filter(pk__in=game.players)}
    return [players.get(pk, "?") for pk in game.players]


def status_payload(analysis: GameAnalysis | None) -> dict[str, Any]:
    """The small JSON the page polls: status, progress and a line for people.

    The judgements are included only once the analysis is done: a half
    analysis is never shown as finished.
    """
    if analysis is None:
        return {"status": "none", "done": 0, "total": 0, "message": ""}
    status = analysis.status
    payload: dict[str, Any] = {"status": status, "done": analysis.done, "total": analysis.total}
    if status == GameAnalysis.Status.QUEUED:
        ahead = queue_ahead(analysis)
        payload["ahead"] = ahead
        payload["message"] = (
            ngettext(
                "Queued: %(n)d analysis ahead of this one.",
                "Queued: %(n)d analyses ahead of this one.",
                ahead,
            )
            % {"n": ahead}
            if ahead
            else gettext("Queued: the analysis starts in a moment.")
        )
    elif status == GameAnalysis.Status.RUNNING:
        payload["message"] = (
            gettext("Analysing: %(done)d of %(total)d decisions.")
            % {"done": analysis.done, "total": analysis.total}
            if analysis.total
            else gettext("Analysing: reading the game.")
        )
    elif status == GameAnalysis.Status.DONE:
        payload["message"] = ngettext(
            "Done: %(n)d decision judged.", "Done: %(n)d decisions judged.", analysis.total
        ) % {"n": analysis.total}
        payload["measure"] = analysis.measure
        names = _names(analysis.game)
        move_text = registry.engine(analysis.game.game).move_text
        payload["decisions"] = [
            {
                "n": d["n"],
                "name": names[d["seat"]] if d["seat"] < len(names) else "?",
                "step": d["step"],
                "seat": d["seat"],
                "played": d["played"],
                "best": d["best"],
                "played_label": move_text(d["played"]),
                "best_label": move_text(d["best"]),
                "verdict": d["verdict"],
                "loss": d["loss"],
                "loss_se": d["loss_se"],
                "value": d["values"][d["played"]],
                "best_value": d["values"][d["best"]],
            }
            for d in analysis.decisions
        ]
    else:
        payload["message"] = analysis.error or gettext("The analysis failed.")
    return payload


def panel_context(game: Game) -> dict[str, Any]:
    """Everything the analysis panel template needs for one game."""
    from analysis.chart import format_value, measure_label, svg

    analysis = find(game)
    context: dict[str, Any] = {"analysis": analysis, "payload": status_payload(analysis)}
    if analysis is None or analysis.status != GameAnalysis.Status.DONE:
        return context
    names = _names(game)
    measure = measure_of(game.game, analysis.measure)
    summary = analysis.summary or {}
    move_text = registry.engine(game.game).move_text
    rows = []
    for d in analysis.decisions:
        played_v, played_se = d["values"][d["played"]]
        best_v, best_se = d["values"][d["best"]]
        rows.append(
            {
                **d,
                "name": names[d["seat"]],
                "played_label": move_text(d["played"]),
                "best_label": move_text(d["best"]),
                "value_text": format_value(measure, played_v),
                "se_text": format_value(measure, played_se),
                "best_text": format_value(measure, best_v),
                "best_se_text": format_value(measure, best_se),
                "flagged": d["verdict"] in FLAGGED,
                "verdict_text": verdict_text(d["verdict"]),
                "position": d["step"] - 1,
            }
        )
    context.update(
        names=names,
        measure=measure,
        measure_label=measure_label(measure),
        chart=svg(measure, analysis.decisions, names),
        rows=rows,
        flagged=[r for r in rows if r["flagged"]],
        seats=[
            {"seat": int(seat), "name": names[int(seat)], "line": summary_line(row)}
            for seat, row in sorted(summary.items(), key=lambda kv: int(kv[0]))
        ],
    )
    return context


def verdict_text(verdict: str) -> str:
    return {
        "forced": gettext("forced"),
        "fine": gettext("fine"),
        "inaccuracy": gettext("inaccuracy"),
        "mistake": gettext("mistake"),
        "blunder": gettext("blunder"),
    }.get(verdict, verdict)


def player_summary(game: Game, player: Player) -> str:
    """The summary line of ``player``'s decisions in ``game``, once its analysis is done."""
    if player.pk not in (game.players or []):
        return ""
    analysis = GameAnalysis.objects.filter(game=game, status=GameAnalysis.Status.DONE).first()
    if analysis is None or not analysis.summary:
        return ""
    seats = [str(s) for s, pk in enumerate(game.players) if pk == player.pk]
    row = next((analysis.summary[s] for s in seats if s in analysis.summary), None)
    return summary_line(row)
