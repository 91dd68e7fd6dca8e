"""Reading .xlsx sheets (openpyxl, streamed) and .xls sheets (calamine) as typed rows."""

from __future__ import annotations

import datetime
import io
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from desktop_app.domain.errors import BatchDeskError, ErrorCode, PermanentError

from .cells import Cell, SourceRow, cell_to_text, is_blank, make_row
from .files import ReaderBase, file_error

XLSX_MAGIC = b"PK\x03\x04"
XLS_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # OLE2 compound document


def _corrupt(exc: BaseException) -> PermanentError:
    return PermanentError(ErrorCode.CORRUPT_FILE, detail=f"{type(exc).__name__}: {exc}")


def _no_sheet(name: str) -> PermanentError:
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


class _ExcelReader(ReaderBase):
    """What the .xlsx and .xls readers share: row shaping, blank skipping, progress."""

    format: str
    encoding: str | None = None
    header: tuple[str, ...] = ()
    path: Path

    _pos = 0
    _started = False  # a rows() iteration has begun
    _total = 0  # rows the sheet says it has; 0 when unknown
    _finished = False

    def _sheet_rows(self, first_row: int) -> Iterator[tuple[int, Iterable[Any]]]:
        """(row number, values) from first_row on; rows may be missing."""
        raise NotImplementedError

    def _iter(self, skip: int, track: bool) -> Iterator[SourceRow]:
        width = len(self.header)
        try:
            for num, values in self._sheet_rows(skip + 1):
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
            raise _corrupt(exc) from exc
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


class XlsxReader(_ExcelReader):
    """An .xlsx sheet streamed by openpyxl in read-only mode: memory stays flat on any size."""

    format = "xlsx"
    _member: tuple[int, int] | None = None

    def __init__(self, path: Path, raw: io.FileIO, sheet: str | None) -> None:
        import openpyxl  # imported here: it costs ~0.2 s and CSV imports never need it

        self.path = path
        self._raw = raw
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # style and extension notes about the file
                self._book = openpyxl.load_workbook(raw, read_only=True, data_only=True)
        except OSError as exc:
            raw.close()
            raise file_error(path, exc) from exc
        except Exception as exc:
            raw.close()
            raise _corrupt(exc) from exc
        try:
            self._sheet = self._pick(sheet)
            self.header = self._read_header()
        except BaseException:
            self.close()
            raise

    def _pick(self, name: str | None) -> Any:
        book = self._book
        if name is not None:
            if name not in book.sheetnames:
                raise _no_sheet(name)
            sheet = book[name]
            if not hasattr(sheet, "iter_rows"):  # a chart sheet
                raise _no_sheet(name)
        elif book.worksheets:
            sheet = book.worksheets[0]
        else:
            return None
        # The declared size is only a hint for progress: files from some tools understate it,
        # and openpyxl would cut the sheet there, so read the rows as they are.
        self._total = sheet.max_row or 0
        sheet.reset_dimensions()
        self._member = self._sheet_member(sheet)
        return sheet

    def _sheet_member(self, sheet: Any) -> tuple[int, int] | None:
        """(offset, compressed size) of the sheet's XML inside the file, for byte-based progress."""
        try:
            info = self._book._archive.getinfo(sheet._worksheet_path)
        except (AttributeError, KeyError):  # openpyxl internals moved: fall back to rows
            return None
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
        for _, values in self._guarded(self._sheet_rows(1, last_row=1)):
            return header_text(values)
        return ()

    def _guarded(self, it: Iterator[tuple[int, Iterable[Any]]]) -> Iterator[tuple[int, Iterable[Any]]]:
        try:
            yield from it
        except OSError as exc:
            raise file_error(self.path, exc) from exc
        except Exception as exc:
            raise _corrupt(exc) from exc

    def _sheet_rows(self, first_row: int, last_row: int | None = None) -> Iterator[tuple[int, Iterable[Any]]]:
        if self._sheet is None:
            return iter(())
        rows = self._sheet.iter_rows(min_row=first_row, max_row=last_row, values_only=True)
        return enumerate(rows, first_row)

    def close(self) -> None:
        if not self._closed:
            self._book.close()
            self._raw.close()
        super().close()


class XlsReader(_ExcelReader):
    """An .xls sheet read by calamine; the format caps a sheet at 65,536 rows, so it is held whole."""

    format = "xls"

    def __init__(self, path: Path, raw: io.FileIO, sheet: str | None) -> None:
        from python_calamine import CalamineWorkbook

        self.path = path
        try:
            with raw:
                book = CalamineWorkbook.from_filelike(raw)
        except OSError as exc:
            raise file_error(path, exc) from exc
        except Exception as exc:
            raise _corrupt(exc) from exc
        self._book = book
        try:
            self._sheet = self._pick(sheet)
            if self._sheet is not None:
                end = self._sheet.end
                self._total = end[0] + 1 if end else 0
            self.header = self._read_header()
        except BatchDeskError:
            self.close()
            raise
        except Exception as exc:
            self.close()
            raise _corrupt(exc) from exc

    def _pick(self, name: str | None) -> Any:
        book = self._book
        if name is not None:
            if name not in book.sheet_names:
                raise _no_sheet(name)
            return book.get_sheet_by_name(name)
        if not book.sheet_names:
            return None
        return book.get_sheet_by_index(0)

    def _read_header(self) -> tuple[str, ...]:
        if self._sheet is None:
            return ()
        for values in self._sheet.to_python(skip_empty_area=False, nrows=1):
            return header_text(values)
        return ()

    def _sheet_rows(self, first_row: int) -> Iterator[tuple[int, Iterable[Any]]]:
        if self._sheet is None:
            return iter(())
        # skip_empty_area=False keeps the sheet's own row and column positions (A1 at [0][0]).
        rows = self._sheet.to_python(skip_empty_area=False)
        return enumerate(rows[first_row - 1 :], first_row)

    def close(self) -> None:
        if not self._closed:
            self._book.close()
        super().close()


def open_excel(path: Path, raw: io.FileIO, head: bytes, sheet: str | None) -> _ExcelReader:
    """The reader for an Excel file by its content (an .xls that is really .xlsx still opens)."""
    if head.startswith(XLSX_MAGIC):
        return XlsxReader(path, raw, sheet)
    if head.startswith(XLS_MAGIC):
        return XlsReader(path, raw, sheet)
    raw.close()
    raise PermanentError(ErrorCode.CORRUPT_FILE, detail="not an Excel workbook")
