"""The club's daphne: `python -m club.server` takes daphne's own arguments.

Two differences from daphne. First, a socket that the application closes for
flooding (4429) or for an oversized frame (4413) has its TCP connection
dropped at once instead of being kept through the closing handshake. In
that handshake daphne (autobahn) would go on reading and parsing whatever
the client keeps sending -- under a flood most of daphne's time went to
parsing frames the application had already refused (docs/PERFORMANCE.md).
The close frame is still written, then reading stops (`loseConnection`);
a client that does not even read is cut off after DROP_GRACE_SECONDS.

Second, the access log (daphne writes one to stdout at its default
verbosity) shows requests without their query strings: a private table's
address carries its invite token (`?invite=`), which must not end up in
logs (issue 22; the nginx example logs `$uri` for the same reason).

Third, the house runner (games/runner.py) starts with the server, not with
its first request: its duties must happen on time even when nobody visits
(a duplicate round closes at its end time, in the middle of the night too).

How it plugs in, with no change to daphne's code: daphne's command line
class names its server class (`CommandLineInterface.server_class`), and the
server builds its websocket factory in `run()`; our server swaps that
factory's protocol class for the subclass below as it is assigned.
docs/OPERATIONS.md, "Flood resistance".
"""

from __future__ import annotations

from collections.abc import Callable

from daphne.cli import CommandLineInterface
from daphne.server import Server
from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import reactor

# Close codes after which the connection is dropped (games/consumers.py).
DROP_CODES = frozenset({4413, 4429})
DROP_GRACE_SECONDS = 1.0


class DroppingWebSocketProtocol(WebSocketProtocol):
    def serverClose(self, code=None):  # noqa: N802 - daphne's name
        super().serverClose(code=code)
        if code in DROP_CODES:
            self.drop_now()

    def drop_now(self) -> None:
        """Stop reading: frames still in flight are never parsed; the close frame still goes."""
        self.muted = True  # daphne queues nothing more for the application
        transport = self.transport
        if transport is None:
            return
        self.dropConnection(abort=False)  # autobahn: state CLOSED, transport.loseConnection()
        reactor.callLater(DROP_GRACE_SECONDS, _abort, transport)


def _abort(transport) -> None:
    if getattr(transport, "connected", False):
        transport.abortConnection()


def without_query_strings(action_logger: Callable[[str, str, dict], None]):
    """Wrap daphne's access logger so that no logged path keeps its query string."""

    def log(protocol: str, action: str, details: dict) -> None:
        path = details.get("path")
        if isinstance(path, str) and "?" in path:
            details = {**details, "path": path.split("?", 1)[0]}
        action_logger(protocol, action, details)

    return log


def start_house_runner() -> None:
    """On the reactor's (asyncio) loop once it runs: the same start as a first request's."""
    from games import runner  # Django is set up by now: daphne loaded the application

    runner.ensure_started()


class ClubServer(Server):
    def __init__(self, *args, action_logger=None, **kwargs) -> None:
        if action_logger is not None:
            action_logger = without_query_strings(action_logger)
        super().__init__(*args, action_logger=action_logger, **kwargs)

    def run(self) -> None:
        # callLater, not callWhenRunning: startup triggers fire before the
        # asyncio loop is running, and the runner is a task on that loop.
        reactor.callLater(0, start_house_runner)
        super().run()

    @property
    def ws_factory(self):
        return self._ws_factory

    @ws_factory.setter
    def ws_factory(self, factory) -> None:
        factory.protocol = DroppingWebSocketProtocol
        self._ws_factory = factory


class ClubCommandLine(CommandLineInterface):
    server_class = ClubServer


def main() -> None:
    ClubCommandLine.entrypoint()


if __name__ == "__main__":
    main()
