"""Benchmark: the standings' two SQL queries on two kept PostgreSQL databases, interleaved.

    # build each database with its own tree's bench_standings.py --keep, then:
    .venv/bin/python tests/bench/bench_standings_sql.py BASE_DB FIX_DB [ROUNDS]

Times the aggregate (the pre-issue-23 `COUNT(id)` form on BASE_DB, today's
`COUNT(*)` form on FIX_DB) and each player's last results, query by query,
alternating which database goes first, so the machine's swings hit both
alike. Prints median / min / max per series, query and side
(docs/PERFORMANCE.md, issue 23).
"""

from __future__ import annotations

import statistics
import sys
import time

import psycopg

base_db, fix_db = sys.argv[1], sys.argv[2]
AGG = {
    "base": "SELECT player_id, COUNT(id), COUNT(id) FILTER (WHERE place = 1), COUNT(id) FILTER (WHERE lost), SUM(place), SUM(half_points) FROM club_gameresult WHERE series_id = %s GROUP BY 1",
    "fix": "SELECT player_id, COUNT(*), COUNT(place) FILTER (WHERE place = 1), COUNT(place) FILTER (WHERE lost), SUM(place), SUM(half_points) FROM club_gameresult WHERE series_id = %s GROUP BY 1",
}
RECENT = """SELECT p.player_id, r.place, r.lost FROM (SELECT DISTINCT player_id FROM club_gameresult WHERE series_id = %s) AS p
 CROSS JOIN LATERAL (SELECT x.id, x.place, x.lost, x.finished FROM club_gameresult AS x WHERE x.series_id = %s AND x.player_id = p.player_id
 ORDER BY x.finished DESC, x.id DESC LIMIT 6) AS r ORDER BY p.player_id, r.finished DESC, r.id DESC"""
conns = {
    "base": psycopg.connect(f"postgres://postgres@127.0.0.1:5432/{base_db}"),
    "fix": psycopg.connect(f"postgres://postgres@127.0.0.1:5432/{fix_db}"),
}
samples = {(side, s, q): [] for side in conns for s in (1, 2) for q in ("aggregate", "recent")}
for i in range(int(sys.argv[3]) if len(sys.argv) > 3 else 40):
    for side, conn in (
        (("base", conns["base"]), ("fix", conns["fix"]))
        if i % 2 == 0
        else (("fix", conns["fix"]), ("base", conns["base"]))
    ):
        for s in (1, 2):
            for q, sql, params in (("aggregate", AGG[side], (s,)), ("recent", RECENT, (s, s))):
                t = time.perf_counter()
                conn.execute(sql, params).fetchall()
                samples[(side, s, q)].append((time.perf_counter() - t) * 1000)
for (side, s, q), v in sorted(samples.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0])):
    v = v[2:]
    print(
        f"series {s} ({'loss' if s == 1 else 'placement'}) {q:9} {side:4}: median {statistics.median(v):6.2f} ms  min {min(v):6.2f}  max {max(v):6.2f}"
    )
