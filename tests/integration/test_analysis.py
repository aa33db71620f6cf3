"""Post-game analysis through the site: asking, the queue and its limits, the worker, the pages.

The worker is the real one (`manage.py worker --batch`: django-tasks'
database worker), run in-process; the budget is lowered so the suite stays fast.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from analysis import services, workers
from analysis.coaching import decisions
from analysis.models import GameAnalysis
from club.models import Player
from games import registry
from games.models import Variant
from tests.support.finished import finished_game
from tests.support.members import member

# Transactional: the worker (django-tasks' db_worker) opens and closes its own
# connections, which PostgreSQL's pool refuses inside a test's wrapping transaction.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("default_variants")]


@pytest.fixture(autouse=True)
def _small_budget(settings) -> None:
    settings.ANALYSIS_SAMPLES = 4
    settings.ANALYSIS_WORKER_NICE = 0


def client_for(player: Player | None) -> Client:
    client = Client()
    if player is not None:
        client.force_login(player.user)
    return client


def ask(game, player: Player | None):
    return client_for(player).post(
        reverse("analysis_ask", args=[game.pk]), HTTP_ACCEPT="application/json"
    )


def status(game, player: Player | None = None) -> dict:
    response = client_for(player).get(reverse("analysis_status", args=[game.pk]))
    assert response.status_code == 200, response.content
    return response.json()


def work() -> None:
    call_command("worker", batch=True, interval=0)


def keft() -> Variant:
    return Variant.objects.get(name="Keft")


def test_the_old_command_name_runs_the_same_worker_and_says_it_is_deprecated():
    """`manage.py analysis_worker`: the alias of `worker` kept for one release (issue 47)."""
    game, players = finished_game(keft(), ["Anna", "Boris"], seed=5)
    assert ask(game, players[0]).status_code == 202
    err = io.StringIO()
    call_command("analysis_worker", batch=True, interval=0, stderr=err)
    assert "deprecated" in err.getvalue() and "manage.py worker" in err.getvalue()
    assert status(game)["status"] == "done"


def test_a_player_asks_the_worker_judges_every_decision_and_the_pages_show_it():
    # Two players: each knows the other's hand, so the judgements are sharp.
    game, players = finished_game(keft(), ["Anna", "Boris"], seed=5)
    response = ask(game, players[0])
    assert response.status_code == 202
    assert response.json()["status"] == "queued"
    assert status(game)["status"] == "queued"
    assert "decisions" not in status(game)  # nothing shown before it is done
    work()
    got = status(game, players[1])
    assert got["status"] == "done"
    engine = registry.engine(game.game)
    rows = list(game.moves.order_by("number").values_list("number", "seat", "move", "auto"))
    state = engine.deal(2, game.seed, engine.options(game.options))
    expected = decisions(engine, state, rows, range(2))
    assert got["done"] == got["total"] == len(expected)
    assert [d["n"] for d in got["decisions"]] == [d.index for d in expected]
    assert {d["verdict"] for d in got["decisions"]} <= {
        "forced",
        "fine",
        "inaccuracy",
        "mistake",
        "blunder",
    }
    assert all(d["played"] != "pass" for d in got["decisions"])  # passes are not decisions
    # Members at random: something gets flagged.
    assert any(d["verdict"] in ("mistake", "blunder", "inaccuracy") for d in got["decisions"])
    page = client_for(None).get(game.get_absolute_url()).content.decode()
    assert 'data-testid="analysis-summary"' in page and "accuracy" in page
    assert 'data-testid="analysis-chart"' in page and 'data-testid="analysis-table"' in page
    panel = client_for(None).get(reverse("analysis_panel", args=[game.pk])).content.decode()
    assert "<svg" in panel and "<table" in panel
    profile = client_for(None).get(reverse("player", args=[players[0].pk])).content.decode()
    assert 'data-testid="analysis-line"' in profile and "accuracy" in profile
    # Asking again shows the same analysis: no second run.
    again = ask(game, member("Zoe"))
    assert again.json()["status"] == "done"
    assert GameAnalysis.objects.count() == 1


def test_same_game_same_analysis_and_a_resumed_run_equals_an_uninterrupted_one():
    game, players = finished_game(keft(), ["Anna", "Boris", "Vera"], seed=8)
    ask(game, players[0])
    work()
    analysis = GameAnalysis.objects.get(game=game)
    full = analysis.decisions
    # A worker died after three decisions: the row says running, its heartbeat is old.
    analysis.status = GameAnalysis.Status.RUNNING
    analysis.done = 5  # the progress shown runs ahead of what was saved
    analysis.saved = 3
    analysis.decisions = full[:3]
    analysis.summary = None
    analysis.finished = None
    analysis.heartbeat = timezone.now() - timezone.timedelta(hours=1)
    analysis.save()
    # Its worker ran on another machine (it cannot be checked from here) and fell silent.
    old_task = analysis.task_id
    DBTaskResult.objects.filter(pk=old_task).update(
        status=TaskResultStatus.RUNNING, worker_ids=["elsewhere:0:0:1:1"]
    )
    assert status(game)["status"] in ("queued", "running")  # polling queues it again
    assert "decisions" not in status(game)
    work()
    analysis.refresh_from_db()
    assert analysis.status == "done"
    assert analysis.decisions == full
    lost = DBTaskResult.objects.get(pk=old_task)
    assert lost.status == TaskResultStatus.FAILED
    assert lost.exception_class_path == "analysis.workers.WorkerLost"
    # And a fresh analysis of the same game is identical.
    analysis.delete()
    ask(game, players[1])
    work()
    assert GameAnalysis.objects.get(game=game).decisions == full


def _claimed(analysis: GameAnalysis, worker: str, heartbeat_age: float) -> str:
    """Make ``analysis`` look claimed and running by ``worker``; its task row's id."""
    DBTaskResult.objects.filter(pk=analysis.task_id).update(
        status=TaskResultStatus.RUNNING, worker_ids=[worker], started_at=timezone.now()
    )
    GameAnalysis.objects.filter(pk=analysis.pk).update(
        status=GameAnalysis.Status.RUNNING,
        heartbeat=timezone.now() - timezone.timedelta(seconds=heartbeat_age),
    )
    return analysis.task_id


def test_a_dead_workers_analysis_and_task_rows_are_recovered_at_once_a_busy_ones_are_not():
    here = workers.worker_id()  # this process: alive
    dead = here.rsplit(":", 1)[0] + ":0"  # this PID with another start time: a process gone
    assert workers.alive(here) is True and workers.alive(dead) is False
    assert workers.alive("elsewhere:0:0:1:1") is None
    first, players = finished_game(keft(), ["Anna", "Boris"], seed=5)
    second, others = finished_game(keft(), ["Gleb", "Dana"], seed=6)
    ask(first, players[0])
    ask(second, others[0])
    # The first one's worker died a moment ago: no need to wait for its silence.
    dead_task = _claimed(GameAnalysis.objects.get(game=first), dead, heartbeat_age=1)
    # The second one's worker lives but has said nothing for an hour (a worker at the
    # lowest priority on a busy machine): it is left alone.
    busy_task = _claimed(GameAnalysis.objects.get(game=second), here, heartbeat_age=3600)
    assert services.recover_stale() == 1
    recovered = GameAnalysis.objects.get(game=first)
    assert recovered.status == "queued" and recovered.task_id != dead_task
    assert DBTaskResult.objects.get(pk=recovered.task_id).status == TaskResultStatus.READY
    lost = DBTaskResult.objects.get(pk=dead_task)
    assert lost.status == TaskResultStatus.FAILED and lost.finished_at is not None
    assert lost.exception_class_path == "analysis.workers.WorkerLost"
    assert recovered.task_id in lost.traceback  # "queued again as <the new task>"
    assert GameAnalysis.objects.get(game=second).status == "running"
    assert DBTaskResult.objects.get(pk=busy_task).status == TaskResultStatus.RUNNING
    # A row a dead worker left running after its analysis was done is closed too.
    GameAnalysis.objects.filter(game=second).update(status=GameAnalysis.Status.DONE)
    DBTaskResult.objects.filter(pk=busy_task).update(worker_ids=[dead])
    assert services.recover_stale() == 0
    assert DBTaskResult.objects.get(pk=busy_task).status == TaskResultStatus.FAILED


def test_who_may_ask_players_always_everyone_once_public():
    private, players = finished_game(keft(), ["Anna", "Boris"], seed=5, private=True)
    stranger = member("Zoe")
    assert ask(private, stranger).status_code == 404
    assert (
        client_for(stranger).get(reverse("analysis_status", args=[private.pk])).status_code == 404
    )
    assert ask(private, players[1]).status_code == 202
    page = client_for(stranger).get(reverse("analysis_panel", args=[private.pk]))
    assert page.status_code == 404
    public, others = finished_game(keft(), ["Gleb", "Dana"], seed=6)
    assert ask(public, None).status_code == 403  # members only
    assert ask(public, stranger).status_code == 202


def test_limits_one_per_member_and_a_queue_cap(settings):
    first, players = finished_game(keft(), ["Anna", "Boris"], seed=5)
    second, _ = finished_game(keft(), ["Gleb", "Dana"], seed=6)
    third, _ = finished_game(keft(), ["Lev", "Mira"], seed=7)
    asker = member("Zoe")
    assert ask(first, asker).status_code == 202
    busy = ask(second, asker)
    assert busy.status_code == 429 and busy.json()["error"] == "busy"
    assert not GameAnalysis.objects.filter(game=second).exists()  # changed nothing
    settings.ANALYSIS_QUEUE_MAX = 1
    full = ask(third, players[0])
    assert full.status_code == 503 and full.json()["error"] == "queue_full"
    work()
    assert ask(second, asker).status_code == 202  # the first is done: the member may ask again


def test_an_analysis_over_its_cpu_budget_fails_and_shows_no_half_result(settings):
    settings.ANALYSIS_CPU_SECONDS = 0
    game, players = finished_game(keft(), ["Anna", "Boris", "Vera"], seed=5)
    ask(game, players[0])
    work()
    got = status(game)
    assert got["status"] == "failed" and "CPU budget" in got["message"]
    assert "decisions" not in got
    page = client_for(players[0]).get(game.get_absolute_url()).content.decode()
    assert 'data-testid="analysis-done"' not in page
    assert "Analyse this game again" in page
    settings.ANALYSIS_CPU_SECONDS = 600
    assert ask(game, players[0]).json()["status"] == "queued"


def test_golf_match_is_judged_in_expected_match_total():
    variant = Variant.objects.create(
        name="Golf, 1 round", game="golf", options={"rounds": 1}, max_players=12
    )
    game, players = finished_game(variant, ["Anna", "Boris"], seed=3)
    ask(game, players[0])
    work()
    got = status(game)
    assert got["status"] == "done" and got["measure"] == "match_total"
    played = [d["played"] for d in got["decisions"]]
    # The opening flips (G3) are judged too: the match's first move is a decision.
    assert got["decisions"][0]["n"] == 1 and played[0].split()[0] in ("flip", "ready")
    # Named as people read them (the registry's move_text), in the page's language.
    first = got["decisions"][0]
    readable = {f"turn up card {k}" for k in range(1, 10)} | {"say ready"}
    assert first["played_label"] in readable
    french = client_for(players[0]).get(
        reverse("analysis_status", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    )
    label = french.json()["decisions"][0]["played_label"]
    assert label.startswith("retourner la carte ") or label == "valider"
    assert any(m.split()[0] in ("draw", "take", "swap", "discard") for m in played)


def test_house_moves_are_not_judged():
    game, players = finished_game(keft(), ["Anna", "Boris", "Vera"], seed=5)
    chosen = game.moves.filter(seat=0).exclude(move="pass").order_by("number").first()
    chosen.auto = True  # the house played this one for Anna
    chosen.save()
    ask(game, players[0])
    work()
    judged = [d["n"] for d in status(game)["decisions"]]
    assert chosen.number not in judged
    assert judged


@pytest.mark.usefixtures("default_variants")
def test_an_open_duplicate_board_is_analysed_for_its_player_only_until_the_round_closes():
    from duplicate.services import close_round
    from tests.support.duplicate import finish, make_series, open_round, start

    series = make_series("Keft", seats=3)
    round_ = open_round(series, boards=1)
    anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
    anna_play = finish(start(anna, round_, 1))
    finish(start(boris, round_, 1))  # Boris finished the same board: he sees Anna's game
    game = anna_play.game
    for stranger in (boris, vera):
        assert ask(game, stranger).status_code == 404
        status_url = reverse("analysis_status", args=[game.pk])
        assert client_for(stranger).get(status_url).status_code == 404
    assert 'data-testid="analysis"' not in (
        client_for(boris).get(game.get_absolute_url()).content.decode()
    )
    assert ask(game, anna).status_code == 202  # her own game
    close_round(round_.pk)  # the round is over: the board is public
    assert client_for(vera).get(reverse("analysis_status", args=[game.pk])).status_code == 200
    assert ask(game, vera).json()["status"] == "queued"
