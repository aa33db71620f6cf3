"""The club's daphne: `python -m club.server` takes daphne's own arguments.

Two differences from daphne. First, a socket that the application closes for
flooding (4429) or for an oversized frame (4413) has its TCP connection
dropped at once instead of being kept through the closing handshake. In
that handshake daphne (autobahn) would go on reading and parsing whatever
the client keeps sending -- under a flood most of daphne's time went to
parsing frames the application had already refused (docs/PERFORMANCE.md).
The close frame is still written, then reading stops (`loseConnection`);
a client that does not even read is cut off after DROP_GRACE_SECONDS.

Second, a socket's frames are read only as fast as the application takes
them (and none before it has accepted the socket): once more frames wait
for it than the consumer ever lets wait before it closes for flooding
(WS_RATE_BURST + WS_FLOOD_CLOSE_AFTER), reading stops until they are taken
(TCP's own flow control then holds the client back). daphne alone reads and parses everything a client sends, however far
behind the application is: a flooding socket whose consumer was still in
its connect handler (a few database and Redis round trips, each a turn of
the event loop in which daphne parsed another 64 KiB) had 28,000-115,000
frames parsed before its first frame was even looked at, in the lobby and
at tables alike (docs/PERFORMANCE.md, issue 22's lobby flood).

Third, the access log (daphne writes one to stdout at its default
verbosity) shows requests without their query strings: a private table's
address carries its invite token (`?invite=`), which must not end up in
logs (issue 22; the nginx example logs `$uri` for the same reason); and
with an unsubscribe link's token masked, which is in the path (issue 42,
club/serving/logsafe.py).

Fourth, the house runner (games/runner.py) starts with the server, not with
its first request: its duties must happen on time even when nobody visits
(a duplicate round closes at its end time, in the middle of the night too).

How it plugs in, with no change to daphne's code: daphne's command line
class names its server class (`CommandLineInterface.server_class`), and the
server builds its websocket factory in `run()`; our server swaps that
factory's protocol class for the subclass below as it is assigned.
docs/OPERATIONS.md, "Flood resistance".
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from daphne.cli import CommandLineInterface
from daphne.server import Server
from daphne.ws_protocol import WebSocketProtocol
from django.conf import settings
from twisted.internet import reactor

from club.serving.logsafe import redact

# The name the server's log lines have always carried (docs/OPERATIONS.md).
logger = logging.getLogger("club.server")

# Close codes after which the connection is dropped (games/consumers.py).
DROP_CODES = frozenset({4413, 4429})
DROP_GRACE_SECONDS = 1.0
# While a socket's reading is paused, how often to look whether the
# application has caught up (a timer only while paused).
RESUME_CHECK_SECONDS = 0.05


def read_ahead_frames() -> int:
    """Frames that may wait for the application before reading pauses.

    The consumer closes a socket for flooding once this many wait for it
    (games/consumers.py, GuardedConsumer._admit), so reading further ahead
    only parses frames that are going to be thrown away.
    """
    return max(1, settings.WS_RATE_BURST + settings.WS_FLOOD_CLOSE_AFTER)


class DroppingWebSocketProtocol(WebSocketProtocol):
    frames_read = 0
    reading_paused = False
    handshake_read = False

    def onConnect(self, request):  # noqa: N802 - autobahn's name
        self.handshake_read = True
        return super().onConnect(request)

    def dataReceived(self, data):  # noqa: N802 - Twisted's name
        super().dataReceived(data)
        if self.handshake_read and self.state == self.STATE_CONNECTING:
            # Frames sent before the application has accepted the socket (no
            # browser sends any): read no more until it has, or everything a
            # client pipelines behind its handshake during the connect handler
            # is parsed at once on accepting (measured: 50,000 of 50,000).
            # Each read: daphne resumes the transport once after the hand-over.
            if self.transport is not None:
                self.transport.pauseProducing()

    def onOpen(self):  # noqa: N802 - autobahn's name
        super().onOpen()
        if self.transport is not None and not self.reading_paused:
            self.transport.resumeProducing()

    def onMessage(self, payload, isBinary):  # noqa: N802, N803 - autobahn's names
        super().onMessage(payload, isBinary)
        self.frames_read += 1
        if not self.muted and self.application_queue.qsize() >= read_ahead_frames():
            self.pause_reading()

    def pause_reading(self) -> None:
        """Read no more until the application has taken the frames waiting for it.

        Called again for every frame parsed while over the limit: Twisted's
        write-side flow control may resume the transport on its own. The
        rest of what was already read (at most one 64 KiB read) is still
        parsed; nothing is lost, the client's next frames wait in TCP.
        """
        transport = self.transport
        if transport is None:
            return
        transport.pauseProducing()
        if not self.reading_paused:
            self.reading_paused = True
            reactor.callLater(RESUME_CHECK_SECONDS, self._resume_when_taken)

    def _resume_when_taken(self) -> None:
        transport = self.transport
        if not self.reading_paused or self.muted or not getattr(transport, "connected", False):
            self.reading_paused = False  # dropped, closed or gone: nothing to resume
            return
        if self.application_queue.qsize() > read_ahead_frames() // 2:
            reactor.callLater(RESUME_CHECK_SECONDS, self._resume_when_taken)
            return
        self.reading_paused = False
        transport.resumeProducing()  # a no-op once the connection is closing

    def serverClose(self, code=None):  # noqa: N802 - daphne's name
        super().serverClose(code=code)
        if code in DROP_CODES:
            self.drop_now()
        elif self.reading_paused:
            # A close of another kind: read on, so the client's close frame is seen.
            self.reading_paused = False
            if self.transport is not None:
                self.transport.resumeProducing()

    def drop_now(self) -> None:
        """Stop reading: frames still in flight are never parsed; the close frame still goes."""
        self.muted = True  # daphne queues nothing more for the application
        self.reading_paused = False
        transport = self.transport
        if transport is None:
            return
        logger.info(
            "dropped the connection of a socket to %s closed for flooding: %d frames read",
            getattr(self, "path", b"").decode("ascii", "replace"),
            self.frames_read,
        )
        self.dropConnection(abort=False)  # autobahn: state CLOSED, transport.loseConnection()
        reactor.callLater(DROP_GRACE_SECONDS, _abort, transport)


def _abort(transport) -> None:
    if getattr(transport, "connected", False):
        transport.abortConnection()


def without_query_strings(action_logger: Callable[[str, str, dict], None]):
    """Wrap daphne's access logger so that no logged path keeps its query string or a
    secret path segment (an unsubscribe token: club/serving/logsafe.py)."""

    def log(protocol: str, action: str, details: dict) -> None:
        path = details.get("path")
        if isinstance(path, str):
            details = {**details, "path": redact(path)}
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
