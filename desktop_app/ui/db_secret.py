"""The database password: never in the settings file; in the OS keyring when `keyring` is installed,
else asked for at start and kept in memory for the session."""

from __future__ import annotations

import logging

from sqlalchemy.engine import make_url

from desktop_app.store.dialects import UnknownDatabase, dialect_of

log = logging.getLogger(__name__)

SERVICE = "BatchDesk"


def split_password(url: str) -> tuple[str, str | None]:
    """(the URL without its password, the password or None)."""
    try:
        parsed = make_url(url)
    except Exception:
        return url, None
    if not parsed.password:
        return url, None
    # URL.set() ignores None; the URL is a named tuple.
    return parsed._replace(password=None).render_as_string(hide_password=False), str(parsed.password)


def with_password(url: str, password: str | None) -> str:
    if not password:
        return url
    return make_url(url).set(password=password).render_as_string(hide_password=False)


def needs_password(url: str | None) -> bool:
    """A server URL with a user name but no password."""
    if not url:
        return False
    try:
        parsed = make_url(url)
    except Exception:
        return False
    try:
        embedded = dialect_of(parsed).embedded
    except UnknownDatabase:
        embedded = False  # a server BatchDesk cannot open: it says so when it tries, not here
    return not embedded and bool(parsed.username) and not parsed.password


def _keyring():
    try:
        import keyring
    except ImportError:
        return None
    return keyring


def keyring_available() -> bool:
    return _keyring() is not None


def load_password(url: str) -> str | None:
    ring = _keyring()
    if ring is None:
        return None
    try:
        value = ring.get_password(SERVICE, url)
    except Exception as exc:  # no usable back-end (a headless Linux session)
        log.warning("keyring unavailable: %s", exc)
        return None
    return str(value) if value else None


def store_password(url: str, password: str) -> bool:
    """Keep the password for this URL in the OS keyring; False when there is no keyring."""
    ring = _keyring()
    if ring is None:
        return False
    try:
        ring.set_password(SERVICE, url, password)
    except Exception as exc:
        log.warning("keyring unavailable: %s", exc)
        return False
    return True
