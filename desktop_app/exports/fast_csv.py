"""The CSV export's fast paths: the database renders every cell, the rows never become Python objects.

- SQLite: one ordered SELECT of the values' texts read by the ADBC driver in a child process
  (sqlite_reader); labels, neutralised triggers, quoting and lines made by Arrow's kernels (csv_lines).
- PostgreSQL: COPY (SELECT ...) TO STDOUT (FORMAT csv) on a read connection; each CopyData message is
  one row, so its line feed becomes CR LF exactly (a line break inside a quoted cell is left alone).
- MySQL/MariaDB: keyset pages of GROUP_CONCAT'ed lines, each page one short read of one value.
The same bytes as the row-by-row writer (tests/integration/test_export_fast.py holds them side by side).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine

from desktop_app.domain.table_spec import Storage
from desktop_app.exports import cell_sql
from desktop_app.exports.definition import ExportDefinition
from desktop_app.imports.error_csv import DANGEROUS, neutralise
from desktop_app.store.business_rows import BusinessTable

COPY_ROWS = 10_000  # rows per write (and per progress report) on PostgreSQL
MYSQL_PAGE = 5_000  # a page's lines stay a few MB, under the default max_allowed_packet (16 MB)
NEEDS_QUOTES = '[,"\r\n]'

Progress = Callable[[int], None]  # rows written since the last call; may raise to stop


def cells(engine: Engine, definition: ExportDefinition, table: BusinessTable) -> list[str]:
    """The SQL of each column's cell text, in the file's order."""
    quote = engine.dialect.identifier_preparer.quote
    dialect = engine.dialect.name
    out = []
    for column in definition.columns:
        storage, scale = table.storage_of(column.key)
        out.append(cell_sql.cell(dialect, quote(column.key), storage, scale, column.labels))
    return out


def rendered_select(engine: Engine, definition: ExportDefinition, table: BusinessTable, where: Sequence[Any],
                    *, values_only: bool = False) -> sa.Select[Any]:  # fmt: skip
    """The export's query: each column's cell (or, values_only, its value's text), in key order."""
    t = table.table
    if values_only:
        quote, dialect = engine.dialect.identifier_preparer.quote, engine.dialect.name
        texts = [cell_sql.value_text(dialect, quote(c.key), *table.storage_of(c.key)) for c in definition.columns]
    else:
        texts = cells(engine, definition, table)
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
    from desktop_app.exports.csv_lines import CellSpec
    from desktop_app.exports.sqlite_reader import SqliteReader

    sql, params = _bound(engine, rendered_select(engine, definition, table, where, values_only=True))
    plain = (Storage.DATE, Storage.DATETIME, Storage.BOOLEAN)  # their texts never start with a formula trigger
    specs = [
        CellSpec(
            {k: neutralise(v) for k, v in c.labels.items()},
            DANGEROUS if table.storage_of(c.key)[0] not in plain else (),
        )
        for c in definition.columns
    ]
    reader = SqliteReader(Path(str(engine.url.database)), sql, list(params), specs, out, encoding)
    try:
        for rows in reader.counts():
            progress(rows)
    finally:
        reader.close()


def write_postgresql(engine: Engine, statement: Any, handle: Any, encoding: str, progress: Progress) -> None:
    sql, params = _bound(engine, statement)
    with engine.connect() as conn:
        raw: Any = conn.connection.dbapi_connection
        try:
            with raw.cursor() as cursor, cursor.copy(f"COPY ({sql}) TO STDOUT (FORMAT csv)", params) as copy:
                lines: list[bytes] = []
                for row in copy:
                    lines.append(bytes(row[:-1]))
                    if len(lines) == COPY_ROWS:
                        _flush(handle, lines, encoding)
                        progress(COPY_ROWS)
                        lines = []
                _flush(handle, lines, encoding)
                progress(len(lines))
        except BaseException:
            raw.cancel()  # a stop mid-COPY: the server stops sending; the connection is not reused
            conn.invalidate()
            raise


def _flush(handle: Any, lines: list[bytes], encoding: str) -> None:
    if not lines:
        return
    data = b"\r\n".join(lines) + b"\r\n"
    handle.write(data if encoding in ("utf-8", "utf-8-sig") else data.decode("utf-8").encode(encoding))


def _mysql_line(engine: Engine, definition: ExportDefinition, table: BusinessTable) -> str:
    fields = []
    for sql in cells(engine, definition, table):
        quoted = f"CONCAT('\"', REPLACE({sql}, '\"', '\"\"'), '\"')"
        fields.append(f"IFNULL(IF({sql} REGEXP '{NEEDS_QUOTES}', {quoted}, {sql}), '')")
    return "CONCAT(" + ", ',', ".join(fields) + ", '\r\n')"


def write_mysql(engine: Engine, definition: ExportDefinition, table: BusinessTable, where: Sequence[Any],
                handle: Any, encoding: str, progress: Progress) -> None:  # fmt: skip
    t = table.table
    keys = [t.c[k] for k in table.key]
    line: Any = sa.literal_column(_mysql_line(engine, definition, table)).label("line")
    labels = [f"k{i}" for i in range(len(keys))]
    with engine.connect() as conn:
        conn.exec_driver_sql("SET SESSION group_concat_max_len = @@max_allowed_packet")
        for after, upto in _pages(conn, keys, where):
            bounds = [*where, *after, *upto]
            inner = sa.select(line, *(k.label(n) for k, n in zip(keys, labels, strict=True))).where(*bounds).subquery()
            order = ", ".join(labels)
            page: Any = sa.select(
                sa.literal_column(f"GROUP_CONCAT(line ORDER BY {order} SEPARATOR '')"),
                sa.func.count(),
                sa.func.sum(sa.func.char_length(inner.c.line)),
            ).select_from(inner)
            text, count, length = conn.execute(page).one()
            if text is None or len(text) != int(length or 0):  # cut at the packet size: this page row by row
                rows = conn.execute(sa.select(inner.c.line).order_by(*(inner.c[n] for n in labels))).scalars()
                text = "".join(rows)
            handle.write(text.encode("utf-8" if encoding == "utf-8-sig" else encoding))
            progress(int(count))
        conn.rollback()


def _pages(conn: Any, keys: list[Any], where: Sequence[Any]) -> Iterator[tuple[list[Any], list[Any]]]:
    """(after, up to) conditions of each page in key order: the page's last key found first, by offset."""
    last: tuple[Any, ...] | None = None

    def beyond(key: tuple[Any, ...]) -> Any:
        return keys[0] > key[0] if len(keys) == 1 else sa.tuple_(*keys) > sa.tuple_(*key)

    while True:
        after = [beyond(last)] if last is not None else []
        edge = conn.execute(
            sa.select(*keys).where(*where, *after).order_by(*keys).offset(MYSQL_PAGE - 1).limit(1)
        ).first()
        if edge is None:
            yield after, []
            return
        edge = tuple(edge)
        yield after, [sa.not_(beyond(edge))]
        last = edge


def write_fast(engine: Engine, definition: ExportDefinition, table: BusinessTable, where: Sequence[Any],
               out: Path, encoding: str, progress: Progress) -> None:  # fmt: skip
    """Append the rows (in key order, passing ``where``) to the CSV file ``out`` already holding its header."""
    dialect = engine.dialect.name
    if dialect == "sqlite":
        write_sqlite(engine, definition, table, where, out, encoding, progress)
        return
    with out.open("ab") as handle:
        if dialect == "postgresql":
            write_postgresql(engine, rendered_select(engine, definition, table, where), handle, encoding, progress)
        else:
            write_mysql(engine, definition, table, where, handle, encoding, progress)
