"""A local mail server for the tests (aiosmtpd): the mails it was given, parsed, and a port nothing answers."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


@dataclass
class Inbox:
    """What the server was given: each mail with its envelope's recipients."""

    host: str = "127.0.0.1"
    port: int = 0
    mails: list[EmailMessage] = field(default_factory=list)
    recipients: list[list[str]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        content = envelope.original_content or envelope.content
        self.mails.append(message_from_bytes(content, policy=policy.default))  # type: ignore[arg-type]
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 OK"

    def settings(self) -> dict[str, Any]:
        """The desk's settings that send through this server."""
        return {"smtp_host": self.host, "smtp_port": self.port, "smtp_security": "none",
                "mail_from": "batchdesk@desk.example", "smtp_timeout": 5.0}  # fmt: skip


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (a mail server that is down)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def mail_server(login: tuple[str, str] | None = None) -> Iterator[Inbox]:
    """A mail server on a free port; with `login` (user, password), one that signs that user in and refuses
    any other password (over the plain connection: a test has no certificate)."""
    inbox = Inbox(port=free_port())
    options: dict[str, Any] = {}
    if login is not None:

        def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
            given = (data.login.decode(), data.password.decode()) if isinstance(data, LoginPassword) else None
            return AuthResult(success=given == login, handled=False)  # handled=False: the server answers 535

        options = {"authenticator": authenticator, "auth_require_tls": False}
    controller = Controller(inbox, hostname=inbox.host, port=inbox.port, **options)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()
