"""Issue 42, security review: away days and table caps cannot be gamed.

Each test is the attack as it was measured on main (8c5237a); each failed there.
The clock is moved with time-machine, as in tests/integration/test_turn_based.py.
"""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.utils import timezone

from games import away, services
from games.models import Absence, Seat, Table, Variant
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]

EVENING = datetime.datetime(2026, 3, 2, 20, 0, tzinfo=datetime.UTC)  # a Monday, 20:00 UTC


def _two_member_table(pace: str) -> tuple[Table, Seat]:
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name="Devyatka"), 2, pace=pace)
    services.join_table(boris, table.pk)
    table.refresh_from_db()
    game = services.current_game(table)
    engine = Variant.objects.get(pk=table.variant_id).engine
    position = engine.actors(engine.from_json(game.state))[0]
    return table, table.seats.get(position=position)


def test_declaring_tomorrow_each_evening_and_withdrawing_at_2359_counts_every_day(settings):
    """Measured: a 12-hour clock stopped for 30 days while 1 day of 14 was counted."""
    settings.AWAY_DAYS_PER_YEAR = 14
    with time_machine.travel(EVENING, tick=False) as clock:
        table, seat = _two_member_table("12h")
        player = seat.player
        declared = 0
        refusal = None
        for _night in range(30):
            tomorrow = timezone.localdate() + datetime.timedelta(days=1)
            try:
                absence, _ = away.declare(player, tomorrow, tomorrow)
            except services.ServiceError as exc:
                refusal = exc
                break
            declared += 1
            day_start = timezone.make_aware(datetime.datetime.combine(tomorrow, datetime.time()))
            clock.move_to(day_start + datetime.timedelta(hours=23, minutes=59))
            away.withdraw(player, absence.pk)
            # Withdrawn on its own day: that day still counts.
            assert away.days_in_year(player, 2026) == declared
            clock.move_to(day_start + datetime.timedelta(hours=20))
        assert declared == 14, declared
        assert refusal is not None and refusal.code == "too_many_days"
        # The time credited to the clock and the days counted agree: each absence
        # touches one day and stops the clock for less than one day.
        absences = list(Absence.objects.filter(player=player))
        assert len(absences) == 14
        for absence in absences:
            assert away.first_day(absence) == away.last_day(absence)
            assert absence.ends - absence.starts <= datetime.timedelta(days=1)
        credited = sum((a.ends - a.starts for a in absences), datetime.timedelta())
        table.refresh_from_db()
        assert table.turn_deadline == table.turn_started + datetime.timedelta(hours=12) + credited


def test_an_absence_under_way_withdrawn_counts_each_day_it_touched(settings):
    settings.AWAY_DAYS_PER_YEAR = 14
    with time_machine.travel(EVENING, tick=False) as clock:
        _table, seat = _two_member_table("1d")
        first = timezone.localdate() + datetime.timedelta(days=1)
        absence, _ = away.declare(seat.player, first, first + datetime.timedelta(days=4))
        assert away.days_in_year(seat.player, 2026) == 5
        # Into its second day, at 00:30: two days touched, two counted; the other three freed.
        clock.shift(datetime.timedelta(days=1, hours=4, minutes=30))
        away.withdraw(seat.player, absence.pk)
        assert away.days_in_year(seat.player, 2026) == 2
        absence.refresh_from_db()
        assert (away.first_day(absence), away.last_day(absence)) == (
            first,
            first + datetime.timedelta(days=1),
        )


def test_turn_based_tables_count_toward_the_waiting_tables_limit(client, settings):
    """Measured: one account listed 29 waiting turn-based tables in the lobby (limit 3)."""
    settings.OPEN_TABLES_PER_MEMBER = 3
    settings.TURN_BASED_TABLES_MAX = 30
    anna = member("Anna")
    golf = Variant.objects.get(name="Golf")
    services.create_table(anna, golf, 4, pace="1d", limited=True)
    services.create_table(anna, golf, 4, pace="2d", limited=True)
    services.create_table(anna, golf, 4, limited=True)  # live
    for pace in ("1d", "live"):
        with pytest.raises(services.ServiceError) as refusal:
            services.create_table(anna, golf, 4, pace=pace, limited=True)
        assert refusal.value.code == "too_many_tables"
        assert "as many tables waiting for players" in str(refusal.value.message)
    assert Table.objects.filter(created_by=anna).count() == 3
    listed = client.get("/tables/list/").context["open_tables"]
    assert len([t for t in listed if t.created_by_id == anna.pk]) == 3


def test_a_pending_rematch_dealt_keeps_the_turn_based_cap(settings):
    """Measured: a member reached 31 turn-based tables of 30 when a rematch they had
    accepted was dealt after they had filled the cap elsewhere."""
    settings.TURN_BASED_TABLES_MAX = 30
    settings.OPEN_TABLES_PER_MEMBER = 0
    settings.TABLES_PER_HOUR = 0
    table, _seat = _two_member_table("1d")
    anna, boris = table.created_by, table.seats.exclude(player=table.created_by).get().player
    services.play_out(table.pk)
    golf = Variant.objects.get(name="Golf")
    for _other in range(29):
        services.create_table(anna, golf, 4, pace="1d", limited=True)
    services.play_again(anna, table.pk)  # 29 others + this rematch: 30
    with pytest.raises(services.ServiceError) as refusal:
        services.create_table(anna, golf, 4, pace="1d", limited=True)
    assert refusal.value.code == "too_many_turn_tables"
    services.play_again(boris, table.pk)  # the rematch is dealt
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    seated = (
        Seat.objects.filter(player=anna, is_bot=False)
        .exclude(table__pace="live")
        .filter(table__status__in=[Table.Status.OPEN, Table.Status.PLAYING])
        .count()
    )
    assert seated == 30


@pytest.mark.django_db(transaction=True)
async def test_a_rematch_over_the_cap_is_an_error_frame_and_changes_nothing(settings):
    from channels.db import database_sync_to_async

    from tests.integration.test_table_ws import connect

    settings.TURN_BASED_TABLES_MAX = 2
    settings.OPEN_TABLES_PER_MEMBER = 0

    def setup():
        table, _seat = _two_member_table("1d")
        services.play_out(table.pk)
        anna = table.created_by
        golf = Variant.objects.get(name="Golf")
        for _other in range(2):
            services.create_table(anna, golf, 4, pace="1d")
        return table.pk, anna.user

    table_id, user = await database_sync_to_async(setup)()
    ws = await connect(table_id, user)
    state = await ws.receive_json_from()
    await ws.send_json_to({"type": "again", "version": state["version"]})
    refused = await ws.receive_json_from()
    assert refused["type"] == "error" and refused["code"] == "too_many_turn_tables"
    assert "(2)" in refused["message"]
    await ws.disconnect()
    accepted = await database_sync_to_async(
        lambda: Seat.objects.filter(table_id=table_id, rematch=True, is_bot=False).count()
    )()
    assert accepted == 0
