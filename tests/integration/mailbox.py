"""A real SMTP server for the notification tests: aiosmtpd on a free local port.

`Mailbox.stop()` / `start()` take it down and bring it back on the same port;
`refuse` holds addresses answered 550; `hold` makes the server wait that many
seconds after taking a message's data before its "250 OK" (a worker killed
meanwhile leaves its mail claimed but unconfirmed).
"""

from __future__ import annotations

import asyncio
import email
import logging
import socket
import threading
import time
from email.message import EmailMessage
from email.policy import default

from aiosmtpd.controller import Controller

# aiosmtpd logs every SMTP command at INFO: the tests' output is about the club.
logging.getLogger("mail.log").setLevel(logging.WARNING)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Mailbox:
    def __init__(self) -> None:
        self.port = free_port()
        self.messages: list[EmailMessage] = []
        self.refuse: set[str] = set()
        self.hold = 0.0
        self.lock = threading.Lock()
        self.controller: Controller | None = None

    # aiosmtpd handler hooks
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        if address in self.refuse:
            return "550 5.1.1 No such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        message = email.message_from_bytes(envelope.content, policy=default)
        with self.lock:
            self.messages.append(message)
        if self.hold:
            await asyncio.sleep(self.hold)
        return "250 Message accepted for delivery"

    def start(self) -> Mailbox:
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.messages if address in m["To"]]

    def wait_for(self, count: int, timeout: float = 15.0) -> list[EmailMessage]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.messages) >= count:
                    return list(self.messages)
            time.sleep(0.05)
        raise AssertionError(f"{len(self.messages)} mail(s) arrived, not {count}")

    def settings(self) -> dict:
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": self.port,
            "EMAIL_USE_TLS": False,
            "EMAIL_USE_SSL": False,
            "EMAIL_HOST_USER": "",
            "EMAIL_HOST_PASSWORD": "",
            "EMAIL_TIMEOUT": 5,
        }


def body(message: EmailMessage, subtype: str = "plain") -> str:
    part = message.get_body(preferencelist=(subtype,))
    return part.get_content() if part is not None else ""
