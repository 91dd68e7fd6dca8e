"""The XLSX export's fast path: the CSV fast path's value texts, typed again a column at a time by Arrow.

The database renders each value's text exactly as writer.cell_text would (its dialect's value_text), so a text typed
back (an integer, a decimal, a date, a boolean) is the value SQLAlchemy would have read; labelled
columns take their label or their text, as the row path does. The rows then never pass through
SQLAlchemy's per-cell processing (~50 s of the 1,000,000-row export on a server). A DATETIME column
keeps the row path: its text leaves out the fraction of a second a sheet shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from sqlalchemy import Engine

from desktop_app.domain.table_spec import Storage
from desktop_app.exports import fast_csv
from desktop_app.exports.definition import ExportDefinition
from desktop_app.exports.mysql_rows import RowTooLong
from desktop_app.exports.writer import RowWriter
from desktop_app.store.business_rows import BusinessTable

_BOOLEANS = {"TRUE": True, "FALSE": False}
SLICE_ROWS = 2_000


def _typer(kind: Storage, labels: Mapping[str, str]) -> Callable[[Any], list[Any]]:
    import pyarrow as pa
    import pyarrow.compute as pc

    if labels:
        return lambda texts: [t if t is None else labels.get(t, t) for t in texts.to_pylist()]
    if kind is Storage.TEXT:
        return lambda texts: texts.to_pylist()

    def values(texts: Any) -> Any:
        # the split paths (SQLite, MySQL) carry a NULL as an empty text: no other kind renders one
        return pc.if_else(pc.equal(texts, ""), pa.scalar(None, pa.string()), texts)

    if kind in (Storage.INTEGER, Storage.ID):
        return lambda texts: values(texts).cast(pa.int64()).to_pylist()
    if kind is Storage.DATE:
        return lambda texts: values(texts).cast(pa.date32()).to_pylist()
    if kind is Storage.DECIMAL:
        return lambda texts: [t if t is None else Decimal(t) for t in values(texts).to_pylist()]
    return lambda texts: [t if t is None else _BOOLEANS[t] for t in values(texts).to_pylist()]


def typed_rows(batch: Any, typers: Sequence[Callable[[Any], list[Any]]]) -> list[tuple[Any, ...]]:
    """A batch of value texts as rows of typed values; SeparatorInData (the row path) for a text that
    does not type back (an SQLite column holding a value of another kind)."""
    import pyarrow as pa

    try:
        columns = [typer(column) for typer, column in zip(typers, batch.columns, strict=True)]
    except (pa.ArrowInvalid, ArithmeticError, KeyError):
        raise fast_csv.SeparatorInData from None
    return list(zip(*columns, strict=True))


def write_fast_xlsx(engine: Engine, definition: ExportDefinition, table: BusinessTable, where: Sequence[Any],
                    writer: RowWriter, progress: fast_csv.Progress) -> bool:  # fmt: skip
    """Append the rows (in key order, passing ``where``) to the open sheet; False when the row path
    must write them (then the sheet holds some rows already: the caller starts it again)."""
    kinds = [table.storage_of(c.key)[0] for c in definition.columns]
    if Storage.DATETIME in kinds:
        return False
    typers = [_typer(kind, c.labels) for kind, c in zip(kinds, definition.columns, strict=True)]
    write = fast_csv.reader_of(engine)
    try:

        def sink(batch: Any) -> None:
            if isinstance(batch, fast_csv.RowTexts):
                batch = batch.columns()
            # a slice at a time: a row's Python values and its XML live only as long as the slice
            for start in range(0, batch.num_rows, SLICE_ROWS):
                writer.write_rows(typed_rows(batch.slice(start, SLICE_ROWS), typers))

        write(engine, definition, table, where, sink, progress)
    except (fast_csv.SeparatorInData, RowTooLong):
        return False
    return True
