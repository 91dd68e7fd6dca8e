"""Reading an .xlsx sheet, streamed, every part bounded before and while it is read; plain sheets by calamine."""

from __future__ import annotations

import io
import logging
import warnings
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from desktop_app.domain.errors import BatchDeskError, ErrorCode, PermanentError

from .excel_reader import ExcelReaderBase, corrupt, no_sheet, sheet_header
from .files import file_error
from .limits import DEFAULT_LIMITS, ReadLimits
from .xlsx_zip import open_zip

log = logging.getLogger(__name__)


STREAMED_ROWS = 2_000
"""Rows of the streaming parser per block on the bulk path (a calamine slice holds ~5,500 of 9 columns)."""


class RowBlock(Protocol):
    """Sheet rows as a reader read them: `rows[k]` is row `numbers()[k]`, its values from column `pad` (0-based);
    values(row) is such a row's values from column A as the streaming parser gives them."""

    @property
    def rows(self) -> list[list[Any]]: ...

    @property
    def pad(self) -> int: ...

    def numbers(self) -> Sequence[int]: ...

    def values(self, row: list[Any]) -> list[Any]: ...


@dataclass(frozen=True, slots=True)
class StreamedRows:
    """Rows of the streaming parser (its values as they are, from column A)."""

    row_numbers: list[int]
    rows: list[list[Any]]
    pad: int = 0

    def numbers(self) -> list[int]:
        return self.row_numbers

    def values(self, row: list[Any]) -> list[Any]:
        return row


class XlsxReader(ExcelReaderBase):
    """An .xlsx sheet streamed from its XML: memory stays flat on any size, and a zip bomb, a huge
    cell, a row of a million columns or a shared string table of millions fails with a plain error."""

    format = "xlsx"
    sheet_rows: type | None = None
    """What parses the sheet's rows (default: xlsx_rows.SheetRows); the tests set openpyxl's own, to compare."""
    _member: tuple[int, int] | None = None
    use_calamine = True
    """Whether plain rows are read by calamine (xlsx_calamine); the tests turn it off, to compare."""
    _calamine: Any = None  # xlsx_calamine.CalamineSlices once tried, False when the sheet is not plain
    rows_in_order: bool | None = None
    """Whether every row element is numbered above the one before (xlsx_plain.RowOrder), once row_bound
    has counted them; None: not known."""
    _row_tags: tuple[int, bool] | None = None  # counted while the merges were looked for (precount)

    @property
    def calamine_rows(self) -> int:
        """Sheet rows calamine has read so far (0: the streaming parser read them all)."""
        return self._calamine.rows_read if self._calamine else 0

    def __init__(self, path: Path, raw: io.FileIO, sheet: str | None, limits: ReadLimits = DEFAULT_LIMITS, *,
                 precount: bool = False) -> None:  # fmt: skip
        """precount: count the sheet's row elements (row_bound) in the pass that looks for its merged cells,
        as the import asks for both (a preview needs no count)."""
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
            self._find_merges(precount)
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

    def _find_merges(self, count: bool) -> None:
        """The sheet's merged cells, before any row is read (its XML has them after its rows: xlsx_merges)."""
        if self._sheet is None:
            return
        from .xlsx_merges import scan_sheet

        assert self._archive is not None
        scan = scan_sheet(self._archive, self._sheet.part, self._limits, count=count and self.sheet_rows is None)
        self.merges, self._row_tags = scan.merges, scan.row_tags
        self.warnings = scan.merges.warnings()

    def _read_header(self) -> tuple[str, ...]:
        for num, values in self._guarded(self._sheet_rows(1, last_row=1)):
            if num != 1:
                return ()
            return sheet_header(values, self.merges)
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

    def _sheet_rows(
        self, first_row: int, last_row: int | None = None, *, skip_elements: int = 0
    ) -> Iterator[tuple[int, Iterable[Any]]]:
        """(row number, values) of the sheet's rows from first_row on, after its first skip_elements rows
        (read, not given: the rows calamine gave)."""
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
                if skip_elements:
                    skip_elements -= 1
                    continue
                if num < first_row:
                    continue
                if last_row is not None and num > last_row:
                    break
                self._total = self._total or rows.declared_rows
                yield num, values
                if last_row is not None and num >= last_row:
                    break

    def row_bound(self) -> int | None:
        """At least the non-blank data rows, counted without parsing: the sheet's row elements less the
        header's (xlsx_plain.count_row_tags); None when bytes cannot tell (count_rows then counts)."""
        if self._sheet is None or self.sheet_rows is not None:
            return None
        from .xlsx_plain import count_row_tags

        assert self._archive is not None
        found = self._row_tags
        try:
            found = found or count_row_tags(self._archive, self._sheet.part)
        except Exception:  # a damaged part: the count that parses says what it says
            return None
        if found is None:
            return None
        tags, self.rows_in_order = found
        return max(tags - 1, 0)

    def _read_rows(self, first_row: int) -> Iterator[tuple[int, Iterable[Any]]]:
        """calamine's rows while the sheet is plain (xlsx_plain), the streaming parser's from the first row
        that is not, or for the whole sheet when its workbook is not."""
        slices = self._slices()
        if slices is None:
            yield from self._sheet_rows(first_row)
            return
        from .xlsx_calamine import NotPlain

        try:
            yield from slices.rows(first_row)
        except NotPlain as stop:
            log.debug("the streaming parser reads on after row element %d", stop.elements)
            yield from self._sheet_rows(first_row, skip_elements=stop.elements)

    def row_blocks(self, first_row: int) -> Iterator[RowBlock]:
        """The rows _read_rows gives, a block at a time (for the bulk path): calamine's slices while the sheet
        is plain, then the streaming parser's rows, STREAMED_ROWS at a time. The rows as the sheet holds them:
        a sheet whose merges reach its data (merges.in_data) is the row reader's alone."""
        slices = self._slices()
        elements = 0
        if slices is not None:
            from .xlsx_calamine import NotPlain

            try:
                yield from slices.blocks(first_row)
                return
            except NotPlain as stop:
                elements = stop.elements
        numbers: list[int] = []
        rows: list[list[Any]] = []
        for num, values in self._sheet_rows(first_row, skip_elements=elements):
            numbers.append(num)
            rows.append(list(values))
            if len(rows) >= STREAMED_ROWS:
                yield StreamedRows(numbers, rows)
                numbers, rows = [], []
        if rows:
            yield StreamedRows(numbers, rows)

    def _slices(self) -> Any:
        """The sheet's rows as calamine reads them (xlsx_calamine.CalamineSlices), or None."""
        if self._calamine is None:
            self._calamine = False
            if self.use_calamine and self.sheet_rows is None and self._sheet is not None:
                try:
                    self._calamine = self._open_slices() or False
                except Exception as exc:  # a damaged part: the streaming parser says what it says
                    log.debug("calamine is not tried: %s", exc)
        return self._calamine or None

    def _open_slices(self) -> Any:
        from openpyxl.utils.datetime import CALENDAR_MAC_1904

        from .xlsx_calamine import CalamineSlices
        from .xlsx_plain import PlainRows

        archive, book = self._archive, self._book
        assert archive is not None and self._sheet is not None
        plain = PlainRows.open(archive, self._sheet.part, book, self._limits)
        if plain is None:
            return None
        names = set(archive.namelist())
        styles = archive.read("xl/styles.xml") if "xl/styles.xml" in names else None  # what openpyxl read
        if plain.inline_strings:
            return CalamineSlices(plain, styles, None, book.wb.epoch == CALENDAR_MAC_1904, book.shared_strings)
        strings = zipfile.ZipFile.read(archive, book.strings_part) if book.strings_part else None  # bounded: plain
        return CalamineSlices(plain, styles, strings, book.wb.epoch == CALENDAR_MAC_1904)

    def close(self) -> None:
        if not self._closed:
            if self._archive is not None:
                self._archive.close()
            self._raw.close()
        super().close()
