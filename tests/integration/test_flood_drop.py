"""A socket closed for flooding loses its TCP connection at once (club/serving/server.py).

A raw client against the real server (`python -m club.server`, as deployed)
signs in, opens a table socket and sends `sync` frames as fast as it can,
never answering the close. The server refuses the frames over the rate
limit, closes with 4429, and then stops reading: the client's sends fail
(connection reset) or its reads end while it is still sending, within a
bound far shorter than the seconds daphne's closing handshake and the
flood's backlog kept such a connection alive.

And the server reads a flooding socket's frames no further ahead than the
application takes them: at most one read beyond what the consumer lets wait
before it closes for flooding, in the lobby and at a table alike. Without
that, daphne parsed whatever the client sent while the consumer was still
in its connect handler: 30,000-115,000 frames per connection here before
the first one was looked at (issue 22's lobby flood, docs/PERFORMANCE.md).
"""

from __future__ import annotations

import base64
import contextlib
import os
import re
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.server import DaphneServer, SiteDatabase
from tests.support.tables import started_table

pytestmark = [pytest.mark.server, pytest.mark.timeout(180)]

# Seconds from the 4429 close frame to the connection's end. The club's server
# stops reading at once (measured: well under a millisecond); daphne alone
# kept reading the backlog through its closing handshake for 6-7 s here.
GONE_WITHIN = 3.0


@pytest.fixture
def server(database: SiteDatabase, tmp_path: Path) -> Iterator[DaphneServer]:
    server = DaphneServer(database, tmp_path, env={"BOT_RUNNER": "0"}).start()
    yield server
    server.stop()


FRAME_SIZE = 2 + 4 + len(b'{"type":"sync"}')
# What the consumer lets wait before closing for flooding (WS_RATE_BURST +
# WS_FLOOD_CLOSE_AFTER at their defaults), plus what one 64 KiB read holds,
# twice over for a read split across the limit. Without the pause the server
# read 30,000-115,000 frames of such a flood on this machine.
READ_AT_MOST = 20 + 100 + 2 * (65536 // FRAME_SIZE)


def masked_frame(text: bytes) -> bytes:
    mask = os.urandom(4)
    payload = bytes(b ^ mask[i % 4] for i, b in enumerate(text))
    assert len(text) < 126
    return bytes([0x81, 0x80 | len(text)]) + mask + payload


def raw_socket(server: DaphneServer, path: str, session: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: {server.url}\r\nCookie: sessionid={session}\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, head
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def close_codes(data: bytes) -> list[int]:
    """The close codes among the server's (unmasked) frames."""
    codes, i = [], 0
    while i + 2 <= len(data):
        opcode, size = data[i] & 0x0F, data[i + 1] & 0x7F
        i += 2
        if size == 126:
            size, i = struct.unpack(">H", data[i : i + 2])[0], i + 2
        elif size == 127:
            size, i = struct.unpack(">Q", data[i : i + 8])[0], i + 8
        if opcode == 0x8 and size >= 2:
            codes.append(struct.unpack(">H", data[i : i + 2])[0])
        i += size
    return codes


def flood_until_gone(sock: socket.socket, received: bytes = b"") -> tuple[float, bytes, int]:
    """Send as fast as the socket takes it, never answering a close.

    Returns the seconds from the server's close frame to the connection's
    end, what the server sent, and how many frames went out.
    """
    frames = masked_frame(b'{"type":"sync"}') * 500
    sock.setblocking(False)
    sent, start = 0, time.monotonic()
    closed_at = time.monotonic() if 4429 in close_codes(received) else None
    while time.monotonic() - start < 60:
        try:
            sent += sock.send(frames) // FRAME_SIZE
        except BlockingIOError:
            time.sleep(0.001)
        except (BrokenPipeError, ConnectionResetError):
            return time.monotonic() - (closed_at or start), received, sent
        try:
            chunk = sock.recv(65536)
        except BlockingIOError:
            continue
        except ConnectionResetError:
            return time.monotonic() - (closed_at or start), received, sent
        if not chunk:
            return time.monotonic() - (closed_at or start), received, sent
        received += chunk
        if closed_at is None and 4429 in close_codes(received):
            closed_at = time.monotonic()
    raise AssertionError("the server kept the flooding connection for 60 s")


def test_a_flooding_socket_is_cut_off_while_it_still_sends(server, database):
    table = started_table(database, seats=2, variant="Keft")
    player = table["players"][0]
    sock = raw_socket(server, f"/ws/tables/{table['table']}/", player["session"])
    try:
        seconds, received, sent = flood_until_gone(sock)
    finally:
        sock.close()
    assert closed_for_flooding(received, server, f"/ws/tables/{table['table']}/")
    assert seconds < GONE_WITHIN, f"{seconds:.1f} s after the close, {sent} frames sent"
    if 4429 in close_codes(received):  # the frames before the close reached the client
        assert b'"code": "flooding"' in received or b'"code":"flooding"' in received
    # The server still serves everyone else.
    other = raw_socket(server, f"/ws/tables/{table['table']}/", table["players"][1]["session"])
    other.close()


def closed_for_flooding(received: bytes, server: DaphneServer, path: str) -> bool:
    """The client read the 4429 close frame; or the server's reset got there first (closing a
    socket with frames still unread, the server's kernel answers with a reset, and the
    client's kernel then drops what the client had not read yet, the close frame too: seen
    once under CI load) and the server's log says it closed that socket for flooding."""
    return 4429 in close_codes(received) or bool(frames_read(server, path))


def frames_read(server: DaphneServer, path: str) -> list[int]:
    """What the server's log says it read of each socket to `path` it dropped for flooding."""
    pattern = (
        rf"dropped the connection of a socket to {re.escape(path)} "
        r"closed for flooding: (\d+) frames read"
    )
    return [int(n) for n in re.findall(pattern, server.log_path.read_text())]


@pytest.mark.parametrize("where", ["lobby", "table"])
def test_a_flooding_socket_is_read_no_further_ahead_than_the_consumer_takes(
    server, database, where
):
    table = started_table(database, seats=2, variant="Keft")
    player = table["players"][0]
    path = "/ws/lobby/" if where == "lobby" else f"/ws/tables/{table['table']}/"
    sock = raw_socket(server, path, player["session"])
    try:
        seconds, received, sent = flood_until_gone(sock)
    finally:
        sock.close()
    assert closed_for_flooding(received, server, path)
    [read] = frames_read(server, path)
    assert read <= READ_AT_MOST, f"{read} frames read of {sent} sent"
    assert sent > READ_AT_MOST  # the client did send far more than that
    # The server still serves the others.
    other = raw_socket(server, path, table["players"][1]["session"])
    other.close()


def pipelined_socket(server: DaphneServer, path: str, session: str, frames: bytes):
    """A handshake with `frames` sent right behind it, before the server answers.

    Returns the socket, how many frames went out with the handshake, and what
    followed the server's 101 in its first reads.
    """
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: {server.url}\r\nCookie: sessionid={session}\r\n\r\n"
    ).encode()
    sock.sendall(request)
    sock.setblocking(False)
    sent = 0
    with contextlib.suppress(BlockingIOError):  # as much as the socket buffers take
        while sent < len(frames):
            sent += sock.send(frames[sent:])
    sock.setblocking(True)
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(65536)
        assert chunk, head
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head[:200]
    return sock, sent // FRAME_SIZE, head.split(b"\r\n\r\n", 1)[1]


def test_frames_sent_before_the_socket_is_accepted_are_not_all_read(server, database):
    table = started_table(database, seats=2, variant="Keft")
    player = table["players"][0]
    backlog = masked_frame(b'{"type":"sync"}') * 50_000  # about 1 MB
    sock, pipelined, first = pipelined_socket(server, "/ws/lobby/", player["session"], backlog)
    try:
        seconds, received, sent = flood_until_gone(sock, first)
    finally:
        sock.close()
    assert pipelined > READ_AT_MOST  # the client got that much out before the answer
    assert closed_for_flooding(received, server, "/ws/lobby/")
    [read] = frames_read(server, "/ws/lobby/")
    assert read <= READ_AT_MOST, f"{read} frames read; {pipelined} sent before the 101"
