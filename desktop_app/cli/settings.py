"""The settings command: `settings mail`, the mail server a feed's mail goes through (shown, or changed in
the settings file; its password into the system keyring, never the file), and a test mail."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from desktop_app.app import Core
from desktop_app.cli.output import print_json
from desktop_app.cli.parser import EXIT_OK
from desktop_app.config import MAIL_ATTACH_MAX_MB, Settings, read_settings, save_settings
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.feed_mail import parse_addresses
from desktop_app.feeds.mail import send, server_name, test_mail
from desktop_app.feeds.mail_secret import PASSWORD_ENV, load_mail_password, store_mail_password

CHANGES = {"host": "smtp_host", "port": "smtp_port", "security": "smtp_security", "smtp_user": "smtp_user",
           "mail_from": "mail_from", "attach_mb": "mail_attach_mb"}  # fmt: skip


def cmd_settings_mail(core: Core, args: argparse.Namespace) -> int:
    given = {name: getattr(args, arg) for arg, name in CHANGES.items()}
    changes: dict[str, Any] = {name: value for name, value in given.items() if value is not None}
    if "smtp_port" in changes and not 0 <= changes["smtp_port"] <= 65535:
        raise PermanentError(ErrorCode.INVALID_PARAMS, detail="--port is a number from 0 to 65535")
    if "mail_attach_mb" in changes and not 0 <= changes["mail_attach_mb"] <= MAIL_ATTACH_MAX_MB:
        raise PermanentError(ErrorCode.INVALID_PARAMS, detail=f"--attach-mb is a number from 0 to {MAIL_ATTACH_MAX_MB}")
    if changes.get("mail_from"):
        (changes["mail_from"],) = _one_address(changes["mail_from"])
    settings = core.settings
    if changes:
        # the file's own settings changed (not this run's overrides), and written back
        cleaned: dict[str, Any] = {k: v.strip() if isinstance(v, str) else v for k, v in changes.items()}
        saved = read_settings(core.paths)[0].with_overrides(**cleaned)
        save_settings(core.paths, saved)
        settings = settings.with_overrides(**{k: getattr(saved, k) for k in changes})
    stored = None
    if args.password_stdin:
        if not settings.smtp_user:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail="set the user (--user) the password is for")
        password = sys.stdin.readline().rstrip("\r\n")
        stored = store_mail_password(settings, password)
        if not stored:
            sys.stderr.write(f"batchdesk: there is no system keyring on this desk: the password is not kept; "
                             f"give it to the worker in the environment variable {PASSWORD_ENV}\n")  # fmt: skip
    sent_to = None
    if args.test:
        if not settings.mail_ready:
            raise PermanentError(ErrorCode.MAIL_NOT_SET_UP)
        (sent_to,) = _one_address(args.test)
        send(test_mail(settings, sent_to, core.lang), settings)
    view = _view(settings)
    if args.json:
        print_json({**view, "password_stored": stored, "test_sent_to": sent_to})
        return EXIT_OK
    for key, value in view.items():
        sys.stdout.write(f"{key}: {value}\n")
    if sent_to:
        sys.stdout.write(f"a test mail was sent to {sent_to} through {server_name(settings)}\n")
    return EXIT_OK


def _one_address(text: str) -> tuple[str]:
    found = parse_addresses(text)
    if len(found) != 1:
        raise PermanentError(ErrorCode.MAIL_ADDRESS_INVALID, address=text)
    return (found[0],)


def _view(settings: Settings) -> dict[str, Any]:
    """The mail settings as shown (whether a password is known, never the password)."""
    return {"host": settings.smtp_host, "port": settings.smtp_port, "security": settings.smtp_security,
            "user": settings.smtp_user, "from": settings.mail_from, "attach_mb": settings.mail_attach_mb,
            "password_known": bool(load_mail_password(settings)), "ready": settings.mail_ready}  # fmt: skip
