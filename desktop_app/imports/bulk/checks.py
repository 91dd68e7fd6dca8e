"""The row validator's rules on whole columns: which cells pass for sure, and their stored text.

Each column's check answers, per cell, "ok" with the canonical text of the value the row validator
would produce (desktop_app/domain/values.canonical: what is stored, signed and compared), or "not
sure" -- a cell that needs trimming or NFKC, an unusual spelling, any error at all. A row with one
"not sure" cell goes through the row validator itself, which has the last word (and the error
messages); so these checks may be narrower than the rules, never wider. A unit test holds them to
the row validator on tricky cells (tests/unit/imports/test_bulk_checks.py).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal

import pyarrow as pa
import pyarrow.compute as pc

from desktop_app.domain.values import canonical
from desktop_app.imports.import_type import ColumnSpec, ImportType, Kind
from desktop_app.imports.table_spec import stored_column
from desktop_app.imports.validator import _compile_full, _direct_values, empty_value

_INTEGER = r"\A[0-9]{1,18}\z"
_DATE = r"\A[1-9][0-9]{3}-[0-9]{2}-[0-9]{2}"
_TIME = r" (?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9])?"  # seconds may be left out: :00
_DAYS = pa.array([0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31], pa.int64())  # February checked apart


@dataclass(frozen=True)
class Checked:
    """One column's cells: whether each passed for sure, and the canonical text of its value (null
    for an empty value)."""

    ok: pa.Array  # boolean
    text: pa.Array  # string


class ColumnCheck:
    """The vectorised rules of one column of an import type (insert modes: a blank cell takes its
    default, a blank required cell is not sure)."""

    def __init__(self, spec: ColumnSpec, *, is_key: bool) -> None:
        self.spec = spec
        stored = stored_column(spec, is_key=is_key)
        self.storage = stored.storage
        self.scale = stored.scale
        # the stored column's own bounds: a value beyond them is the row path's to judge, whatever it says
        self.length = stored.length
        self.precision = stored.precision
        default = empty_value(spec)
        self.default_text = canonical(self.storage, default, self.scale) if default is not None else None
        self.trims = spec.normalize != "none"
        full = _compile_full(spec)
        self._direct: tuple[pa.Array, pa.Array] | None = None
        if spec.kind in (Kind.ENUM, Kind.BOOLEAN):
            direct = {k: v for k, v in _direct_values(spec, full).items() if isinstance(k, str) and k}
            keys = list(direct)
            direct_texts = [canonical(self.storage, direct[k], self.scale) for k in keys]
            self._direct = (pa.array(keys, pa.string()), pa.array(direct_texts, pa.string()))
        self._pattern = _re2(spec.pattern) if spec.pattern is not None else None
        self._spaces = spec.pattern is not None and ("\\s" in spec.pattern or "\\S" in spec.pattern)
        self._max = None
        self._max_digits = 0  # a value with fewer digits before its point is below the maximum
        if spec.kind == Kind.DECIMAL and spec.decimal_max is not None:
            quantum = Decimal(1).scaleb(-(self.scale or 0))
            highest = spec.decimal_max.quantize(quantum, rounding=ROUND_FLOOR)
            self._max = pa.scalar(highest, pa.decimal128(38, self.scale or 0))
            # 10^(n-1) <= highest: every value of n-1 digits or fewer (below 10^(n-1)) is at most highest
            self._max_digits = len(str(int(highest))) if highest >= 1 else 0

    def absent(self, length: int) -> Checked:
        """A column the file has no header for: its default (or nothing) in every row."""
        return Checked(pa.repeat(pa.scalar(True), length), pa.repeat(pa.scalar(self.default_text, pa.string()), length))

    def constant(self, value: object, length: int) -> Checked:
        """A column a mapping profile's constant fills: the value the row validator made of it
        (RowValidator.constants), in every row."""
        text = canonical(self.storage, value, self.scale) if value is not None else None
        return Checked(pa.repeat(pa.scalar(True), length), pa.repeat(pa.scalar(text, pa.string()), length))

    def check(self, cells: pa.Array) -> Checked:
        spec = self.spec
        clean = pa.repeat(pa.scalar(True), len(cells))
        if _holds(cells, b"\x00"):
            clean = pc.invert(pc.match_substring(cells, "\x00"))  # a NUL is invalid_character: not sure
        if self.trims:
            # Arrow trims exactly what str.strip() does (a unit test holds them together)
            left = pc.binary_length(pc.utf8_trim_whitespace(cells))
            blank = pc.equal(left, 0)
            clean = pc.and_(clean, pc.equal(left, pc.binary_length(cells)))
        else:
            blank = pc.equal(cells, "")
        kind = spec.kind
        if kind in (Kind.ENUM, Kind.BOOLEAN):
            # a spelling the row validator itself mapped (validator._direct_values): no doubt left
            assert self._direct is not None
            index = pc.index_in(cells, value_set=self._direct[0])
            ok, text = pc.is_valid(index), pc.take(self._direct[1], index)
            return self._with_blanks(cells, blank, ok, text)
        if spec.normalize == "nfkc":
            clean = pc.and_(clean, nfkc_stable(cells))
        if kind in (Kind.TEXT, Kind.REFERENCE):
            ok, text = self._text(cells, _cleaned_nothing(spec, cells, clean))
        elif kind == Kind.INTEGER:
            ok, text = self._integer(cells, clean)
        elif kind == Kind.DECIMAL:
            ok, text = self._decimal(cells, clean)
        elif kind == Kind.DATE:
            ok, text = _date_time(cells, clean, with_time=False)
        else:
            ok, text = _date_time(cells, clean, with_time=True)
        return self._with_blanks(cells, blank, ok, text)

    def _with_blanks(self, cells: pa.Array, blank: pa.Array, ok: pa.Array, text: pa.Array) -> Checked:
        """A blank cell takes the default (or nothing); a required column's blank cell is the row
        validator's to name."""
        ok = pc.fill_null(ok, False)
        if not pc.any(blank).as_py():
            return Checked(ok, text)
        blank_ok = pa.repeat(pa.scalar(not self.spec.required), len(cells))
        default = pa.scalar(self.default_text, pa.string())
        return Checked(pc.if_else(blank, blank_ok, ok), pc.if_else(blank, default, text))

    # --- kinds ---------------------------------------------------------------------------

    def _text(self, cells: pa.Array, ok: pa.Array) -> tuple[pa.Array, pa.Array]:
        spec = self.spec
        length = pc.utf8_length(cells)
        if self.length is not None:
            ok = pc.and_(ok, pc.less_equal(length, self.length))
        if spec.max_length is not None:
            ok = pc.and_(ok, pc.less_equal(length, spec.max_length))
        if spec.min_length is not None:
            ok = pc.and_(ok, pc.greater_equal(length, spec.min_length))
        if spec.pattern is not None:
            if self._pattern is None:  # a pattern RE2 cannot run: every such cell is not sure
                return pa.repeat(pa.scalar(False), len(cells)), cells
            pattern, ascii_only = self._pattern
            matched = pc.match_substring_regex(cells, pattern)
            if ascii_only:
                matched = pc.and_(matched, pc.string_is_ascii(cells))
            ok = pc.and_(ok, matched)
            if self._spaces and _holds(cells, b"\x0b"):
                # RE2's \s leaves out the vertical tab that Python's ASCII \s has: such a cell is not sure
                ok = pc.and_(ok, pc.invert(pc.match_substring(cells, "\x0b")))
        return ok, cells

    def _integer(self, cells: pa.Array, ok: pa.Array) -> tuple[pa.Array, pa.Array]:
        spec = self.spec
        ok = pc.and_(ok, pc.match_substring_regex(cells, _INTEGER))
        values = pc.cast(pc.if_else(ok, cells, "0"), pa.int64())
        if spec.integer_min is not None:
            ok = pc.and_(ok, pc.greater_equal(values, spec.integer_min))
        if spec.integer_max is not None:
            ok = pc.and_(ok, pc.less_equal(values, spec.integer_max))
        return ok, pc.cast(values, pa.string())

    def _decimal(self, cells: pa.Array, ok: pa.Array) -> tuple[pa.Array, pa.Array]:
        spec = self.spec
        scale = self.scale or 0
        if spec.decimal_min is not None and spec.decimal_min > 0:
            return pa.repeat(pa.scalar(False), len(cells)), cells  # a positive minimum: the row validator
        whole = min(self.precision or 28, 28) - scale  # 28: Python's decimal context, which signs it
        if whole < 1:
            return pa.repeat(pa.scalar(False), len(cells)), cells
        shape = rf"\A[0-9]{{1,{whole}}}(?:\.[0-9]{{1,{scale}}})?\z" if scale else rf"\A[0-9]{{1,{whole}}}\z"
        ok = pc.and_(ok, pc.match_substring_regex(cells, shape))
        safe = pc.if_else(ok, cells, "0")
        if self._max is not None and _longest_whole_part(safe) >= self._max_digits:
            # some value may pass the maximum: each one compared (a cast to decimal costs three times the
            # look at the digits before the point, which most files' amounts stay under)
            ok = pc.and_(ok, pc.less_equal(pc.cast(safe, pa.decimal128(38, scale)), self._max))
        return ok, _decimal_text(safe, scale)


def _cleaned_nothing(spec: ColumnSpec, cells: pa.Array, ok: pa.Array) -> pa.Array:
    """Not sure of a cell a text column's regional settings would change: one holding a character to
    drop, or starting with a prefix to strip (the row validator cleans those). Where the column's bytes
    hold none of the characters to drop, no cell does: the per-cell search is skipped (most phone numbers
    come without their spaces and dashes: half of that column's check, measured)."""
    if spec.drop_chars and any(_holds(cells, c.encode("utf-8")) for c in spec.drop_chars):
        marks = "".join(f"\\x{{{ord(c):x}}}" for c in spec.drop_chars)
        ok = pc.and_(ok, pc.invert(pc.match_substring_regex(cells, f"[{marks}]")))
    for prefix in spec.strip_prefixes:
        ok = pc.and_(ok, pc.invert(pc.starts_with(cells, prefix)))
    return ok


def _longest_whole_part(digits: pa.Array) -> int:
    """The most digits before the point among cells of plain digits (with leading zeros, as written)."""
    dot = pc.find_substring(digits, ".")
    whole = pc.if_else(pc.equal(dot, -1), pc.binary_length(digits), dot)
    return int(pc.max(whole).as_py() or 0)


def _decimal_text(digits: pa.Array, scale: int) -> pa.Array:
    """str(Decimal(cell).quantize(scale)) for cells of plain digits with at most `scale` decimals, in
    text: the integer part without leading zeros, the decimals padded (a cast to decimal and back to
    text costs six times as much). The rewrites run only where some cell needs them: most files write
    their amounts as stored already (no leading zero, every decimal), and the rewrites cost two thirds
    of the column's check."""
    text = digits
    # a cheap look first: few files write a zero before an amount
    if pc.any(pc.starts_with(digits, "0")).as_py() and pc.any(pc.match_substring_regex(digits, r"\A0[0-9]")).as_py():
        text = pc.replace_substring_regex(digits, r"\A0+([0-9])", r"\1")
    if not scale:
        return text
    dot = pc.find_substring(text, ".")
    decimals = pc.if_else(pc.equal(dot, -1), -1, pc.subtract(pc.subtract(pc.binary_length(text), dot), 1))
    if pc.all(pc.equal(decimals, scale)).as_py():
        return text
    pads = pa.array(["." + "0" * scale, *("0" * (scale - n) for n in range(scale + 1))], pa.string())
    return pc.binary_join_element_wise(text, pc.take(pads, pc.add(decimals, 1)), "")


def _date_time(cells: pa.Array, ok: pa.Array, *, with_time: bool) -> tuple[pa.Array, pa.Array]:
    """YYYY-MM-DD (and, for a datetime, optionally a space and HH:MM:SS), a real day of a real month."""
    if not with_time and _real_days(cells):
        return ok, cells  # the common column: every cell a real day as stored, in one kernel
    if with_time:
        ok = pc.and_(ok, pc.match_substring_regex(cells, rf"{_DATE}(?:{_TIME})?\z"))
    else:
        ok = pc.and_(ok, pc.match_substring_regex(cells, rf"{_DATE}\z"))
    safe = pc.if_else(ok, cells, "2000-01-01")
    try:
        # Arrow's own cast refuses a day the month does not have: the common case, all real days, at once
        pc.cast(pc.utf8_slice_codeunits(safe, 0, 10), pa.date32())
        return ok, _with_time(cells) if with_time else cells
    except pa.ArrowInvalid:
        pass  # some day is not real: find which, below
    year = pc.cast(pc.utf8_slice_codeunits(safe, 0, 4), pa.int64())
    month = pc.cast(pc.utf8_slice_codeunits(safe, 5, 7), pa.int64())
    day = pc.cast(pc.utf8_slice_codeunits(safe, 8, 10), pa.int64())
    month_ok = pc.and_(pc.greater_equal(month, 1), pc.less_equal(month, 12))
    longest = pc.take(_DAYS, pc.if_else(month_ok, month, 0))
    leap = _leap(year)
    february = pc.equal(month, 2)
    longest = pc.if_else(pc.and_(february, pc.invert(leap)), 28, longest)
    ok = pc.and_(ok, pc.and_(month_ok, pc.and_(pc.greater_equal(day, 1), pc.less_equal(day, longest))))
    return ok, _with_time(cells) if with_time else cells


def _real_days(cells: pa.Array) -> bool:
    """Whether every cell is a real day written YYYY-MM-DD, year 1000 on. Arrow's cast to a date reads that
    shape and nothing else (a unit test holds it to the pattern), refuses a day the month lacks, and takes
    years before 1000, which the pattern does not: the one look it needs besides. Most date columns are
    all such days (a third of the column's check, measured); a column with a blank or any other spelling
    goes the cell-by-cell way below, after a cast that stops at its first such cell (as does one with a
    null, which the way below leaves to the row validator)."""
    if cells.null_count:
        return False
    try:
        pc.cast(cells, pa.date32())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return False
    return not pc.any(pc.starts_with(cells, "0")).as_py()


def _with_time(cells: pa.Array) -> pa.Array:
    """A datetime's canonical text: a date alone is at midnight, a time without seconds at :00."""
    length = pc.utf8_length(cells)
    text = pc.if_else(pc.equal(length, 10), pc.binary_join_element_wise(cells, " 00:00:00", ""), cells)
    return pc.if_else(pc.equal(length, 16), pc.binary_join_element_wise(cells, ":00", ""), text)


def _holds(cells: pa.Array, text: bytes) -> bool:
    """Whether the column's text bytes hold these bytes (as one cell's, or across two cells': then the
    per-cell test finds none): when none does, the per-cell test for them is skipped. A slice looks at its
    own cells' bytes only, not at the whole buffer it shares (a million rows' for a slice of 13,333)."""
    _, offsets, data = cells.buffers()[:3]
    if data is None or not len(cells):
        return False
    if cells.offset or len(data) > 4 * len(cells) + 4096:  # a slice, perhaps: its own range of the data
        ends = memoryview(offsets).cast("q" if pa.types.is_large_string(cells.type) else "i")
        start, stop = ends[cells.offset], ends[cells.offset + len(cells)]
        data = data.slice(start, stop - start)
    return data.to_pybytes().find(text) >= 0


def nfkc_stable(cells: pa.Array) -> pa.Array:
    """Cells NFKC leaves as they are, by Python's own unicodedata (pyarrow's may know another Unicode
    version): ASCII at once, the other distinct values one by one."""
    ascii_only = pc.string_is_ascii(cells)
    if pc.all(ascii_only).as_py() is not False:
        return ascii_only
    others = pc.unique(pc.filter(cells, pc.invert(ascii_only))).to_pylist()
    stable = pa.array([v for v in others if unicodedata.is_normalized("NFKC", v)], pa.string())
    return pc.or_(ascii_only, pc.is_in(cells, value_set=stable))


def _leap(year: pa.Array) -> pa.Array:
    def divisible(by: int) -> pa.Array:
        return pc.equal(pc.subtract(year, pc.multiply(pc.divide(year, by), by)), 0)

    return pc.or_(pc.and_(divisible(4), pc.invert(divisible(100))), divisible(400))


def _re2(pattern: str) -> tuple[str, bool] | None:
    """The pattern as RE2 runs it on a whole cell, and whether only ASCII cells may rely on it (an
    inline flag such as (?i) folds case the Unicode way in RE2, the ASCII way in Python); None when
    RE2 cannot run it (lookarounds, backreferences...) or reads it otherwise than Python does: `{,n}`
    (a count to Python, text to RE2) and `[:` (a POSIX class to RE2, characters to Python)."""
    if "{," in pattern or "[:" in pattern:
        return None
    wrapped = rf"\A(?:{pattern})\z"
    try:
        pc.match_substring_regex(pa.array([""], pa.string()), wrapped)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    return wrapped, "(?" in pattern


def type_checks(itype: ImportType) -> list[ColumnCheck]:
    """One check per column of the type, in the type's order."""
    return [ColumnCheck(c, is_key=c.key in itype.unique_keys) for c in itype.columns]


def blank_rows(cells: Sequence[pa.Array]) -> pa.Array:
    """Rows whose every cell is empty or spaces (the row reader skips them)."""
    result = None
    for col in cells:
        blank = pc.equal(pc.binary_length(pc.utf8_trim_whitespace(col)), 0)
        result = blank if result is None else pc.and_(result, blank)
        if not pc.any(result).as_py():
            break  # no row blank so far: none can be
    assert result is not None
    return result
