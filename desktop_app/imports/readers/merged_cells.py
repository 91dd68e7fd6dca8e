"""An Excel sheet's merged cells: where they are, and how the readers read the rows they cover.

What the readers make of a merge (SheetMerges), as Excel shows the sheet:
- in the header row, across columns: the header is its first cell's text, the other cells it covers are
  blank headers (ignored, as any blank header, and so are the data cells below them);
- inside the data, down one column (A5:A8): each row of the block holds the block's value, where Excel
  shows it; the reader's warnings name the blocks (WarningCode.MERGED_CELLS_FILLED);
- inside the data, across columns (B6:D6, or a block B5:C8): the cells it covers are blank and each row it
  covers fails with `merged_cells` naming it, where it touches a column the import reads
  (imports/merged_cells.py): which column its value belongs to is the clerk's to say;
- from the header down into the data: the data cells it covers are blank (the header's text is no value).
Every cell a merge covers but its first reads blank, whatever the file keeps there (LibreOffice can keep the
text of the cells it merged; Excel shows only the first). A row that holds nothing but what a merge gives it
is blank, as any blank row.

An .xlsx sheet's merges are found before its rows by xlsx_merges.scan_sheet; an .xls sheet's come from
calamine, which holds the sheet whole anyway. No openpyxl here: an .xls import never needs it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from desktop_app.domain.errors import ErrorCode, PermanentError, WarningCode

from .cells import is_blank
from .limits import ReaderWarning, ReadLimits

NAMED_IN_WARNING = 10
"""The merged blocks a warning names; it counts them all."""


@dataclass(frozen=True, slots=True, order=True)
class MergedRange:
    """One merged block of cells, 1-based and inclusive (ordered by its first row, then column)."""

    first_row: int
    first_column: int
    last_row: int
    last_column: int

    @property
    def ref(self) -> str:
        """As Excel names it: "B6:D6"."""
        first, last = column_letters(self.first_column), column_letters(self.last_column)
        return f"{first}{self.first_row}:{last}{self.last_row}"

    @property
    def across(self) -> bool:
        return self.last_column > self.first_column

    def touches(self, columns: Collection[int]) -> bool:
        """Whether it covers one of these columns (0-based positions in a row)."""
        return any(k in columns for k in range(self.first_column - 1, self.last_column))


def column_letters(column: int) -> str:
    """A column's letters as Excel names it: 1 -> "A", 28 -> "AB"."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def column_number(letters: str) -> int:
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - 64
    return number


_REF = re.compile(r"\s*\$?([A-Za-z]{1,3})\$?(\d{1,7})(?::\$?([A-Za-z]{1,3})\$?(\d{1,7}))?\s*")


def merged_range(ref: str, limits: ReadLimits) -> MergedRange | None:
    """A <mergeCell>'s ref ("A5:A8") as a range within the sheet's limits; None for what is no block of
    cells (one cell, whole rows or columns, a ref that does not parse: nothing a sheet row shows merged)."""
    found = _REF.fullmatch(ref)
    if found is None or found.group(3) is None:
        return None
    first_column, last_column = sorted((column_number(found.group(1)), column_number(found.group(3))))
    first_row, last_row = sorted((int(found.group(2)), int(found.group(4))))
    if first_row < 1 or first_column < 1 or first_row > limits.max_rows or first_column > limits.max_columns:
        return None
    block = MergedRange(first_row, first_column, min(last_row, limits.max_rows), min(last_column, limits.max_columns))
    return block if block.last_row > block.first_row or block.across else None


class _Cover:
    """The ranges covering a row, asked for rows in increasing order (any other order starts again)."""

    def __init__(self, ranges: Iterable[MergedRange]) -> None:
        self._ranges = sorted(ranges)
        self._next = 0
        self._active: list[MergedRange] = []
        self._row = 0

    def at(self, row: int) -> list[MergedRange]:
        if row < self._row:
            self._next, self._active = 0, []
        self._row = row
        ranges, active = self._ranges, self._active
        while self._next < len(ranges) and ranges[self._next].first_row <= row:
            active.append(ranges[self._next])
            self._next += 1
        if active and any(m.last_row < row for m in active):
            active = self._active = [m for m in active if m.last_row >= row]
        return active


class Refusals:
    """The merges across columns that fail the rows they cover: `at(row)` names those covering a row."""

    def __init__(self, ranges: Iterable[MergedRange]) -> None:
        self._cover = _Cover(ranges)

    def at(self, row: int) -> str | None:
        """The refs of the merges covering this row ("B6:D6", "B6:C6, E6:F6"), or None."""
        over = self._cover.at(row)
        return ", ".join(m.ref for m in sorted(over, key=lambda m: m.first_column)) if over else None


class SheetMerges:
    """A sheet's merged blocks, and what they make of its header and rows (see the module's docstring)."""

    def __init__(self, ranges: Iterable[MergedRange]) -> None:
        self.ranges = tuple(sorted(set(ranges)))
        self._header = tuple(m for m in self.ranges if m.first_row == 1 and m.across)
        self._data = tuple(m for m in self.ranges if m.last_row >= 2)
        self.filled = tuple(m for m in self._data if m.first_row >= 2 and not m.across)
        """Down one column inside the data: each row of the block holds its value."""
        self.refused = tuple(m for m in self._data if m.first_row >= 2 and m.across)
        """Across columns inside the data: each row it covers fails (where it touches a column read)."""
        self._fills = frozenset(self.filled)

    @property
    def in_data(self) -> bool:
        """Whether a merge covers a data row (row 2 on): the rows are then read through apply()."""
        return bool(self._data)

    def header_cells(self, values: Iterable[Any]) -> list[Any]:
        """Row 1's values with the cells a merge covers (but its first) blank."""
        cells = list(values)
        for m in self._header:
            for k in range(m.first_column, min(m.last_column, len(cells))):
                cells[k] = None
        return cells

    def header_width(self, width: int) -> int:
        """The header's width (its last text's column, `width`) with the cells its merges cover: a merged
        header spans them, blank headers whose cells are ignored (never content beyond the header)."""
        return max([width, *(m.last_column for m in self._header if m.first_column <= width)])

    def warnings(self) -> tuple[ReaderWarning, ...]:
        """The blocks filled down, named in the task's summary."""
        if not self.filled:
            return ()
        refs = ", ".join(m.ref for m in self.filled[:NAMED_IN_WARNING])
        if len(self.filled) > NAMED_IN_WARNING:
            refs += ", …"
        return (ReaderWarning(WarningCode.MERGED_CELLS_FILLED, {"ranges": refs, "count": len(self.filled)}),)

    def refusals(self, columns: Collection[int]) -> Refusals | None:
        """The merges across columns that touch these columns (0-based: those the import reads), or None."""
        touching = [m for m in self.refused if m.touches(columns)]
        return Refusals(touching) if touching else None

    def read_from(self, first_row: int) -> int:
        """Where rows must be read from to give the rows from first_row on: the first row of a block filled
        down that reaches first_row holds its value (a resumed import starts inside one)."""
        return min([first_row, *(m.first_row for m in self.filled if m.first_row < first_row <= m.last_row)])

    def apply(self, rows: Iterable[tuple[int, Iterable[Any]]], first_row: int) -> Iterator[tuple[int, Iterable[Any]]]:
        """The rows from first_row on (read from read_from(first_row)) as the merges make them: (row number,
        values from column A)."""
        cover = _Cover(self._data)
        values_of: dict[MergedRange, Any] = {}  # a block filled down -> the value its first cell holds
        for num, values in rows:
            over = cover.at(num)
            if over:
                values = self._merged(num, list(values), over, values_of)
            if num >= first_row:
                yield num, values

    def _merged(
        self, num: int, cells: list[Any], over: list[MergedRange], values_of: dict[MergedRange, Any]
    ) -> list[Any]:
        fills = []
        for m in over:
            first = m.first_column - 1
            if m.first_row == num:  # the block's first cell keeps its value
                if m in self._fills:
                    values_of[m] = cells[first] if first < len(cells) else None
                first += 1
            elif m in self._fills:
                fills.append(m)
            for k in range(first, min(m.last_column, len(cells))):
                cells[k] = None
        if fills and not is_blank(cells):
            for m in fills:
                value, k = values_of.get(m), m.first_column - 1
                if k >= len(cells):
                    if value is None or value == "":
                        continue
                    cells.extend([None] * (k + 1 - len(cells)))
                cells[k] = value
        return cells


def merges_of(refs: Iterable[str], limits: ReadLimits) -> SheetMerges:
    """The blocks these refs name; FILE_TOO_LARGE past limits.max_merged_ranges of them."""
    found = []
    for count, ref in enumerate(refs, 1):
        if count > limits.max_merged_ranges:
            raise too_many_merges(limits)
        block = merged_range(ref, limits)
        if block is not None:
            found.append(block)
    return SheetMerges(found)


def too_many_merges(limits: ReadLimits) -> PermanentError:
    return PermanentError(ErrorCode.FILE_TOO_LARGE, reason="merged_cells", limit=limits.max_merged_ranges)


Corners = tuple[tuple[int, int], tuple[int, int]]


def calamine_merges(ranges: Iterable[Corners] | None, limits: ReadLimits) -> SheetMerges:
    """A sheet's merges as calamine gives them: ((first row, first column), (last row, last column)), 0-based."""
    refs = (f"{column_letters(c1 + 1)}{r1 + 1}:{column_letters(c2 + 1)}{r2 + 1}"
            for (r1, c1), (r2, c2) in ranges or ())  # fmt: skip
    return merges_of(refs, limits)
