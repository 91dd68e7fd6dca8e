"""Sync mode: the table's rows (in the scope) that the file lacks, counted, confirmed and deleted with their images.

They are counted before anything is queued and deleted, each whole row recorded, in the task's first
transaction. The file's keys are read once into a set of their key texts (memory grows with the file's
distinct keys, about 100 bytes a key: some 100 MB for a million); the table's keys in the scope are read in
one streamed query and each compared with that set, so only the keys to delete are kept.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy import Connection, Engine

from desktop_app.domain.errors import ErrorCode, Lang, PermanentError
from desktop_app.domain.profiles import Profile
from desktop_app.imports import error_csv
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.precheck import CheckedFile, check_header, open_source
from desktop_app.imports.readers import SourceRow, TableReader
from desktop_app.imports.validator import RowError
from desktop_app.store.business_rows import BusinessTable, Key

# the row number a table row the file lacks is listed under (its delete refused) in the error CSV
ABSENT_ROW = 0


def parse_scope(items: Sequence[str], itype: ImportType) -> dict[str, str]:
    """--scope COLUMN=VALUE (repeatable): each COLUMN a column key of the type, else sync_scope_invalid."""
    scope: dict[str, str] = {}
    for item in items:
        column, equals, value = item.partition("=")
        column = column.strip()
        if not equals or column not in itype.keys:
            raise PermanentError(ErrorCode.SYNC_SCOPE_INVALID, scope=item, columns=", ".join(itype.keys))
        scope[column] = value
    return scope


def scope_text(scope: dict[str, str]) -> str:
    """The scope as the clerk wrote it: department=华东销售部, several joined by a comma."""
    return ", ".join(f"{column}={value}" for column, value in scope.items())


def typed_scope(checked: CheckedFile, itype: ImportType, scope: dict[str, str]) -> dict[str, object]:
    """The scope's values as the type's columns read them (a number, a date), to compare with stored values."""
    out: dict[str, object] = {}
    for column, text in scope.items():
        value = checked.validator.value_of(column, text)
        if value is None:
            raise PermanentError(ErrorCode.SYNC_SCOPE_INVALID, scope=f"{column}={text}", columns=", ".join(itype.keys))
        out[column] = value
    return out


def out_of_scope(values: Sequence[object], columns: Sequence[str], scope: dict[str, object],
                 text: dict[str, str]) -> RowError | None:  # fmt: skip
    """out_of_scope for a file row whose value in a scope's column is not the scope's (a blank one included)."""
    for column, wanted in scope.items():
        value = values[columns.index(column)]
        if value != wanted:
            shown = "" if value is None else str(value)
            return RowError(ErrorCode.OUT_OF_SCOPE, column, shown, {"value": shown, "scope": scope_text(text)})
    return None


def file_keys(reader: TableReader, checked: CheckedFile, table: BusinessTable) -> set[str]:
    """The key texts of every row of the file whose key reads (a row failing for another cell keeps its key
    out of the deletes: its stored row stays). A file without a data row is empty_file: a sync never empties
    a table because a file came without its rows."""
    restore = error_csv.restore if checked.restore_neutralised else None
    key_of = checked.validator.key_of
    keys: set[str] = set()
    rows = 0
    for source in reader.rows():
        rows += 1
        cells = source.cells
        if restore is not None:
            cells = tuple(restore(c) if isinstance(c, str) else c for c in cells)
        key = key_of(cells)
        if key is not None:
            keys.add(table.key_text(key))
    if not rows:
        raise PermanentError(ErrorCode.EMPTY_FILE)
    return keys


def absent_keys(conn: Connection, table: BusinessTable, scope: dict[str, object], present: set[str]) -> list[Key]:
    """The keys of the table's rows in the scope that the file lacks, in key order, as stored."""
    t = table.table
    columns = [t.c[k] for k in table.key]
    query = sa.select(*columns).where(*(t.c[c] == v for c, v in scope.items())).order_by(*columns)
    out: list[Key] = []
    # streamed (a server-side cursor where there is one): the table's keys are never all in memory at once
    for row in conn.execute(query.execution_options(stream_results=True, yield_per=5000)):
        key = tuple(row)
        if table.key_text(key) not in present:
            out.append(key)
    return out


def absent_source(reader: TableReader, checked: CheckedFile, table: BusinessTable, key: Key) -> SourceRow:
    """A table row the file lacks as an error row: its key's cells under the file's key headers."""
    cells: list[object] = [""] * len(reader.header)
    for name, value in zip(table.key, key, strict=True):
        index = checked.mapping.index_by_key.get(name)
        if index is not None and index < len(cells):
            cells[index] = "" if value is None else str(value)
    return SourceRow(ABSENT_ROW, tuple(cells))  # type: ignore[arg-type]


def count_deletes(engine: Engine, table: BusinessTable, itype: ImportType, options: ImportOptions,
                  profile: Profile | None, lang: Lang) -> int:  # fmt: skip
    """How many rows a sync of this file would delete now (the submission's confirmation asks for it)."""
    with open_source(options, {}, resuming=False) as reader:
        checked = check_header(reader, itype, options, lang, profile)
        present = file_keys(reader, checked, table)
        scope = typed_scope(checked, itype, options.scope)
    with engine.connect() as conn:
        return len(absent_keys(conn, table, scope, present))


def confirmation_error(options: ImportOptions, table_name: str, count: int) -> PermanentError:
    """sync_confirm_deletes: the number to confirm, the table and the scope, in one line."""
    if options.scope:
        return PermanentError(ErrorCode.SYNC_CONFIRM_DELETES, reason="scoped", count=count, table=table_name,
                              scope=scope_text(options.scope), confirm=str(count))  # fmt: skip
    return PermanentError(ErrorCode.SYNC_CONFIRM_DELETES, count=count, table=table_name, confirm=str(count))
