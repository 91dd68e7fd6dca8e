"""Errors in the clerk's words: a database error becomes the catalog's plain message, never SQL text."""

from __future__ import annotations

import logging
import re

from sqlalchemy.exc import SQLAlchemyError

from desktop_app.domain.errors import BatchDeskError, ErrorCode, Lang, message

log = logging.getLogger(__name__)

# What SQLAlchemy adds to a driver's message: the statement, its parameters and a link to its docs.
_SQLALCHEMY_MARKS = ("[SQL:", "sqlalche.me", "[parameters:", "(Background on this error")
# "OperationalError: (sqlite3.OperationalError) database is locked" -> "database is locked"
_PREFIX = re.compile(r"^\s*(?:[\w.]+(?:Error|Exception|Timeout)\s*:\s*)?(?:\([\w.]+\)\s*)?")


def _lang(lang: str) -> Lang:
    return "zh" if lang == "zh" else "en"


def first_line(text: str) -> str:
    for line in text.strip().splitlines():
        line = line.strip()
        if line and not line.startswith(_SQLALCHEMY_MARKS):
            return line
    return ""


def db_detail(exc: BaseException) -> str:
    """The first line of the driver's own message, without SQLAlchemy's statement and link."""
    orig = getattr(exc, "orig", None)
    text = first_line(str(orig)) if orig is not None else ""
    return text or _PREFIX.sub("", first_line(str(exc)), count=1) or type(exc).__name__


def plain_error(exc: BaseException, lang: str, what: str = "") -> str:
    """A plain-language reason for an exception; database and unexpected errors are logged in full."""
    if isinstance(exc, BatchDeskError):
        return exc.text(_lang(lang))
    if isinstance(exc, SQLAlchemyError):  # OperationalError, DBAPIError, a pool timeout
        log.error("%s: database error", what or "a database call failed", exc_info=exc)
        return message(ErrorCode.DATABASE_UNAVAILABLE, _lang(lang), detail=db_detail(exc))
    log.error("%s failed", what or "a call", exc_info=exc)
    if isinstance(exc, OSError):  # "[Errno 13] Permission denied: 'x.csv'" reads well as it is
        return first_line(str(exc)) or type(exc).__name__
    return first_line(f"{type(exc).__name__}: {exc}") or type(exc).__name__


def plain_reason(reason: str, lang: str) -> str:
    """A reason that arrived as text (the executor's `submit_failed`): SQLAlchemy text becomes the
    database message (the executor already logged the full error)."""
    if not any(mark in reason for mark in _SQLALCHEMY_MARKS) and "sqlalchemy" not in reason.lower():
        return reason
    detail = _PREFIX.sub("", first_line(reason), count=1) or first_line(reason)
    return message(ErrorCode.DATABASE_UNAVAILABLE, _lang(lang), detail=detail)
