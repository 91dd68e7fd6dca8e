"""MySQL and MariaDB: READ COMMITTED sessions, LOAD DATA LOCAL INFILE, an unbuffered cursor, error numbers."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine, create_engine, event, func
from sqlalchemy.engine import URL
from sqlalchemy.sql.elements import ColumnElement

from desktop_app.domain.errors import ErrorCode
from desktop_app.domain.table_spec import Storage, TableSpec
from desktop_app.store.dialects.base import BulkPath, ExportRead, TeamSecurity
from desktop_app.store.dialects.servers import ServerSchema, lookup, pool_options, who

# Error numbers that pass: lock wait timeout, deadlock, too many connections, server shutdown,
# connection killed or lost, cannot connect, query interrupted or over its time limit.
PASSING = {1205, 1213, 1040, 1053, 1927, 2002, 2003, 2006, 2013, 2014, 2055, 4031, 1317, 3024, 1969}
SCHEMA = {1146, 1054, 1049, 1051, 1109}
PERMISSION = {1142, 1143, 1044, 1045, 1227, 1370}
DISK_FULL = {1021, 1114}
LOCK_WAITS = {1205, 1213}  # lock wait timeout (a row's or, lock_wait_timeout, a table's), deadlock
# A row the database refuses (CHECK, NOT NULL, too long, out of range, a bad value, a foreign key):
# PyMySQL raises some of these as OperationalError (every unknown errno >= 1000 is one), so the class
# alone does not say it.
ROW_REFUSED = {4025, 3819, 1048, 1406, 1264, 1366, 1292, 1452, 1451, 1062, 1586, 1690}
_KINDS = (
    (PASSING, ErrorCode.DATABASE_UNAVAILABLE), (DISK_FULL, ErrorCode.DISK_FULL),
    (SCHEMA, ErrorCode.SCHEMA_MISMATCH), (PERMISSION, ErrorCode.PERMISSION_DENIED),
)  # fmt: skip

# Who else holds a table lock (LOCK TABLES) or a row lock on the table: the server's process list
# names the user and the host, information_schema's lock tables the locking transaction's thread.
_TABLE_LOCKERS = sa.text(
    "SELECT p.USER, p.HOST FROM information_schema.INNODB_TRX t "
    "JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id "
    "WHERE t.trx_mysql_thread_id <> CONNECTION_ID() AND t.trx_tables_locked > 0 ORDER BY t.trx_started LIMIT 1"
)


def errno(orig: object) -> int | None:
    """PyMySQL's error number (its errors' first argument), None for another driver's error."""
    args = getattr(orig, "args", ())
    return args[0] if args and isinstance(args[0], int) else None


class MySQL(ServerSchema):
    """A MySQL or MariaDB server (PyMySQL)."""

    name = "mysql"
    embedded = False
    row_locks = True
    row_security = False
    json_as_text = False  # the driver reads a JSON column as its text
    bulk_path = BulkPath.LOAD_DATA
    # Loaded in line, a batch's LOAD DATA kept the server's thread busy while ours waited, then ours worked
    # while the server's waited (a million rows: 1.3 cores busy); the next batch now loads on a connection of
    # its own while the one before commits (imports/bulk/ahead.py). Two batches in flight never share a key,
    # so InnoDB's insert-intention locks let both insert (docs/BENCHMARKS.md, the import's choices).
    bulk_preloads = True
    export_read = ExportRead.SERVER_CURSOR

    @property
    def team(self) -> TeamSecurity | None:
        """Logins, roles and DEFINER views in place of the tables, no row security (store/team_sql/mysql.py):
        loaded when a desk asks for them, not by every command on any database (~35 ms a start)."""
        from desktop_app.store.team_sql.mysql import TEAM_SECURITY

        return TEAM_SECURITY

    def make_engine(self, url: str, parsed: URL, lock_s: int, idle_s: int, **kwargs: Any) -> Engine:
        engine = create_engine(url, **pool_options(), **kwargs)

        @event.listens_for(engine, "do_connect")
        def _connect(_dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
            from desktop_app.store.dialects.mysql_connect import SharedTlsConnection

            return SharedTlsConnection(*cargs, **cparams)

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            # a table another session holds by LOCK TABLES is waited for as long as a row (the
            # server's default, lock_wait_timeout: a year, and the desk's task hangs with it)
            settings = [
                "time_zone = '+00:00'",
                f"SESSION innodb_lock_wait_timeout = {lock_s}",
                f"SESSION lock_wait_timeout = {lock_s}",
            ]
            if "mariadb" in str(dbapi_conn.get_server_info()).lower():  # MySQL 8 has no idle transaction timeout
                settings.append(f"SESSION idle_transaction_timeout = {idle_s}")
            cursor = dbapi_conn.cursor()
            # READ COMMITTED: the claim's SKIP LOCKED and our fenced updates need no gap locks.
            cursor.execute("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED")
            cursor.execute("SET " + ", ".join(settings))  # one round trip, not one per setting
            cursor.close()

        return engine

    @contextmanager
    def short_lock_wait(self, conn: Connection, milliseconds: int) -> Iterator[None]:
        # whole seconds; LOCK TABLES holds the table's metadata lock, which a reader waits for
        # lock_wait_timeout, a row lock innodb_lock_wait_timeout: both for the look, then as they were;
        # under a second: no wait at all (MariaDB's 0; MySQL takes 1 at least)
        seconds = 0 if milliseconds < 1000 else -(-int(milliseconds) // 1000)
        before = conn.exec_driver_sql("SELECT @@SESSION.lock_wait_timeout, @@SESSION.innodb_lock_wait_timeout").one()
        conn.exec_driver_sql(f"SET SESSION lock_wait_timeout = {seconds}, innodb_lock_wait_timeout = {seconds}")
        try:
            yield
        finally:
            conn.exec_driver_sql(f"SET SESSION lock_wait_timeout = {int(before[0])}, "
                                 f"innodb_lock_wait_timeout = {int(before[1])}")  # fmt: skip

    def lock_holder(self, conn: Connection, schema: str | None, table: str) -> str | None:
        try:
            row = conn.execute(_TABLE_LOCKERS).first()
        except sa.exc.DBAPIError:
            return None  # no PROCESS privilege: the server does not tell this user
        return who(row[0], None) if row else None

    def now(self, offset_seconds: float = 0.0) -> ColumnElement[Any]:
        secs = float(offset_seconds)
        if secs:
            return sa.literal_column(f"(UTC_TIMESTAMP(6) + INTERVAL {int(secs * 1_000_000)} MICROSECOND)")
        return sa.literal_column("UTC_TIMESTAMP(6)")

    def greatest(self, column: Any, value: int) -> Any:
        return func.greatest(column, value)

    def bulk_available(self, engine: Engine) -> bool:
        """Whether the server accepts LOAD DATA LOCAL (its local_infile setting)."""
        with engine.connect() as conn:
            value = conn.execute(sa.text("SELECT @@GLOBAL.local_infile")).scalar()
        return str(value) in ("1", "ON", "on")

    def no_wait_for_disk(self, conn: Connection) -> None:
        pass

    def literal(self, text: str) -> str:
        # MySQL's backslash escapes too
        return "'" + text.replace("'", "''").replace("\\", "\\\\") + "'"

    def value_text(self, column: str, storage: Storage, scale: int | None) -> str:
        c = column
        if storage is Storage.TEXT:
            return c
        if storage in (Storage.INTEGER, Storage.ID, Storage.DECIMAL):
            return f"CAST({c} AS CHAR)"
        if storage is Storage.DATE:
            return f"DATE_FORMAT({c}, '%Y-%m-%d')"
        if storage is Storage.DATETIME:
            return f"DATE_FORMAT({c}, '%Y-%m-%d %H:%i:%s')"  # every value with its time, midnight too
        return f"CASE WHEN {c} IS NULL THEN NULL WHEN {c} <> 0 THEN 'TRUE' ELSE 'FALSE' END"

    def labelled(self, text: str, shown: Mapping[str, str]) -> str:
        if not shown:
            return text
        raise KeyError(self.name)  # the labels go in Arrow on MySQL/MariaDB (fast_csv.write_fast)

    def if_null(self, text: str, empty: str) -> str:
        return f"IFNULL({text}, {empty})"

    def export_session(self) -> tuple[str, ...]:
        return ()

    def count_quietly(self, conn: Connection) -> None:
        pass

    def key_folds_case(self, conn: Connection, spec: TableSpec) -> bool:
        """Whether the table compares a text key column case-insensitively (a *_ci collation)."""
        texts = [c.name for c in spec.columns if c.name in spec.key and c.storage is Storage.TEXT]
        if not texts:
            return False
        query = sa.text(
            "SELECT COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = COALESCE(:schema, DATABASE()) "
            "AND TABLE_NAME = :table AND COLUMN_NAME IN :names"
        ).bindparams(sa.bindparam("names", expanding=True))
        rows = conn.execute(query, {"schema": spec.schema, "table": spec.table, "names": texts}).scalars().all()
        return any((r or "").endswith("_ci") for r in rows)

    @contextmanager
    def ddl_lock(self, engine: Engine, name: str, key: int) -> Iterator[Connection]:
        # a named lock: DDL commits on its own, so a transaction cannot serialise it
        with engine.connect() as conn:
            got = conn.execute(sa.text("SELECT GET_LOCK(:n, 60)"), {"n": name}).scalar()
            try:
                if got != 1:
                    raise RuntimeError(f"could not take the lock {name} within 60 s")
                yield conn
                conn.commit()
            finally:
                conn.execute(sa.text("SELECT RELEASE_LOCK(:n)"), {"n": name})

    def before_migration(self, engine: Engine, revision: str) -> None:
        pass  # the server's own backups

    def lock_wait(self, exc: BaseException) -> bool:
        return errno(getattr(exc, "orig", None) or exc) in LOCK_WAITS

    def owns_error(self, exc: BaseException) -> bool:
        # first of the three: PyMySQL's errors carry a sqlstate too, a coarse one
        return errno(getattr(exc, "orig", None)) is not None

    def error_kind(self, exc: BaseException) -> ErrorCode | None:
        return lookup(errno(getattr(exc, "orig", None)), _KINDS)


DIALECT = MySQL()
