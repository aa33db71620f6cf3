"""Benchmark: chat load against other tables' moves, and the cost of one message's fan-out.

    .venv/bin/python tests/bench/bench_chat.py [--rounds 3] [--moves 30] [--chatters 50]
                                               [--messages 60]

Starts real daphne processes (tests/support/server.py) on a throwaway
database (SQLite file, or a fresh PostgreSQL database when DATABASE_URL
points at one; the Redis layer when REDIS_URL is set). Two measurements:

1. Other tables' move latency, quiet vs chat. `--chatters` members sit at
   tables of their own (Devyatka, two seats, nobody moves there) with their
   sockets in the table's chat room (`?chat=1`), and each sends a message
   every 60 / CHAT_PER_MINUTE seconds, staggered: every member at the rate
   limit (the server's defaults). Meanwhile two members play table B
   (bench_flood.TableB): a move's round trip is from sending `play` to both
   seats having the new version. The chatting clients are a process of their
   own at the lowest CPU priority (nice 19), standing for clients on other
   machines. The server runs without the house runner (BOT_RUNNER=0), so the
   only moves are table B's. Quiet and chat alternate, `--rounds` times, in one run, because
   the machine's speed drifts over minutes.

2. One message fanned out to a 12-seat Golf table with 20 spectators: 32
   sockets in one table room. A message's round trip is from `chat_send` to
   the moment all 32 sockets have it; the daphne process's CPU time
   (/proc/<pid>/stat) per message is read over `--messages` messages.
   Against the same thing in a room of two (a 2-seat table, both
   chatting), alternating, so the difference is the fan-out. This server runs
   with CHAT_PER_MINUTE raised (one sender sends all the messages) and
   BOT_RUNNER=0 (no house moves in between).

All traffic goes to 127.0.0.1; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from tests.bench.bench_flood import TableB, percentile  # noqa: E402
from tests.bench.common import machine  # noqa: E402
from tests.support.server import DaphneServer, SiteDatabase  # noqa: E402
from tests.support.tables import run_django  # noqa: E402

TIMEOUT = 30.0
PER_MINUTE = 10  # the server's default CHAT_PER_MINUTE: the rate each chatter keeps
TICK = os.sysconf("SC_CLK_TCK")


def setup_load(database: SiteDatabase, chatters: int, b_tables: int) -> dict:
    tables = (chatters + 1) // 2
    return run_django(
        database,
        "from tools import synthetic\n"
        f"players = synthetic.make_players(synthetic.new_prefix('chat'), {tables * 2 + 2 * b_tables})\n"
        f"rooms = [synthetic.started_table(players[2 * i : 2 * i + 2]) for i in range({tables})]\n"
        f"chatters = [[rooms[i // 2], p.session_key] for i, p in enumerate(players[:{chatters}])]\n"
        f"b = players[{tables * 2}:]\n"
        f"bs = [synthetic.started_table(b[2 * i : 2 * i + 2]) for i in range({b_tables})]\n"
        "emit({'chatters': chatters,\n"
        "      'b': [[t, b[2 * i].session_key, b[2 * i + 1].session_key]\n"
        "            for i, t in enumerate(bs)]})\n",
    )


def setup_fanout(database: SiteDatabase) -> dict:
    return run_django(
        database,
        "from tools import synthetic\n"
        "players = synthetic.make_players(synthetic.new_prefix('fan'), 34)\n"
        "big = synthetic.started_table(players[:12], 'Golf')\n"
        "small = synthetic.started_table(players[32:34], 'Devyatka')\n"
        "emit({'big': big, 'big_sessions': [p.session_key for p in players[:32]],\n"
        "      'small': small, 'small_sessions': [p.session_key for p in players[32:34]]})\n",
    )


async def chat_socket(url: str, table_id: int, session: str):
    ws = await connect(
        f"{url.replace('http', 'ws', 1)}/ws/tables/{table_id}/?chat=1",
        origin=url,
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=TIMEOUT,
        max_size=None,
    )
    while True:  # past the first state, to the history
        frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        if frame["type"] == "chat_history":
            return ws


# ---------------------------------------------------------------------------
# 1. Chat load vs other tables' moves


async def chat_worker(url: str, chatters: list[list]) -> None:
    """The child process: every chatter at the rate limit until stdin closes; prints counts."""
    sockets = [await chat_socket(url, t, s) for t, s in chatters]
    counts = {"sent": 0, "delivered": 0, "refused": 0}
    stop = asyncio.Event()

    async def drain(ws) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in ws:
                if '"type": "chat"' in message:
                    counts["delivered"] += 1
                elif '"error"' in message:
                    counts["refused"] += 1

    async def talk(index: int, ws) -> None:
        period = 60.0 / PER_MINUTE
        # Staggered: the members' messages spread evenly over each period.
        await asyncio.sleep(period * index / len(sockets))
        n = 0
        while not stop.is_set() and n < 10_000:
            await ws.send(json.dumps({"type": "chat_send", "text": f"message {n} from {index}"}))
            counts["sent"] += 1
            n += 1
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), period)

    tasks = [asyncio.ensure_future(drain(ws)) for ws in sockets]
    tasks += [asyncio.ensure_future(talk(i, ws)) for i, ws in enumerate(sockets)]
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.read)  # EOF: the parent says stop
    stop.set()
    await asyncio.sleep(0.5)
    for task in tasks:
        task.cancel()
    for ws in sockets:
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(ws.close(), 5)
    print(json.dumps(counts), flush=True)


def start_chatters(server: DaphneServer, chatters: list[list]):
    process = subprocess.Popen(
        [sys.executable, __file__, "--chat-worker", server.url, json.dumps(chatters)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        preexec_fn=lambda: os.nice(19),
        text=True,
    )
    assert process.stdout.readline().strip() == "ready"  # every socket open
    return process


async def stop_chatters(process) -> dict:
    out, _ = await asyncio.to_thread(process.communicate, None, TIMEOUT * 2)
    return json.loads(out.strip().splitlines()[-1])


async def measure_load(server: DaphneServer, layout: dict, rounds: int, moves: int) -> dict:
    table_b = TableB(server, layout["b"])
    results: dict[str, list[float]] = {"quiet": [], "chat": []}
    # Each round's median too: how far quiet rounds differ from each other is the noise.
    round_p50: dict[str, list[float]] = {"quiet": [], "chat": []}
    counts = {"sent": 0, "delivered": 0, "refused": 0}
    seconds = {"quiet": 0.0, "chat": 0.0}
    try:
        for _ in range(3):  # warm-up
            await table_b.play()
        for _ in range(rounds):
            for condition in ("quiet", "chat"):
                process = None
                began = time.perf_counter()
                if condition == "chat":
                    process = await asyncio.to_thread(start_chatters, server, layout["chatters"])
                    began = time.perf_counter()
                    await asyncio.sleep(6.0)  # one full period: every chatter is talking
                times = []
                for _ in range(moves):
                    times.append(await table_b.play())
                    await asyncio.sleep(0.1)  # a human-ish pace, so the round spans seconds
                results[condition] += times
                round_p50[condition].append(statistics.median(times))
                if process is not None:
                    got = await stop_chatters(process)
                    seconds[condition] += time.perf_counter() - began
                    for key in counts:
                        counts[key] += got[key]
                    await asyncio.sleep(0.5)
    finally:
        await table_b.close()
    return {"results": results, "counts": counts, "seconds": seconds, "round_p50": round_p50}


# ---------------------------------------------------------------------------
# 2. The fan-out of one message


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


async def fan_round(sockets: list, count: int, start_n: int) -> list[float]:
    """`count` messages from sockets[0]; each timed until every socket has it."""
    times = []
    for n in range(start_n, start_n + count):
        text = f"fan {n}"
        began = time.perf_counter()
        await sockets[0].send(json.dumps({"type": "chat_send", "text": text}))
        for ws in sockets:
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                if frame["type"] == "chat" and frame["message"]["text"] == text:
                    break
                assert frame["type"] != "error", frame
        times.append(time.perf_counter() - began)
    return times


async def measure_fanout(server: DaphneServer, layout: dict, rounds: int, messages: int) -> dict:
    big = [await chat_socket(server.url, layout["big"], s) for s in layout["big_sessions"]]
    small = [await chat_socket(server.url, layout["small"], s) for s in layout["small_sessions"]]
    rooms = {"small": small, "big": big}
    times: dict[str, list[float]] = {"small": [], "big": []}
    cpu: dict[str, float] = {"small": 0.0, "big": 0.0}
    n = 0
    try:
        await fan_round(small, 5, 10**6)  # warm-up
        await fan_round(big, 5, 2 * 10**6)
        per_round = max(1, messages // rounds)
        for _ in range(rounds):
            for name in ("small", "big"):
                before = cpu_seconds(server.process.pid)
                times[name] += await fan_round(rooms[name], per_round, n)
                cpu[name] += cpu_seconds(server.process.pid) - before
                n += per_round
    finally:
        for ws in big + small:
            with contextlib.suppress(BaseException):
                await ws.close()
    return {"times": times, "cpu": cpu}


# ---------------------------------------------------------------------------


def report_ms(label: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"  {label}: p50 {percentile(ms, 0.5):6.1f} ms, p95 {percentile(ms, 0.95):6.1f} ms, "
        f"mean {statistics.fmean(ms):6.1f} ms ({len(ms)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--chatters", type=int, default=50)
    parser.add_argument("--messages", type=int, default=60, help="per room, over all rounds")
    parser.add_argument("--chat-worker", nargs=2, metavar=("URL", "CHATTERS"))
    args = parser.parse_args()
    if args.chat_worker:
        url, chatters = args.chat_worker
        asyncio.run(chat_worker(url, json.loads(chatters)))
        return
    b_tables = (args.rounds * 2 * args.moves + 3) // 15 + 2

    info = machine()
    backend = (
        "PostgreSQL" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "SQLite"
    )
    layer = "Redis" if os.environ.get("REDIS_URL") else "in-memory"
    print(f"{info['cpu']}, {info['nproc']} CPUs, {info['python']}; {backend}, {layer} layer")
    with tempfile.TemporaryDirectory() as tmp:
        database = SiteDatabase(Path(tmp))
        database.create()
        try:
            # No house runner: nothing but the measured traffic moves (no bot or clock turns).
            server = DaphneServer(database, Path(tmp), env={"BOT_RUNNER": "0"}).start()
            try:
                layout = setup_load(database, args.chatters, b_tables)
                load = asyncio.run(measure_load(server, layout, args.rounds, args.moves))
            finally:
                server.stop()
            print_load(args, load)
            env = {"CHAT_PER_MINUTE": "100000", "BOT_RUNNER": "0"}
            server = DaphneServer(database, Path(tmp), env=env).start()
            try:
                layout = setup_fanout(database)
                fan = asyncio.run(measure_fanout(server, layout, args.rounds, args.messages))
            finally:
                server.stop()
            print_fanout(fan)
        finally:
            database.drop()


def print_load(args: argparse.Namespace, load: dict) -> None:
    print(
        f"1. {args.chatters} members chatting at {PER_MINUTE}/min each vs quiet, "
        f"{args.rounds} rounds x {args.moves} moves per condition, alternating"
    )
    quiet, chat = load["results"]["quiet"], load["results"]["chat"]
    print(report_ms("table B move round trip, quiet", quiet))
    print(report_ms("table B move round trip, chat ", chat))
    print(
        f"  chat / quiet: p50 x{percentile(chat, 0.5) / percentile(quiet, 0.5):.2f}, "
        f"p95 x{percentile(chat, 0.95) / percentile(quiet, 0.95):.2f}"
    )
    for name in ("quiet", "chat"):
        rounds = ", ".join(f"{v * 1000:.1f}" for v in load["round_p50"][name])
        print(f"  each {name} round's p50 (ms): {rounds}")
    c = load["counts"]
    rate = c["sent"] / load["seconds"]["chat"] if load["seconds"]["chat"] else 0.0
    print(
        f"  chat: {c['sent']} messages sent (~{rate:.1f}/s while the chatters were connected), "
        f"{c['delivered']} delivered, {c['refused']} refused",
        flush=True,
    )


def print_fanout(fan: dict) -> None:
    print("2. one message's fan-out: a 12-seat Golf table + 20 spectators (32 sockets) vs 2")
    for name, label in (("small", "room of 2 "), ("big", "room of 32")):
        times = fan["times"][name]
        cpu_ms = fan["cpu"][name] * 1000 / len(times)
        print(
            report_ms(f"{label}: send -> all have it", times)
            + f"; daphne CPU {cpu_ms:.2f} ms/message"
        )
    extra = (fan["cpu"]["big"] / len(fan["times"]["big"])) - (
        fan["cpu"]["small"] / len(fan["times"]["small"])
    )
    print(
        f"  the 30 extra recipients cost {extra * 1000:.2f} ms of daphne CPU per message "
        f"({extra * 1000 / 30:.3f} ms per recipient)",
        flush=True,
    )


if __name__ == "__main__":
    main()
