"""Streaming export writers: CSV (UTF-8 with BOM or GB18030) and XLSX (openpyxl write-only), row by row."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import IO, Any, Protocol

from desktop_app.imports.error_csv import neutralise
from desktop_app.imports.readers import cell_to_text

ENCODINGS = ("utf-8-sig", "gb18030")
FORMATS = ("csv", "xlsx")


def cell_text(value: Any) -> str:
    """A database value as the text an import reads back the same (numbers and dates as Excel shows them)."""
    if isinstance(value, Decimal):
        return format(value, "f")
    return cell_to_text(value)


class RowWriter(Protocol):
    def write_rows(self, rows: Iterable[Sequence[str]]) -> None: ...

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


class XlsxWriter:
    """openpyxl's write-only mode streams rows to disk; every cell is written as text, so nothing runs
    as a formula and codes and phone numbers keep their digits."""

    def __init__(self, path: Path, header: Sequence[str]) -> None:
        from openpyxl import Workbook
        from openpyxl.cell import WriteOnlyCell

        self._path = path
        self._book = Workbook(write_only=True)
        self._sheet = self._book.create_sheet()
        self._cell = WriteOnlyCell
        self.write_rows([header])

    def write_rows(self, rows: Iterable[Sequence[str]]) -> None:
        sheet, make = self._sheet, self._cell
        for row in rows:
            cells = []
            for value in row:
                cell = make(sheet, value=value)
                cell.data_type = "s"
                cells.append(cell)
            sheet.append(cells)

    def close(self) -> None:
        self._book.save(self._path)


def open_writer(path: Path, header: Sequence[str], fmt: str, encoding: str) -> RowWriter:
    if fmt == "xlsx":
        return XlsxWriter(path, header)
    return CsvWriter(path, header, encoding)
