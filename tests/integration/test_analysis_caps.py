"""The analysis caps hold under concurrent asks (issue 36): one member's simultaneous
requests queue one analysis, and the whole site never has more than ANALYSIS_QUEUE_MAX
under way. On PostgreSQL, where requests really run side by side (SQLite takes one writer
at a time)."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from analysis import services
from analysis.models import GameAnalysis
from games.models import Game, Variant
from games.services import ServiceError
from tests.support.finished import finished_game

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("default_variants"),
]


def quick_member(name: str):
    """A member without a password: no hashing, a few milliseconds each."""
    return get_user_model().objects.create_user(name.lower(), f"{name.lower()}@example.com").player


def public_games(count: int) -> list[Game]:
    """`count` finished public games (open to every member's asking): one played out, the
    others its copies as the same table's next deals (cheaper than playing each)."""
    first = finished_game(Variant.objects.get(name="Keft"), ["Pa", "Pb"], seed=1)[0]
    fields = {f.name: getattr(first, f.name) for f in Game._meta.fields if f.name != "id"}
    copies = [Game.objects.create(**{**fields, "number": n}) for n in range(2, count + 1)]
    return [first, *copies]


def ask_at_once(asks: list[tuple]) -> list[str]:
    """Every (game, player) asks in its own thread (its own connection), all released at
    once; each answer's outcome: "queued" or the refusal's code. At most 6 asks: the
    process's connection pool holds 8 (DATABASE_POOL_SIZE), one is the test's own."""
    assert len(asks) <= 6
    barrier = threading.Barrier(len(asks))
    outcomes: list[str] = [""] * len(asks)

    def ask(i: int, game, player) -> None:
        try:
            # Connected before the start: opening a connection takes longer than a request,
            # and would line the requests up one after the other.
            connection.ensure_connection()
            barrier.wait()
            services.request(game, player)
            outcomes[i] = "queued"
        except ServiceError as exc:
            outcomes[i] = exc.code
        finally:
            connection.close()

    threads = [
        threading.Thread(target=ask, args=(i, game, player))
        for i, (game, player) in enumerate(asks)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_one_members_simultaneous_asks_queue_one_analysis(settings):
    settings.ANALYSIS_QUEUE_MAX = 100
    asker = quick_member("Zoe")
    outcomes = ask_at_once([(game, asker) for game in public_games(6)])
    assert outcomes.count("queued") == 1 and outcomes.count("busy") == 5
    assert GameAnalysis.objects.filter(requested_by=asker).count() == 1


def test_the_site_wide_queue_cap_holds_under_simultaneous_asks(settings):
    settings.ANALYSIS_QUEUE_MAX = 2
    games = public_games(6)
    askers = [quick_member(f"Asker{i}") for i in range(6)]
    outcomes = ask_at_once(list(zip(games, askers, strict=True)))
    assert outcomes.count("queued") == 2 and outcomes.count("queue_full") == 4
    assert GameAnalysis.objects.filter(status__in=services.ACTIVE).count() == 2
