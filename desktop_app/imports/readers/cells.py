"""Cell values and rows as the readers yield them, and how a cell is shown as text."""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

Cell = str | int | float | bool | datetime.date | datetime.datetime | None


@dataclass(frozen=True, slots=True)
class SourceRow:
    """One data record of a source file.

    row_number is the row as Excel shows it: the header is row 1, the first data record row 2, a
    quoted CSV field with line breaks is still one row and a blank line still takes its number.
    cells are always str for CSV; typed values for Excel (see cell_to_text).
    """

    row_number: int
    cells: tuple[Cell, ...]


# Building a frozen dataclass through its generated __init__ goes through object.__setattr__ per
# field, which is a third of the per-row cost of a CSV read. The hot loops use this instead: it
# sets the same slots through their descriptors, so the result is an ordinary SourceRow.
_new_row = object.__new__
_set_row_number: Any = vars(SourceRow)["row_number"].__set__
_set_cells: Any = vars(SourceRow)["cells"].__set__


ROW_BUILDERS: tuple[Any, Any, Any] = (_new_row, _set_row_number, _set_cells)
"""(new, set_row_number, set_cells) for loops that inline make_row."""


def make_row(row_number: int, cells: tuple[Cell, ...]) -> SourceRow:
    """SourceRow(row_number, cells), faster; for the readers' per-row loops."""
    row: SourceRow = _new_row(SourceRow)
    _set_row_number(row, row_number)
    _set_cells(row, cells)
    return row


def is_blank(cells: Iterable[Cell]) -> bool:
    """True when every cell is None or a string of only whitespace (such a row is skipped)."""
    for value in cells:
        if value is None:
            continue
        if isinstance(value, str):
            if value.strip():
                return False
            continue
        return False
    return True


# Excel keeps 15 significant digits; a float beyond that (0.1 + 0.2 -> 0.30000000000000004) is
# binary noise that Excel itself never shows.
_EXCEL_DIGITS = 15


def float_to_text(value: float) -> str:
    """A float as Excel shows it in a General cell: integral ones as plain digits, never E-notation."""
    if not math.isfinite(value):
        return str(value)
    rounded = float(f"{value:.{_EXCEL_DIGITS}g}")
    if rounded.is_integer():
        return str(int(rounded))
    text = repr(rounded)
    if "e" in text or "E" in text:
        text = format(Decimal(text), "f")
    return text


def cell_to_text(value: Cell) -> str:
    """A cell as text the way a clerk sees it in Excel.

    None -> "", str unchanged, bool -> "TRUE"/"FALSE", int -> digits, an integral float -> digits
    ("13800138000", never "13800138000.0" or "1.38E+10"), other floats -> shortest decimal text at
    Excel's 15-digit precision, date -> "YYYY-MM-DD", datetime -> "YYYY-MM-DD" at midnight, else
    "YYYY-MM-DD HH:MM:SS".
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return float_to_text(value)
    if isinstance(value, datetime.datetime):
        day = value.date().isoformat()
        if value.hour == value.minute == value.second == value.microsecond == 0:
            return day
        return f"{day} {value.hour:02d}:{value.minute:02d}:{value.second:02d}"
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)  # not a Cell type; defensive, so a report never crashes
