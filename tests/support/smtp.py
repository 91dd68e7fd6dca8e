"""A local mail server for the tests (aiosmtpd): the mails it was given, parsed, answers of our choosing to
its commands, and a port that refuses every connection (a mail server that is down)."""

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
    """What the server was given: each mail with its envelope's recipients. `answers` replaces the answer
    to a command ("MAIL", "RCPT", "DATA", "QUIT") by the one given, e.g. {"RCPT": "550 5.1.1 no such user"}."""

    host: str = "127.0.0.1"
    port: int = 0
    mails: list[EmailMessage] = field(default_factory=list)
    recipients: list[list[str]] = field(default_factory=list)
    answers: dict[str, str] = field(default_factory=dict)

    async def handle_MAIL(self, server: Any, session: Any, envelope: Any, address: str, options: list[str]) -> str:
        if "MAIL" in self.answers:
            return self.answers["MAIL"]
        envelope.mail_from = address
        envelope.mail_options.extend(options)
        return "250 OK"

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: list[str]) -> str:
        if "RCPT" in self.answers:
            return self.answers["RCPT"]
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(options)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if "DATA" in self.answers:
            return self.answers["DATA"]
        content = envelope.original_content or envelope.content
        self.mails.append(message_from_bytes(content, policy=policy.default))  # type: ignore[arg-type]
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 OK"

    async def handle_QUIT(self, server: Any, session: Any, envelope: Any) -> str:
        return self.answers.get("QUIT", "221 Bye")

    def settings(self) -> dict[str, Any]:
        """The desk's settings that send through this server."""
        return {"smtp_host": self.host, "smtp_port": self.port, "smtp_security": "none",
                "mail_from": "batchdesk@desk.example", "smtp_timeout": 5.0}  # fmt: skip


@contextmanager
def refusing_port() -> Iterator[int]:
    """A port on 127.0.0.1 bound for as long as the block runs but never listening: a connection to it is
    refused (a mail server that is down), and no other test's server can take it meanwhile (a port freed and
    then named would race with the workers that run beside this one)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        yield int(probe.getsockname()[1])


class _AnyPortController(Controller):
    """aiosmtpd 1.4's Controller listening on a port the system chose (port 0): its own start connects to
    the port it was given, so it learns the chosen one from its listening socket first."""

    def _trigger_server(self) -> None:
        assert self.server is not None
        self.port = int(self.server.sockets[0].getsockname()[1])
        super()._trigger_server()


@contextmanager
def mail_server(login: tuple[str, str] | None = None, **options: Any) -> Iterator[Inbox]:
    """A mail server on a port of its own; with `login` (user, password), one that signs that user in and
    refuses any other password (over the plain connection: a test has no certificate). `options` go to
    aiosmtpd's SMTP (data_size_limit=..., the SIZE it announces and holds to)."""
    inbox = Inbox()
    if login is not None:

        def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
            given = (data.login.decode(), data.password.decode()) if isinstance(data, LoginPassword) else None
            return AuthResult(success=given == login, handled=False)  # handled=False: the server answers 535

        options = {**options, "authenticator": authenticator, "auth_require_tls": False}
    controller = _AnyPortController(inbox, hostname=inbox.host, port=0, **options)
    controller.start()
    inbox.port = controller.port
    try:
        yield inbox
    finally:
        controller.stop()
