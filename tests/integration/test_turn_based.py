"""Turn-based tables (issue 37): paces, deadlines on a controlled clock, away days, caps, events.

The clock is moved with time-machine (`travel`): every deadline is stored in the
database and worked out from `timezone.now()`, so a test travels days in an
instant. The house's sweep is the runner's own pass (`runner.run_once`); the
in-transaction tests play it through the same services on the test's thread.
"""

from __future__ import annotations

import asyncio
import datetime

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from club.models import Series
from games import away, hooks, paces, runner, services
from games.models import Absence, Move, Seat, Table, Variant
from tests.support.members import member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("default_variants")]

START = datetime.datetime(2026, 3, 2, 9, 0, tzinfo=datetime.UTC)  # a Monday, 09:00 UTC


@pytest.fixture
def clock():
    """The site's clock, stopped at START; `clock.shift(td)` moves it."""
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def events():
    """Every games.hooks event emitted (delivered on commit) during the test."""
    seen: list[hooks.Event] = []
    hooks.listen(seen.append)
    yield seen
    hooks.unlisten(seen.append)


def sweep() -> int:
    """One pass of the house runner, on this thread (the test's transaction)."""
    played = 0
    for table_id in services.due_tables():
        turn = services.automatic_turn(table_id)
        if turn is None:
            continue
        if services.play_automatic(turn, services.choose_automatic_move(turn)) is not None:
            played += 1
    return played


def two_member_table(pace: str = "1d", variant: str = "Devyatka"):
    anna, boris = member("Anna"), member("Boris")
    table, _ = services.create_table(anna, Variant.objects.get(name=variant), 2, pace=pace)
    services.join_table(boris, table.pk)
    table.refresh_from_db()
    return table, anna, boris


def to_move(table: Table) -> Seat:
    game = services.current_game(table)
    engine = Variant.objects.get(pk=table.variant_id).engine
    seat = engine.actors(engine.from_json(game.state))[0]
    return table.seats.get(position=seat)


# ---------------------------------------------------------------------------
# Choosing a pace


def test_lobby_form_offers_only_the_paces_the_variant_and_series_allow(client: Client):
    variant = Variant.objects.get(name="Devyatka")
    variant.paces = ["live", "1d", "3d"]
    variant.save()
    series = Series.objects.create(name="Slow nines", slug="slow", variant=variant, paces=["3d"])
    client.force_login(member("Anna").user)
    post = {"variant": variant.pk, "seats": 2}
    refused = client.post("/tables/", {**post, "pace": "7d"})
    assert refused.status_code == 200
    assert "pace" in refused.context["form"].errors
    nonsense = client.post("/tables/", {**post, "pace": "fortnight"})
    assert "pace" in nonsense.context["form"].errors
    in_series = client.post("/tables/", {**post, "pace": "1d", "series": series.pk})
    assert "pace" in in_series.context["form"].errors
    opened = client.post("/tables/", {**post, "pace": "3d", "series": series.pk})
    assert opened.status_code == 302
    assert Table.objects.get().pace == "3d"


def test_a_pace_the_variant_does_not_allow_is_refused_by_the_service():
    variant = Variant.objects.get(name="Golf")
    variant.paces = ["live"]
    variant.save()
    with pytest.raises(services.ServiceError) as refusal:
        services.create_table(member("Anna"), variant, 2, pace="2d")
    assert refusal.value.code == "bad_pace"


def test_existing_variants_allow_every_pace_and_tables_are_live_by_default():
    assert Variant.objects.get(name="Keft").paces == paces.all_paces()
    table, _ = services.create_table(member("Anna"), Variant.objects.get(name="Keft"), 3)
    assert table.pace == paces.LIVE


# ---------------------------------------------------------------------------
# Deadlines on a controlled clock


def test_member_to_move_has_the_pace_from_the_start_of_the_turn(clock):
    table, _anna, _boris = two_member_table("1d")
    seat = to_move(table)
    assert table.turn_deadline == START + datetime.timedelta(days=1)
    frame = services.project(services.table_for_viewer(table.pk, seat.player_id), seat.player_id)
    assert frame["table"]["pace"] == "1d"
    assert frame["table"]["pace_seconds"] == 86400
    assert frame["table"]["clock_deadline"] is None  # no clock of seconds at this table
    deadlines = {s["position"]: s["deadline"] for s in frame["table"]["seats"]}
    assert deadlines[seat.position] == (START + datetime.timedelta(days=1)).timestamp()
    assert deadlines[1 - seat.position] is None


def test_a_member_not_connected_keeps_their_time_at_a_turn_based_table(clock, settings):
    settings.AWAY_GRACE_SECONDS = 60
    table, _anna, _boris = two_member_table("12h")
    Seat.objects.filter(table=table).update(away_since=START)  # nobody has the page open
    clock.shift(datetime.timedelta(hours=2))
    assert sweep() == 0
    assert not Move.objects.exists()


def test_house_plays_the_move_when_time_runs_out_then_keeps_the_seat_after_missed_moves(
    clock, settings, events, django_capture_on_commit_callbacks
):
    settings.TURN_BASED_MISSED_MOVES = 2
    settings.BOT_DELAY_SECONDS = 0
    table, anna, boris = two_member_table("12h")
    late = to_move(table)
    with django_capture_on_commit_callbacks(execute=True):
        clock.shift(datetime.timedelta(hours=11, minutes=59))
        assert sweep() == 0
        clock.shift(datetime.timedelta(minutes=2))
        assert sweep() == 1
    assert Move.objects.filter(seat=late.position, auto=True).count() >= 1
    late.refresh_from_db()
    assert late.missed == 1 and not late.handed_over
    # The turn comes back to the late member; their time runs out again.
    for _round in range(40):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING or late.handed_over:
            break
        with django_capture_on_commit_callbacks(execute=True):
            if to_move(table).pk != late.pk:
                other = to_move(table)
                game = services.current_game(table)
                engine = table.variant.engine
                move = engine.view(engine.from_json(game.state), other.position)["legal"][0]
                services.play_move(other.player_id, table.pk, move, table.version)
            else:
                clock.shift(datetime.timedelta(hours=12, minutes=1))
                sweep()
        late.refresh_from_db()
    assert late.handed_over and late.missed == 2
    assert [e.player_ids for e in events if e.kind == "seat_to_house"] == [(late.player_id,)]
    table.refresh_from_db()
    if table.status == Table.Status.PLAYING:
        with pytest.raises(services.ServiceError) as refusal:
            services.come_back(late.player_id, table.pk)
        assert refusal.value.code == "seat_to_house"


def test_bots_at_a_turn_based_table_move_after_their_short_delay(clock, settings):
    settings.BOT_DELAY_SECONDS = 1.0
    anna = member("Anna")
    table, _ = services.create_table(anna, Variant.objects.get(name="Golf"), 2, pace="7d")
    services.add_bot(anna, table.pk, "random")
    table.refresh_from_db()
    # Golf's reveal: everyone acts at once; the bot is due a second after the deal.
    assert table.turn_deadline == START + datetime.timedelta(seconds=1)
    clock.shift(datetime.timedelta(seconds=2))
    assert sweep() >= 1
    bot_seat = table.seats.get(is_bot=True).position
    assert Move.objects.filter(seat=bot_seat, auto=True).exists()
    assert not Move.objects.filter(seat=1 - bot_seat).exists()


@pytest.mark.django_db(transaction=True)
def test_a_deadline_that_passed_while_no_process_ran_is_handled_once_at_start(settings):
    settings.BOT_DELAY_SECONDS = 0
    with time_machine.travel(START, tick=False) as clock:
        table, _anna, _boris = two_member_table("1d")
        late = to_move(table)
        # Every process stops; three days pass; the first runner pass after the start:
        clock.shift(datetime.timedelta(days=3))
        assert asyncio.run(runner.run_once()) == 1
        assert asyncio.run(runner.run_once()) == 0
    assert Move.objects.filter(auto=True, seat=late.position).count() >= 1
    late.refresh_from_db()
    assert late.missed == 1
    table.refresh_from_db()
    # The next member's full day starts from the moment the house moved.
    assert table.turn_deadline == START + datetime.timedelta(days=4)


def test_the_sweep_finds_every_due_table_in_one_query(clock, django_assert_num_queries):
    for _table in range(3):
        Table.objects.create(
            variant=Variant.objects.get(name="Golf"),
            created_by=member(f"Member{_table}"),
            seat_count=2,
            status=Table.Status.PLAYING,
            pace="1d",
            turn_deadline=START - datetime.timedelta(minutes=1),
        )
    with django_assert_num_queries(1):
        assert len(services.due_tables()) == 3


# ---------------------------------------------------------------------------
# Away days


def test_away_days_stop_the_clock_and_others_see_when_the_member_is_back(clock):
    table, _anna, _boris = two_member_table("1d")
    seat = to_move(table)
    player = seat.player
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    absence, updates = away.declare(player, tomorrow, tomorrow + datetime.timedelta(days=1))
    table.refresh_from_db()
    # A day to move, from 09:00; the clock stops at midnight for two days: +2 days.
    assert table.turn_deadline == START + datetime.timedelta(days=3)
    assert [u.table_id for u in updates] == [table.pk]
    clock.shift(datetime.timedelta(days=1))  # 09:00 the next day: away
    viewer = 1 - seat.position
    other = table.seats.get(position=viewer).player_id
    frame = services.project(services.table_for_viewer(table.pk, other), other)
    shown = {s["position"]: s["away_until"] for s in frame["table"]["seats"]}
    assert shown[seat.position] == absence.ends.timestamp()
    assert shown[viewer] is None
    # Withdrawn while under way: it ends now; the 9 hours already away stay away.
    away.withdraw(player, absence.pk)
    table.refresh_from_db()
    assert table.turn_deadline == START + datetime.timedelta(days=1, hours=9)


def test_live_tables_ignore_away_days(clock):
    table, _anna, _boris = two_member_table(paces.LIVE)
    before = table.turn_deadline
    seat = to_move(table)
    away.declare(seat.player, timezone.localdate(), timezone.localdate())
    table.refresh_from_db()
    assert table.turn_deadline == before


def test_away_page_declares_lists_withdraws_and_refuses_bad_dates(clock, client, settings):
    settings.AWAY_DAYS_PER_YEAR = 5
    anna = member("Anna")
    client.force_login(anna.user)
    assert client.get("/away/").status_code == 200
    day = datetime.date(2026, 3, 10)
    ok = client.post("/away/", {"first": day, "last": day + datetime.timedelta(days=2)})
    assert ok.status_code == 302
    page = client.get("/away/")
    assert page.context["left"] == 2
    assert len(page.context["absences"]) == 1
    for first, last in [
        (day + datetime.timedelta(days=10), day + datetime.timedelta(days=12)),  # 6 > 5 days
        (day + datetime.timedelta(days=1), day + datetime.timedelta(days=1)),  # overlaps
        (datetime.date(2026, 3, 1), datetime.date(2026, 3, 1)),  # yesterday
        (day + datetime.timedelta(days=5), day + datetime.timedelta(days=4)),  # backwards
    ]:
        refused = client.post("/away/", {"first": first, "last": last})
        assert refused.status_code == 200
        assert refused.context["form"].errors
    assert client.post("/away/", {"first": "soon", "last": ""}).status_code == 200
    absence = Absence.objects.get()
    assert client.post(f"/away/{absence.pk}/withdraw/").status_code == 302
    assert not Absence.objects.exists()
    # Someone else's absence, or none: a message, not an error page.
    assert client.post("/away/999/withdraw/").status_code == 302


# ---------------------------------------------------------------------------
# Caps


def test_turn_based_tables_have_a_cap_of_their_own(settings):
    settings.TURN_BASED_TABLES_MAX = 2
    settings.OPEN_TABLES_PER_MEMBER = 3
    anna, boris = member("Anna"), member("Boris")
    golf = Variant.objects.get(name="Golf")
    for _table in range(2):
        services.create_table(anna, golf, 2, pace="2d", limited=True)
    with pytest.raises(services.ServiceError) as refusal:
        services.create_table(anna, golf, 2, pace="2d", limited=True)
    assert refusal.value.code == "too_many_turn_tables"
    # The turn-based cap is apart from the waiting tables' limit (which counts both
    # paces, tests/integration/test_abuse_tables.py): one waiting live table is allowed.
    services.create_table(anna, golf, 2, limited=True)
    for _table in range(2):
        services.create_table(boris, golf, 2, pace="1d", limited=True)
    with pytest.raises(services.ServiceError) as refusal:
        services.join_table(boris, Table.objects.filter(created_by=anna, pace="2d").first().pk)
    assert refusal.value.code == "too_many_turn_tables"


# ---------------------------------------------------------------------------
# Events and pages


def test_events_tell_who_starts_whose_turn_it_is_and_who_finished(
    clock, events, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table, anna, boris = two_member_table("2d")
    seat = to_move(table)
    kinds = [e.kind for e in events]
    assert kinds.count("table_started") == 1
    started = next(e for e in events if e.kind == "table_started")
    assert set(started.player_ids) == {anna.pk, boris.pk}
    turn = next(e for e in events if e.kind == "turn")
    assert turn.player_ids == (seat.player_id,)
    assert turn.data == {
        "deadline": (START + datetime.timedelta(days=2)).isoformat(),
        "pace": "turn",
        "pace_code": "2d",
    }
    with django_capture_on_commit_callbacks(execute=True):
        services.play_out(table.pk)
    finished = [e for e in events if e.kind == "game_finished"]
    assert len(finished) == 1
    assert set(finished[0].player_ids) == {anna.pk, boris.pk}
    assert finished[0].data["pace"] == "2d" and len(finished[0].data["places"]) == 2


def test_pages_show_the_pace_and_each_members_time_to_move(clock, client):
    table, anna, boris = two_member_table("1d")
    seat = to_move(table)
    clock.shift(datetime.timedelta(hours=20))
    other = boris if seat.player_id == anna.pk else anna
    client.force_login(other.user)
    name = seat.player.display_name
    for url in ("/", "/tables/", f"/tables/{table.pk}/"):
        page = client.get(url).content.decode()
        assert "1 day a move" in page, url
        assert f"{name} has 4 h 0 min to move" in page, url
        assert f'datetime="{(START + datetime.timedelta(days=1)).isoformat()}"' in page, url
    services.play_out(table.pk)
    game = services.current_game(table)
    assert "1 day a move" in client.get(f"/games/{game.pk}/").content.decode()


def test_time_left_reads_in_days_hours_and_minutes():
    assert paces.time_left(datetime.timedelta(days=1, hours=4, minutes=10)) == "1 day 4 h"
    assert paces.time_left(datetime.timedelta(days=3)) == "3 days"
    assert paces.time_left(datetime.timedelta(hours=5, minutes=20)) == "5 h 20 min"
    assert paces.time_left(datetime.timedelta(seconds=-5)) == "0 min"


@pytest.mark.django_db(transaction=True)
async def test_socket_state_carries_the_pace_and_a_seat_the_house_kept_refuses_a_move(settings):
    from channels.db import database_sync_to_async

    from tests.integration.test_table_ws import connect

    settings.TURN_BASED_MISSED_MOVES = 2

    def setup():
        table, _anna, _boris = two_member_table("3d")
        seat = to_move(table)
        Seat.objects.filter(pk=seat.pk).update(missed=2, handed_over=True)
        return table.pk, seat.player.user

    table_id, user = await database_sync_to_async(setup)()
    ws = await connect(table_id, user)
    state = await ws.receive_json_from()
    assert state["table"]["pace"] == "3d" and state["table"]["pace_seconds"] == 3 * 86400
    mine = next(s for s in state["table"]["seats"] if s["position"] == state["table"]["you"])
    assert mine["missed"] == 2 and mine["handed_over"]
    move = state["view"]["legal"][0]
    await ws.send_json_to({"type": "play", "move": move, "version": state["version"]})
    refused = await ws.receive_json_from()
    assert refused["type"] == "error" and refused["code"] == "seat_to_house"
    assert "2 times in a row" in refused["message"]
    await ws.disconnect()


def test_a_turn_based_duplicate_series_deals_boards_at_its_pace_and_closing_plays_them_out():
    from duplicate.services import close_round
    from tests.support.duplicate import make_series, open_round, start

    series = make_series("Golf", seats=2)
    series.pace = "1d"
    series.save()
    round_ = open_round(series, boards=1)
    play = start(member("Anna"), round_, 1)
    table = Table.objects.get(pk=play.table_id)
    assert table.pace == "1d"
    member_seat = table.seats.get(is_bot=False)
    game = services.current_game(table)
    frame = services.project(services.table_for_viewer(table.pk, member_seat.player_id), None)
    deadline = {s["position"]: s["deadline"] for s in frame["table"]["seats"]}
    assert (
        deadline[member_seat.position]
        == (table.turn_started + datetime.timedelta(days=1)).timestamp()
    )
    close_round(round_.pk)
    game.refresh_from_db()
    assert game.result is not None


def test_the_runner_tells_a_members_tables_once_when_their_away_days_end(clock):
    table, _anna, _boris = two_member_table("5d")
    seat = to_move(table)
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    away.declare(seat.player, tomorrow, tomorrow)
    assert away.tell_returns() == []  # not over yet
    # The whole site is down while the absence ends; the first duty pass after the start:
    clock.shift(datetime.timedelta(days=3))
    updates = away.tell_returns()
    assert [u.table_id for u in updates] == [table.pk]
    shown = {s["position"]: s["away_until"] for s in updates[0].snapshot["table"]["seats"]}
    assert shown[seat.position] is None
    assert away.tell_returns() == []  # once
    table.refresh_from_db()
    assert table.turn_deadline == START + datetime.timedelta(days=6)  # the day away added


@pytest.mark.parametrize(
    ("language", "pace", "left", "yours"),
    [
        ("en", "1 day a move", " has 4 h 0 min to move", "You have 4 h 0 min to move"),
        (
            "it",
            "1 giorno per mossa",
            " ha 4 h 0 min per la sua mossa",
            "Hai 4 h 0 min per la tua mossa",
        ),
        ("ru", "1 день на ход", ": 4 ч 0 мин на ход", "У вас 4 ч 0 мин на ход"),
        ("fr", "1 jour par coup", " a 4 h 0 min pour jouer", "Vous avez 4 h 0 min pour jouer"),
        ("es", "1 día por jugada", " tiene 4 h 0 min para jugar", "Tienes 4 h 0 min para jugar"),
        ("ro", "1 zi pe mutare", " are 4 h 0 min pentru mutare", "Ai 4 h 0 min pentru mutare"),
    ],
)
def test_pages_show_the_pace_and_time_to_move_in_the_viewers_language(
    clock, client, language, pace, left, yours
):
    """Your own time to move is said to you (second person), on the table, home and
    lobby; the others read it in the third person (locale/README.md)."""
    table, anna, boris = two_member_table("1d")
    seat = to_move(table)
    mover, other = (anna, boris) if seat.player_id == anna.pk else (boris, anna)
    clock.shift(datetime.timedelta(hours=20))
    for url in (f"/tables/{table.pk}/", "/", "/tables/"):
        client.force_login(other.user)
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert pace in page, url
        assert f"{mover.display_name}{left}" in page, url
        assert yours not in page, url
        client.force_login(mover.user)
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert yours in page, url
        assert f"{mover.display_name}{left}" not in page, url


def test_a_rematch_at_a_turn_based_table_counts_toward_the_cap(settings):
    table, anna, _boris = two_member_table("1d")
    services.play_out(table.pk)
    settings.TURN_BASED_TABLES_MAX = 1
    services.create_table(anna, Variant.objects.get(name="Golf"), 2, pace="1d")
    with pytest.raises(services.ServiceError) as refusal:
        services.play_again(anna, table.pk)
    assert refusal.value.code == "too_many_turn_tables"


def test_a_turn_of_several_actions_is_one_missed_move_on_one_clock(clock, settings):
    """Rule: a turn-based table counts a missed *turn*, not each action of it.

    A turn the engine keeps with the same seat (a draw, then where the card
    goes) runs on one clock from the turn's start, and when the member's time
    runs out the house plays the whole turn: one missed move, not one per action.
    """
    settings.TURN_BASED_MISSED_MOVES = 3
    table, _anna, _boris = two_member_table("1d", variant="Golf")
    engine = table.variant.engine
    # Everyone plays until a single seat has the turn (past any phase played at once).
    for _step in range(20):
        table.refresh_from_db()
        state = engine.from_json(services.current_game(table).state)
        actors = engine.actors(state)
        if len(actors) == 1 and "draw" in engine.view(state, actors[0])["legal"]:
            break  # a turn of play (not the reveal), nothing drawn yet
        seat = table.seats.get(position=engine.actors(state)[0])
        move = engine.view(state, seat.position)["legal"][0]
        services.play_move(seat.player_id, table.pk, move, table.version)
    late = to_move(table)
    started = table.turn_started
    clock.shift(datetime.timedelta(days=1, minutes=1))
    # The house's first action of the turn is a draw (a bot might take the discard in one
    # action instead); then the runner's own choices finish the turn.
    first = services.automatic_turn(table.pk)
    assert first is not None and first.seat == late.position
    assert services.play_automatic(first, "draw") is not None
    while sweep():
        table.refresh_from_db()
        if to_move(table).pk != late.pk:
            break
    late.refresh_from_db()
    house = Move.objects.filter(seat=late.position, auto=True).count()
    assert house >= 2, "this turn has several actions"
    assert late.missed == 1 and not late.handed_over
    table.refresh_from_db()
    assert to_move(table).pk != late.pk
    assert table.turn_started > started  # the next seat's turn starts its own clock


def test_a_member_acting_part_of_a_turn_keeps_the_turns_deadline(clock):
    table, _anna, _boris = two_member_table("1d", variant="Golf")
    engine = table.variant.engine
    for _step in range(20):
        table.refresh_from_db()
        state = engine.from_json(services.current_game(table).state)
        actors = engine.actors(state)
        if len(actors) == 1 and "draw" in engine.view(state, actors[0])["legal"]:
            break  # a turn of play (not the reveal), nothing drawn yet
        seat = table.seats.get(position=engine.actors(state)[0])
        services.play_move(
            seat.player_id, table.pk, engine.view(state, seat.position)["legal"][0], table.version
        )
    seat = to_move(table)
    deadline = table.turn_deadline
    clock.shift(datetime.timedelta(hours=5))
    services.play_move(seat.player_id, table.pk, "draw", table.version)
    table.refresh_from_db()
    assert to_move(table).pk == seat.pk  # the same turn goes on (the card drawn is placed next)
    assert table.turn_deadline == deadline


def test_the_refusal_for_a_kept_seat_counts_in_each_languages_plural(settings):
    from django.utils import translation

    settings.TURN_BASED_MISSED_MOVES = 3
    table, _anna, _boris = two_member_table("1d")
    seat = to_move(table)
    Seat.objects.filter(pk=seat.pk).update(missed=3, handed_over=True)
    with pytest.raises(services.ServiceError) as refusal:
        services.come_back(seat.player_id, table.pk)
    said = {}
    for language in ("en", "ru", "ro", "es"):
        with translation.override(language):
            said[language] = str(refusal.value.message)
    assert said["en"].startswith("Your time ran out 3 times in a row:")
    assert "3 раза подряд" in said["ru"]
    assert "3 mutări la rând" in said["ro"]
    assert "3 veces seguidas" in said["es"]
