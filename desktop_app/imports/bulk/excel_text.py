"""Which Excel cells the bulk path may take as their text: those the row validator reads the same either way.

The bulk path checks text (checks.py), the row path an .xlsx row's typed cells. A typed cell goes in as
its cell_to_text (what the error CSV writes of it, and what the full checkers read of anything that is
not a str: their `prepare`) only where the row validator gives that text exactly what it gives the cell,
value and error alike; a row with any other cell goes to the row validator with its typed cells (an odd
record). Per kind of column, from validator.py's full checkers:
- text, reference, enum, boolean, a column no type column reads: every cell is read as its text (a bool
  in a boolean column is itself, and its text TRUE/FALSE is in TRUE_WORDS/FALSE_WORDS);
- decimal: every cell; where the column reads regional spellings (thousands, currency, percent: a str
  only goes through them), a str, an int or a finite float only. Such a number's text is a plain number
  (-?digits, .digits), which the regional reader reads as Decimal(text) with its places as written, as the
  plain rule does: its grouped whole part needs a comma, a percentage a "%", and no currency sign may be
  made of digits, points and minus signs alone (else the column takes strings only). The bulk path never
  reads a decimal-comma file (choice.py);
- integer: an int, or a whole float below 10**15 (its text is its digits); not a bool, a fraction
  (grouping rules could read "12.5" as a number), a date;
- date: a date (its ISO text is matched before any regional spelling); a datetime with a time is its
  date as a cell but not as text; other cells as text only without regional spellings;
- datetime: dates and datetimes (their text is matched before regional spellings); other cells as text
  only without regional spellings.
A str and an empty cell are the same to both (None is read as "").
"""

from __future__ import annotations

import datetime
import math
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from desktop_app.imports.import_type import ColumnSpec, Kind
from desktop_app.imports.readers.cells import cell_to_text, float_to_text
from desktop_app.imports.readers.excel_reader import normalize_cell

_WHOLE_LIMIT = 1e15  # a whole float below this is its digits in cell_to_text (15 significant digits)
_DATES = (datetime.date, datetime.datetime)
_NUMBER_CHARS = frozenset("0123456789.-")
_A_DATE = datetime.date(2000, 1, 1)

Takes = Callable[[Any], bool]
"""Whether a cell (as normalize_cell makes it) is read the same as its text, in one column."""


def _any(_cell: Any) -> bool:
    return True


def _plain(cell: Any) -> bool:
    return cell is None or cell.__class__ is str


def _number_or_plain(cell: Any) -> bool:
    kind = cell.__class__
    return kind is int or (kind is float and math.isfinite(cell)) or cell is None or kind is str


def _integer(cell: Any) -> bool:
    kind = cell.__class__
    if kind is int or cell is None or kind is str:
        return True
    return kind is float and cell.is_integer() and abs(cell) < _WHOLE_LIMIT


def _no_datetime(cell: Any) -> bool:
    return cell.__class__ is not datetime.datetime  # normalize_cell made a midnight one a date


def _date_or_plain(cell: Any) -> bool:
    return _plain(cell) or cell.__class__ is datetime.date


def _dates_or_plain(cell: Any) -> bool:
    return _plain(cell) or isinstance(cell, _DATES)


def takes(spec: ColumnSpec | None) -> Takes:
    """The cells of a column of this spec (None: no type column reads it) the bulk path takes as text."""
    if spec is None or spec.kind in (Kind.TEXT, Kind.REFERENCE, Kind.ENUM, Kind.BOOLEAN):
        return _any
    if spec.kind == Kind.DECIMAL:
        if not (spec.thousands or spec.currency or spec.percent):
            return _any
        signs = [form for sign in spec.currency for form in (sign, unicodedata.normalize("NFKC", sign))]
        return _plain if any(set(sign) <= _NUMBER_CHARS for sign in signs) else _number_or_plain
    if spec.kind == Kind.INTEGER:
        return _integer
    if spec.kind == Kind.DATE:
        return _date_or_plain if spec.date_formats else _no_datetime
    if spec.kind == Kind.DATETIME:
        return _dates_or_plain if spec.date_formats else _any
    return _plain  # a kind not known here: strings only


def text_of(value: Any) -> str:
    """A cell as a reader gives it (calamine's "" for empty, a float for a number) as the row path's text."""
    if value.__class__ is str:
        return value
    return cell_to_text(normalize_cell(value))


def column_texts(values: Sequence[Any], take: Takes) -> tuple[pa.Array, list[int]]:
    """One column of cells as Arrow text, and the positions of the cells the bulk path does not take."""
    kinds = set(map(type, values))
    if kinds <= {str}:
        return pa.array(values, pa.string()), []
    if kinds <= {float, str}:
        numbers = _whole_numbers(values)
        if numbers is not None:  # a whole float below 10**15 is taken or not by its kind alone
            return numbers, [] if take(1.0) else [k for k, v in enumerate(values) if v.__class__ is float]
        texts = [v if v.__class__ is str else _float_text(v) for v in values]
        return pa.array(texts, pa.string()), [k for k, v in enumerate(values) if v.__class__ is float and not take(v)]
    if kinds <= {datetime.date, str}:  # date cells (a date is taken or not by its kind alone)
        texts = [v if v.__class__ is str else v.isoformat() for v in values]
        return pa.array(texts, pa.string()), [] if take(_A_DATE) else [
            k for k, v in enumerate(values) if v.__class__ is not str
        ]
    cells = [v if v.__class__ is str else normalize_cell(v) for v in values]
    refused = [k for k, c in enumerate(cells) if not take(c)]
    texts = [c if c.__class__ is str else cell_to_text(c) for c in cells]
    return pa.array(texts, pa.string()), refused


def _float_text(value: float) -> str:
    """float_to_text(value), ~3x faster on a float of at most 15 significant digits (what a sheet holds): its
    repr then has no exponent and at most 16 characters (digits, a point, a sign), so rounding it to 15
    digits is itself, and unless it ends in ".0" (a whole number: digits only) the repr is the text ("nan"
    and "inf" too, as str gives them)."""
    text = repr(value)
    if len(text) <= 16 and "e" not in text and not text.endswith(".0"):
        return text
    return float_to_text(value)


def _whole_numbers(values: Sequence[Any]) -> pa.Array | None:
    """A column of whole floats below 10**15 (a phone, a code written as a number) and strings, as text made
    in C++: such a float's cell_to_text is str(int(value)). None when a float is not one of them."""
    floats = [v if v.__class__ is float else None for v in values]
    numbers = pa.array(floats, pa.float64())
    present = pc.drop_null(numbers)
    if not len(present):
        return None
    whole = pc.and_(pc.equal(pc.floor(present), present), pc.less(pc.abs(present), _WHOLE_LIMIT))
    if not pc.all(whole).as_py():
        return None
    texts = pc.cast(pc.cast(numbers, pa.int64()), pa.string())
    if len(present) == len(values):
        return texts
    strings = pa.array([v if v.__class__ is str else None for v in values], pa.string())
    return pc.coalesce(texts, strings)
