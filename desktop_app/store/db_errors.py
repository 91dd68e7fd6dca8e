"""The one place that decides what a database error means: passing (retry) or not (fail at once, in words).

Only a lost connection, a lock or statement timeout, a deadlock, a serialisation failure, a busy or
briefly unreadable SQLite file and a full disk may pass on their own; everything else (a missing table
or column, a permission, a syntax error, a constraint) is permanent, so a task never loops for ten
minutes on a problem a retry cannot fix. The reason shown is the driver's first line, never the SQL.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from desktop_app.domain.errors import BatchDeskError, ErrorCode, PermanentError, TransientError

# PostgreSQL SQLSTATEs that pass: class 08 (connection), serialisation failure, deadlock, lock not
# available (lock_timeout), query cancelled (statement_timeout), the server shutting down or starting,
# too many connections, idle-in-transaction timeout (57P05 on newer servers).
_PG_PASSING = {"40001", "40P01", "55P03", "57014", "57P01", "57P02", "57P03", "57P05", "53300", "25P03"}
_PG_SCHEMA = {"42P01", "42703", "3F000", "3D000", "42704"}
_PG_PERMISSION = {"42501", "28000", "28P01"}
_PG_DISK_FULL = {"53100"}

# MySQL/MariaDB error numbers that pass: lock wait timeout, deadlock, too many connections, server
# shutdown, connection killed or lost, cannot connect, query interrupted or over its time limit.
_MY_PASSING = {1205, 1213, 1040, 1053, 1927, 2002, 2003, 2006, 2013, 2014, 2055, 4031, 1317, 3024, 1969}
_MY_SCHEMA = {1146, 1054, 1049, 1051, 1109}
_MY_PERMISSION = {1142, 1143, 1044, 1045, 1227, 1370}
_MY_DISK_FULL = {1021, 1114}
# A row the database refuses (CHECK, NOT NULL, too long, out of range, a bad value, a foreign key):
# PyMySQL raises some of these as OperationalError (every unknown errno >= 1000 is one), so the class
# alone does not say it.
_MY_ROW_REFUSED = {4025, 3819, 1048, 1406, 1264, 1366, 1292, 1452, 1451, 1062, 1586, 1690}

# sqlite3's primary result codes (exc.sqlite_errorcode & 0xFF)
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_IOERR, _SQLITE_CANTOPEN, _SQLITE_PROTOCOL = 5, 6, 10, 14, 15
_SQLITE_PERM, _SQLITE_READONLY, _SQLITE_AUTH, _SQLITE_FULL = 3, 8, 23, 13
_SQLITE_SCHEMA_TEXT = re.compile(r"no such (table|column)|unknown database|has no column named", re.I)
_SQLITE_BUSY_TEXT = re.compile(r"database (table |schema )?is locked|database is busy", re.I)

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


def _mysql_errno(orig: object) -> int | None:
    args = getattr(orig, "args", ())
    return args[0] if args and isinstance(args[0], int) else None


_UNAVAILABLE, _FULL = ErrorCode.DATABASE_UNAVAILABLE, ErrorCode.DISK_FULL
_SCHEMA, _PERMISSION = ErrorCode.SCHEMA_MISMATCH, ErrorCode.PERMISSION_DENIED
_MY_KINDS = ((_MY_PASSING, _UNAVAILABLE), (_MY_DISK_FULL, _FULL), (_MY_SCHEMA, _SCHEMA), (_MY_PERMISSION, _PERMISSION))
_PG_KINDS = ((_PG_PASSING, _UNAVAILABLE), (_PG_DISK_FULL, _FULL), (_PG_SCHEMA, _SCHEMA), (_PG_PERMISSION, _PERMISSION))


def _lookup(code: object, kinds: tuple[tuple[set[Any], ErrorCode], ...]) -> ErrorCode | None:
    return next((kind for codes, kind in kinds if code in codes), None)


def _kind(exc: BaseException) -> ErrorCode | None:
    """DATABASE_UNAVAILABLE / DISK_FULL for what may pass; another code for what does not; None if
    nothing specific is known (then a generic database_error)."""
    if isinstance(exc, PoolTimeout) or getattr(exc, "connection_invalidated", False):
        return ErrorCode.DATABASE_UNAVAILABLE
    orig = getattr(exc, "orig", None)
    errno = _mysql_errno(orig)
    if errno is not None:  # PyMySQL (first: its errors carry a sqlstate too, a coarse one)
        return _lookup(errno, _MY_KINDS)
    sqlstate = getattr(orig, "sqlstate", None)
    if isinstance(sqlstate, str):  # psycopg
        return ErrorCode.DATABASE_UNAVAILABLE if sqlstate.startswith("08") else _lookup(sqlstate, _PG_KINDS)
    if isinstance(exc, OperationalError) and type(orig).__module__.startswith("psycopg"):
        # psycopg's error without a SQLSTATE is the connection itself failing ("server closed the
        # connection unexpectedly", "consuming input failed"): the server never answered the statement
        return ErrorCode.DATABASE_UNAVAILABLE
    code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(code, int):  # sqlite3
        primary = code & 0xFF
        if primary in (_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_IOERR, _SQLITE_CANTOPEN, _SQLITE_PROTOCOL):
            return ErrorCode.DATABASE_UNAVAILABLE
        if primary == _SQLITE_FULL:
            return ErrorCode.DISK_FULL
        if primary in (_SQLITE_PERM, _SQLITE_READONLY, _SQLITE_AUTH):
            return ErrorCode.PERMISSION_DENIED
        if _SQLITE_SCHEMA_TEXT.search(str(orig)):
            return ErrorCode.SCHEMA_MISMATCH
        return None
    if _SQLITE_BUSY_TEXT.search(str(orig or exc)):  # a driver without codes (the ADBC SQLite driver)
        return ErrorCode.DATABASE_UNAVAILABLE
    return None


def is_passing(exc: BaseException) -> bool:
    """True if waiting and trying again can help."""
    return _kind(exc) in (ErrorCode.DATABASE_UNAVAILABLE, ErrorCode.DISK_FULL)


def is_missing_table(exc: BaseException) -> bool:
    """True if the statement named a table, column or schema the database does not have (and nothing
    else went wrong: a lost connection is not a missing table)."""
    return _kind(exc) is ErrorCode.SCHEMA_MISMATCH


def is_row_refusal(exc: BaseException) -> bool:
    """True if the database refused the rows themselves (a constraint, a value it cannot store), so the
    batch is redone row by row and the refused row fails alone."""
    if isinstance(exc, (IntegrityError, DataError)):
        return True
    if isinstance(exc, DBAPIError) and _kind(exc) is None:
        errno = _mysql_errno(exc.orig)
        return errno in _MY_ROW_REFUSED
    return False


def classify(exc: SQLAlchemyError) -> BatchDeskError:
    """A database error as a typed error: TransientError if it may pass, PermanentError otherwise."""
    kind = _kind(exc)
    detail = db_detail(exc)
    if kind is ErrorCode.DATABASE_UNAVAILABLE or kind is ErrorCode.DISK_FULL:
        return TransientError(kind, detail=detail)
    return PermanentError(kind or ErrorCode.DATABASE_ERROR, detail=detail)
