"""What the Excel readers share (cells as typed values, rows shaped to the header), and the .xls reader."""

from __future__ import annotations

import datetime
import io
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from desktop_app.domain.errors import BatchDeskError, ErrorCode, PermanentError

from .cells import Cell, SourceRow, cell_to_text, is_blank, make_row
from .files import ReaderBase, file_error
from .limits import DEFAULT_LIMITS, ReaderWarning, ReadLimits
from .merged_cells import SheetMerges, calamine_merges

XLSX_MAGIC = b"PK\x03\x04"
XLS_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # OLE2 compound document


def corrupt(exc: BaseException) -> PermanentError:
    """CORRUPT_FILE for whatever an Excel library raised on a damaged file."""
    return PermanentError(ErrorCode.CORRUPT_FILE, detail=f"{type(exc).__name__}: {exc}")


def no_sheet(name: str) -> PermanentError:
    return PermanentError(ErrorCode.INVALID_PARAMS, detail=f"no sheet named {name}")


def _duration_text(value: datetime.timedelta) -> str:
    """A duration as Excel's [h]:mm:ss shows it."""
    seconds = round(value.total_seconds())
    sign = "-" if seconds < 0 else ""
    hours, rest = divmod(abs(seconds), 3600)
    return f"{sign}{hours}:{rest // 60:02d}:{rest % 60:02d}"


def normalize_cell(value: Any) -> Cell:
    """An Excel library's value as a Cell.

    "" -> None (an empty cell), a datetime at midnight -> date (a date cell), a time or a
    duration -> its text as Excel shows it; everything else unchanged.
    """
    kind = type(value)
    if kind is str:
        return value or None
    if value is None or kind is float or kind is int or kind is bool:
        return value
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None and value.hour == value.minute == value.second == value.microsecond == 0:
            return value.date()
        return value
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, datetime.time):
        return value.strftime("%H:%M:%S")
    if isinstance(value, datetime.timedelta):
        return _duration_text(value)
    if isinstance(value, str | int | float):  # subclasses of the plain types
        return value
    return str(value)


def shape_row(values: Iterable[Any], width: int) -> tuple[Cell, ...] | None:
    """A sheet row as cells: padded with None to the header's width, trailing empty cells beyond
    it dropped (cells with content beyond it are kept); None when the row is blank."""
    cells = [normalize_cell(v) for v in values]
    if is_blank(cells):
        return None
    end = len(cells)
    while end > width and cells[end - 1] is None:
        end -= 1
    if end < len(cells):
        del cells[end:]
    elif end < width:
        cells.extend([None] * (width - end))
    return tuple(cells)


def header_text(values: Iterable[Any]) -> tuple[str, ...]:
    """Row 1 as text, without the trailing empty cells a formatted row often carries."""
    texts = [cell_to_text(normalize_cell(v)) for v in values]
    while texts and not texts[-1]:
        texts.pop()
    if texts and texts[0].startswith("\ufeff"):
        texts[0] = texts[0][1:]
    return tuple(texts)


def sheet_header(values: Iterable[Any], merges: SheetMerges | None) -> tuple[str, ...]:
    """Row 1 as text (header_text), its merged headers read as one: the first cell's text, then blank headers
    as far as the merge reaches."""
    if merges is None:
        return header_text(values)
    texts = header_text(merges.header_cells(values))
    return texts + ("",) * (merges.header_width(len(texts)) - len(texts))


class ExcelReaderBase(ReaderBase):
    """What the .xlsx and .xls readers share: row shaping, blank skipping, progress."""

    format: str
    encoding: str | None = None
    header: tuple[str, ...] = ()
    warnings: tuple[ReaderWarning, ...] = ()
    path: Path
    merges: SheetMerges | None = None
    """The sheet's merged cells (merged_cells.py), known once the reader is open; None: none looked for."""

    _pos = 0
    _started = False  # a rows() iteration has begun
    _total = 0  # rows the sheet says it has; 0 when unknown
    _finished = False

    def _sheet_rows(self, first_row: int) -> Iterator[tuple[int, Iterable[Any]]]:
        """(row number, values) from first_row on; rows may be missing."""
        raise NotImplementedError

    def _read_rows(self, first_row: int) -> Iterator[tuple[int, Iterable[Any]]]:
        """The rows that rows() and count_rows() shape: the sheet's own, unless a reader reads faster."""
        return self._sheet_rows(first_row)

    def _merged_rows(self, first_row: int) -> Iterator[tuple[int, Iterable[Any]]]:
        """_read_rows's rows as the sheet's merges make them (filled down, covered cells blank)."""
        merges = self.merges
        if merges is None or not merges.in_data:
            return self._read_rows(first_row)
        return merges.apply(self._read_rows(merges.read_from(first_row)), first_row)

    def _iter(self, skip: int, track: bool) -> Iterator[SourceRow]:
        width = len(self.header)
        try:
            for num, values in self._merged_rows(skip + 1):
                if track:
                    self._pos = num
                cells = shape_row(values, width)
                if cells is not None:
                    yield make_row(num, cells)
        except BatchDeskError:
            raise
        except OSError as exc:
            raise file_error(self.path, exc) from exc
        except Exception as exc:  # the Excel libraries raise anything on a damaged file
            raise corrupt(exc) from exc
        if track:
            self._finished = True

    def rows(self, skip_through: int = 1) -> Iterator[SourceRow]:
        """The non-blank sheet rows with row_number > skip_through, from the top of the sheet."""
        self._check_open()
        self._pos, self._finished, self._started = max(skip_through, 0), False, True
        return self._iter(max(skip_through, 0), track=True)

    def count_rows(self, limit: int | None = None) -> int:
        """Non-blank data rows; stops at limit + 1 once the count exceeds limit."""
        self._check_open()
        count = 0
        for _ in self._iter(1, track=False):
            count += 1
            if limit is not None and count > limit:
                break
        return count

    def fraction_done(self) -> float:
        """Rows passed / the sheet's row count, for the current rows() iteration."""
        if self._finished:
            return 1.0
        if not self._started or self._total <= 0:
            return 0.0
        return min(self._pos / self._total, 0.99)


class XlsReader(ExcelReaderBase):
    """An .xls sheet read by calamine, after its records are checked to add up (xls_records).

    The format caps a sheet at 65,536 rows and calamine holds it whole, as a dense area: one that
    calamine could not hold fails before it tries (FILE_TOO_LARGE).
    """

    format = "xls"

    def __init__(self, path: Path, raw: io.FileIO, sheet: str | None, limits: ReadLimits = DEFAULT_LIMITS) -> None:
        from python_calamine import CalamineWorkbook

        from .xls_records import check_xls

        self.path = path
        self._book = None
        try:
            with raw:
                data = raw.read()
            checked = check_xls(data, sheet, limits)
            if checked is not None:
                self.warnings = checked.warnings
            self._book = CalamineWorkbook.from_filelike(io.BytesIO(data))
            del data
            self._sheet = self._pick(sheet)
            if self._sheet is not None:
                end = self._sheet.end
                self._total = end[0] + 1 if end else 0
                self.merges = calamine_merges(getattr(self._sheet, "merged_cell_ranges", None), limits)
                self.warnings = (*self.warnings, *self.merges.warnings())
            self.header = self._read_header()
        except BaseException as exc:
            self.close()
            if isinstance(exc, BatchDeskError) or not is_failure(exc):
                raise
            if isinstance(exc, OSError):
                raise file_error(path, exc) from exc
            raise corrupt(exc) from exc

    def _pick(self, name: str | None) -> Any:
        book = self._book
        assert book is not None
        if name is not None:
            if name not in book.sheet_names:
                raise no_sheet(name)
            return book.get_sheet_by_name(name)
        if not book.sheet_names:
            return None
        return book.get_sheet_by_index(0)

    def _read_header(self) -> tuple[str, ...]:
        for _, values in self._sheet_rows(1):
            return sheet_header(values, self.merges)
        return ()

    def _sheet_rows(self, first_row: int) -> Iterator[tuple[int, Iterable[Any]]]:
        sheet = self._sheet
        if sheet is None:
            return
        # Rows come from row 1 of the sheet, cells from the area's first column: pad to keep A1 at [0][0].
        start = sheet.start
        pad = [""] * (start[1] if start else 0)
        try:
            for num, values in enumerate(sheet.iter_rows(), 1):
                if num >= first_row:
                    yield num, pad + values if pad else values
        except BaseException as exc:
            if is_failure(exc) and not isinstance(exc, Exception):
                raise corrupt(exc) from exc
            raise

    def close(self) -> None:
        if not self._closed and self._book is not None:
            self._book.close()
        super().close()


def is_failure(exc: BaseException) -> bool:
    """An exception a damaged file can cause: any Exception, and the panic of calamine's Rust code
    (pyo3's PanicException derives from BaseException, so `except Exception` lets it through)."""
    return isinstance(exc, Exception) or type(exc).__name__ == "PanicException"


def open_excel(
    path: Path, raw: io.FileIO, head: bytes, sheet: str | None, limits: ReadLimits = DEFAULT_LIMITS, *,
    precount: bool = False,
) -> ExcelReaderBase:  # fmt: skip
    """The reader for an Excel file by its content (an .xls that is really .xlsx still opens); precount: see
    XlsxReader."""
    if head.startswith(XLSX_MAGIC):
        from .xlsx_reader import XlsxReader

        return XlsxReader(path, raw, sheet, limits, precount=precount)
    if head.startswith(XLS_MAGIC):
        return XlsReader(path, raw, sheet, limits)
    raw.close()
    raise PermanentError(ErrorCode.CORRUPT_FILE, detail="not an Excel workbook")
