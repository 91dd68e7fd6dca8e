"""PostgreSQL: session timeouts, COPY for bulk loads, the ADBC driver's COPY for exports, SQLSTATEs."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine, create_engine, event, func
from sqlalchemy.engine import URL
from sqlalchemy.exc import OperationalError
from sqlalchemy.sql.elements import ColumnElement

from desktop_app.domain.errors import ErrorCode
from desktop_app.domain.table_spec import Storage, TableSpec
from desktop_app.store.dialects.base import BulkPath, ExportRead, TeamSecurity
from desktop_app.store.dialects.servers import ServerSchema, lookup, pool_options, who

# SQLSTATEs that pass: class 08 (connection), serialisation failure, deadlock, lock not available
# (lock_timeout), query cancelled (statement_timeout), the server shutting down or starting, too many
# connections, idle-in-transaction timeout (57P05 on newer servers).
PASSING = {"40001", "40P01", "55P03", "57014", "57P01", "57P02", "57P03", "57P05", "53300", "25P03"}
SCHEMA = {"42P01", "42703", "3F000", "3D000", "42704"}
PERMISSION = {"42501", "28000", "28P01"}
DISK_FULL = {"53100"}
LOCK_WAITS = {"55P03", "40P01"}  # lock_timeout, deadlock
_KINDS = (
    (PASSING, ErrorCode.DATABASE_UNAVAILABLE), (DISK_FULL, ErrorCode.DISK_FULL),
    (SCHEMA, ErrorCode.SCHEMA_MISMATCH), (PERMISSION, ErrorCode.PERMISSION_DENIED),
)  # fmt: skip

EXPORT_SESSION = ("SET standard_conforming_strings = on", "SET DateStyle = 'ISO, YMD'")
"""What value_text's texts assume of the session that runs them: a backslash in a literal is a
backslash (the filters' values are rendered as literals), and a date's text is YYYY-MM-DD whatever the
server's or the database's own DateStyle says."""

_BYTEWISE = '"C"'  # the collation that compares texts byte for byte

# Who else holds a lock on the table (the server tells: its application and its user)
_HOLDERS = sa.text(
    "SELECT a.application_name, a.usename FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
    "WHERE l.locktype = 'relation' AND l.granted AND l.pid <> pg_backend_pid() "
    "AND l.relation = to_regclass(:name) ORDER BY l.mode = 'AccessExclusiveLock' DESC LIMIT 1"
)


class PostgreSQL(ServerSchema):
    """A PostgreSQL server (psycopg 3)."""

    name = "postgresql"
    embedded = False
    row_locks = True
    row_security = True
    json_as_text = True  # psycopg loads json and jsonb
    bulk_path = BulkPath.COPY
    # COPY keeps one server process busy: the next batch loads while the one before commits
    bulk_preloads = True
    export_read = ExportRead.ADBC_COPY

    @property
    def team(self) -> TeamSecurity | None:
        """Roles, grants and row-level security (store/team_sql/postgresql.py): loaded when a desk asks for
        them, not by every command on any database (with SQLAlchemy's PostgreSQL dialect, ~30 ms a start)."""
        from desktop_app.store.team_sql.postgresql import TEAM

        return TEAM

    def make_engine(self, url: str, parsed: URL, lock_s: int, idle_s: int, **kwargs: Any) -> Engine:
        engine = create_engine(url, **pool_options(), **kwargs)

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            # Session settings of BatchDesk's own connections only: the server's are never changed.
            autocommit = dbapi_conn.autocommit
            dbapi_conn.autocommit = True
            cursor = dbapi_conn.cursor()
            cursor.execute(f"SET lock_timeout = '{lock_s}s'")
            cursor.execute(f"SET idle_in_transaction_session_timeout = '{idle_s}s'")
            cursor.close()
            dbapi_conn.autocommit = autocommit

        return engine

    @contextmanager
    def short_lock_wait(self, conn: Connection, milliseconds: int) -> Iterator[None]:
        # LOCAL: the transaction's end sets it back (a statement that timed out aborts the transaction,
        # so nothing could be said to the server after it before the rollback)
        conn.exec_driver_sql(f"SET LOCAL lock_timeout = '{int(milliseconds)}ms'")
        yield

    def lock_holder(self, conn: Connection, schema: str | None, table: str) -> str | None:
        quote = conn.dialect.identifier_preparer.quote
        name = ".".join(quote(p) for p in (schema, table) if p)
        row = conn.execute(_HOLDERS, {"name": name}).first()
        return who(row[0], row[1]) if row else None

    def now(self, offset_seconds: float = 0.0) -> ColumnElement[Any]:
        secs = float(offset_seconds)
        now = func.timezone("UTC", func.clock_timestamp())
        if secs:
            return now + func.make_interval(0, 0, 0, 0, 0, 0, secs)
        return now

    def greatest(self, column: Any, value: int) -> Any:
        return func.greatest(column, value)

    def bulk_available(self, engine: Engine) -> bool:
        return True

    def no_wait_for_disk(self, conn: Connection) -> None:
        # This batch's commit does not wait for the server's disk (measured: 0.6-0.7 s of a million-row
        # import, fifty commits). Safe for what an import promises: only a crash of the server itself
        # can lose such a commit, and then its checkpoint with it, so the resumed import writes those
        # rows again, once; and the task's end is an ordinary commit, which flushes the server's log up
        # to it, every batch's commit before it included.
        conn.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")

    def literal(self, text: str) -> str:
        return "'" + text.replace("'", "''") + "'"

    def value_text(self, column: str, storage: Storage, scale: int | None) -> str:
        c = column
        if storage in (Storage.TEXT, Storage.INTEGER, Storage.ID, Storage.DECIMAL):
            return f"({c})::text"
        if storage is Storage.DATE:
            # the date's own output, YYYY-MM-DD in the ISO DateStyle the export's session sets (EXPORT_SESSION):
            # to_char parses its pattern again for every row (the server's CPU for a million-row export:
            # 2.00 -> 1.82 s, measured); a date's years 1000-9999 read the same either way
            return f"({c})::text"
        if storage is Storage.DATETIME:
            return f"to_char({c}, 'YYYY-MM-DD HH24:MI:SS')"  # every value with its time, midnight too
        return f"CASE WHEN {c} IS NULL THEN NULL WHEN ({c})::int <> 0 THEN 'TRUE' ELSE 'FALSE' END"

    def labelled(self, text: str, shown: Mapping[str, str]) -> str:
        # compared byte for byte whatever the column's collation: Arrow's look-up of the row path is exact
        if not shown:
            return text
        whens = " ".join(f"WHEN {self.literal(k)} THEN {self.literal(v)}" for k, v in shown.items())
        return f"CASE ({text}) COLLATE {_BYTEWISE} {whens} ELSE {text} END"

    def if_null(self, text: str, empty: str) -> str:
        return f"coalesce({text}, {empty})"

    def export_session(self) -> tuple[str, ...]:
        return EXPORT_SESSION

    def count_quietly(self, conn: Connection) -> None:
        # one backend, not three: the count runs beside the export's own read, which then shares the
        # cores with two parallel workers (their CPU 0.2 s against 0.12-0.15 s; six alternating pairs:
        # 2.11-3.44 s -> 2.13-2.81 s)
        conn.exec_driver_sql("SET LOCAL max_parallel_workers_per_gather = 0")

    def key_folds_case(self, conn: Connection, spec: TableSpec) -> bool:
        return False  # a text compares case-sensitively (no *_ci collation)

    @contextmanager
    def ddl_lock(self, engine: Engine, name: str, key: int) -> Iterator[Connection]:
        with engine.begin() as conn:
            conn.execute(sa.text(f"SELECT pg_advisory_xact_lock({int(key)})"))
            yield conn

    def before_migration(self, engine: Engine, revision: str) -> None:
        pass  # the server's own backups

    def lock_wait(self, exc: BaseException) -> bool:
        orig = getattr(exc, "orig", None) or exc
        return getattr(orig, "sqlstate", None) in LOCK_WAITS

    def owns_error(self, exc: BaseException) -> bool:
        orig = getattr(exc, "orig", None)
        if isinstance(getattr(orig, "sqlstate", None), str):
            return True
        # psycopg's error without a SQLSTATE is the connection itself failing ("server closed the
        # connection unexpectedly", "consuming input failed"): the server never answered the statement
        return isinstance(exc, OperationalError) and type(orig).__module__.startswith("psycopg")

    def error_kind(self, exc: BaseException) -> ErrorCode | None:
        sqlstate = getattr(getattr(exc, "orig", None), "sqlstate", None)
        if not isinstance(sqlstate, str) or sqlstate.startswith("08"):
            return ErrorCode.DATABASE_UNAVAILABLE
        return lookup(sqlstate, _KINDS)


DIALECT = PostgreSQL()
