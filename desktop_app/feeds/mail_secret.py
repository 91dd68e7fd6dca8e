"""The mail server's password: never in the settings file nor a log; in the system keyring (as the
database password, ui/db_secret.py), or for a desk without one in the environment of its worker."""

from __future__ import annotations

import logging
import os
from typing import Any

from desktop_app.config import Settings

log = logging.getLogger(__name__)

SERVICE = "BatchDesk"
PASSWORD_ENV = "BATCHDESK_SMTP_PASSWORD"  # a worker run as a service, on a desk without a keyring
# the settings of the mail server (a change applies to the tasks that start after it)
MAIL_SETTINGS = ("smtp_host", "smtp_port", "smtp_security", "smtp_user", "mail_from", "mail_attach_mb",
                 "smtp_timeout")  # fmt: skip


def keyring_name(settings: Settings) -> str:
    """The keyring entry of the password: the user at the server."""
    return f"smtp:{settings.smtp_user}@{settings.smtp_host}"


def _keyring() -> Any:
    try:
        import keyring
    except ImportError:
        return None
    return keyring


def load_mail_password(settings: Settings) -> str | None:
    """The password of the settings' mail user (the keyring's, else the environment's), or None."""
    if not settings.smtp_user:
        return None
    ring = _keyring()
    if ring is not None:
        try:
            value = ring.get_password(SERVICE, keyring_name(settings))
        except Exception as exc:  # no usable back-end (a headless Linux session)
            log.warning("keyring unavailable for the mail password: %s", type(exc).__name__)
            value = None
        if value:
            return str(value)
    return os.environ.get(PASSWORD_ENV) or None


def store_mail_password(settings: Settings, password: str) -> bool:
    """Keep the password of the settings' mail user in the keyring; False when there is no keyring."""
    ring = _keyring()
    if ring is None:
        return False
    try:
        ring.set_password(SERVICE, keyring_name(settings), password)
    except Exception as exc:
        log.warning("keyring unavailable for the mail password: %s", type(exc).__name__)
        return False
    return True
