"""The CSV export's fast paths: the database renders every cell, the rows never become Python objects.

- SQLite: one ordered SELECT of the values' texts read by the ADBC driver in a child process
  (sqlite_reader); labels, neutralised triggers, quoting and lines made by Arrow's kernels (csv_lines).
- PostgreSQL, MySQL/MariaDB: one ordered query on a server-side cursor, each row one text of its
  values joined by the unit separator, split into columns by Arrow (write_streamed). Measured: psycopg's
  COPY hands over one row a call, and a CASE per cell costs the server more than the whole read;
  keyset pages of GROUP_CONCAT cost MariaDB 0.1 s a page through its secondary index.
The same bytes as the row-by-row writer (tests/integration/test_export_fast.py holds them side by side).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine

from desktop_app.domain.table_spec import Storage
from desktop_app.exports import cell_sql
from desktop_app.exports.definition import ExportDefinition
from desktop_app.imports.error_csv import DANGEROUS, neutralise
from desktop_app.store.business_rows import BusinessTable

STREAM_ROWS = 20_000  # rows per fetch, per write and per progress report on a server

Progress = Callable[[int], None]  # rows written since the last call; may raise to stop


def value_texts(engine: Engine, definition: ExportDefinition, table: BusinessTable) -> list[str]:
    """The SQL of each column's value text, in the file's order."""
    quote, dialect = engine.dialect.identifier_preparer.quote, engine.dialect.name
    return [cell_sql.value_text(dialect, quote(c.key), *table.storage_of(c.key)) for c in definition.columns]


def rendered_select(engine: Engine, definition: ExportDefinition, table: BusinessTable, where: Sequence[Any]) -> Any:
    """The export's query: each column's value text, in key order."""
    t = table.table
    texts = value_texts(engine, definition, table)
    columns: list[Any] = [sa.literal_column(sql).label(f"c{i}") for i, sql in enumerate(texts)]
    return sa.select(*columns).select_from(t).where(*where).order_by(*(t.c[k] for k in table.key))


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


def write_sqlite(engine: Engine, definition: ExportDefinition, table: BusinessTable, where: Sequence[Any], out: Path,
                 encoding: str, progress: Progress) -> None:  # fmt: skip
    # SQLite's VM spends more on a CASE per cell than Arrow's kernels on the batch: it renders values only
    from desktop_app.exports.sqlite_reader import SqliteReader

    sql, params = _bound(engine, rendered_select(engine, definition, table, where))
    reader = SqliteReader(
        Path(str(engine.url.database)), sql, list(params), cell_specs(definition, table), out, encoding
    )
    try:
        for rows in reader.counts():
            progress(rows)
    finally:
        reader.close()


UNIT = "\x1f"  # ASCII's own field separator: a row comes over as one value


class SeparatorInData(Exception):
    """A value holds the field separator: the export is written row by row instead."""


def _line_sql(engine: Engine, definition: ExportDefinition, table: BusinessTable) -> str:
    """SQL for one row as one text: its values' texts joined by UNIT (a NULL as an empty text)."""
    dialect = engine.dialect.name
    texts = value_texts(engine, definition, table)
    empty = "coalesce" if dialect == "postgresql" else "IFNULL"
    return f"concat_ws({cell_sql.literal(UNIT, dialect)}, " + ", ".join(f"{empty}({t}, '')" for t in texts) + ")"


def cell_specs(definition: ExportDefinition, table: BusinessTable) -> list[Any]:
    """What Arrow still does to each column's value texts: labels, and (texts that may start with one)
    formula triggers neutralised."""
    from desktop_app.exports.csv_lines import CellSpec

    plain = (Storage.DATE, Storage.DATETIME, Storage.BOOLEAN)  # their texts never start with a trigger
    return [
        CellSpec(
            {k: neutralise(v) for k, v in c.labels.items()},
            DANGEROUS if table.storage_of(c.key)[0] not in plain else (),
        )
        for c in definition.columns
    ]


def _split(lines: list[str], width: int) -> Any:
    """Rows of UNIT-joined value texts as an Arrow batch of columns, split by Arrow's kernels."""
    import pyarrow as pa
    import pyarrow.compute as pc

    fields = pc.split_pattern(pa.array(lines, pa.string()), UNIT)
    lengths = pc.list_value_length(fields)
    if pc.min(lengths).as_py() != width or pc.max(lengths).as_py() != width:
        raise SeparatorInData
    return pa.record_batch([pc.list_element(fields, i) for i in range(width)], names=[f"c{i}" for i in range(width)])


def write_streamed(engine: Engine, definition: ExportDefinition, table: BusinessTable, where: Sequence[Any],
                   handle: Any, encoding: str, progress: Progress) -> None:  # fmt: skip
    """One ordered query on a server-side cursor, each row one text the database made of its values
    (the driver makes one Python object a row, not one a cell); Arrow splits them and makes the lines."""
    from desktop_app.exports.csv_lines import csv_bytes

    t = table.table
    line: Any = sa.literal_column(_line_sql(engine, definition, table))
    sql, params = _bound(engine, sa.select(line).select_from(t).where(*where).order_by(*(t.c[k] for k in table.key)))
    specs = cell_specs(definition, table)
    width = len(definition.columns)
    with engine.connect() as conn:
        raw: Any = conn.connection.dbapi_connection
        if engine.dialect.name == "postgresql":
            cursor = raw.cursor(name="batchdesk_export")  # a server-side cursor: fetched a batch at a time
        else:
            import pymysql.cursors

            cursor = raw.cursor(pymysql.cursors.SSCursor)  # unbuffered: rows read as they are fetched
        try:
            cursor.execute(sql, params)
            while rows := cursor.fetchmany(STREAM_ROWS):
                handle.write(csv_bytes(_split([r[0] for r in rows], width), encoding, specs))
                progress(len(rows))
        except BaseException:
            # A stop mid-read: the rest of the result is never read (PyMySQL would drain it), the
            # connection is dropped instead.
            result = getattr(cursor, "_result", None)
            if result is not None:
                result.unbuffered_active = False
            with suppress(Exception):
                cursor.close()  # PostgreSQL closes its cursor; MySQL's has nothing left to read
            conn.invalidate()
            raise
        cursor.close()
        conn.rollback()


def write_fast(engine: Engine, definition: ExportDefinition, table: BusinessTable, where: Sequence[Any],
               out: Path, encoding: str, progress: Progress) -> bool:  # fmt: skip
    """Append the rows (in key order, passing ``where``) to the CSV file ``out`` already holding its
    header; False (the file as it was) when a value holds the separator the server path uses."""
    if engine.dialect.name == "sqlite":
        write_sqlite(engine, definition, table, where, out, encoding, progress)
        return True
    size = out.stat().st_size
    with out.open("ab") as handle:
        try:
            write_streamed(engine, definition, table, where, handle, encoding, progress)
        except SeparatorInData:
            handle.truncate(size)
            return False
    return True
