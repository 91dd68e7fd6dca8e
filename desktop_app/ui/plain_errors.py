"""Errors in the clerk's words: a database error becomes the catalog's plain message, never SQL text."""

from __future__ import annotations

import logging

from sqlalchemy.exc import SQLAlchemyError

from desktop_app.domain.errors import BatchDeskError, Lang
from desktop_app.store.db_errors import classify, first_line

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
