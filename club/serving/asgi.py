"""ASGI entry point: HTTP through Django, websockets through Channels."""

import contextlib
import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
# Django must be set up before anything imports models (the routing does).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from club.serving.handshake import CooldownGuard  # noqa: E402
from club.serving.http_slots import HttpSlots  # noqa: E402
from club.serving.origins import ExactOriginValidator  # noqa: E402
from events.consumers import EventConsumer  # noqa: E402
from games import runner  # noqa: E402
from games.db import DATABASE_DOWN, database_unavailable  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

websocket_urlpatterns = [
    *websocket_urlpatterns,
    path("ws/events/<int:event_id>/", EventConsumer.as_asgi()),
]

router = ProtocolTypeRouter(
    {
        # A few requests at a time inside Django (club/serving/http_slots.py).
        "http": HttpSlots(django_asgi_app),
        # Origin first, then the flooding cooldown (no database work), then
        # the session and user (club/serving/origins.py, club/serving/handshake.py).
        "websocket": ExactOriginValidator(
            CooldownGuard(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)


# Everything loaded so far lives as long as the process: keep it out of the
# cyclic collector's full passes, which paused a busy server for up to
# 50-130 ms at a time (docs/PERFORMANCE.md).
gc.collect()
gc.freeze()
# A move allocates thousands of short-lived objects (ORM rows, JSON, frames),
# so the default threshold (700) ran a young collection several times per
# move; collecting less often cut the load test's p99 and raised saturation
# (docs/PERFORMANCE.md, "Live tables load").
gc.set_threshold(20_000, 50, 100)


async def application(scope, receive, send):
    # The house runner lives on the server's event loop; the first request starts it.
    runner.ensure_started()
    if scope["type"] != "websocket":
        await router(scope, receive, send)  # pages: Django's own handling (club.views)
        return
    try:
        await router(scope, receive, send)
    except DATABASE_DOWN as exc:
        # Reading the session before the consumer runs needs the database:
        # refused like a frame would be (one warning per outage, no traceback).
        database_unavailable(exc, "websocket sign-in")
        with contextlib.suppress(Exception):
            await send({"type": "websocket.close", "code": 4503})
