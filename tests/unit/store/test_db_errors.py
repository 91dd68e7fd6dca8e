"""The one classifier of database errors: what passes retries, what does not fails at once in words."""

from __future__ import annotations

import sqlite3

import pymysql
import pytest
from sqlalchemy.exc import DataError, IntegrityError, OperationalError, ProgrammingError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from desktop_app.domain.errors import ErrorCode, PermanentError, TransientError
from desktop_app.store.db_errors import classify, db_detail, is_missing_table, is_passing, is_row_refusal

STATEMENT = "INSERT INTO things (code) VALUES (?)"


def _sqlite(text: str, code: int) -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError(text)
    exc.sqlite_errorcode = code  # type: ignore[attr-defined]
    return exc


class _PgError(Exception):
    """What psycopg's errors carry: the SQLSTATE."""

    def __init__(self, text: str, sqlstate: str) -> None:
        super().__init__(text)
        self.sqlstate = sqlstate


def _my(cls: type, errno: int, text: str) -> BaseException:
    """A PyMySQL error as the driver raises it: (errno, text), and a coarse SQLSTATE beside them."""
    exc: BaseException = cls(errno, text)
    exc.sqlstate = "42S02" if errno == 1146 else "HY000"  # type: ignore[attr-defined]
    return exc


def _wrapped(orig: BaseException, cls: type = OperationalError) -> OperationalError:
    return cls(STATEMENT, {"code": "A1"}, orig)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("orig", "code"),
    [
        (_sqlite("database is locked", 5), ErrorCode.DATABASE_UNAVAILABLE),
        (_sqlite("database table is locked", 6), ErrorCode.DATABASE_UNAVAILABLE),
        (_sqlite("disk I/O error", 10 | (3 << 8)), ErrorCode.DATABASE_UNAVAILABLE),  # an extended code
        (_sqlite("database or disk is full", 13), ErrorCode.DISK_FULL),
        (_PgError("terminating connection due to administrator command", "57P01"), ErrorCode.DATABASE_UNAVAILABLE),
        (_PgError("connection failure", "08006"), ErrorCode.DATABASE_UNAVAILABLE),
        (_PgError("deadlock detected", "40P01"), ErrorCode.DATABASE_UNAVAILABLE),
        (_PgError("could not serialize access", "40001"), ErrorCode.DATABASE_UNAVAILABLE),
        (_PgError("canceling statement due to lock timeout", "55P03"), ErrorCode.DATABASE_UNAVAILABLE),
        (_PgError("could not extend file: No space left on device", "53100"), ErrorCode.DISK_FULL),
        (_my(pymysql.err.OperationalError, 1205, "Lock wait timeout exceeded"), ErrorCode.DATABASE_UNAVAILABLE),
        (_my(pymysql.err.OperationalError, 1213, "Deadlock found"), ErrorCode.DATABASE_UNAVAILABLE),
        (
            _my(pymysql.err.OperationalError, 2013, "Lost connection to server during query"),
            ErrorCode.DATABASE_UNAVAILABLE,
        ),
        (_my(pymysql.err.OperationalError, 2003, "Can't connect to MySQL server"), ErrorCode.DATABASE_UNAVAILABLE),
    ],
)
def test_what_may_pass_is_transient(orig: BaseException, code: ErrorCode) -> None:
    exc = _wrapped(orig)
    typed = classify(exc)
    assert isinstance(typed, TransientError) and typed.code is code and is_passing(exc)
    assert not is_row_refusal(exc)


@pytest.mark.parametrize(
    ("orig", "code"),
    [
        (_sqlite("no such table: things", 1), ErrorCode.SCHEMA_MISMATCH),
        (_sqlite("table things has no column named amount", 1), ErrorCode.SCHEMA_MISMATCH),
        (_sqlite("unknown database rv9", 1), ErrorCode.SCHEMA_MISMATCH),
        (_sqlite('near "SELEC": syntax error', 1), ErrorCode.DATABASE_ERROR),
        (_sqlite("attempt to write a readonly database", 8), ErrorCode.PERMISSION_DENIED),
        (_PgError('relation "things" does not exist\nLINE 1: INSERT INTO things', "42P01"), ErrorCode.SCHEMA_MISMATCH),
        (_PgError('column "amount" does not exist', "42703"), ErrorCode.SCHEMA_MISMATCH),
        (_PgError('schema "rv9" does not exist', "3F000"), ErrorCode.SCHEMA_MISMATCH),
        (_PgError("permission denied for table things", "42501"), ErrorCode.PERMISSION_DENIED),
        (_PgError('syntax error at or near "SELEC"', "42601"), ErrorCode.DATABASE_ERROR),
        (_my(pymysql.err.ProgrammingError, 1146, "Table 'test.things' doesn't exist"), ErrorCode.SCHEMA_MISMATCH),
        (_my(pymysql.err.OperationalError, 1054, "Unknown column 'amount' in 'field list'"), ErrorCode.SCHEMA_MISMATCH),
        (_my(pymysql.err.OperationalError, 1142, "INSERT command denied to user"), ErrorCode.PERMISSION_DENIED),
        (_my(pymysql.err.OperationalError, 1114, "The table 'things' is full"), ErrorCode.DISK_FULL),
    ],
)
def test_what_cannot_pass_is_permanent_with_its_own_code(orig: BaseException, code: ErrorCode) -> None:
    exc = _wrapped(orig, ProgrammingError if "syntax" in str(orig) else OperationalError)
    typed = classify(exc)
    if code is ErrorCode.DISK_FULL:  # a full disk is a plain failure that a retry may fix once space is freed
        assert isinstance(typed, TransientError) and typed.code is code
        return
    assert isinstance(typed, PermanentError) and not typed.retryable and typed.code is code
    assert not is_passing(exc)
    # the words name what the database said, never the statement or its parameters
    for lang in ("zh", "en"):
        text = typed.text(lang)
        assert str(orig).splitlines()[0] in text or str(orig.args[-1]).splitlines()[0] in text, text
        assert "INSERT INTO" not in text.replace(str(orig), "") and "A1" not in text and "LINE 1" not in text


def test_a_lost_connection_and_a_pool_timeout_pass_whatever_the_driver_said() -> None:
    invalidated = OperationalError(STATEMENT, None, Exception("server closed the connection"))
    invalidated.connection_invalidated = True
    assert is_passing(invalidated)
    assert is_passing(PoolTimeout("QueuePool limit reached"))


def test_only_a_missing_table_or_column_is_a_missing_table() -> None:
    for orig in (_sqlite("no such table: business_tables", 1), _PgError('relation "x" does not exist', "42P01"),
                 _my(pymysql.err.ProgrammingError, 1146, "Table 'test.x' doesn't exist")):  # fmt: skip
        assert is_missing_table(_wrapped(orig))
    lost = OperationalError(STATEMENT, None, Exception("terminating connection"))
    lost.connection_invalidated = True  # a session the server ended: the table may well be there
    for exc in (lost, _wrapped(_PgError("terminating connection due to administrator command", "57P01")),
                _wrapped(_sqlite("database is locked", 5)), _wrapped(_PgError("syntax error", "42601"))):  # fmt: skip
        assert not is_missing_table(exc)


def test_rows_the_database_refuses_fail_alone_whatever_class_the_driver_chose() -> None:
    assert is_row_refusal(IntegrityError(STATEMENT, None, Exception("UNIQUE constraint failed")))
    assert is_row_refusal(DataError(STATEMENT, None, Exception("value too long")))
    # PyMySQL raises MariaDB's CHECK failure (4025) as an OperationalError, and MySQL's (3819) too
    for errno in (4025, 3819, 1406, 1264):
        assert is_row_refusal(_wrapped(pymysql.err.OperationalError(errno, "CONSTRAINT failed")))
    assert not is_row_refusal(_wrapped(_my(pymysql.err.OperationalError, 1205, "Lock wait timeout exceeded")))
    assert not is_row_refusal(_wrapped(_sqlite("no such table: things", 1)))


def test_the_detail_is_the_drivers_first_line() -> None:
    missing = _wrapped(_my(pymysql.err.OperationalError, 1146, "Table 'x' doesn't exist"))
    assert db_detail(missing) == "Table 'x' doesn't exist"
    assert db_detail(_wrapped(_PgError('relation "x" does not exist\nLINE 1: SELECT', "42P01"))) == (
        'relation "x" does not exist'
    )


def test_psycopg_connection_lost_without_sqlstate_passes() -> None:
    """'consuming input failed: server closed the connection unexpectedly' carries no SQLSTATE: the
    connection itself failed (a server restart, a terminated session), so it passes."""
    import psycopg
    from sqlalchemy.exc import OperationalError

    from desktop_app.domain.errors import ErrorCode, TransientError
    from desktop_app.store.db_errors import classify

    orig = psycopg.OperationalError("consuming input failed: server closed the connection unexpectedly")
    typed = classify(OperationalError("SET lock_timeout = '1s'", None, orig))
    assert isinstance(typed, TransientError) and typed.code is ErrorCode.DATABASE_UNAVAILABLE
