"""SQLite: a file on the desk in WAL mode, writers serialised by BEGIN IMMEDIATE, no row locks, no users."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, func
from sqlalchemy.engine import URL
from sqlalchemy.pool import NullPool
from sqlalchemy.sql.elements import ColumnElement

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.table_spec import SQLITE_DECIMAL_DIGITS, Storage, TableSpec
from desktop_app.private import private_file
from desktop_app.store.dialects.base import READONLY, BulkPath, ExportRead, TeamSecurity

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 15_000
SQLITE_PAGE_BYTES = 16_384
# SQLAlchemy returns an unscaled NUMERIC on SQLite (a float there) at this many decimals
DEFAULT_DECIMAL_SCALE = 10

# sqlite3's primary result codes (exc.sqlite_errorcode & 0xFF)
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_IOERR, _SQLITE_CANTOPEN, _SQLITE_PROTOCOL = 5, 6, 10, 14, 15
_SQLITE_PERM, _SQLITE_READONLY, _SQLITE_AUTH, _SQLITE_FULL = 3, 8, 23, 13
_SQLITE_SCHEMA_TEXT = re.compile(r"no such (table|column)|unknown database|has no column named", re.I)
_SQLITE_BUSY_TEXT = re.compile(r"database (table |schema )?is locked|database is busy", re.I)


def _register_sqlite_adapters() -> None:
    # Business rows go through the driver directly (store.business): teach sqlite3 the value types
    # the validators produce, as SQLAlchemy's Numeric and Date types store them. A datetime (never with
    # microseconds from the validator) is 'YYYY-MM-DD HH:MM:SS', the text business_schema.Stamp binds
    # in look-ups: said here rather than left to sqlite3's default adapter, deprecated since 3.12.
    import datetime
    import sqlite3
    from decimal import Decimal

    sqlite3.register_adapter(Decimal, str)
    sqlite3.register_adapter(datetime.date, datetime.date.isoformat)
    sqlite3.register_adapter(datetime.datetime, lambda value: value.isoformat(" "))


class SQLite:
    """The embedded database."""

    name = "sqlite"
    team: TeamSecurity | None = None  # one desk's file: no logins, its user administers it
    embedded = True
    row_locks = False  # BEGIN IMMEDIATE already serialises the writers
    row_security = False
    json_as_text = False  # the driver reads a JSON column as its text
    bulk_path = BulkPath.ADBC_STAGE
    bulk_preloads = False  # one writer
    export_read = ExportRead.KEYSET_PAGES

    def make_engine(self, url: str, parsed: URL, lock_s: int, idle_s: int, **kwargs: Any) -> Engine:
        from desktop_app.store.db import is_network_path

        database = parsed.database
        _register_sqlite_adapters()
        if database and database != ":memory:":
            path = Path(database)
            if is_network_path(path.parent):
                raise PermanentError(ErrorCode.NETWORK_SHARE, path=str(path.parent))
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                private_file(path)  # the desk's tasks: its OS user's alone (its WAL files take its rights)
            except OSError as exc:
                raise PermanentError(ErrorCode.DATA_DIR_UNUSABLE, path=str(path.parent),
                                     detail=exc.strerror or str(exc)) from exc  # fmt: skip
        engine = create_engine(
            url,
            poolclass=NullPool if database in (None, "", ":memory:") else None,
            connect_args={"timeout": BUSY_TIMEOUT_MS / 1000, "check_same_thread": False},
            **kwargs,
        )

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            # Let SQLAlchemy's "begin" event below emit BEGIN itself (the pysqlite recipe).
            dbapi_conn.isolation_level = None
            cursor = dbapi_conn.cursor()
            # A new database file gets 16 KB pages (SQLite's default: 4 KB); on an existing one this does
            # nothing. Measured on a million-row import (both sorted and unsorted keys): a quarter of the
            # write calls, and its INSERT ... SELECT with its commits 20-45 % less CPU, the unsorted file the most.
            cursor.execute(f"PRAGMA page_size={SQLITE_PAGE_BYTES}")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Any) -> None:
            # A deferred transaction that reads then writes gets SQLITE_BUSY at once, ignoring the busy
            # timeout; taking the write lock up front makes writers queue instead. Reads stay deferred.
            if conn.get_execution_options().get(READONLY):
                conn.exec_driver_sql("BEGIN")
            else:
                conn.exec_driver_sql("BEGIN IMMEDIATE")

        return engine

    @contextmanager
    def short_lock_wait(self, conn: Connection, milliseconds: int) -> Iterator[None]:
        yield  # a reader never waits in WAL mode; a table has no lock of its own

    def lock_holder(self, conn: Connection, schema: str | None, table: str) -> str | None:
        return None  # SQLite does not say

    def now(self, offset_seconds: float = 0.0) -> ColumnElement[Any]:
        secs = float(offset_seconds)
        # %f gives SS.SSS; three zeros make the six fractional digits SQLAlchemy's DateTime reads.
        if secs:
            return func.strftime("%Y-%m-%d %H:%M:%f000", "now", f"{secs:+.3f} seconds")
        return func.strftime("%Y-%m-%d %H:%M:%f000", "now")

    def greatest(self, column: Any, value: int) -> Any:
        return func.max(column, value)

    def bulk_available(self, engine: Engine) -> bool:
        return True

    def no_wait_for_disk(self, conn: Connection) -> None:
        pass  # the bulk connection's own settings (bulk_load._sqlite_bulk_settings) do what SQLite allows

    def literal(self, text: str) -> str:
        return "'" + text.replace("'", "''") + "'"

    def value_text(self, column: str, storage: Storage, scale: int | None) -> str:
        c = column
        if storage is Storage.TEXT:
            return c
        if storage in (Storage.INTEGER, Storage.ID):
            return f"CAST({c} AS TEXT)"
        if storage is Storage.DECIMAL:
            # SQLAlchemy reads SQLite's NUMERIC as Decimal('%.{scale}f' % value)
            digits = DEFAULT_DECIMAL_SCALE if scale is None else scale
            return f"CASE WHEN {c} IS NULL THEN NULL ELSE printf('%.{digits}f', {c}) END"
        if storage is Storage.DATE:
            return f"substr({c}, 1, 10)"
        if storage is Storage.DATETIME:
            # every value with its time, midnight too; a text of a date alone (an older row) reads as its
            # midnight, as SQLAlchemy reads it
            return f"CASE WHEN length({c}) = 10 THEN {c} || ' 00:00:00' ELSE substr({c}, 1, 19) END"
        return f"CASE WHEN {c} IS NULL THEN NULL WHEN {c} THEN 'TRUE' ELSE 'FALSE' END"

    def labelled(self, text: str, shown: Mapping[str, str]) -> str:
        if not shown:
            return text
        raise KeyError(self.name)  # the labels go in Arrow on SQLite (fast_csv.write_fast)

    def if_null(self, text: str, empty: str) -> str:
        return f"IFNULL({text}, {empty})"

    def export_session(self) -> tuple[str, ...]:
        return ()

    def count_quietly(self, conn: Connection) -> None:
        pass

    def text_bound(self, stored: Any) -> int | None:
        return None  # SQLite enforces no VARCHAR length

    def char_length(self, column: Any) -> Any:
        return func.length(column)

    def integer_range(self, stored: Any) -> tuple[int, int] | None:
        return (-(2**63), 2**63 - 1)  # every INTEGER is 8 bytes, whatever its declared type

    def bounds_decimal_digits(self) -> bool:
        return False

    def spec_problems(self, spec: TableSpec) -> list[str]:
        """A decimal column SQLite cannot give back as written: more digits than its NUMERIC keeps."""
        return [
            f"{spec.source}: column {col.name!r}: SQLite keeps {SQLITE_DECIMAL_DIGITS} significant digits of a "
            f"number and the column can hold {col.precision} ({col.scale} after the decimal point): give it a "
            f"decimal_min and decimal_max that need at most {SQLITE_DECIMAL_DIGITS} digits with its decimal_scale, "
            "or use a PostgreSQL or MySQL/MariaDB database"
            for col in spec.columns
            if col.storage is Storage.DECIMAL and (col.precision or 0) > SQLITE_DECIMAL_DIGITS
        ]

    def key_folds_case(self, conn: Connection, spec: TableSpec) -> bool:
        return False

    @contextmanager
    def ddl_lock(self, engine: Engine, name: str, key: int) -> Iterator[Connection]:
        with engine.begin() as conn:  # BEGIN IMMEDIATE: the write lock
            yield conn

    def before_migration(self, engine: Engine, revision: str) -> None:
        """Copy the database file beside itself (name.before-REVISION.bak) before migrating it; a copy
        that cannot be made stops the migration with a plain error, nothing changed."""
        import sqlite3

        database = engine.url.database
        if not database or database == ":memory:":
            return
        source = Path(database)
        if not source.exists():
            return
        target = source.with_name(f"{source.name}.before-{revision}.bak")
        partial = target.with_name(target.name + ".part")
        # sqlite3's online backup copies a consistent database, WAL content included; it is read while
        # this process holds the write lock, so it is the state just before the migration.
        raw = engine.raw_connection()
        try:
            partial.unlink(missing_ok=True)
            copy = sqlite3.connect(partial)
            try:
                raw.driver_connection.backup(copy)  # type: ignore[union-attr]
            finally:
                copy.close()
            partial.replace(target)
        except (OSError, sqlite3.Error) as exc:
            partial.unlink(missing_ok=True)
            raise PermanentError(ErrorCode.BACKUP_FAILED, path=str(target), detail=str(exc)) from exc
        finally:
            raw.close()
        log.info("backed up %s to %s before migrating", source, target)

    def lock_wait(self, exc: BaseException) -> bool:
        return False  # a busy file is the whole database's, not a table's (error_kind: passing)

    def owns_error(self, exc: BaseException) -> bool:
        orig = getattr(exc, "orig", None)
        if isinstance(getattr(orig, "sqlite_errorcode", None), int):
            return True
        return bool(_SQLITE_BUSY_TEXT.search(str(orig or exc)))  # a driver without codes (the ADBC SQLite driver)

    def error_kind(self, exc: BaseException) -> ErrorCode | None:
        orig = getattr(exc, "orig", None)
        code = getattr(orig, "sqlite_errorcode", None)
        if not isinstance(code, int):
            return ErrorCode.DATABASE_UNAVAILABLE  # owns_error: the busy text
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


DIALECT = SQLite()
