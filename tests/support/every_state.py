"""A member's tables in every state, of every game, for the page-fit browser test.

Run inside a live site's database through `manage.py shell`
(`tests.support.tables.run_django`). `finished()` makes what no longer
changes: per default variant a finished game among members (its page, the
replay) in a series of its own (standings, ratings, the player page), one
against two house bots (the finished table with results, bots' names), and a
duplicate series with a closed and an open round. `live()` makes, just before
they are looked at (the turn clock runs), per default variant an open table
waiting for players and a started one, with the sessions of the seat to move
and of one that waits. Deals and moves are seeded: nothing here is random
from run to run.
"""

from __future__ import annotations

import datetime
import random

from django.test.utils import override_settings
from django.utils import timezone

from club import demo
from club.models import Player, Series
from duplicate.models import DuplicateSeries, Round
from duplicate.services import close_round, play_board
from games import away, hooks, registry, services
from games.models import Table, Variant
from tests.support.finished import play_game, play_out
from tools import synthetic

GAMES = ["Devyatka", "Keft", "Golf"]


def _to_move(table_id: int) -> list[int]:
    table = Table.objects.get(pk=table_id)
    game = services.current_game(table)
    engine = registry.engine(game.game)
    return engine.actors(engine.from_json(game.state))


def _past_reveal(table_id: int, seed: int) -> None:
    """Golf: everyone turns up cards and says ready, until the first turn."""
    for _ in range(60):
        table = Table.objects.get(pk=table_id)
        game = services.current_game(table)
        engine = registry.engine(game.game)
        if engine.view(engine.from_json(game.state), None)["phase"] == "turn":
            return
        play_out(table, seed, stop_after=1)
    raise RuntimeError("the reveal phase did not end")


def finished(prefix: str) -> dict:
    """The member's finished games (one per default variant, in a series each) and more.

    {"me": session, "player": id, "games": {variant: {"table", "game", "series"}},
    "families": [...], "duplicate": slug}. These pages do not change any more.
    """
    people = synthetic.make_players(prefix, 3)
    players = [Player.objects.get(pk=p.player_id) for p in people]
    made: dict = {"me": people[0].session_key, "player": people[0].player_id, "games": {}}
    for number, name in enumerate(GAMES):
        variant = Variant.objects.get(name=name)
        series = Series.objects.create(
            name=f"{name} {prefix}", slug=f"{prefix}-{number}", variant=variant, min_games=1
        )
        game = play_game(variant, players, seed=11 + number, series=series)
        made["games"][name] = {"table": game.table_id, "game": game.pk, "series": series.slug}
        made["games"][name]["bots"] = _with_bots(players[0], variant, seed=21 + number)
    made["families"] = [family for family, _ in registry.rating_families()]
    made["duplicate"] = _duplicate(prefix, players)
    return made


def _with_bots(host: Player, variant: Variant, seed: int) -> dict:
    """A game of the member against two house bots, played out (the house moves at once)."""
    with override_settings(BOT_DELAY_SECONDS=0), services.seeded_deals(seed):
        table, _ = services.create_table(host, variant, 3)
        for level in ("heuristic", "random"):
            services.add_bot(host, table.pk, level)
        demo.play(table.pk, random.Random(seed))
    game = services.current_game(Table.objects.get(pk=table.pk))
    return {"table": table.pk, "game": game.pk}


def live(prefix: str) -> dict:
    """Tables that change as the clock runs: made just before they are looked at.

    Per default variant: {"waiting": table (the member's open table), "playing":
    table, "turn": session of the seat to move, "other": session of a seat waiting}.
    Golf is past its reveal phase, so one seat is to move.
    """
    people = synthetic.make_players(prefix, 3)
    sessions = {p.player_id: p.session_key for p in people}
    made: dict = {"me": people[0].session_key, "games": {}}
    for number, name in enumerate(GAMES):
        waiting = synthetic.open_table(people[0], seats=4, variant=name)
        with services.seeded_deals(number):
            playing = synthetic.started_table(people, name)
        if name == "Golf":
            _past_reveal(playing, seed=3)
        mover = _to_move(playing)[0]
        seated = services.current_game(Table.objects.get(pk=playing)).players
        made["games"][name] = {
            "waiting": waiting,
            "playing": playing,
            "turn": sessions[seated[mover]],
            "other": next(sessions[p] for i, p in enumerate(seated) if i != mover),
        }
    # The member and three house bots of the longest level label ("эвристический бот"):
    # the narrowest opponents' tiles, in play (issue 42: a badge reached 395 px of 390).
    host = Player.objects.get(pk=people[0].player_id)
    with services.seeded_deals(9):
        three, _ = services.create_table(host, Variant.objects.get(name="Devyatka"), 4)
        for _ in range(3):
            services.add_bot(host, three.pk, "heuristic")
    made["three_bots"] = three.pk
    # A fourth member, away, so the live tables above keep their seats' own clocks.
    people += synthetic.make_players(prefix, 1, start=3)
    sessions.update({p.player_id: p.session_key for p in people})
    made["turn_based"] = _turn_based(people, sessions)
    return made


def _turn_based(people: list, sessions: dict[int, str]) -> dict:
    """The member's turn-based tables at a day a move, the longest lines home and the lobby
    show (a pace, a deadline, who is away): per game two two-seat tables, the partner at
    the second away for three days (at the first Golf table the member holds a drawn
    card); a note in
    the member's bell. {variant: [{"table": id, "turn": session of the seat to move}]}."""
    players = {p.pk: p for p in Player.objects.filter(pk__in=[p.player_id for p in people])}
    me, other, _, third = (players[p.player_id] for p in people)
    today = timezone.localdate()
    away.declare(third, today, today + datetime.timedelta(days=2))
    made = {}
    for number, name in enumerate(["Devyatka", "Golf"]):
        variant = Variant.objects.get(name=name)
        tables = []
        for partner in (other, third):
            with services.seeded_deals(40 + number):
                table, _ = services.create_table(me, variant, 2, pace="1d")
                services.join_table(partner, table.pk)
            if name == "Golf":
                _past_reveal(table.pk, seed=5)
                if partner is other:
                    _hold_a_card(table.pk, me.pk)
            seated = services.current_game(Table.objects.get(pk=table.pk)).players
            tables.append({"table": table.pk, "turn": sessions[seated[_to_move(table.pk)[0]]]})
        made[name] = tables
    hooks.emit(hooks.Event("message", (me.pk,), data={"text": "Welcome to the club."}))
    return made


def _hold_a_card(table_id: int, player_id: int) -> None:
    """Golf: the others play (seeded) until it is the member's turn; the member draws and
    leaves, to come back holding the card (a turn-based table's usual arrival)."""
    for _ in range(20):
        table = Table.objects.get(pk=table_id)
        seated = services.current_game(table).players
        if seated[_to_move(table_id)[0]] == player_id:
            services.play_move(player_id, table_id, "draw", table.version)
            return
        play_out(table, seed=7, stop_after=1)
    raise RuntimeError("the member's turn did not come")


def _duplicate(prefix: str, players: list[Player]) -> str:
    """A Devyatka duplicate series: round 1 played by two members and closed, round 2 open."""
    series = DuplicateSeries.objects.create(
        name=f"Duplicate {prefix}",
        slug=f"{prefix}-dup",
        variant=Variant.objects.get(name="Devyatka"),
        seats=3,
        bot_level="random",
        shared_tables=True,  # its open round offers "Play together" too
    )
    now = timezone.now()
    hour = datetime.timedelta(hours=1)
    # Board seeds are secret random numbers: fixed here, so every run plays the same deals.
    first = Round.objects.create(
        series=series, number=1, boards=2, starts=now - 3 * hour, ends=now + hour
    )
    first.board_set.update(seed=35)
    for player in players[:2]:
        play_board(player, first.board_set.get(number=1).pk)
    close_round(first.pk)  # the house plays both boards out
    second = Round.objects.create(
        series=series, number=2, boards=2, starts=now, ends=now + 24 * hour
    )
    second.board_set.update(seed=36)
    return series.slug
