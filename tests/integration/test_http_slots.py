"""HTTP requests enter Django a few at a time (club/serving/http_slots.py).

When many requests arrive together, only HTTP_CONCURRENCY of them run inside
Django at once; the others wait on the event loop, in order. A request's body
is read before it takes its turn, so a slow sender holds no turn.
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.testing import ApplicationCommunicator

from club.serving.http_slots import HttpSlots


def http_scope(path: str = "/", method: str = "GET") -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }


class Recorder:
    """An inner ASGI app that records who is inside and waits to be let out."""

    def __init__(self) -> None:
        self.inside: list[str] = []
        self.most_at_once = 0
        self.bodies: dict[str, bytes] = {}
        self.release = asyncio.Event()

    async def __call__(self, scope: dict, receive, send) -> None:
        name = scope["path"]
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.bodies[name] = body
        self.inside.append(name)
        self.most_at_once = max(self.most_at_once, len(self.inside))
        await self.release.wait()
        self.inside.remove(name)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})


async def start(app, path: str, body: bytes = b"", more_body: bool = False):
    communicator = ApplicationCommunicator(app, http_scope(path, "POST"))
    await communicator.send_input({"type": "http.request", "body": body, "more_body": more_body})
    return communicator


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def test_no_more_than_the_limit_inside_at_once():
    inner = Recorder()
    app = HttpSlots(inner, limit=2)
    communicators = [await start(app, f"/{n}", b"x") for n in range(5)]
    await settle()
    assert len(inner.inside) == 2
    inner.release.set()
    for communicator in communicators:
        assert (await communicator.receive_output(1))["status"] == 200
        assert (await communicator.receive_output(1))["body"] == b"x"
    assert inner.most_at_once == 2
    assert sorted(inner.bodies) == [f"/{n}" for n in range(5)]


async def test_a_slow_body_holds_no_turn():
    inner = Recorder()
    app = HttpSlots(inner, limit=1)
    slow = await start(app, "/slow", b"half ", more_body=True)
    quick = await start(app, "/quick", b"all")
    await settle()
    assert inner.inside == ["/quick"]  # the slow sender is still sending: not inside
    inner.release.set()
    assert (await quick.receive_output(1))["status"] == 200
    await slow.send_input({"type": "http.request", "body": b"and half", "more_body": False})
    assert (await slow.receive_output(1))["status"] == 200
    assert (await slow.receive_output(1))["body"] == b"half and half"


async def test_websockets_are_not_counted():
    inner = Recorder()
    app = HttpSlots(inner, limit=1)
    seen = []

    async def socket_app(scope, receive, send):
        seen.append(scope["type"])

    app.app = socket_app
    await app({"type": "websocket", "path": "/ws/lobby/"}, None, None)
    assert seen == ["websocket"]


@pytest.mark.django_db(transaction=True)
def test_the_site_reads_a_post_body_sent_in_parts():
    """The real application: a form post whose body comes in two parts still reaches the view."""
    from club.asgi import application

    token = "a" * 32  # an unmasked CSRF secret, as a browser's cookie holds it
    body = f"csrfmiddlewaretoken={token}&language=fr&next=/".encode()

    async def post() -> dict:
        scope = http_scope("/i18n/setlang/", "POST")
        scope["headers"] += [
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"content-length", str(len(body)).encode()),
            (b"cookie", f"csrftoken={token}".encode()),
            (b"origin", b"http://testserver"),
        ]
        communicator = ApplicationCommunicator(application, scope)
        await communicator.send_input({"type": "http.request", "body": body[:9], "more_body": True})
        await communicator.send_input({"type": "http.request", "body": body[9:]})
        return await communicator.receive_output(10)

    start = asyncio.run(post())
    assert start["status"] == 302
    cookies = [value for name, value in start["headers"] if name == b"Set-Cookie"]
    assert any(cookie.startswith(b"django_language=fr") for cookie in cookies)
