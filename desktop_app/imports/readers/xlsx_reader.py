"""Reading an .xlsx sheet, streamed, every part bounded before and while it is read."""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from desktop_app.domain.errors import BatchDeskError, ErrorCode, PermanentError

from .excel_reader import ExcelReaderBase, corrupt, header_text, no_sheet
from .files import file_error
from .limits import DEFAULT_LIMITS, ReadLimits
from .xlsx_zip import open_zip


class XlsxReader(ExcelReaderBase):
    """An .xlsx sheet streamed from its XML: memory stays flat on any size, and a zip bomb, a huge
    cell, a row of a million columns or a shared string table of millions fails with a plain error."""

    format = "xlsx"
    sheet_rows: type | None = None
    """What parses the sheet's rows (default: xlsx_rows.SheetRows); the tests set openpyxl's own, to compare."""
    _member: tuple[int, int] | None = None

    def __init__(self, path: Path, raw: io.FileIO, sheet: str | None, limits: ReadLimits = DEFAULT_LIMITS) -> None:
        # imported here: openpyxl costs ~0.2 s and CSV imports never need it
        from .xlsx_book import BookReader

        self.path = path
        self._raw = raw
        self._limits = limits
        self._archive = None
        try:
            self._archive = open_zip(raw, limits)
            book = BookReader(self._archive, limits)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # style and extension notes about the file
                book.read()
            self._book = book
            self._sheet = self._pick(sheet)
            self.header = self._read_header()
        except BaseException as exc:
            self.close()
            if isinstance(exc, BatchDeskError) or not isinstance(exc, Exception):
                raise
            if isinstance(exc, OSError):
                raise file_error(path, exc) from exc
            raise corrupt(exc) from exc

    def _pick(self, name: str | None) -> Any:
        sheets = self._book.sheets
        if name is not None:
            chosen = next((s for s in sheets if s.name == name), None)
            if chosen is None or chosen.chart:
                raise no_sheet(name)
        else:
            chosen = next((s for s in sheets if not s.chart), None)
            if chosen is None:
                return None
        self._member = self._sheet_member(chosen.part)
        return chosen

    def _sheet_member(self, part: str) -> tuple[int, int] | None:
        """(offset, compressed size) of the sheet's XML inside the file, for byte-based progress."""
        assert self._archive is not None
        info = self._archive.getinfo(part)
        if info.compress_size <= 0:
            return None
        return int(info.header_offset), int(info.compress_size)

    def fraction_done(self) -> float:
        """Rows passed / the declared row count; without one (some writers leave it out), the
        part of the sheet's compressed XML read so far."""
        member = self._member
        if self._finished or not self._started or self._total > 0 or member is None:
            return super().fraction_done()
        try:
            pos = self._raw.tell()
        except (OSError, ValueError):
            return super().fraction_done()
        offset, size = member
        return min(max((pos - offset) / size, 0.0), 0.99)

    def _read_header(self) -> tuple[str, ...]:
        for num, values in self._guarded(self._sheet_rows(1, last_row=1)):
            return header_text(values) if num == 1 else ()
        return ()

    def _guarded(self, it: Iterator[tuple[int, Iterable[Any]]]) -> Iterator[tuple[int, Iterable[Any]]]:
        try:
            yield from it
        except BatchDeskError:
            raise
        except OSError as exc:
            raise file_error(self.path, exc) from exc
        except Exception as exc:
            raise corrupt(exc) from exc

    def _sheet_rows(self, first_row: int, last_row: int | None = None) -> Iterator[tuple[int, Iterable[Any]]]:
        if self._sheet is None:
            return
        from .xlsx_rows import SheetRows

        assert self._archive is not None
        limits = self._limits
        parse = self.sheet_rows or SheetRows
        rows: Any = None

        def overrun() -> PermanentError:
            row = rows.row + 1 if rows is not None else 1
            return PermanentError(ErrorCode.CORRUPT_FILE, reason="cell_too_long", row=row, limit=limits.max_cell_chars)

        with self._archive.open_streamed(self._sheet.part, limits.part_bytes, overrun) as source:
            rows = parse(source, self._book.wb, self._book.shared_strings, limits)
            for num, values in rows:
                if num < first_row:
                    continue
                if last_row is not None and num > last_row:
                    break
                self._total = self._total or rows.declared_rows
                yield num, values
                if last_row is not None and num >= last_row:
                    break

    def close(self) -> None:
        if not self._closed:
            if self._archive is not None:
                self._archive.close()
            self._raw.close()
        super().close()
