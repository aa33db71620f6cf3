"""The site as served, with some apps' hooks taken out, for tests/bench/bench_stack_floor.py.

BENCH_WITHOUT="notifications,ratings" serves `club.asgi:application` with every
games.hooks registration those apps made dropped (`hooks.forget`), so a run
measures what their hooks cost a move. Pages and sockets are otherwise the site's.
"""

from __future__ import annotations

import os

from club.asgi import application as site
from games import hooks

for app in filter(None, os.environ.get("BENCH_WITHOUT", "").split(",")):
    hooks.forget(app.strip())

application = site
