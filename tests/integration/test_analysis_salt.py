"""The coach is handed a public salt, the game's id, never the seed that dealt the game
(issue 36): the seed deals every hidden card (Golf's later rounds and stock too), and a
coach could deal again from it. tests/unit/test_coach.py has the honesty claim itself: two
games that differ only in cards the seat never saw, dealt from different seeds, get
identical judgements for one salt."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from analysis import services
from analysis.coaching import decisions, judge
from analysis.models import GameAnalysis
from games import registry
from games.models import Variant
from tests.support.finished import finished_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("default_variants")]


def test_the_analysis_salts_the_coach_with_the_games_id_not_its_seed(settings):
    settings.ANALYSIS_SAMPLES = 4
    settings.ANALYSIS_WORKER_NICE = 0
    # Three players: hidden cards to sample (two would be a game of perfect information).
    keft = Variant.objects.get(name="Keft")
    game, players = finished_game(keft, ["Anna", "Boris", "Vera"], seed=5)
    assert game.pk != game.seed
    services.request(game, players[0])
    call_command("worker", batch=True, interval=0)
    analysis = GameAnalysis.objects.get(game=game)
    assert analysis.status == GameAnalysis.Status.DONE
    engine = registry.engine(game.game)
    rows = list(game.moves.order_by("number").values_list("number", "seat", "move", "auto"))
    state = engine.deal(3, game.seed, engine.options(game.options))
    todo = decisions(engine, state, rows, range(3))

    def judged(salt) -> list[dict]:
        return [got for d in todo if (got := judge(engine, d, salt, 4)) is not None]

    assert analysis.decisions == judged(game.pk)
    assert analysis.decisions != judged(game.seed)  # the seed would have sampled otherwise
