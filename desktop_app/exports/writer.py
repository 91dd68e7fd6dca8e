"""Streaming export writers, row by row: CSV (UTF-8 with BOM or GB18030) here, XLSX in xlsx_sheet."""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import IO, Any, Protocol

from desktop_app.imports.error_csv import neutralise
from desktop_app.imports.readers import cell_to_text

ENCODINGS = ("utf-8-sig", "gb18030")
FORMATS = ("csv", "xlsx")


def cell_text(value: Any) -> str:
    """A database value as the text an import reads back the same (numbers and dates as Excel shows them;
    a datetime always with its time, midnight too, so that a column holds one form)."""
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, dt.datetime):
        return f"{value.date().isoformat()} {value:%H:%M:%S}"
    return cell_to_text(value)


class RowWriter(Protocol):
    def write_rows(self, rows: Iterable[Sequence[Any]]) -> None: ...

    def close(self) -> None: ...


class CsvWriter:
    """RFC 4180; cells a spreadsheet would run as formulas are neutralised (the importer restores them)."""

    def __init__(self, path: Path, header: Sequence[str], encoding: str) -> None:
        self._handle: IO[str] = path.open("w", encoding=encoding, newline="")
        self._writer = csv.writer(self._handle)
        self._writer.writerow(header)

    def write_rows(self, rows: Iterable[Sequence[str]]) -> None:
        self._writer.writerows([neutralise(c) for c in row] for row in rows)

    def close(self) -> None:
        self._handle.close()


def open_writer(path: Path, header: Sequence[str], fmt: str, encoding: str, sheet: str = "Sheet1") -> RowWriter:
    """CSV rows are texts; XLSX rows are typed values (xlsx_sheet)."""
    if fmt == "xlsx":
        from desktop_app.exports.xlsx_sheet import XlsxWriter

        return XlsxWriter(path, header, sheet)
    return CsvWriter(path, header, encoding)
