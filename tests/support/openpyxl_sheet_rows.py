"""The .xlsx reader's reference: a sheet's rows parsed by openpyxl's own cell rules, as BatchDesk once read them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from openpyxl.worksheet._reader import WorkSheetParser
from openpyxl.xml.constants import SHEET_MAIN_NS
from openpyxl.xml.functions import iterparse

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports.readers.limits import ReadLimits
from desktop_app.imports.readers.xlsx_rows import declared_rows, too_wide

_ROW = f"{{{SHEET_MAIN_NS}}}row"
_CELL = f"{{{SHEET_MAIN_NS}}}c"
_SHEET_DATA = f"{{{SHEET_MAIN_NS}}}sheetData"
_DIMENSION = f"{{{SHEET_MAIN_NS}}}dimension"

ELEMENTS_PER_CELL = 8
"""A cell is a <c> with a value, a formula, an inline string and its runs: a row may hold this many
elements per allowed column before it counts as too wide (a row is held whole until it ends)."""


class SheetRows:
    """Iterating gives (row number, values from column A) for each row present in a sheet's XML.

    openpyxl's read-only sheet keeps every parsed row element attached to the tree and a dict per
    formatted row, and fills missing rows one by one (a row numbered 10**12 never ends); this keeps
    nothing, skips missing rows, and raises CORRUPT_FILE on a row beyond limits.max_rows, a cell
    beyond column limits.max_columns or a text longer than limits.max_cell_chars. declared_rows is the
    sheet's own <dimension> (0: none), known once iteration passes it.
    """

    def __init__(self, source: IO[bytes] | Any, book: Any, shared_strings: list[str], limits: ReadLimits) -> None:
        self._source = source
        self._limits = limits
        self._parser = WorkSheetParser(
            source, shared_strings, data_only=True, epoch=book.epoch,
            date_formats=book._date_formats, timedelta_formats=book._timedelta_formats,
        )  # fmt: skip
        self.declared_rows = 0
        self.row = 0  # the last row read: where a text too long was met (for the message)

    def __iter__(self) -> Iterator[tuple[int, list[Any]]]:
        limits = self._limits
        most_elements = ELEMENTS_PER_CELL * limits.max_columns
        root = data = None
        elements = 0  # in the row being parsed
        for event, node in iterparse(self._source, events=("start", "end")):
            tag = node.tag
            if event == "start":
                if root is None:
                    root = node
                elif tag == _SHEET_DATA:
                    data = node
                continue
            if tag == _ROW:
                yield self._row(node)
                elements = 0
                node.clear()
                if data is not None:
                    data.clear()  # the cleared row would otherwise stay in the tree
            elif data is not None:
                elements += 1
                if elements > most_elements:
                    raise too_wide(self.row + 1, limits)
                if tag == _SHEET_DATA:
                    return  # what follows the rows (merges, formatting) is not needed
            else:
                if tag == _DIMENSION:
                    self.declared_rows = declared_rows(node.get("ref"))
                if root is not None:
                    root.clear()  # what precedes the rows (views, column widths) is dropped as read

    def _row(self, node: Any) -> tuple[int, list[Any]]:
        """openpyxl's parse_row, without the dict per formatted row, with the bounds checked."""
        parser, limits = self._parser, self._limits
        number = node.get("r")
        if number is not None:
            try:
                parser.row_counter = int(number)
            except ValueError:
                value = float(number)
                if not value.is_integer():
                    raise ValueError(f"{number} is not a valid row number") from None
                parser.row_counter = int(value)
        else:
            parser.row_counter += 1
        if not 0 < parser.row_counter <= limits.max_rows:
            raise PermanentError(ErrorCode.CORRUPT_FILE, reason="too_many_rows", limit=limits.max_rows)
        parser.col_counter = 0
        cells = [parser.parse_cell(el) for el in node]
        self.row = parser.row_counter
        if not cells:
            return self.row, []
        # As openpyxl: the row is as wide as its last cell's column, cells beyond that are dropped.
        width = cells[-1]["column"]
        if width > limits.max_columns:
            raise too_wide(self.row, limits)
        values: list[Any] = [None] * width
        longest = limits.max_cell_chars
        for cell in cells:
            column, value = cell["column"], cell["value"]
            if 0 < column <= width:
                if type(value) is str and len(value) > longest:
                    raise PermanentError(ErrorCode.CORRUPT_FILE, reason="cell_too_long", row=self.row, limit=longest)
                values[column - 1] = value
        return self.row, values
