"""The load tool's measures: percentiles, the best window's rate, and CPU use from /proc.

Pure helpers of tools/loadtest/run.py (Linux: the CPU figures read /proc, and are
None elsewhere).
"""

from __future__ import annotations

import os
import resource
import time


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def best_window(times: list[float], start: float, end: float, width: float = 5.0) -> float:
    """The highest moves/s over any `width`-second window (steps of 1 s)."""
    best, at = 0.0, start
    while at + width <= end + 1e-9:
        count = sum(1 for t in times if at <= t < at + width)
        best = max(best, count / width)
        at += 1.0
    return best


def cpu_seconds(pid: int, tid: int | None = None) -> float | None:
    path = f"/proc/{pid}/task/{tid}/stat" if tid else f"/proc/{pid}/stat"
    try:
        with open(path) as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def thread_cpu_seconds(pid: int) -> dict[int, float]:
    """CPU seconds of each thread of a process (Linux /proc), by thread id."""
    threads = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return threads
    for tid in tids:
        used = cpu_seconds(pid, int(tid))
        if used is not None:
            threads[int(tid)] = used
    return threads


def machine_busy() -> tuple[float, float] | None:
    """(busy, total) CPU seconds of the whole machine, all cores, from /proc/stat."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(ticks) - idle) / hz, sum(ticks) / hz


def cpu_sample(server_pids: list[int]) -> dict:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "wall": time.perf_counter(),
        "servers": {pid: cpu_seconds(pid) for pid in server_pids},
        "threads": {pid: thread_cpu_seconds(pid) for pid in server_pids},
        "own": own.ru_utime + own.ru_stime,
        "machine": machine_busy(),
    }


def cpu_percent(start: dict, end: dict) -> dict:
    """CPU use between two samples, in percent of ONE core (two busy cores = 200)."""
    wall = end["wall"] - start["wall"]
    servers = {
        str(pid): round(100 * (end["servers"][pid] - used) / wall, 1)
        for pid, used in start["servers"].items()
        if used is not None and end["servers"][pid] is not None
    }
    # The busiest threads of each server: the event loop and the database thread.
    threads = {}
    for pid, after in end["threads"].items():
        before = start["threads"].get(pid, {})
        used = sorted(((t - before.get(tid, 0.0)) for tid, t in after.items()), reverse=True)
        threads[str(pid)] = [round(100 * u / wall, 1) for u in used[:3] if u > 0]
    machine = None
    if start["machine"] and end["machine"]:
        busy = end["machine"][0] - start["machine"][0]
        total = end["machine"][1] - start["machine"][1]
        if total:
            machine = round(100 * busy / total * (os.cpu_count() or 1), 1)
    # Each server's event loop (its main thread): the rest is its database thread(s).
    loops = {}
    for pid, after in end["threads"].items():
        if pid in after and pid in start["threads"].get(pid, {}):
            loops[str(pid)] = round(100 * (after[pid] - start["threads"][pid][pid]) / wall, 1)
    return {
        "servers": servers,
        "server_threads": threads,
        "server_loop": loops,
        "load_tool": round(100 * (end["own"] - start["own"]) / wall, 1),
        "machine": machine,
    }
