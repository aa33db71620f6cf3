"""Benchmark: what notifications cost the live tables, and the mail batching.

    .venv/bin/python tests/bench/bench_notify.py [--tables 100] [--turn-tables 20] [--moves 3000] [--members 1000]

1. Live tables' moves with notifications on and off, side by side in one run:
   ``--tables`` live 4-member Devyatka tables and ``--turn-tables`` turn-based
   ones (1 day a move, 4 members) in a throwaway database. Moves are played as
   the sockets play them (`games.db.on_database(services.play_move)` on a
   running event loop, so the bell's push goes through the channel layer as in
   a server), round-robin over the live tables, with a turn-based table's move
   after every fourth live move (each writes a "your turn" notification and
   pushes the bell). Blocks of moves alternate between notifications on (the
   listener registered) and off (no listener: the games skip their events), so
   both sides meet the same machine load. Printed: the live moves' wall-clock
   time per move, p50 / p99, per side (and the turn-based moves', which pay
   for the notification row and the bell's push).
2. The mail batching for ``--members`` members with 30 turn-based tables each
   (a "your turn" waiting at every one): one compose pass (CPU time, queries),
   then sending every mail to Django's in-memory mail backend (CPU time,
   queries: rendering both parts in the member's language, the outbox updates).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_standings import setup_database  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def next_move(table_id: int, rng: random.Random):
    """(player, move, version) of the seat to move, after any rematch; None: nothing to play."""
    from club.models import Player
    from games import services
    from games.engine import devyatka
    from games.models import Table

    table = Table.objects.get(pk=table_id)
    game = services.current_game(table)
    if table.status != Table.Status.PLAYING:
        for player_id in game.players:
            services.play_again(Player.objects.get(pk=player_id), table_id)
        return None
    state = devyatka.from_json(game.state)
    return game.players[state.to_move], rng.choice(devyatka.legal_moves(state)), table.version


async def moves(live: list[int], turn: list[int], total: int, block: int) -> dict[str, list[float]]:
    from games import hooks, services
    from games.db import on_database
    from notifications import services as notify

    rng = random.Random(1)
    timings: dict[str, list[float]] = {"on": [], "off": [], "turn on": [], "turn off": []}
    done = 0
    live_at = turn_at = 0

    async def play(table_id: int) -> float | None:
        chosen = await on_database(next_move)(table_id, rng)
        if chosen is None:
            return None
        start = time.perf_counter()
        await on_database(services.play_move)(chosen[0], table_id, chosen[1], chosen[2])
        return time.perf_counter() - start

    while done < total:
        side = "on" if (done // block) % 2 == 0 else "off"
        if side == "on":
            hooks.listen(notify.on_event, accepts=notify.wanted)
        else:
            hooks.unlisten(notify.on_event)
        for _ in range(block):
            took = await play(live[live_at % len(live)])
            live_at += 1
            if took is not None:
                timings[side].append(took * 1000)
                done += 1
            if live_at % 4 == 0 and turn:
                took = await play(turn[turn_at % len(turn)])
                turn_at += 1
                if took is not None:
                    timings[f"turn {side}"].append(took * 1000)
    return timings


def batching(members: int, tables_each: int = 30) -> None:
    from allauth.account.models import EmailAddress
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from club.models import Player
    from games import services
    from games.models import Variant
    from notifications import mailer
    from notifications.models import Notification, OutgoingMail
    from tools import synthetic

    prefix = synthetic.new_prefix("mail")
    people = synthetic.make_players(prefix, members)
    # Only a confirmed primary address is mailed (issue 42): these members confirmed theirs.
    EmailAddress.objects.bulk_create(
        EmailAddress(user_id=user_id, email=email, primary=True, verified=True)
        for user_id, email in Player.objects.filter(
            pk__in=[p.player_id for p in people]
        ).values_list("user_id", "user__email")
    )
    host = Player.objects.get(pk=people[0].player_id)
    golf = Variant.objects.get(name="Golf")
    tables = [services.create_table(host, golf, 4, pace="1d")[0].pk for _ in range(tables_each)]
    now = timezone.now()
    # Only these members' mail is measured: the moves above left other turns waiting.
    Notification.objects.filter(mail_state=Notification.Mail.PENDING).update(
        mail_state=Notification.Mail.NONE
    )
    Notification.objects.bulk_create(
        [
            Notification(
                player_id=p.player_id,
                kind="turn",
                table_id=t,
                data={"pace": "turn"},
                created=now,
                mail_state=Notification.Mail.PENDING,
                mail_due=now,
            )
            for p in people
            for t in tables
        ],
        batch_size=2000,
    )
    with CaptureQueriesContext(connection) as queries:
        start = time.process_time()
        made = mailer.compose(timezone.now())
        compose_cpu = time.process_time() - start
    print(
        f"  compose: {members} members x {tables_each} waiting tables -> {made} mails: "
        f"CPU {compose_cpu:.2f} s, {len(queries)} queries"
    )
    sent = 0
    with CaptureQueriesContext(connection) as queries:
        start = time.process_time()
        while True:
            batch = mailer.send_queued(timezone.now())
            if not batch:
                break
            sent += batch
        send_cpu = time.process_time() - start
    print(
        f"  send (in-memory backend): {sent} mails, each listing {tables_each} tables: "
        f"CPU {send_cpu:.2f} s ({send_cpu / max(1, sent) * 1000:.2f} ms a mail), "
        f"{len(queries)} queries ({len(queries) / max(1, sent):.1f} a mail)"
    )
    assert OutgoingMail.objects.filter(state="sent").count() == sent == members


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--turn-tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--block", type=int, default=100)
    parser.add_argument("--members", type=int, default=1000)
    args = parser.parse_args()

    url, drop = setup_database()
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench")
    os.environ["EMAIL_URL"] = "locmem://"
    os.environ["BOT_RUNNER"] = "0"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from club.models import Player
    from games import services
    from games.models import Table, Variant
    from tools import synthetic

    try:
        call_command("migrate", verbosity=0)
        prefix = synthetic.new_prefix("bench")
        players = synthetic.make_players(prefix, 4 * (args.tables + args.turn_tables))
        live = [synthetic.started_table(players[4 * t : 4 * t + 4]) for t in range(args.tables)]
        devyatka = Variant.objects.get(name="Devyatka")
        turn = []
        for t in range(args.tables, args.tables + args.turn_tables):
            seats = [Player.objects.get(pk=p.player_id) for p in players[4 * t : 4 * t + 4]]
            table, _ = services.create_table(seats[0], devyatka, 4, pace="1d")
            for seat in seats[1:]:
                services.join_table(seat, table.pk)
            assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
            turn.append(table.pk)
        timings = asyncio.run(moves(live, turn, args.moves, args.block))
        print(
            f"{connection.vendor}: {args.tables} live tables x 4 members, {args.turn_tables} "
            f"turn-based tables beside them; live moves' wall time (in blocks of {args.block}, alternating)"
        )
        for side, label in (
            ("on", "live, notifications on "),
            ("off", "live, notifications off"),
            ("turn on", "turn-based, on         "),
            ("turn off", "turn-based, off        "),
        ):
            values = timings[side]
            print(
                f"  {label}: {len(values)} moves, mean {statistics.fmean(values):.2f} ms, "
                f"p50 {percentile(values, 0.5):.2f} ms, p99 {percentile(values, 0.99):.2f} ms"
            )
        print("Mail batching:")
        batching(args.members)
    finally:
        drop()


if __name__ == "__main__":
    main()
