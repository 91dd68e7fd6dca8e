"""The databases' own bulk loaders, for a batch of rows already checked: all rows in, or none.

- SQLite: the batch is staged by the ADBC SQLite driver in a file of its own (C, from Arrow), then
  INSERT ... SELECT from it in the batch's transaction. The ADBC driver carries its own copy of
  SQLite, and two copies of SQLite must never have one database file open at once (their POSIX locks
  do not see each other): the stage file is written, closed, and only then attached by ours; the main
  database is never opened by ADBC.
- PostgreSQL: COPY ... FROM STDIN (FORMAT csv) on the batch's own connection, inside its transaction.
- MySQL/MariaDB: LOAD DATA LOCAL INFILE from a CSV file of the batch (one file per batch loading ahead),
  on a connection that allows local files (BatchDesk's other connections do not). LOCAL turns duplicate
  keys into warnings and skips those rows, so the count of rows loaded is checked: short means a conflict.

Each returns False when the database refused the batch because of a key already there (the caller
rolls back to its savepoint and writes the batch row by row); other errors propagate.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DataError, IntegrityError

from desktop_app.store.business_rows import TASK_NO
from desktop_app.store.dialects import BulkPath, dialect_of

log = logging.getLogger(__name__)

STAGE_SCHEMA = "bd_stage"
# SQLite copies its write-ahead log into the database once it holds this much (its default: 1,000
# pages): measured on a million customers rows in batches of 20,000, ~40 MB of log takes the batches'
# commits from 2.3 s to 1.4 s, the index pages that every batch touches being copied once per
# checkpoint rather than once per batch.
BULK_WAL_BYTES = 40 * 1024 * 1024
# The page cache of a bulk batch's connection (SQLite's default: 2 MB): a batch's new pages (~3 MB for
# 20,000 customers rows) fit, so none is written to the log and read back before its commit (a million
# rows: 80,000 fewer system calls on 4 KB pages). Freed when the connection goes back to the pool.
BULK_CACHE_KIB = 8 * 1024
STAGE_TABLE = "rows"
# Rows a COPY is sent at a time: the server reads one piece while the next is rendered, and no more than
# a piece of the batch is held as text
COPY_PIECE_ROWS = 8192


def _quoted_name(engine_or_conn: Engine | Connection, name: str) -> str:
    quote = engine_or_conn.dialect.identifier_preparer.quote
    return ".".join(quote(p) for p in name.split("."))


class BulkLoader:
    """Loads checked batches into one table, on the batch's connection; a batch's columns are its
    Arrow table's (names of the table's columns), task_no is added."""

    def __init__(self, engine: Engine, table: str, task_no: str, work_dir: Path, *, ahead: bool = True) -> None:
        if not TASK_NO.fullmatch(task_no):
            raise ValueError(f"not a task number: {task_no!r}")
        self.engine = engine
        self.dialect = dialect_of(engine)
        self.table = table
        self.task_no = task_no
        self._stage = work_dir / f"{task_no}-bulk-stage.sqlite3"
        self._csv = work_dir / f"{task_no}-bulk-batch.csv"
        self._work_dir = work_dir
        self._mysql_engine: Engine | None = None
        self._engine_lock = threading.Lock()  # two loading threads may ask for the local-infile engine at once
        self._ahead = ahead
        self._ahead_files = itertools.count(1)  # each batch loaded ahead writes a CSV file of its own

    # --- the connection a batch runs on ---------------------------------------------------

    @contextmanager
    def connection(self, rows: pa.Table | None) -> Iterator[Connection]:
        """The connection for one batch, ready for load(): on SQLite the staged batch is attached (outside
        any transaction, as SQLite requires); on MySQL one that may send a local file."""
        if self.dialect.bulk_path is BulkPath.ADBC_STAGE:
            with self.engine.connect() as conn:
                if rows is None:
                    yield conn
                    return
                self._write_stage(rows)
                raw: Any = conn.connection.dbapi_connection
                raw.execute(f"ATTACH DATABASE ? AS {STAGE_SCHEMA}", (str(self._stage),))
                restore = _sqlite_bulk_settings(raw)
                try:
                    yield conn
                finally:
                    if conn.in_transaction():
                        conn.rollback()
                    restore()  # the pool's connection again
                    raw.execute(f"DETACH DATABASE {STAGE_SCHEMA}")
            return
        if self.dialect.bulk_path is BulkPath.LOAD_DATA and rows is not None:
            _write_csv(rows, self._csv, null="NULL")
            with self._local_infile_engine().connect() as conn:
                yield conn
            return
        with self.engine.connect() as conn:
            yield conn

    def _local_infile_engine(self) -> Engine:
        with self._engine_lock:
            if self._mysql_engine is None:
                from desktop_app.store.db import make_engine

                self._mysql_engine = make_engine(self.engine.url.render_as_string(hide_password=False),
                                                 connect_args={"local_infile": True})  # fmt: skip
            return self._mysql_engine

    def close(self) -> None:
        """Remove the staging files and the extra connections."""
        for path in (self._stage, self._csv, *self._work_dir.glob(f"{self.task_no}-bulk-ahead-*.csv")):
            path.unlink(missing_ok=True)
        if self._mysql_engine is not None:
            self._mysql_engine.dispose()
            self._mysql_engine = None

    # --- loading ---------------------------------------------------------------------------

    def load(self, conn: Connection, rows: pa.Table) -> bool:
        """Insert the batch inside a savepoint of the connection's transaction (on the connection
        connection() gave for it): True when every row went in, False when a key was already there."""
        self._no_wait_for_disk(conn)
        try:
            with conn.begin_nested():
                self._load(conn, rows)
        except self._refused(conn) as exc:
            log.info("bulk load of %d rows into %s refused (%s): written row by row", rows.num_rows, self.table,
                     exc)  # fmt: skip
            return False
        return True

    @property
    def preloads(self) -> bool:
        """Whether a batch may be loaded ahead (preload) while the batch before it commits: where the
        dialect says so (PostgreSQL, MySQL/MariaDB), unless made without (`ahead`)."""
        return self.dialect.bulk_preloads and self._ahead

    def preload(self, rows: pa.Table) -> Preloaded:
        """The batch loaded on a connection of its own, in a transaction left open for the batch's commit
        (on any thread: the connection is handed over). The rows are not committed, nor fenced: the
        batch's commit takes the fence before it writes its checkpoint, and a task lost meanwhile rolls
        them back. A batch the database refused leaves the connection with no transaction. On MySQL/MariaDB
        the batch's CSV file is its own (two batches load at once), removed once loaded."""
        local_file = self.dialect.bulk_path is BulkPath.LOAD_DATA
        conn = (self._local_infile_engine() if local_file else self.engine).connect()
        try:
            conn.begin()
            self._no_wait_for_disk(conn)
            try:
                if local_file:
                    csv = self._work_dir / f"{self.task_no}-bulk-ahead-{next(self._ahead_files)}.csv"
                    try:
                        _write_csv(rows, csv, null="NULL")
                        self._load(conn, rows, csv=csv)
                    finally:
                        csv.unlink(missing_ok=True)
                else:
                    self._load(conn, rows)
            except self._refused(conn) as exc:
                conn.rollback()
                log.info("bulk load of %d rows into %s refused (%s): written row by row", rows.num_rows,
                         self.table, exc)  # fmt: skip
                return Preloaded(conn, loaded=False)
        except BaseException:
            conn.close()
            raise
        return Preloaded(conn, loaded=True)

    def _load(self, conn: Connection, rows: pa.Table, *, csv: Path | None = None) -> None:
        """What a batch's load in line (load) and a load ahead (preload) both run; `csv`: MySQL/MariaDB's file
        of the batch, when not the one connection() wrote."""
        path = self.dialect.bulk_path
        if path is BulkPath.ADBC_STAGE:
            loaded = self._insert_select(conn, rows)
        elif path is BulkPath.COPY:
            loaded = self._copy(conn, rows)
        else:
            loaded = self._load_data(conn, rows, csv or self._csv)
        if loaded != rows.num_rows:
            raise _ShortLoad(loaded, rows.num_rows)

    @staticmethod
    def _refused(conn: Connection) -> tuple[type[BaseException], ...]:
        """The errors that mean the database refused the batch's rows (a key already there, a value)."""
        # the loaders run on the driver's own cursor: its IntegrityError is not SQLAlchemy's
        dbapi: Any = conn.dialect.dbapi
        return IntegrityError, DataError, _ShortLoad, dbapi.IntegrityError, dbapi.DataError

    def _no_wait_for_disk(self, conn: Connection) -> None:
        self.dialect.no_wait_for_disk(conn)  # PostgreSQL: synchronous_commit off for the batch

    def _columns(self, conn: Connection, rows: pa.Table) -> tuple[str, str]:
        quote = conn.dialect.identifier_preparer.quote
        return ", ".join(quote(c) for c in rows.column_names), quote("task_no")

    def _write_stage(self, rows: pa.Table) -> None:
        # The driver manager's low-level API, not its DB-API module: that one imports pyarrow.dataset,
        # which imports pandas wherever pandas is installed (+60 MB resident for nothing).
        import adbc_driver_manager as adbc
        import adbc_driver_sqlite

        self._stage.unlink(missing_ok=True)
        with (
            adbc_driver_sqlite.connect(str(self._stage)) as database,
            adbc.AdbcConnection(database) as stage,
        ):
            # a throwaway file, written whole before ours opens it: no journal, no sync; 64 KB pages, so a
            # batch is a sixteenth of the writes and reads (thread CPU of a million rows: the stage file
            # 0.77 -> 0.73 s, the INSERT ... SELECT 0.69 -> 0.64 s)
            for pragma in ("PRAGMA page_size=65536", "PRAGMA journal_mode=OFF", "PRAGMA synchronous=OFF"):
                with adbc.AdbcStatement(stage) as statement:
                    statement.set_sql_query(pragma)
                    statement.execute_update()
            with adbc.AdbcStatement(stage) as statement:
                statement.set_options(**{
                    adbc.INGEST_OPTION_TARGET_TABLE: STAGE_TABLE,
                    adbc.INGEST_OPTION_MODE: adbc.INGEST_OPTION_MODE_CREATE,
                })  # fmt: skip
                statement.bind_stream(rows.to_reader())
                statement.execute_update()

    def _insert_select(self, conn: Connection, rows: pa.Table) -> int:
        cols, task = self._columns(conn, rows)
        sql = (f"INSERT INTO main.{_quoted_name(conn, self.table)} ({cols}, {task}) "
               f"SELECT {cols}, '{self.task_no}' FROM {STAGE_SCHEMA}.{STAGE_TABLE}")  # fmt: skip
        return int(conn.exec_driver_sql(sql).rowcount)

    def _copy(self, conn: Connection, rows: pa.Table) -> int:
        cols, task = self._columns(conn, rows)
        raw: Any = conn.connection.dbapi_connection
        rows = rows.append_column("task_no", pa.repeat(pa.scalar(self.task_no, pa.string()), rows.num_rows))
        with raw.cursor() as cursor:
            with cursor.copy(f"COPY {_quoted_name(conn, self.table)} ({cols}, {task}) FROM STDIN (FORMAT csv)") as copy:
                for start in range(0, rows.num_rows, COPY_PIECE_ROWS):
                    copy.write(_copy_csv(rows.slice(start, COPY_PIECE_ROWS)))
            return int(cursor.rowcount)

    def _load_data(self, conn: Connection, rows: pa.Table, csv: Path) -> int:
        cols, task = self._columns(conn, rows)
        # every value quoted, a NULL the bare word NULL: read back as NULL with no per-column SET
        sql = (
            f"LOAD DATA LOCAL INFILE %s INTO TABLE {_quoted_name(conn, self.table)} CHARACTER SET utf8mb4 "
            "FIELDS TERMINATED BY ',' ENCLOSED BY '\"' ESCAPED BY '' LINES TERMINATED BY '\\n' "
            f"({cols}) SET {task} = '{self.task_no}'"
        )
        raw: Any = conn.connection.dbapi_connection
        with raw.cursor() as cursor:
            cursor.execute(sql, (str(csv),))
            loaded = int(cursor.rowcount)
            cursor.execute("SELECT @@warning_count")
            (warnings,) = cursor.fetchone()
        if warnings:
            return -1  # a value the server changed or a row it skipped: the row-by-row path says which
        return loaded


def _sqlite_bulk_settings(raw: Any) -> Callable[[], None]:
    """Set a SQLite connection's log and cache sizes for bulk batches; returns what sets them back."""
    (page_bytes,) = raw.execute("PRAGMA main.page_size").fetchone()
    (wal_pages,) = raw.execute("PRAGMA main.wal_autocheckpoint").fetchone()
    (cache,) = raw.execute("PRAGMA main.cache_size").fetchone()
    raw.execute(f"PRAGMA main.wal_autocheckpoint={max(BULK_WAL_BYTES // page_bytes, wal_pages)}")
    raw.execute(f"PRAGMA main.cache_size={-BULK_CACHE_KIB}")

    def restore() -> None:
        raw.execute(f"PRAGMA main.wal_autocheckpoint={wal_pages}")
        raw.execute(f"PRAGMA main.cache_size={cache}")
        raw.execute("PRAGMA shrink_memory")

    return restore


@dataclass
class Preloaded:
    """A batch's connection after preload(): its transaction open with the rows in (loaded), or none."""

    connection: Connection
    loaded: bool

    def discard(self) -> None:
        """Give the connection back, rolling back what it has not committed (a batch that stopped)."""
        try:
            if self.connection.in_transaction():
                self.connection.rollback()
        finally:
            self.connection.close()


def _copy_csv(rows: pa.Table) -> pa.Buffer:
    """Rows as COPY ... (FORMAT csv) reads them: unquoted where no value needs quotes (measured on a
    million customers rows: the server's COPY 2.15 s of CPU quoted, 1.78 s unquoted), else every value
    quoted. Unquoted, an empty text would read as NULL: rows holding one are quoted; Arrow refuses to
    leave a value with a quote, a comma or a line break unquoted: those rows are quoted too."""
    if not any(pa.types.is_string(c.type) and pc.any(pc.equal(pc.binary_length(c), 0)).as_py() for c in rows.columns):
        sink = pa.BufferOutputStream()
        try:
            pcsv.write_csv(rows, sink, write_options=pcsv.WriteOptions(include_header=False, quoting_style="none"))
            return sink.getvalue()
        except pa.ArrowInvalid:
            pass  # a value that must be quoted
    sink = pa.BufferOutputStream()
    _write_csv(rows, sink)
    return sink.getvalue()


def _write_csv(rows: pa.Table, sink: Path | pa.NativeFile, *, null: str = "") -> None:
    """The batch as CSV the loaders read: no header, every value quoted (its own quotes doubled), a
    NULL as `null` unquoted."""
    options = pcsv.WriteOptions(include_header=False, quoting_style="all_valid", null_string=null,
                                batch_size=8192)  # fmt: skip
    pcsv.write_csv(rows, str(sink) if isinstance(sink, Path) else sink, write_options=options)


class _ShortLoad(Exception):
    """Fewer rows went in than were sent (MySQL's LOCAL load skips a duplicate key with a warning)."""

    def __init__(self, loaded: int, sent: int) -> None:
        super().__init__(f"{loaded} of {sent} rows loaded")
