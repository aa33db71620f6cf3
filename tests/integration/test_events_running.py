"""Club nights run by themselves: a turn-based night of 8 members and 3 rounds at one day a
move completes under a controlled clock with nothing but the house (its turns and its
duty); standings rank the members (never a bot); bad sign-ups and withdrawals are refused
with a clear message and change nothing; three nights replayed give identical standings."""

from __future__ import annotations

import datetime
import itertools
import zoneinfo

import pytest
import time_machine
from django.utils import timezone

from events import running
from events import services as event_services
from events.models import Entry, Event, Round, RoundTable
from events.standings import standings
from games import services
from games.models import Table, Variant
from games.services import ServiceError
from tests.support.members import member

START = datetime.datetime(2026, 3, 2, 18, 0, tzinfo=datetime.UTC)


def night(variant: str = "Devyatka", **extra) -> Event:
    fields = {
        "name": "Test night",
        "slug": f"test-night-{Event.objects.count()}",
        "variant": Variant.objects.get(name=variant),
        "pace": "1d",
        "rounds": 3,
        "min_seats": 3,
        "max_seats": 5,
        "signup_opens": START - datetime.timedelta(days=2),
        "signup_closes": START,
        "starts": START,
        "round_hours": 72,
    }
    fields.update(extra)
    event = Event(**fields)
    event.full_clean()
    event.save()
    return event


def house_turns() -> int:
    """What the house runner does between duties: every due turn, bots' and timed-out ones."""
    played = 0
    for _ in range(10_000):
        due = services.due_tables(limit=50)
        moved = 0
        for table_id in due:
            turn = services.automatic_turn(table_id)
            if turn is None:
                continue
            move = services.choose_automatic_move(turn)
            if services.play_automatic(turn, move) is not None:
                moved += 1
        played += moved
        if not moved:
            return played
    return played


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
def test_turn_based_night_completes_with_no_manual_step(settings) -> None:
    settings.BOT_DELAY_SECONDS = 1.0
    with time_machine.travel(START - datetime.timedelta(days=1), tick=False) as clock:
        event = night()
        people = [member(f"Night{i}") for i in range(8)]
        for person in people:
            event_services.sign_up(person, event.pk)
        clock.move_to(START)
        for _step in range(400):
            running.nights_duty()
            house_turns()
            event.refresh_from_db()
            if event.status == Event.Status.FINISHED:
                break
            clock.shift(datetime.timedelta(hours=6))
        assert event.status == Event.Status.FINISHED
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3]
    assert all(r.finished for r in rounds)
    tables = RoundTable.objects.filter(round__event=event)
    # 8 members at tables of 3 to 5: two tables of four, no bots needed.
    assert all(len(t.players) == 4 and not t.bots for t in tables)
    assert [t.table.status for t in tables] == [Table.Status.FINISHED] * 6
    # Seat 0 balanced: 6 deals among 8 members, nobody twice.
    dealers = [t.players[0] for t in tables]
    assert len(dealers) == len(set(dealers)) == 6
    rows = standings(event)
    assert sorted(r.row.player_id for r in rows) == sorted(p.pk for p in people)
    assert all(r.row.games == 3 for r in rows)
    assert rows[0].rank == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
def test_bots_fill_a_live_night_and_count_in_nobody_s_standings(settings) -> None:
    """Six present members at tables of four: a bot fills each table; when every table of
    round 1 has finished, round 2 is seated at once (the game-end hook), then the night ends."""
    with time_machine.travel(START - datetime.timedelta(hours=1), tick=False) as clock:
        event = night(pace="live", rounds=2, min_seats=4, max_seats=4)
        people = [member(f"Live{i}") for i in range(6)]
        for person in people:
            event_services.sign_up(person, event.pk)
        Entry.objects.filter(event=event).update(online=True)
        clock.move_to(START)
        running.nights_duty()
        first = list(RoundTable.objects.filter(round__event=event, round__number=1))
        assert sorted(len(t.members) for t in first) == [3, 3]
        assert all(len(t.players) == 4 and len(t.bots) == 1 for t in first)
        for table in first:
            services.play_out(table.table_id)  # as if the members played it out
        second = list(RoundTable.objects.filter(round__event=event, round__number=2))
        assert len(second) == 2
        for table in second:
            services.play_out(table.table_id)
        event.refresh_from_db()
        assert event.status == Event.Status.FINISHED
    rows = standings(event)
    assert {r.row.player_id for r in rows} == {p.pk for p in people}
    assert all(r.row.games == 2 for r in rows)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
def test_seat_zero_passes_round_the_whole_table_bots_included(settings) -> None:
    """Two members and a house bot at a table of three, three games a round: seat 0 passes
    round the whole table, so the bot deals the third game and the house plays its turns
    there as at any seat (here it opens the game); over the night
    each member held seat 0 equally often."""
    from games.models import Game, Move

    settings.BOT_DELAY_SECONDS = 1.0
    # Seed 1 deals the third game so that its bot, in seat 0, is the one to open.
    with (
        time_machine.travel(START - datetime.timedelta(hours=1), tick=False) as clock,
        services.seeded_deals(1),
    ):
        event = night(pace="live", rounds=2, games_per_round=3, min_seats=3, max_seats=3)
        anna, boris = member("Anna"), member("Boris")
        for person in (anna, boris):
            event_services.sign_up(person, event.pk)
        Entry.objects.filter(event=event).update(online=True)
        clock.move_to(START)
        running.nights_duty()
        (first,) = RoundTable.objects.filter(round__event=event, round__number=1)
        assert first.bots == [2] and sorted(first.members) == sorted([anna.pk, boris.pk])
        services.play_out(first.table_id)
        services.play_out(first.table_id)
        games = list(Game.objects.filter(table_id=first.table_id).order_by("number"))
        assert [g.players for g in games] == [
            first.players,
            first.players[1:] + first.players[:1],
            first.players[2:] + first.players[:2],
        ]
        bot_game = games[2]
        assert bot_game.players[0] == first.players[2]  # the bot holds seat 0
        seats = list(first.table.seats.order_by("position").values_list("player_id", "is_bot"))
        assert seats[0] == (first.players[2], True)
        clock.shift(datetime.timedelta(seconds=2))
        assert house_turns() >= 1
        opening = Move.objects.filter(game=bot_game).order_by("number").first()
        assert (opening.seat, opening.auto) == (0, True)
        services.play_out(first.table_id)
        (second,) = RoundTable.objects.filter(round__event=event, round__number=2)
        for _game in range(3):
            services.play_out(second.table_id)
        event.refresh_from_db()
        assert event.status == Event.Status.FINISHED
    night_games = Game.objects.filter(table__event_table__round__event=event)
    assert night_games.count() == 6
    held = [g.players[0] for g in night_games]
    assert held.count(anna.pk) == held.count(boris.pk) == 2
    _met, dealt = running.history(event)
    assert dealt == {anna.pk: 2, boris.pk: 2}


@pytest.mark.django_db
def test_bad_sign_ups_are_refused_and_change_nothing() -> None:
    with time_machine.travel(START - datetime.timedelta(days=1), tick=False) as clock:
        event = night(capacity=2)
        anna, boris, vera = member("Anna"), member("Boris"), member("Vera")
        event_services.sign_up(anna, event.pk)
        with pytest.raises(ServiceError, match="already signed up"):
            event_services.sign_up(anna, event.pk)
        event_services.sign_up(boris, event.pk)
        with pytest.raises(ServiceError, match="full"):
            event_services.sign_up(vera, event.pk)
        assert Entry.objects.filter(event=event).count() == 2
        # Withdraw and come back.
        event_services.withdraw(boris, event.pk)
        with pytest.raises(ServiceError, match="not signed up"):
            event_services.withdraw(boris, event.pk)
        event_services.sign_up(boris, event.pk)
        clock.move_to(START + datetime.timedelta(minutes=1))
        with pytest.raises(ServiceError, match="has closed"):
            event_services.sign_up(vera, event.pk)
        early = night(
            signup_opens=START + datetime.timedelta(days=5),
            starts=START + datetime.timedelta(days=6),
            signup_closes=START + datetime.timedelta(days=6),
        )
        with pytest.raises(ServiceError, match="not opened yet"):
            event_services.sign_up(vera, early.pk)
        Event.objects.filter(pk=event.pk).update(status=Event.Status.CANCELLED)
        with pytest.raises(ServiceError, match="cancelled"):
            event_services.sign_up(vera, event.pk)
        Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
        with pytest.raises(ServiceError, match="over"):
            event_services.withdraw(anna, event.pk)
        assert Entry.objects.get(event=event, player=anna).status == Entry.Status.SIGNED_UP
        assert not Entry.objects.filter(player=vera).exists()


def _play_night(seed_names: str) -> list[tuple[str, int | None, int]]:
    """A turn-based night of six members played by the house alone; (name, rank, games)."""
    event = night(slug=f"golden-{seed_names}", pace="1d", rounds=2, min_seats=3, max_seats=3)
    people = [member(f"{seed_names}{i}") for i in range(6)]
    for person in people:
        event_services.sign_up(person, event.pk)
    return event, people


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
def test_golden_three_nights_replay_to_identical_standings() -> None:
    """Three nights' recorded results, ranked again from the database, give the same
    standings each time (the ranking is a pure function of the night's results)."""
    with time_machine.travel(START - datetime.timedelta(days=1), tick=False) as clock:
        events = []
        for name in ("Gold", "Silver", "Bronze"):
            event, _people = _play_night(name)
            events.append(event)
        clock.move_to(START)
        with services.seeded_deals(43):
            for _step in range(300):
                running.nights_duty()
                house_turns()
                if all(Event.objects.get(pk=e.pk).status == Event.Status.FINISHED for e in events):
                    break
                clock.shift(datetime.timedelta(hours=6))
    first = [
        [(r.row.name, r.rank, r.row.games, r.row.half_points) for r in standings(e)] for e in events
    ]
    again = [
        [(r.row.name, r.rank, r.row.games, r.row.half_points) for r in standings(e)] for e in events
    ]
    assert first == again
    for rows in first:
        assert len(rows) == 6 and all(games == 2 for _n, _r, games, _h in rows)
        ranks = [rank for _n, rank, _g, _h in rows]
        assert ranks == sorted(ranks) and ranks[0] == 1
        # Ranked by placement points per game: a better rank never has fewer points.
        for (_n1, _r1, g1, h1), (_n2, _r2, g2, h2) in itertools.pairwise(rows):
            assert h1 / g1 >= h2 / g2


@pytest.mark.django_db
def test_the_next_recurring_night_exists_ahead_and_keeps_its_hour_on_a_dst_week(settings) -> None:
    settings.TIME_ZONE = "Europe/Berlin"
    berlin = zoneinfo.ZoneInfo("Europe/Berlin")
    first_start = datetime.datetime(2026, 3, 20, 20, 0, tzinfo=berlin)
    with time_machine.travel(first_start - datetime.timedelta(days=10), tick=False) as clock:
        event = night(
            pace="live",
            starts=first_start,
            signup_opens=first_start - datetime.timedelta(days=3),
            signup_closes=first_start,
            recurrence="FREQ=WEEKLY;BYDAY=FR",
        )
        running.make_recurrences(timezone.now())
        assert Event.objects.count() == 1  # the next one's sign-up is far off yet
        # A day before the next night's sign-up opens (24 March 20:00), it exists.
        clock.move_to(datetime.datetime(2026, 3, 23, 20, 30, tzinfo=berlin))
        assert running.make_recurrences(timezone.now()) == 1
        assert running.make_recurrences(timezone.now()) == 0
        following = Event.objects.get(recurs_from=event)
    assert following.starts.astimezone(berlin) == datetime.datetime(
        2026, 3, 27, 20, 0, tzinfo=berlin
    )
    assert following.starts - following.signup_opens == datetime.timedelta(days=3)
    assert following.slug == f"{event.slug}-20260327"


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
def test_late_join_withdraw_and_return_with_two_games_a_round_counted_in_a_series() -> None:
    """A member who joins late is seated from the next round (standings say "late"), one who
    withdraws is not seated again until they return; joining after half the rounds is
    refused; each table plays two games a round, and the games count in the house series."""
    from club.models import GameResult, Series

    series = Series.objects.create(
        name="Night series", slug="night-series", variant=Variant.objects.get(name="Devyatka")
    )
    with time_machine.travel(START - datetime.timedelta(hours=1), tick=False) as clock:
        event = night(
            pace="live",
            rounds=4,
            games_per_round=2,
            min_seats=3,
            max_seats=3,
            signup_closes=START + datetime.timedelta(hours=3),
            series=series,
        )
        people = [member(f"Early{i}") for i in range(3)]
        for person in people:
            event_services.sign_up(person, event.pk)
        Entry.objects.filter(event=event).update(online=True)
        clock.move_to(START)
        running.nights_duty()
        (first,) = RoundTable.objects.filter(round__event=event, round__number=1)
        late = member("Latecomer")
        entry = event_services.sign_up(late, event.pk)
        assert entry.status == Entry.Status.LATE
        Entry.objects.filter(pk=entry.pk).update(online=True)
        event_services.withdraw(people[2], event.pk)
        services.play_out(first.table_id)
        # The second game of the round is dealt at once at the same table, seat 0 (who deals
        # and moves first) passed to the next member: the seats turn round by one.
        assert first.table.games.count() == 2
        games = list(first.table.games.order_by("number"))
        assert games[0].players == first.players
        assert games[1].players == first.players[1:] + first.players[:1]
        seats = list(first.table.seats.order_by("position").values_list("player_id", flat=True))
        assert seats == games[1].players
        assert not RoundTable.objects.filter(round__event=event, round__number=2).exists()
        services.play_out(first.table_id)
        (second,) = RoundTable.objects.filter(round__event=event, round__number=2)
        seated = set(second.members)
        assert late.pk in seated and people[2].pk not in seated
        assert len(second.players) == 3 and len(second.bots) == 0
        event_services.sign_up(people[2], event.pk)  # back for round 3
        Entry.objects.filter(player=people[2]).update(online=True)
        for _game in range(2):
            services.play_out(second.table_id)
        # Half the rounds (2 of 4) are seated: too late to join now.
        with pytest.raises(ServiceError, match="too late"):
            event_services.sign_up(member("Toolate"), event.pk)
        third = RoundTable.objects.filter(round__event=event, round__number=3)
        assert people[2].pk in {p for t in third for p in t.members}
    rows = {r.row.player_id: r for r in standings(event)}
    assert rows[late.pk].status == Entry.Status.LATE
    assert rows[late.pk].row.games == 2 and rows[people[0].pk].row.games == 4
    counted = GameResult.objects.filter(series=series, player__in=people + [late]).count()
    assert counted == sum(r.row.games for r in rows.values())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
@pytest.mark.parametrize("allowed", [True, False])
def test_away_days_count_only_at_a_night_that_allows_them(client, allowed: bool) -> None:
    """A turn-based night that does not allow away days keeps its tables' clocks running for
    a member who declared some (the house plays their turn when the time runs out, as for
    any absent seat), and says so on its page; one that allows them stops the clocks."""
    from games import away
    from games.services import pace

    with time_machine.travel(START - datetime.timedelta(days=1), tick=False) as clock:
        event = night(away_allowed=allowed, min_seats=3, max_seats=3)
        people = [member(f"Away{i}") for i in range(3)]
        for person in people:
            event_services.sign_up(person, event.pk)
        clock.move_to(START)
        running.nights_duty()
        (round_table,) = RoundTable.objects.filter(round__event=event)
        today = timezone.localdate()
        for person in people:
            away.declare(person, today, today + datetime.timedelta(days=2))
        table = Table.objects.get(pk=round_table.table_id)
        deadlines = {pace.member_deadline(table, seat) for seat in table.seats.filter(is_bot=False)}
        plain = table.turn_started + datetime.timedelta(days=1)
        if allowed:
            assert all(d > plain + datetime.timedelta(days=1) for d in deadlines)
            assert table.turn_deadline > plain
        else:
            assert deadlines == {plain}
            assert table.turn_deadline == plain
        client.force_login(people[0].user)
        page = client.get(event.get_absolute_url()).content.decode()
        said = "keep running" if not allowed else "stop your clocks"
        assert said in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("default_variants")
def test_a_start_dealt_table_by_table_resumes_after_the_process_died(monkeypatch) -> None:
    """The start seats the round in one short transaction and deals its tables one per
    transaction: a process dying after two tables leaves those two dealt and committed, the
    round not yet marked dealt (so it does not advance), and the next duty deals the rest,
    each table once."""
    with time_machine.travel(START - datetime.timedelta(hours=1), tick=False) as clock:
        event = night(pace="live", min_seats=3, max_seats=3)
        people = [member(f"Resume{i}") for i in range(12)]
        for person in people:
            event_services.sign_up(person, event.pk)
        Entry.objects.filter(event=event).update(online=True)
        clock.move_to(START)
        real = running._deal_table
        calls = []

        def dies_on_the_third(*args, **kwargs):
            calls.append(1)
            if len(calls) == 3:
                raise SystemExit("the process died")
            return real(*args, **kwargs)

        monkeypatch.setattr(running, "_deal_table", dies_on_the_third)
        with pytest.raises(SystemExit):
            running.start(event.pk)
        (first,) = Round.objects.filter(event=event)
        assert first.dealt is None and len(first.plan) == 4
        assert RoundTable.objects.filter(round=first).count() == 2
        monkeypatch.setattr(running, "_deal_table", real)
        running.nights_duty()
        first.refresh_from_db()
        assert first.dealt is not None
        tables = RoundTable.objects.filter(round=first).order_by("number")
        assert [t.number for t in tables] == [1, 2, 3, 4]
        assert sorted(p for t in tables for p in t.members) == sorted(p.pk for p in people)
        assert [list(t.players) for t in tables] == [list(p) for p in first.plan]
        running.nights_duty()  # nothing dealt twice
        assert RoundTable.objects.filter(round__event=event).count() == 4
        # Nobody has opened their table yet: every member's seat is away from the deal, so
        # the house plays it after the usual grace (a live round cannot stall on them).
        from games.models import Seat

        seats = Seat.objects.filter(table__event_table__round=first, is_bot=False)
        assert seats.count() == 12
        assert not seats.filter(away_since__isnull=True).exists()
