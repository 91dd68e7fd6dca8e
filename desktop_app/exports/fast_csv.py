"""The CSV export's fast paths: the database renders every cell, the rows never become Python objects.

Each row is one text the database joins of its values' texts (row_texts: UNIT between them, ROW_END
after the row). On PostgreSQL a batch that needs no quoting and no neutralised trigger is written as
it came, its separators replaced (RowTexts.clean_csv; its labels applied in the same SQL); any other
batch is split into columns and made into lines by Arrow's kernels (csv_lines).

- SQLite: keyset pages, each page one text SQLite joins itself, read by the store's own SQLite in
  this process (sqlite_pages).
- PostgreSQL: the rows read by the ADBC PostgreSQL driver (the server's binary COPY into Arrow, in C)
  in this process (its libpq shares nothing with psycopg's); a batch's texts lie end to end in its
  buffer. Measured: the driver takes 1.2 s of CPU to read nine columns of a million rows, 0.45 s to
  read one; psycopg's COPY hands over one row a call; a CASE per cell costs the server more than the
  whole read (one CASE for a labelled column costs little).
- MySQL/MariaDB: one ordered query on a server-side cursor, each row one text, split into columns by
  Arrow (write_streamed). Keyset pages of GROUP_CONCAT cost MariaDB 0.1 s a page through its
  secondary index.
The same bytes as the row-by-row writer (tests/integration/test_export_fast.py holds them side by side).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import Connection, Engine

from desktop_app.domain.table_spec import Storage
from desktop_app.exports import adbc_ahead
from desktop_app.exports.definition import ExportDefinition
from desktop_app.exports.mysql_rows import RowTooLong
from desktop_app.exports.row_texts import ROW_END, UNIT, RowTexts, SeparatorInData, texts_bytes
from desktop_app.imports.error_csv import DANGEROUS, neutralise
from desktop_app.store.business_rows import BusinessTable
from desktop_app.store.dialects import ExportRead, dialect_of

T = TypeVar("T")
K = TypeVar("K")
C = TypeVar("C")

STREAM_ROWS = 20_000  # rows per write and per progress report on MySQL/MariaDB
SQLITE_READERS = 2  # connections reading an SQLite export's pages side by side (this machine kind: 2 cores)
_SIDE_BY_SIDE = threading.Semaphore(1)  # the one SQLite export of the process reading side by side
AHEAD_EACH = 1  # pages each of them reads ahead of the writing (2: no faster, 10 MB more at the peak)

# Arrow bytes per batch the PostgreSQL driver reads (its default 16 MB: ~110 MB more resident with the
# batch ahead and the rendering's copies). 2 MB is ~22,000 rows of the customers table; the split and
# the columns are copies of it: a million-row export's peak 184 MB at 4 MB, 169 MB at 2, 151 MB at 1
# (where ~90 batches' Arrow calls cost ~50 ms of CPU more than 23 do)
BATCH_BYTES = 2 << 20

Progress = Callable[[int], None]  # rows written since the last call; may raise to stop
Sink = Callable[[Any], None]  # takes each batch, in the file's order: RowTexts, or Arrow columns of value texts
Labels = Sequence[Mapping[str, str]]  # per column, stored value text -> the text shown instead


def value_texts(engine: Engine, definition: ExportDefinition, table: BusinessTable,
                labels: Labels | None = None) -> list[str]:  # fmt: skip
    """The SQL of each column's value text, in the file's order; with `labels`, a stored text shown
    as its label (compared byte for byte, whatever the column's collation)."""
    quote, dialect = engine.dialect.identifier_preparer.quote, dialect_of(engine)
    texts = [dialect.value_text(quote(c.key), *table.storage_of(c.key)) for c in definition.columns]
    return [dialect.labelled(t, shown) for t, shown in zip(texts, labels, strict=True)] if labels else texts


def _bound(engine: Engine, statement: Any) -> tuple[str, list[Any] | dict[str, Any]]:
    """The statement's SQL and its parameters as the driver takes them (bind processors applied)."""
    compiled = statement.compile(dialect=engine.dialect)
    values = compiled.construct_params()

    def processed(name: str) -> Any:
        kind = compiled.binds[name].type
        processor = kind.dialect_impl(engine.dialect).bind_processor(engine.dialect)  # a variant: the dialect's own
        return processor(values[name]) if processor else values[name]

    if compiled.positiontup is not None:
        return compiled.string, [processed(n) for n in compiled.positiontup]
    return compiled.string, {n: processed(n) for n in values}


def read_sqlite(engine: Engine, definition: ExportDefinition, table: BusinessTable, where: Sequence[Any],
                sink: Sink, progress: Progress) -> None:  # fmt: skip
    """Keyset pages that SQLite joins into one text each (sqlite_pages), read by SQLITE_READERS connections
    side by side on one snapshot (SQLite's steps let go of the GIL) and written in order meanwhile; on one
    connection when a writer keeps the write lock (the snapshot needs it for a moment)."""
    from desktop_app.exports import sqlite_pages
    from desktop_app.store import sqlite_config
    from desktop_app.store.db import READONLY

    width = len(definition.columns)
    # SQLite's VM spends more on a CASE per cell than Arrow's kernels on the batch: it renders values only.
    # (printf, one call a row, takes a quarter less of its time, but ends a text at a NUL; measuring the
    # texts beside to catch that took as much again.)
    line = f" || {dialect_of(engine).literal(UNIT)} || ".join(
        f"ifnull({text}, '')" for text in value_texts(engine, definition, table)
    )

    def written(page: sqlite_pages.Page) -> None:
        if page.rows:
            sink(_fields(page.data, page.rows, width))
            progress(page.rows)

    def read(reader: Connection, keys: sqlite_pages.Range) -> sqlite_pages.Page:
        # ROW_END joins the rows and follows the last (a || in every row would cost SQLite more)
        return sqlite_pages.read_page(reader, table.table, table.key, line, where, keys, separator=ROW_END,
                                      end=ROW_END)  # fmt: skip

    # The key ranges found on one connection (a walk of the key's index), the pages read on the others.
    # Side by side only where SQLite keeps no memory statistics (their one mutex made two readers slower
    # than one: store/sqlite_config.py), and for one export at a time: its four connections (three readers
    # and the snapshot's fence) come out of the pool the task table shares, which several exports at once
    # could drain (and two exports on two cores gain nothing from it).
    if sqlite_config.statistics_off() and _SIDE_BY_SIDE.acquire(blocking=False):
        try:
            with sqlite_pages.one_snapshot(engine, 1 + SQLITE_READERS) as together:
                if together is not None:
                    ranges_on, *readers = together
                    if sqlite_pages.has_null_key(ranges_on, table.table, table.key):
                        raise SeparatorInData  # rows a keyset cannot reach: row by row
                    ranges = sqlite_pages.ranges(ranges_on, table.table, table.key, where)
                    _read_in_turns(ranges, readers, read, written)
                    return
        finally:
            _SIDE_BY_SIDE.release()
    # one connection (a writer kept the write lock, or the statistics are on): a page read while the one
    # before is written
    with engine.connect().execution_options(**{READONLY: True}) as conn, conn.begin():
        if sqlite_pages.has_null_key(conn, table.table, table.key):
            raise SeparatorInData
        ranges = sqlite_pages.ranges(conn, table.table, table.key, where)
        _read_ahead(lambda: None if (keys := next(ranges, None)) is None else read(conn, keys), written)


def _read_in_turns(items: Iterator[K], readers: Sequence[C], read: Callable[[C, K], T],
                   write: Callable[[T], None]) -> None:  # fmt: skip
    """write() what read(reader, item) gives for each item, in the items' order, the readers taking the items
    in turns, each on a thread of its own (a connection is used by one thread at a time), AHEAD_EACH items
    each read ahead of the writing. A write or read that raises (a stop) waits for the reads in flight to
    end before their connections are closed under them."""
    pools = [ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"batchdesk-export-read-{i}")
             for i in range(len(readers))]  # fmt: skip
    pending: deque[Future[T]] = deque()
    turn = 0

    def fill() -> None:
        nonlocal turn
        while len(pending) < AHEAD_EACH * len(readers) and (item := next(items, None)) is not None:
            which = turn % len(readers)
            pending.append(pools[which].submit(read, readers[which], item))
            turn += 1

    try:
        fill()
        while pending:
            done = pending.popleft().result()
            fill()
            write(done)
    except BaseException:
        for future in pending:
            future.cancel()
        raise
    finally:
        for pool in pools:
            pool.shutdown(wait=True)


def read_postgresql(engine: Engine, definition: ExportDefinition, table: BusinessTable, where: Sequence[Any],
                    sink: Sink, progress: Progress, labels: Labels | None = None) -> None:  # fmt: skip
    """The rows' texts through the ADBC PostgreSQL driver, each Arrow batch's texts handed on as one."""
    # The driver manager's low-level API, not its DB-API module: that one imports pyarrow.dataset
    # (and pandas wherever pandas is installed).
    import adbc_driver_manager as adbc
    import adbc_driver_postgresql
    import pyarrow as pa

    # The filters' values as literals: with bound parameters the driver cannot use COPY and holds the
    # whole result in memory (477 MB for the 1,000,000 rows); SQLAlchemy quotes them for the dialect
    # and the session below reads them as it assumes (standard strings: a backslash is a backslash).
    t = table.table
    line: Any = sa.literal_column(_line_sql(engine, definition, table, labels, ended=True))
    statement = sa.select(line).select_from(t).where(*where).order_by(*(t.c[k] for k in table.key))
    sql = str(statement.compile(dialect=engine.dialect, compile_kwargs={"literal_binds": True}))
    width = len(definition.columns)

    def written(batch: Any) -> None:
        if batch.num_rows:
            sink(_fields(_texts_of(batch.column(0)), batch.num_rows, width))
            progress(batch.num_rows)

    def read(reader: Any) -> Any:
        try:
            return reader.read_next_batch()
        except StopIteration:
            return None

    uri = adbc_ahead.adbc_uri(engine.url)
    database = adbc_ahead.take(uri) or adbc_driver_postgresql.connect(uri)
    with database, adbc.AdbcConnection(database) as conn:
        for sql_setting in dialect_of(engine).export_session():
            with adbc.AdbcStatement(conn) as setting:
                setting.set_sql_query(sql_setting)
                setting.execute_update()
        with adbc.AdbcStatement(conn) as query:
            query.set_options(**{"adbc.postgresql.batch_size_hint_bytes": str(BATCH_BYTES)})
            query.set_sql_query(sql)
            stream, _ = query.execute_query()
            reader = pa.RecordBatchReader._import_from_c(stream.address)
            try:
                _read_ahead(lambda: read(reader), written)
            finally:
                reader.close()


def _read_ahead(read: Callable[[], T | None], write: Callable[[T], None]) -> None:
    """write() each item read() gives until None, the next one read on a thread of its own meanwhile:
    the database's reads (an SQLite step, the ADBC driver's batch) let go of the GIL, so a read and a
    write overlap on two cores. A write that raises (a stop) waits for the read in flight to end
    before its connection or statement is closed under it."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        ahead = pool.submit(read)
        try:
            while (item := ahead.result()) is not None:
                ahead = pool.submit(read)
                write(item)
        except BaseException:
            with suppress(BaseException):
                ahead.result()
            raise


def _texts_of(lines: Any) -> bytes:
    """A batch's row texts as the bytes they are end to end in its buffer."""
    import pyarrow as pa

    if lines.type != pa.string():  # (a cast, even to its own type, loads Arrow's compute functions)
        lines = lines.cast(pa.string())
    return texts_bytes(lines).tobytes()


def _line_sql(engine: Engine, definition: ExportDefinition, table: BusinessTable, labels: Labels | None = None, *,
              ended: bool = False) -> str:  # fmt: skip
    """SQL for one row as one text: its values' texts joined by UNIT (a NULL as an empty text); `ended`:
    followed by ROW_END."""
    dialect = dialect_of(engine)
    texts = value_texts(engine, definition, table, labels)
    values = [dialect.if_null(t, "''") for t in texts]
    line = f"concat_ws({dialect.literal(UNIT)}, " + ", ".join(values) + ")"
    return f"{line} || {dialect.literal(ROW_END)}" if ended else line


def cell_specs(definition: ExportDefinition, table: BusinessTable) -> list[Any]:
    """What Arrow still does to each column's value texts: labels, and (texts that may start with one)
    formula triggers neutralised."""
    from desktop_app.exports.cell_spec import CellSpec

    plain = (Storage.DATE, Storage.DATETIME, Storage.BOOLEAN)  # their texts never start with a trigger
    return [
        CellSpec(
            {k: neutralise(v) for k, v in c.labels.items()},
            DANGEROUS if table.storage_of(c.key)[0] not in plain else (),
        )
        for c in definition.columns
    ]


def _split(lines: Any, width: int) -> Any:
    """Rows of UNIT-joined value texts (an Arrow string array) as a batch of columns, split by Arrow."""
    import pyarrow as pa
    import pyarrow.compute as pc

    fields = pc.split_pattern(lines, UNIT)
    lengths = pc.list_value_length(fields)
    if pc.min(lengths).as_py() != width or pc.max(lengths).as_py() != width:
        raise SeparatorInData
    return pa.record_batch([pc.list_element(fields, i) for i in range(width)], names=[f"c{i}" for i in range(width)])


def _fields(page: bytes, rows: int, width: int) -> RowTexts:
    """A page (or batch) of `rows` rows as the database joined them, as a batch to write: split into
    columns only if it needs more than its separators replaced (RowTexts)."""
    return RowTexts(page, rows, width)


def _texts(rows: list[bytes], encoding: str) -> Any:
    """The rows' bytes as an Arrow string array (UTF-8 checked by the cast; another charset decoded)."""
    import pyarrow as pa

    if encoding.replace("-", "").lower() in ("utf8", "utf8mb4", "utf8mb3"):
        return pa.array(rows, pa.binary()).cast(pa.string())
    return pa.array([r.decode(encoding) for r in rows], pa.string())


def read_streamed(engine: Engine, definition: ExportDefinition, table: BusinessTable, where: Sequence[Any],
                  sink: Sink, progress: Progress) -> None:  # fmt: skip
    """One ordered query on an unbuffered cursor, each row one text the database made of its values,
    its packets cut off the socket (mysql_rows); Arrow splits them and makes the lines."""
    import pymysql.cursors

    from desktop_app.exports.mysql_rows import row_texts

    t = table.table
    line: Any = sa.literal_column(_line_sql(engine, definition, table))
    sql, params = _bound(engine, sa.select(line).select_from(t).where(*where).order_by(*(t.c[k] for k in table.key)))
    width = len(definition.columns)
    with engine.connect() as conn:
        raw: Any = conn.connection.dbapi_connection
        cursor = raw.cursor(pymysql.cursors.SSCursor)  # unbuffered: rows read as they come
        pending: list[bytes] = []
        try:
            cursor.execute(sql, params)
            reads = row_texts(cursor)
            while (more := next(reads, None)) is not None or pending:
                pending.extend(more or ())
                while len(pending) >= STREAM_ROWS or (more is None and pending):
                    rows, pending = pending[:STREAM_ROWS], pending[STREAM_ROWS:]
                    sink(_split(_texts(rows, raw.encoding), width))
                    progress(len(rows))
        except BaseException:
            # A stop mid-read: the rest of the result is never read (PyMySQL would drain it), the
            # connection is dropped instead.
            result = getattr(cursor, "_result", None)
            if result is not None:
                result.unbuffered_active = False
            with suppress(Exception):
                cursor.close()  # it has nothing left to read
            conn.invalidate()
            raise
        cursor.close()
        conn.rollback()


def write_fast(engine: Engine, definition: ExportDefinition, table: BusinessTable, where: Sequence[Any],
               out: Path, encoding: str, progress: Progress) -> bool:  # fmt: skip
    """Append the rows (in key order, passing ``where``) to the CSV file ``out`` already holding its
    header; False (the file as it was) when a value holds a separator the fast path uses, or (SQLite)
    a key holds a NULL: the caller writes row by row then."""
    from desktop_app.exports.cell_spec import CellSpec

    specs = cell_specs(definition, table)
    read = reader_of(engine)
    options: dict[str, Any] = {}
    # PostgreSQL: the labels in the rows' SQL, and a batch that needs nothing more written as it came.
    # Not SQLite: its reading thread is its export's slowest part (2.5 s of a million rows), and the
    # bytes work of writing a batch as it came holds the GIL that thread needs between its pages
    # (measured, four pairs: 3.3-4.6 s -> 4.0-5.4 s); Arrow's kernels let go of it.
    whole = read is read_postgresql
    if whole:
        options["labels"] = [spec.labels for spec in specs]
        specs = [CellSpec({}, spec.triggers) for spec in specs]
    triggers = tuple(sorted({t for spec in specs for t in spec.triggers}))
    size = out.stat().st_size
    with out.open("ab") as handle:
        try:

            def sink(batch: Any) -> None:
                if isinstance(batch, RowTexts):
                    # a trigger where a column takes none (a date's text never starts with one) goes
                    # cell by cell: the union is only ever more careful
                    lines = batch.clean_csv(triggers, encoding) if whole else None
                    if lines is not None:
                        handle.write(lines)
                        return
                    batch = batch.columns()
                # Arrow's compute functions loaded by the first batch that needs them (~40 ms)
                from desktop_app.exports.csv_lines import csv_bytes

                handle.write(csv_bytes(batch, encoding, specs))

            read(engine, definition, table, where, sink, progress, **options)
        except (SeparatorInData, RowTooLong):
            handle.truncate(size)
            return False
    return True


READERS: dict[ExportRead, Callable[..., None]] = {
    ExportRead.KEYSET_PAGES: read_sqlite,
    ExportRead.ADBC_COPY: read_postgresql,
    ExportRead.SERVER_CURSOR: read_streamed,
}


def reader_of(engine: Engine) -> Callable[..., None]:
    """The fast read of the engine's database (its dialect's export_read)."""
    return READERS[dialect_of(engine).export_read]
