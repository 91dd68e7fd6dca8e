"""The one place that decides what a database error means: passing (retry) or not (fail at once, in words).

Only a lost connection, a lock or statement timeout, a deadlock, a serialisation failure, a busy or
briefly unreadable SQLite file and a full disk may pass on their own; everything else (a missing table
or column, a permission, a syntax error, a constraint) is permanent, so a task never loops for ten
minutes on a problem a retry cannot fix. The reason shown is the driver's first line, never the SQL.
"""

from __future__ import annotations

import re

from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from desktop_app.domain.errors import BatchDeskError, ErrorCode, PermanentError, TransientError
from desktop_app.store.dialects import ALL, mysql

# What SQLAlchemy adds to a driver's message: the statement, its parameters and a link to its docs.
SQLALCHEMY_MARKS = ("[SQL:", "sqlalche.me", "[parameters:", "(Background on this error")
# "OperationalError: (sqlite3.OperationalError) database is locked" -> "database is locked"
DRIVER_PREFIX = re.compile(r"^\s*(?:[\w.]+(?:Error|Exception|Timeout)\s*:\s*)?(?:\([\w.]+\)\s*)?")


def first_line(text: str) -> str:
    """The first line of a message that is not SQLAlchemy's statement, parameters or link."""
    for line in text.strip().splitlines():
        line = line.strip()
        if line and not line.startswith(SQLALCHEMY_MARKS):
            return line
    return ""


def db_detail(exc: BaseException) -> str:
    """The first line of the driver's own message: no statement, no parameters, no link."""
    orig = getattr(exc, "orig", None)
    if orig is not None:
        args: tuple[object, ...] = tuple(getattr(orig, "args", ()))
        if len(args) >= 2 and isinstance(args[0], int) and isinstance(args[1], str):  # PyMySQL (errno, text)
            return first_line(args[1])[:300]
        text = first_line(str(orig))
        if text:
            return text[:300]
    return (DRIVER_PREFIX.sub("", first_line(str(exc)), count=1) or type(exc).__name__)[:300]


def _kind(exc: BaseException) -> ErrorCode | None:
    """DATABASE_UNAVAILABLE / DISK_FULL for what may pass; another code for what does not; None if
    nothing specific is known (then a generic database_error). Each dialect reads its own driver's
    codes (store/dialects)."""
    if isinstance(exc, PoolTimeout) or getattr(exc, "connection_invalidated", False):
        return ErrorCode.DATABASE_UNAVAILABLE
    owner = next((d for d in ALL if d.owns_error(exc)), None)
    return owner.error_kind(exc) if owner is not None else None


def is_passing(exc: BaseException) -> bool:
    """True if waiting and trying again can help."""
    return _kind(exc) in (ErrorCode.DATABASE_UNAVAILABLE, ErrorCode.DISK_FULL)


def is_missing_table(exc: BaseException) -> bool:
    """True if the statement named a table, column or schema the database does not have (and nothing
    else went wrong: a lost connection is not a missing table)."""
    return _kind(exc) is ErrorCode.SCHEMA_MISMATCH


def is_missing_or_forbidden(exc: BaseException) -> bool:
    """True if the statement named a table or column the database does not have, or one this login may
    not read or write (a clerk's grants in team mode)."""
    return _kind(exc) in (ErrorCode.SCHEMA_MISMATCH, ErrorCode.PERMISSION_DENIED)


def is_row_refusal(exc: BaseException) -> bool:
    """True if the database refused the rows themselves (a constraint, a value it cannot store), so the
    batch is redone row by row and the refused row fails alone."""
    if isinstance(exc, (IntegrityError, DataError)):
        return True
    if isinstance(exc, DBAPIError) and _kind(exc) is None:
        return mysql.errno(exc.orig) in mysql.ROW_REFUSED
    return False


def classify(exc: SQLAlchemyError) -> BatchDeskError:
    """A database error as a typed error: TransientError if it may pass, PermanentError otherwise."""
    kind = _kind(exc)
    detail = db_detail(exc)
    if kind is ErrorCode.DATABASE_UNAVAILABLE or kind is ErrorCode.DISK_FULL:
        return TransientError(kind, detail=detail)
    return PermanentError(kind or ErrorCode.DATABASE_ERROR, detail=detail)
