"""A duplicate round closes at its end time by itself: the house runner's duty, no cron.

The runner of every server process runs the duties apps register with games.hooks
every HOUSE_DUTY_SECONDS; the duplicate app's closes the rounds that are due (the
house plays out the unfinished boards, then the round is public). The command
`close_duplicate_rounds` stays for sites that run without the runner.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from channels.layers import get_channel_layer
from django.core.management import call_command
from django.utils import timezone

from duplicate.models import Play, Round
from games import hooks, runner
from games.broadcast import table_group
from games.models import Table
from tests.support.duplicate import make_series, open_round, start
from tests.support.members import member
from tests.support.server import DaphneServer, SiteDatabase
from tests.support.tables import run_django


def round_with_an_unfinished_board(ended: bool = True) -> tuple[Round, Play]:
    series = make_series("Devyatka", seats=3)
    round_ = open_round(series, boards=1)
    play = start(member("Anna"), round_)
    if ended:
        Round.objects.filter(pk=round_.pk).update(ends=timezone.now())
    return round_, play


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
def test_the_runners_duty_closes_a_due_round_and_publishes_the_played_out_board():
    round_, play = round_with_an_unfinished_board()
    layer = get_channel_layer()

    async def duties() -> tuple[int, dict]:
        channel = await layer.new_channel()
        await layer.group_add(table_group(play.table_id), channel)
        sent = await runner.run_duties()
        return sent, await asyncio.wait_for(layer.receive(channel), 10)

    sent, message = asyncio.run(duties())
    assert sent == 1 and message["type"] == "table.update"
    round_.refresh_from_db()
    assert round_.closed is not None
    play.refresh_from_db()
    assert play.table.status == Table.Status.FINISHED
    assert play.outcome_key is not None  # the house's play counts as the entrant's board
    assert asyncio.run(runner.run_duties()) == 0  # nothing left to do


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
def test_an_open_round_is_left_alone_by_the_duty():
    round_, play = round_with_an_unfinished_board(ended=False)
    assert asyncio.run(runner.run_duties()) == 0
    round_.refresh_from_db()
    assert round_.closed is None and round_.is_open()
    assert Table.objects.get(pk=play.table_id).status == Table.Status.PLAYING


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
def test_a_failing_duty_does_not_stop_the_others(monkeypatch, caplog):
    round_, _ = round_with_an_unfinished_board()

    def broken() -> list:
        raise RuntimeError("broken duty")

    monkeypatch.setattr(hooks, "_duties", [broken, *hooks.duties()])
    assert asyncio.run(runner.run_duties()) == 1
    round_.refresh_from_db()
    assert round_.closed is not None
    assert "broken" in caplog.text


@pytest.mark.django_db
@pytest.mark.usefixtures("default_variants")
def test_the_command_still_closes_due_rounds(capsys):
    round_, _ = round_with_an_unfinished_board()
    call_command("close_duplicate_rounds")
    assert "1 round(s) closed." in capsys.readouterr().out
    round_.refresh_from_db()
    assert round_.closed is not None


def test_a_server_nobody_visits_closes_the_round_at_its_end(database: SiteDatabase, tmp_path: Path):
    """A real daphne, started without any request: its runner starts with the server."""
    created = run_django(
        database,
        "import datetime\n"
        "from django.utils import timezone\n"
        "from duplicate.models import DuplicateSeries, Round\n"
        "from duplicate.services import play_board\n"
        "from tools import synthetic\n"
        "from games.models import Variant\n"
        "anna = synthetic.make_players(synthetic.new_prefix('dup'), 1)[0]\n"
        "s = DuplicateSeries.objects.create(name='Night', slug='night', seats=3,\n"
        "    variant=Variant.objects.get(name='Devyatka'), bot_level='random')\n"
        "now = timezone.now()\n"
        "r = Round.objects.create(series=s, number=1, boards=1,\n"
        "    starts=now - datetime.timedelta(hours=1), ends=now + datetime.timedelta(hours=1))\n"
        "from club.models import Player\n"
        "play, _ = play_board(Player.objects.get(pk=anna.player_id), r.board_set.get().pk)\n"
        "Round.objects.filter(pk=r.pk).update(ends=timezone.now())\n"
        "emit({'round': r.pk, 'table': play.table_id})\n",
    )
    server = DaphneServer(database, tmp_path, env={"HOUSE_DUTY_SECONDS": "0.5"})
    server.start(request=False)
    try:
        deadline = time.monotonic() + 120
        state = None
        while time.monotonic() < deadline:
            state = run_django(
                database,
                "from duplicate.models import Play, Round\n"
                f"r = Round.objects.get(pk={created['round']})\n"
                f"p = Play.objects.select_related('table').get(table_id={created['table']})\n"
                "emit({'closed': r.closed is not None, 'status': p.table.status,\n"
                "      'key': p.outcome_key is not None})\n",
            )
            if state["closed"]:
                break
            time.sleep(0.5)
        assert state == {"closed": True, "status": "finished", "key": True}
        assert "Traceback" not in server.log_path.read_text()
    finally:
        server.stop()


def test_the_closing_duty_is_registered():
    from duplicate.services import round_closing_duty

    assert round_closing_duty in hooks.duties()
