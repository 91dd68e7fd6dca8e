"""Row validation for an import type, compiled once per file.

``compile_validator(import_type, mapping)`` returns a :class:`RowValidator` whose ``check(cells)``
turns one source row into a :class:`CheckedRow`: the cleaned values in insert order (all the type's
columns, in TOML order) when the row is valid, or every :class:`RowError` it has.

Two paths, one truth:

* the full checkers (one closure per column, from ``_compile_full``) are the authoritative rules:
  each normalises its cell, applies the rules in order (required, length, format / enum / date /
  number, range) and returns ``(value, error)``. A row with several problems lists every code (at
  most one per column), in column order.
* the fast path is one function generated for the file (``RowValidator.source``) that does every
  column inline -- no call, loop or rule object per field, no exception on a valid row. Each
  column's snippet accepts only the usual spelling of a valid value (an ASCII ``str`` passing the
  pattern and length test, an exact enum input, a ``YYYY-MM-DD`` date, an unsigned plain decimal in
  range) and hands anything else to the column's full checker; on the first error the whole row is
  re-checked by the full checkers. About 0.2 µs per field (bench/bench_validator.py).

Decisions:

* a CSV record (all cells ``str``) with a different number of fields than the header fails with
  ``column_count_mismatch`` only: its fields are shifted, so checking them would report noise. A row
  with typed (Excel) cells is padded with empty cells when short; when long, it is a mismatch only if
  a cell beyond the header width is non-empty.
* ``RowError.value`` is the cell as text, as the clerk typed it (typed cells converted by
  :func:`~desktop_app.imports.readers.cell_to_text`, as Excel shows it); ``params["value"]`` is the same text.
* a ``min_length`` violation is reported as ``pattern_mismatch`` with params ``min`` (the catalog has
  no ``too_short`` code); for customers it cannot happen (the only minimum is name's 1, which is
  ``required_missing``).
* a ``datetime`` cell in a date column gives its date part; a date cell in a datetime column is midnight.
* a cell holding a NUL character is ``invalid_character`` whatever its column's kind (PostgreSQL cannot
  store one; the row fails alone instead of the whole batch).
* regional spellings (a column's ``date_formats``, ``thousands``, ``currency``, ``percent``,
  ``drop_chars``, ``strip_prefixes``; the file's ``date_order`` and decimal comma) are the full checkers'
  (:mod:`desktop_app.imports.regional`); the fast path takes none of them, and in a decimal-comma file
  its decimal test splits on the comma instead of the point.
* in update and upsert modes (``blanks_keep``) a blank cell is :data:`BLANK` (keep the stored value,
  or clear it with ``--blank clear``) and a column the file lacks is :data:`ABSENT`, required or not:
  the writer decides, per row, what they mean (a row that would be inserted needs its required cells).
"""

from __future__ import annotations

import datetime
import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from operator import itemgetter
from types import MappingProxyType
from typing import Final

from desktop_app.domain.errors import ErrorCode, Lang, message
from desktop_app.imports.fills import ColumnFills, ValueMap
from desktop_app.imports.header import HeaderMapping
from desktop_app.imports.import_type import PATTERN_FLAGS, ColumnSpec, ImportType, normalize_text
from desktop_app.imports.readers.cells import cell_to_text
from desktop_app.imports.regional import (
    PLAIN,
    Ambiguous,
    FileConventions,
    OtherOrder,
    date_reader,
    datetime_reader,
    decimal_reader,
    drop_set,
    integer_reader,
    prefix_list,
    text_cleaner,
)

__all__ = [
    "ABSENT",
    "BLANK",
    "Cell",
    "CheckedRow",
    "RowError",
    "RowValidator",
    "column_checker",
    "compile_validator",
    "empty_value",
]

Cell = str | int | float | bool | datetime.date | datetime.datetime | None

_DATE_TEXT = re.compile(r"([0-9]{4})([-/])([0-9]{1,2})\2([0-9]{1,2})")
_DATETIME_TEXT = re.compile(
    r"([0-9]{4})([-/])([0-9]{1,2})\2([0-9]{1,2})(?:[ T]([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?)?"
)
_NUMBER_TEXT = re.compile(r"(-?)([0-9]+)(?:\.([0-9]+))?")
_INTEGER_TEXT = re.compile(r"[+-]?[0-9]+")
BIGINT_MIN, BIGINT_MAX = -(2**63), 2**63 - 1
TRUE_WORDS = frozenset({"是", "真", "y", "yes", "true", "1"})
FALSE_WORDS = frozenset({"否", "假", "n", "no", "false", "0"})
_DAYS_IN_MONTH = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


# --- results ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RowError:
    """One problem of one row: the code, the column key (None for a whole-row problem), the cell's
    text and the params of the catalog message (without ``column``/``hint``, which depend on the
    language and are filled in by :meth:`message`)."""

    code: ErrorCode
    column: str | None
    value: str
    params: Mapping[str, object] = field(default_factory=dict, hash=False)  # plain dict: JSON-ready

    def message(self, import_type: ImportType, lang: Lang = "zh") -> str:
        """The plain-language reason, e.g. "手机号格式不正确，应为 11 位数字"."""
        if self.column is not None:
            if self.column not in import_type.keys and self.column == import_type.unique_key:
                # the whole composite key: its columns' labels together
                joiner = "+" if lang == "zh" else " + "
                label = joiner.join(c.label(lang) for c in import_type.key_columns)
                return message(self.code, lang, **{**self.params, "column": label, "hint": ""})
            return self.message_for(import_type.column(self.column), lang)
        return message(self.code, lang, **self.params)

    def message_for(self, spec: ColumnSpec, lang: Lang = "zh") -> str:
        """The reason for a problem of this column."""
        params = dict(self.params)
        params["column"] = spec.label(lang)
        params["hint"] = spec.hint(lang)
        zh, en = ("，可带时间 H:MM 或 HH:MM:SS", ", optionally with a time H:MM or HH:MM:SS")
        params["time"] = (zh if lang == "zh" else en) if spec.kind == "datetime" else ""
        return message(self.code, lang, **params)


@dataclass(frozen=True, slots=True)
class CheckedRow:
    """``values`` in the validator's column order when the row is valid (else None), and its errors."""

    values: tuple[object, ...] | None
    errors: tuple[RowError, ...]

    @property
    def ok(self) -> bool:
        return not self.errors


# Building a frozen dataclass through __init__ costs ~300 ns (object.__setattr__ per field); the fast
# path fills the slots directly instead, which is the same object for a third of the price.
_new_checked = object.__new__
_set_values = vars(CheckedRow)["values"].__set__
_set_errors = vars(CheckedRow)["errors"].__set__


class _Sentinel:
    """A value that is not a value: what a blank cell or a missing column means is the writer's call."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self) -> str:
        return self.name  # pickled as the module attribute: the same object in a child process


BLANK: Final = _Sentinel("BLANK")
"""A blank cell in update/upsert modes: the stored value stays (``--blank clear``: emptied)."""
ABSENT: Final = _Sentinel("ABSENT")
"""A column the file has no header for, in update/upsert modes: never written by an update."""


class _Invalid(Exception):
    """Raised by a fast converter on a cell with an error; only ever seen by RowValidator.check."""


# --- cells as text --------------------------------------------------------------------------------


def _is_blank(value: Cell) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


# --- full (authoritative) column checkers -----------------------------------------------------------

Full = Callable[[Cell], tuple[object, RowError | None]]
# Kinds whose default is the value itself: a text, or an enum's stored value (the parser resolves an
# input named as the default to its stored value).
_DEFAULT_AS_IS: Final = ("text", "reference", "enum")


def empty_value(spec: ColumnSpec) -> object:
    """The value of an empty optional cell: the column's default, converted, or None."""
    default = spec.default
    if default is None or spec.kind in _DEFAULT_AS_IS:
        return default
    value, error = _compile_full(spec)(default)
    if error is not None:  # the type's parser checks every default with these rules
        raise ValueError(f"column {spec.key!r}: default {default!r} does not pass its rules")
    return value


def column_checker(spec: ColumnSpec, conventions: FileConventions = PLAIN) -> Full:
    """The authoritative check of one cell of this column: (value, None) or (None, error)."""
    return _compile_full(spec, conventions=conventions)


def _compile_full(spec: ColumnSpec, blank: object = None, conventions: FileConventions = PLAIN) -> Full:
    """The column's full checker. ``blank`` (BLANK in update/upsert modes) is what an empty cell
    gives instead of required_missing or the default; None: the usual rules. ``conventions``: the
    file's day/month order and decimal mark (a default is always read as the type file writes it)."""
    key = spec.key
    norm = spec.normalize
    required = spec.required
    missing = ErrorCode.REQUIRED_MISSING
    kind = spec.kind
    empty: object = None
    if blank is None and spec.default is not None and kind not in _DEFAULT_AS_IS:
        # other kinds convert their default through their own rules (below, once compiled)
        empty = _Pending
    elif blank is None:
        empty = spec.default

    def prepare(cell: Cell) -> tuple[str, str]:
        raw = cell if isinstance(cell, str) else cell_to_text(cell)
        return raw, normalize_text(raw, norm)

    def err(code: ErrorCode, raw: str, **params: object) -> tuple[object, RowError]:
        return None, RowError(code, key, raw, {"value": raw, **params})

    def on_empty(raw: str) -> tuple[object, RowError | None]:
        if blank is not None:
            return blank, None
        if required:
            return None, RowError(missing, key, raw, {})
        return empty, None

    check = _KIND_CHECKERS[kind](spec, prepare, err, on_empty, conventions)

    def full(cell: Cell) -> tuple[object, RowError | None]:
        if isinstance(cell, str) and "\x00" in cell:
            return err(ErrorCode.INVALID_CHARACTER, cell.replace("\x00", "\\0"))
        return check(cell)

    if empty is _Pending and conventions != PLAIN:
        empty = empty_value(spec)  # "1.5" in the type file, whatever the file's decimal mark
    if empty is _Pending:
        value, error = check(spec.default)
        if error is not None:
            raise ValueError(f"column {key!r}: default {spec.default!r} does not pass its rules")
        empty = value
    return full


class _PendingType:
    """Marks a default not yet converted while its column's checker is being built."""


_Pending: Final = _PendingType()

_Prepare = Callable[[Cell], tuple[str, str]]
_Err = Callable[..., tuple[object, RowError]]
_OnEmpty = Callable[[str], tuple[object, "RowError | None"]]
_Conv = FileConventions


def _text_checker(spec: ColumnSpec, prepare: _Prepare, err: _Err, on_empty: _OnEmpty, conv: _Conv) -> Full:
    lo = spec.min_length
    hi = spec.max_length
    match = re.compile(spec.pattern, PATTERN_FLAGS).fullmatch if spec.pattern is not None else None
    clean = text_cleaner(spec.drop_chars, spec.strip_prefixes)

    def full_text(cell: Cell) -> tuple[object, RowError | None]:
        raw, s = prepare(cell)
        if not s:
            return on_empty(raw)
        if clean is not None:
            s = clean(s)
            if not s:  # "-" in a column that drops "-": no value, and not a blank cell either
                return err(ErrorCode.PATTERN_MISMATCH, raw)
        if hi is not None and len(s) > hi:
            return err(ErrorCode.TOO_LONG, raw, max=hi)
        if lo is not None and len(s) < lo:
            return err(ErrorCode.PATTERN_MISMATCH, raw, min=lo)
        if match is not None and match(s) is None:
            return err(ErrorCode.PATTERN_MISMATCH, raw)
        return s, None

    return full_text


def _enum_checker(spec: ColumnSpec, prepare: _Prepare, err: _Err, on_empty: _OnEmpty, conv: _Conv) -> Full:
    enum_map = spec.enum_map
    allowed = "/".join(spec.enum_inputs)

    def full_enum(cell: Cell) -> tuple[object, RowError | None]:
        raw, s = prepare(cell)
        if not s:
            return on_empty(raw)
        value = enum_map.get(s.casefold())
        if value is None:
            return err(ErrorCode.NOT_IN_ENUM, raw, allowed=allowed)
        return value, None

    return full_enum


def _regional_date(value: object, err: _Err, raw: str) -> tuple[object, RowError | None]:
    """A regional reader's answer as the checker's: the value, ambiguous_date or invalid_date (naming the
    declared order and the other reading when the value is a date only the other way round)."""
    if isinstance(value, OtherOrder):
        return err(ErrorCode.INVALID_DATE, raw, reason=f"not_{value.declared.value}", other=value.other.isoformat())
    if isinstance(value, Ambiguous):
        return err(ErrorCode.AMBIGUOUS_DATE, raw, day_first=value.day_first.isoformat(),
                   month_first=value.month_first.isoformat())  # fmt: skip
    if value is None:
        return err(ErrorCode.INVALID_DATE, raw)
    return value, None


def _date_checker(spec: ColumnSpec, prepare: _Prepare, err: _Err, on_empty: _OnEmpty, conv: _Conv) -> Full:
    regional = date_reader(spec.date_formats, conv.date_order) if spec.date_formats else None

    def full_date(cell: Cell) -> tuple[object, RowError | None]:
        if isinstance(cell, datetime.datetime):
            return cell.date(), None
        if isinstance(cell, datetime.date):
            return cell, None
        raw, s = prepare(cell)
        if not s:
            return on_empty(raw)
        m = _DATE_TEXT.fullmatch(s)
        if m is not None:
            year, month, day = int(m[1]), int(m[3]), int(m[4])
            if year >= 1 and 1 <= month <= 12 and 1 <= day <= _days_in_month(year, month):
                return datetime.date(year, month, day), None
        elif regional is not None and isinstance(cell, str):  # a number cell is no serial: Excel shows a number
            return _regional_date(regional(s), err, raw)
        return err(ErrorCode.INVALID_DATE, raw)

    return full_date


def _datetime_checker(spec: ColumnSpec, prepare: _Prepare, err: _Err, on_empty: _OnEmpty, conv: _Conv) -> Full:
    regional = datetime_reader(spec.date_formats, conv.date_order) if spec.date_formats else None

    def full_datetime(cell: Cell) -> tuple[object, RowError | None]:
        if isinstance(cell, datetime.datetime):
            return cell.replace(microsecond=0, tzinfo=None), None
        if isinstance(cell, datetime.date):
            return datetime.datetime(cell.year, cell.month, cell.day), None
        raw, s = prepare(cell)
        if not s:
            return on_empty(raw)
        m = _DATETIME_TEXT.fullmatch(s)
        if m is not None:
            year, month, day = int(m[1]), int(m[3]), int(m[4])
            hour, minute, second = int(m[5] or 0), int(m[6] or 0), int(m[7] or 0)
            if (
                year >= 1
                and 1 <= month <= 12
                and 1 <= day <= _days_in_month(year, month)
                and hour <= 23
                and minute <= 59
                and second <= 59
            ):
                return datetime.datetime(year, month, day, hour, minute, second), None
        elif regional is not None and isinstance(cell, str):
            return _regional_date(regional(s), err, raw)
        return err(ErrorCode.INVALID_DATE, raw)

    return full_datetime


def _digits(s: str) -> str:
    """A number cell's text with its digits, sign and point read after NFKC, whatever the column's
    normalize says: １２ and －５ are numbers a clerk typed with a Chinese input method."""
    return s if s.isascii() else unicodedata.normalize("NFKC", s)


def _decimal_checker(spec: ColumnSpec, prepare: _Prepare, err: _Err, on_empty: _OnEmpty, conv: _Conv) -> Full:
    scale = spec.decimal_scale if spec.decimal_scale is not None else 0
    dmin = spec.decimal_min
    dmax = spec.decimal_max
    range_params = {
        "min": "-∞" if dmin is None else format(dmin, "f"),
        "max": "∞" if dmax is None else format(dmax, "f"),
    }

    regional = None
    if spec.thousands or spec.currency or spec.percent or conv.decimal_comma:
        regional = decimal_reader(thousands=spec.thousands, currency=spec.currency, percent=spec.percent,
                                  decimal_comma=conv.decimal_comma)  # fmt: skip

    def full_decimal(cell: Cell) -> tuple[object, RowError | None]:
        raw, s = prepare(cell)
        if not s:
            return on_empty(raw)
        s = _digits(s)
        if regional is not None and isinstance(cell, str):  # a number cell is a number, whatever the file
            read = regional(s)
            if read is None or read[1] > scale:
                return err(ErrorCode.INVALID_NUMBER, raw, scale=scale)
            value = read[0]
        else:
            m = _NUMBER_TEXT.fullmatch(s)
            if m is None or (m[3] is not None and len(m[3]) > scale):
                return err(ErrorCode.INVALID_NUMBER, raw, scale=scale)
            value = Decimal(s)
        if not value:
            value = abs(value)  # "-0" is 0
        if (dmin is not None and value < dmin) or (dmax is not None and value > dmax):
            return err(ErrorCode.OUT_OF_RANGE, raw, **range_params)
        return value, None

    return full_decimal


def _integer_checker(spec: ColumnSpec, prepare: _Prepare, err: _Err, on_empty: _OnEmpty, conv: _Conv) -> Full:
    # Undeclared bounds are the stored BIGINT's: a value the database would refuse fails alone.
    imin = spec.integer_min if spec.integer_min is not None else BIGINT_MIN
    imax = spec.integer_max if spec.integer_max is not None else BIGINT_MAX
    range_params = {"min": str(imin), "max": str(imax)}
    grouped = integer_reader(decimal_comma=conv.decimal_comma) if spec.thousands else None

    def full_integer(cell: Cell) -> tuple[object, RowError | None]:
        if isinstance(cell, int | float) and not isinstance(cell, bool):
            # An Excel number cell: a whole value is an integer (12.0 as a cell is 12, as text it is not).
            raw = cell_to_text(cell)
            if isinstance(cell, float) and not (math.isfinite(cell) and cell.is_integer()):
                return err(ErrorCode.INVALID_INTEGER, raw)
            value = int(cell)
        else:
            raw, s = prepare(cell)
            if not s:
                return on_empty(raw)
            s = _digits(s)
            if cell.__class__ is bool:
                return err(ErrorCode.INVALID_INTEGER, raw)
            if _INTEGER_TEXT.fullmatch(s) is not None:
                value = int(s)
            else:
                read = grouped(s) if grouped is not None else None
                if read is None:
                    return err(ErrorCode.INVALID_INTEGER, raw)
                value = read
        if not imin <= value <= imax:
            return err(ErrorCode.OUT_OF_RANGE, raw, **range_params)
        return value, None

    return full_integer


def _boolean_checker(spec: ColumnSpec, prepare: _Prepare, err: _Err, on_empty: _OnEmpty, conv: _Conv) -> Full:
    def full_boolean(cell: Cell) -> tuple[object, RowError | None]:
        if cell.__class__ is bool:
            return cell, None
        raw, s = prepare(cell)
        if not s:
            return on_empty(raw)
        folded = s.casefold()
        if folded in TRUE_WORDS:
            return True, None
        if folded in FALSE_WORDS:
            return False, None
        return err(ErrorCode.INVALID_BOOLEAN, raw)

    return full_boolean


_KIND_CHECKERS: Final[dict[str, Callable[[ColumnSpec, _Prepare, _Err, _OnEmpty, _Conv], Full]]] = {
    "text": _text_checker,
    "reference": _text_checker,
    "enum": _enum_checker,
    "date": _date_checker,
    "datetime": _datetime_checker,
    "decimal": _decimal_checker,
    "integer": _integer_checker,
    "boolean": _boolean_checker,
}


def _days_in_month(year: int, month: int) -> int:
    if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        return 29
    return _DAYS_IN_MONTH[month]


# --- the fast path: one generated function per file ------------------------------------------------
#
# For a 1,000,000-row file the per-field budget is ~0.2 µs, so the fast path is generated Python
# source: one function doing every column inline (no call, loop or rule object per field). Each
# column's snippet accepts only the usual spelling of a valid value -- an ASCII str passing the
# pattern/length test, an exact enum input, a "YYYY-MM-DD" date, an unsigned decimal with at most
# `scale` places in range -- and hands anything else to ``slowN`` (the full checker, raising _Invalid
# on an error). It is kept narrow so that whatever it accepts, the full checker accepts with the same
# value (tests/unit/imports/test_validator.py checks this). Only integers and fixed names are
# interpolated into the source; every rule value is passed in the namespace.


def _value_or_raise(full: Full) -> Callable[[Cell], object]:
    def slow(cell: Cell) -> object:
        value, error = full(cell)
        if error is not None:
            raise _Invalid
        return value

    return slow


def _as_text(n: int, lines: list[str], spec: ColumnSpec) -> list[str]:
    """A column's snippet that first reads a number cell (Excel's) as its text, in text and decimal columns.

    What the fast path accepts of that text is what the full checker gives the number (prepare() reads any
    cell as its cell_to_text, and a decimal's text that the fast path takes is a plain number); whatever it
    does not accept goes to the full checker as the number it is (``o``), as before."""
    if spec.kind not in ("text", "reference", "decimal") or not lines[0].startswith("c = cells["):
        return lines  # other kinds, or a column with no fast path
    slow, original = f"slow{n}(c)", f"slow{n}(o)"
    rest = [line.replace(slow, original) for line in lines[1:]]
    return [lines[0], "o = c", "if c.__class__ is int or c.__class__ is float:", "    c = _number_text(c)", *rest]


def _snippet(
    n: int, index: int, spec: ColumnSpec, full: Full, ns: dict[str, object], blank: object, conv: FileConventions
) -> list[str]:
    """Source lines setting ``v{n}`` from ``cells[index]`` for one column."""
    ns[f"slow{n}"] = _value_or_raise(full)
    ns[f"empty{n}"] = blank if blank is not None else empty_value(spec)
    on_empty = f"v{n} = slow{n}(c)" if spec.required and blank is None else f"v{n} = empty{n}"
    kind = spec.kind

    if kind in ("text", "reference"):
        conds = []
        if spec.min_length is not None and spec.min_length > 1:
            conds.append(f"len(v{n}) >= {spec.min_length:d}")
        if spec.max_length is not None:
            conds.append(f"len(v{n}) <= {spec.max_length:d}")
        if spec.pattern is not None:
            ns[f"match{n}"] = re.compile(spec.pattern, PATTERN_FLAGS).fullmatch
            conds.append(f"match{n}(v{n}) is not None")
        # a value the column would clean (a character to drop, a prefix to strip) is the full checker's
        drop = drop_set(spec.drop_chars)
        if 0 < len(drop) <= 4:  # a few `in` tests cost less than a regex search
            for k, char in enumerate(drop):
                ns[f"drop{n}_{k}"] = char
                conds.append(f"drop{n}_{k} not in v{n}")
        elif drop:
            ns[f"drop{n}"] = re.compile(f"[{re.escape(drop)}]").search
            conds.append(f"drop{n}(v{n}) is None")
        if spec.strip_prefixes:
            ns[f"prefixes{n}"] = prefix_list(spec.strip_prefixes)
            conds.append(f"not v{n}.startswith(prefixes{n})")
        test = {"nfkc": "c.__class__ is str and c.isascii()", "trim": "c.__class__ is str"}.get(
            spec.normalize, "c.__class__ is str"
        )
        clean = "c" if spec.normalize == "none" else "c.strip()"
        lines = [
            f"c = cells[{index:d}]",
            f"if {test}:",
            f"    v{n} = {clean}",
            f"    if v{n}:",
        ]
        if conds:
            lines += [
                f"        if not ({' and '.join(conds)}):",
                f"            v{n} = slow{n}(c)",
            ]
        else:
            lines += ["        pass"]
        lines += ["    else:", f"        {on_empty}"]
        if not spec.required or blank is not None:
            lines += ["elif c is None:", f"    {on_empty}"]  # an empty Excel cell
        return [*lines, "else:", f"    v{n} = slow{n}(c)"]

    if kind in ("enum", "boolean"):
        ns[f"get{n}"] = _direct_values(spec, full).get
        return [
            f"c = cells[{index:d}]",
            f"v{n} = get{n}(c, _miss)",
            f"if v{n} is _miss:",
            f"    v{n} = slow{n}(c)",
        ]

    if kind == "integer":
        lines = [
            f"c = cells[{index:d}]",
            "if c.__class__ is str and c.isascii() and c.isdigit() and len(c) < 19:",
            f"    v{n} = int(c)",
        ]
        if spec.integer_min is not None or spec.integer_max is not None:
            ns[f"imin{n}"] = spec.integer_min if spec.integer_min is not None else BIGINT_MIN
            ns[f"imax{n}"] = spec.integer_max if spec.integer_max is not None else BIGINT_MAX
            lines += [f"    if not imin{n} <= v{n} <= imax{n}:", f"        v{n} = slow{n}(c)"]
        return [
            *lines,
            'elif c == "" or c is None:',
            f"    {on_empty}",
            "else:",
            f"    v{n} = slow{n}(c)",
        ]

    if kind == "date":
        return [
            f"c = cells[{index:d}]",
            'if c.__class__ is str and len(c) == 10 and c[4] == "-" and c[7] == "-":',
            "    try:",
            f"        v{n} = _fromiso(c)",
            "    except ValueError:",
            f"        v{n} = slow{n}(c)",
            'elif c == "" or c is None:',
            f"    {on_empty}",
            "elif c.__class__ is _date:",
            f"    v{n} = c",
            "elif c.__class__ is _datetime:",
            f"    v{n} = c.date()",
            "else:",
            f"    v{n} = slow{n}(c)",
        ]

    if kind == "decimal":
        dmin, dmax = spec.decimal_min, spec.decimal_max
        if dmin is not None and dmin > 0:
            return [f"v{n} = slow{n}(cells[{index:d}])"]  # a positive minimum is rare: no fast path
        scale = spec.decimal_scale or 0
        # a file with a decimal comma writes 1234,5: the same test on the other mark
        mark, number = ('","', 'w + "." + f if d else w') if conv.decimal_comma else ('"."', "c")
        lines = [
            f"c = cells[{index:d}]",
            "if c.__class__ is str and c.isascii():",
            f"    w, d, f = c.partition({mark})",
            f"    if w.isdigit() and (not d or (f.isdigit() and len(f) <= {scale:d})):",
            f"        v{n} = _Decimal({number})",
        ]
        if dmax is not None:
            # an integer part shorter than the maximum's is always in range: no Decimal compare
            ns[f"dmax{n}"] = dmax
            digits = len(str(int(dmax))) if dmax >= 1 else 0
            lines += [
                f"        if len(w) >= {digits:d} and v{n} > dmax{n}:",
                f"            v{n} = slow{n}(c)",
            ]
        return [
            *lines,
            "    elif not c:",
            f"        {on_empty}",
            "    else:",
            f"        v{n} = slow{n}(c)",
            "else:",
            f"    v{n} = slow{n}(c)",
        ]

    return [f"v{n} = slow{n}(cells[{index:d}])"]


def _direct_values(spec: ColumnSpec, full: Full) -> dict[object, object]:
    """Every common spelling of a valid enum input or boolean word (and the empty cell), mapped by
    ``full`` itself, so the fast path can only agree with it."""
    if spec.kind == "boolean":
        words = [*TRUE_WORDS, *FALSE_WORDS]
        candidates: list[Cell] = [True, False]
    else:
        words = [*spec.enum_inputs, *spec.enum_map, *spec.enum_map.values()]
        candidates = []
    for text in words:
        candidates += [text, text.lower(), text.upper(), text.title(), text.capitalize()]
    candidates += ["", None]
    direct: dict[object, object] = {}
    for cand in candidates:
        value, error = full(cand)
        if error is None:
            direct[cand] = value
    return direct


def _generate_fast_check(
    specs: Sequence[tuple[ColumnSpec, int | None]],
    fulls: Sequence[Full],
    width: int,
    check_full: Callable[[Sequence[Cell]], CheckedRow],
    *,
    blank: object,
    nul_free: bool,
    keys: Sequence[str] = (),
    conventions: FileConventions = PLAIN,
    number_cells: bool = False,
    value_maps: Sequence[ValueMap | None] = (),
    absent: Sequence[object] = (),
) -> tuple[Callable[[Sequence[Cell]], CheckedRow], str]:
    ns: dict[str, object] = {
        "_Invalid": _Invalid,
        "_miss": object(),
        "_fromiso": datetime.date.fromisoformat,
        "_date": datetime.date,
        "_datetime": datetime.datetime,
        "_Decimal": Decimal,
        "_new": _new_checked,
        "_CheckedRow": CheckedRow,
        "_set_values": _set_values,
        "_set_errors": _set_errors,
        "_check_full": check_full,
        "_str": str,
        "_number_text": cell_to_text,
    }
    body: list[str] = []
    key_set = set(keys)
    for n, ((spec, index), full) in enumerate(zip(specs, fulls, strict=True)):
        if index is None:
            ns[f"v{n}"] = absent[n] if absent else _absent_value(spec, blank)  # no header: from the namespace
            continue
        # a key cell is never left to the writer: it says which row, so a blank one is required_missing
        lines = _snippet(n, index, spec, full, ns, None if spec.key in key_set else blank, conventions)
        lines = _as_text(n, lines, spec) if number_cells else lines
        value_map = value_maps[n] if value_maps else None
        if value_map is not None:
            # the column's cell read once, through its value mapping: the snippet checks the replacement
            # (a text seen before: one dict look-up; "" or a new one: the map itself, which remembers it)
            ns[f"vmap{n}"] = value_map
            ns[f"vget{n}"] = value_map.outputs.get
            cell = f"cells[{index:d}]"
            assert sum(line.count(cell) for line in lines) == 1, lines
            if lines[0] == f"c = {cell}":
                lines = [lines[0], f"c = vget{n}(c) or vmap{n}(c)", *lines[1:]]
            else:
                lines = [line.replace(cell, f"vmap{n}({cell})") for line in lines]
        body += lines
    names = ", ".join(f"v{n}" for n in range(len(specs)))
    # Unless the file is known to hold none, a NUL anywhere sends the row to the full checker
    # (invalid_character); the per-column snippets above never look for one.
    nul_guard = [] if nul_free else [
        "    for c in cells:",
        '        if c.__class__ is _str and "\\x00" in c:',
        "            return _check_full(cells)",
    ]  # fmt: skip
    src = "\n".join(
        [
            "def check(cells):",
            f"    if len(cells) != {width:d}:",
            "        return _check_full(cells)",
            *nul_guard,
            "    try:",
            *(f"        {line}" for line in body),
            "    except _Invalid:",
            "        return _check_full(cells)",
            "    row = _new(_CheckedRow)",
            f"    _set_values(row, ({names},))",
            "    _set_errors(row, ())",
            "    return row",
        ]
    )
    exec(compile(src, "<row validator>", "exec"), ns)
    return ns["check"], src  # type: ignore[return-value]


def _absent_value(spec: ColumnSpec, blank: object) -> object:
    """What a column without a header gives: ABSENT in update/upsert modes, else its default or None."""
    return ABSENT if blank is not None else empty_value(spec)


# --- the row validator ------------------------------------------------------------------------------


class RowValidator:
    """Checks rows of one file: compiled for an import type and the file's header mapping."""

    __slots__ = (
        "_fast_check",
        "_full",
        "_pick",
        "_width",
        "blanks_keep",
        "columns",
        "constants",
        "import_type",
        "key_indexes",
        "mapping",
        "source",
        "unique_index",
        "value_maps",
    )

    columns: tuple[str, ...]  # keys of values, in insert order: all the type's columns, TOML order
    unique_index: int  # position of the (first) unique key column in values
    key_indexes: tuple[int, ...]  # positions of the key's columns in values
    constants: Mapping[str, object]  # a profile's constants, checked: column key -> value (no header fills it)
    value_maps: Mapping[str, ValueMap]  # a profile's value mappings of the columns the file has

    def __init__(
        self,
        import_type: ImportType,
        mapping: HeaderMapping,
        *,
        blanks_keep: bool = False,
        nul_free: bool = False,
        conventions: FileConventions = PLAIN,
        number_cells: bool = False,
        fills: ColumnFills | None = None,
    ) -> None:
        fills = fills or ColumnFills()
        # a constant fills a column no header names (a header that does wins: it is the file's own)
        constant_keys = {k for k in fills.constants if k not in mapping.index_by_key}
        needed = import_type.unique_keys if blanks_keep else mapping.missing_required
        missing = [k for k in needed if k not in mapping.index_by_key and k not in constant_keys]
        if missing:
            raise ValueError(
                f"cannot validate rows of {import_type.name}: required column(s) {', '.join(missing)} have no header"
            )
        self.import_type = import_type
        self.mapping = mapping
        self.blanks_keep = blanks_keep
        self.columns = import_type.keys
        self.key_indexes = tuple(self.columns.index(k) for k in import_type.unique_keys)
        self.unique_index = self.key_indexes[0]
        self._width = mapping.width
        blank = BLANK if blanks_keep else None

        specs: list[tuple[ColumnSpec, int | None]] = []
        raw: list[Full] = []  # each column's checker of a cell (a mapped column's: of its replacement)
        full: list[Full] = []  # each column's checker of the file's cell
        absent: list[object] = []  # what a column no header fills gives: its constant, else as _absent_value
        maps: list[ValueMap | None] = []
        constants: dict[str, object] = {}
        value_maps: dict[str, ValueMap] = {}
        for spec in import_type.columns:
            index = mapping.index_by_key.get(spec.key)
            if index is not None and not 0 <= index < mapping.width:
                raise ValueError(f"header mapping puts {spec.key!r} at {index}, outside the header")
            specs.append((spec, index))
            own_blank = None if spec.key in import_type.unique_keys else blank
            value_map: ValueMap | None = None
            if index is not None:
                check = _compile_full(spec, own_blank, conventions)
                if fills.values.get(spec.key):
                    value_map = value_maps[spec.key] = ValueMap(spec, fills.values[spec.key])
                absent.append(None)
            else:
                value = _absent_value(spec, blank)
                if spec.key in constant_keys:
                    value, error = _compile_full(spec, own_blank, conventions)(fills.constants[spec.key])
                    if error is not None:  # the profile's check (imports/profiles.py) refuses it before this
                        raise ValueError(f"constant {fills.constants[spec.key]!r} of {spec.key!r}: {error.code}")
                    constants[spec.key] = value
                check = _constant_full(value)
                absent.append(value)
            raw.append(check)
            maps.append(value_map)
            full.append(check if value_map is None else _mapped_full(check, value_map))
        self.constants = MappingProxyType(constants)
        self.value_maps = MappingProxyType(value_maps)
        self._full: tuple[Full, ...] = tuple(full)
        indices = [0 if index is None else index for _, index in specs]
        self._pick: Callable[[Sequence[Cell]], Sequence[Cell]]
        if mapping.width == 0:
            nones = (None,) * len(indices)
            self._pick = lambda cells: nones
        elif len(indices) == 1:
            only = indices[0]
            self._pick = lambda cells: (cells[only],)
        else:
            self._pick = itemgetter(*indices)
        self._fast_check, self.source = _generate_fast_check(
            specs, raw, mapping.width, self._check_full, blank=blank, nul_free=nul_free,
            keys=import_type.unique_keys, conventions=conventions, number_cells=number_cells,
            value_maps=maps if value_maps else (), absent=absent,
        )  # fmt: skip

    def check(self, cells: Sequence[Cell]) -> CheckedRow:
        """Check one row; never raises for bad data."""
        return self._fast_check(cells)

    def value_of(self, key: str, text: str) -> object:
        """One column's value as a cell with this text reads (a sync's scope value); None when it does not read."""
        value, error = self._full[self.columns.index(key)](text)
        return None if error is not None else value

    def key_of(self, cells: Sequence[Cell]) -> tuple[object, ...] | None:
        """The key of a row that failed its check, when the key's own cells are valid (insert_new skips
        such a row whose key is in the table without looking at its other cells); else None."""
        if len(cells) != self._width and all(isinstance(c, str) for c in cells):
            return None  # a shifted CSV record: its cells say nothing reliable
        picked = self._pick((*cells, *((None,) * max(0, self._width - len(cells))))[: self._width])
        key = []
        for index in self.key_indexes:
            value, error = self._full[index](picked[index])
            if error is not None or value is None:
                return None
            key.append(value)
        return tuple(key)

    def blank_required(self, cells: Sequence[Cell]) -> tuple[RowError, ...]:
        """required_missing for each required column a row leaves blank or the file lacks (upsert: a row
        that would be inserted needs them)."""
        if len(cells) != self._width:
            return ()
        picked = self._pick(cells)
        found = []
        for index, spec in enumerate(self.import_type.columns):
            if spec.required and spec.key not in self.import_type.unique_keys:
                value, _error = self._full[index](picked[index])
                if value is BLANK or value is ABSENT:
                    found.append(RowError(ErrorCode.REQUIRED_MISSING, spec.key, "", {}))
        return tuple(found)

    def _check_full(self, cells: Sequence[Cell]) -> CheckedRow:
        """The authoritative check: every error of the row, or its values."""
        width = self._width
        found = len(cells)
        if found != width:
            if all(isinstance(c, str) for c in cells):  # a CSV record: its fields are shifted
                return _mismatch(found, width)
            if found > width:
                extra = [i for i in range(width, found) if not _is_blank(cells[i])]
                if extra:
                    return _mismatch(extra[-1] + 1, width)
                cells = cells[:width]
            else:
                cells = (*cells, *((None,) * (width - found)))
        values: list[object] = []
        errors: list[RowError] = []
        for check, cell in zip(self._full, self._pick(cells), strict=True):
            value, error = check(cell)
            if error is not None:
                errors.append(error)
            values.append(value)
        if errors:
            return CheckedRow(None, tuple(errors))
        return CheckedRow(tuple(values), ())


def _mismatch(found: int, expected: int) -> CheckedRow:
    params = {"found": found, "expected": expected}
    return CheckedRow(None, (RowError(ErrorCode.COLUMN_COUNT_MISMATCH, None, "", params),))


def _constant_full(value: object) -> Full:
    return lambda _cell: (value, None)


def _mapped_full(full: Full, value_map: ValueMap) -> Full:
    """A column's checker that checks a cell's replacement (its value mapping's), the cell's own else."""
    return lambda cell: full(value_map(cell))


def compile_validator(
    import_type: ImportType,
    mapping: HeaderMapping,
    *,
    blanks_keep: bool = False,
    nul_free: bool = False,
    conventions: FileConventions = PLAIN,
    number_cells: bool = False,
    fills: ColumnFills | None = None,
) -> RowValidator:
    """Compile the row validator for one file; ValueError if a required column has no header (nor a constant).

    ``blanks_keep`` (update and upsert modes): blank cells are BLANK and missing columns ABSENT, and
    only the key's columns must have a header. ``nul_free``: the file is known to hold no NUL character
    (a byte scan said so), so the fast path need not look for one. ``conventions``: the file's declared
    day/month order and decimal mark, for the columns that accept such spellings. ``number_cells``: the
    file's cells may be numbers (Excel), which the fast path then reads as their text in text and decimal
    columns (see _as_text) instead of handing every one to the full checker. ``fills``: a mapping profile's
    constants (for the columns no header names) and value mappings (fills.py)."""
    return RowValidator(import_type, mapping, blanks_keep=blanks_keep, nul_free=nul_free, conventions=conventions,
                        number_cells=number_cells, fills=fills)  # fmt: skip
