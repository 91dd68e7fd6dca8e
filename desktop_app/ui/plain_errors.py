"""Errors in the clerk's words: a database error becomes the catalog's plain message, never SQL text."""

from __future__ import annotations

import logging

from sqlalchemy.exc import SQLAlchemyError

from desktop_app.domain.errors import BatchDeskError, ErrorCode, Lang, message
from desktop_app.store.db_errors import DRIVER_PREFIX, SQLALCHEMY_MARKS, classify, first_line

log = logging.getLogger(__name__)


def _lang(lang: str) -> Lang:
    return "zh" if lang == "zh" else "en"


def plain_error(exc: BaseException, lang: str, what: str = "") -> str:
    """A plain-language reason for an exception; database and unexpected errors are logged in full."""
    if isinstance(exc, BatchDeskError):
        return exc.text(_lang(lang))
    if isinstance(exc, SQLAlchemyError):  # OperationalError, DBAPIError, a pool timeout
        log.error("%s: database error", what or "a database call failed", exc_info=exc)
        return classify(exc).text(_lang(lang))
    log.error("%s failed", what or "a call", exc_info=exc)
    if isinstance(exc, OSError):  # "[Errno 13] Permission denied: 'x.csv'" reads well as it is
        return first_line(str(exc)) or type(exc).__name__
    return first_line(f"{type(exc).__name__}: {exc}") or type(exc).__name__


def plain_reason(reason: str, lang: str) -> str:
    """A reason that arrived as text (the executor's `submit_failed`): SQLAlchemy text becomes the
    database message (the executor already logged the full error)."""
    if not any(mark in reason for mark in SQLALCHEMY_MARKS) and "sqlalchemy" not in reason.lower():
        return reason
    detail = DRIVER_PREFIX.sub("", first_line(reason), count=1) or first_line(reason)
    return message(ErrorCode.DATABASE_UNAVAILABLE, _lang(lang), detail=detail)
