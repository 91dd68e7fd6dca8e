"""Regional spellings a column may accept (dates, grouped numbers, currency, percentages, phones) and the
file's own conventions (the day/month order, the decimal mark) that decide how they read.

A column opts in through its import type's settings (``date_formats``, ``thousands``, ``currency``,
``percent``, ``drop_chars``, ``strip_prefixes``); a file declares its conventions as task parameters
(:class:`FileConventions`: ``date_order``, ``decimal_comma``). Each reader here returns the value or None
(not a valid spelling); the validator turns None into the column's error code. Nothing is guessed: a
day/month date that reads both ways without a declared order is :class:`Ambiguous`.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Final

__all__ = [
    "DATE_FORMS",
    "Ambiguous",
    "DateOrder",
    "DayMonthEvidence",
    "FileConventions",
    "OtherOrder",
    "date_reader",
    "datetime_reader",
    "day_month_evidence",
    "decimal_reader",
    "drop_set",
    "integer_reader",
    "prefix_list",
    "text_cleaner",
]


class DateOrder(StrEnum):
    """How a file writes a day/month date such as 03/05/2024."""

    DMY = "dmy"  # 03/05/2024 is 3 May 2024
    MDY = "mdy"  # 03/05/2024 is March 5, 2024


class DateForm(StrEnum):
    """The spellings beyond YYYY-MM-DD and YYYY/M/D a date column may list in ``date_formats``."""

    CHINESE = "chinese"  # 2024年3月5日
    DOTS = "dots"  # 2024.3.5
    COMPACT = "compact"  # 20240305
    MIDNIGHT = "midnight"  # 2024-3-5 0:00:00 (Excel's text of a date cell); date columns only
    EXCEL_SERIAL = "excel_serial"  # 45356 in a text cell
    DAY_MONTH = "day_month"  # 03/05/2024, 3-5-2024, 3.5.2024: the file's date_order decides


DATE_FORMS: Final = tuple(f.value for f in DateForm)


@dataclass(frozen=True)
class FileConventions:
    """What a file leaves open and the clerk declares for it: its day/month order and its decimal mark."""

    date_order: DateOrder | None = None
    decimal_comma: bool = False  # 1 234,50 / 1.234,50 (else 1,234.50)


PLAIN: Final = FileConventions()


@dataclass(frozen=True, slots=True)
class Ambiguous:
    """A day/month date that reads both ways, with no order declared: (day first, month first)."""

    day_first: datetime.date
    month_first: datetime.date


# --- dates -------------------------------------------------------------------------------------------

_ISO = re.compile(r"(?P<y>[0-9]{4})(?P<s>[-/])(?P<m>[0-9]{1,2})(?P=s)(?P<d>[0-9]{1,2})")
_DOTS = re.compile(r"(?P<y>[0-9]{4})\.(?P<m>[0-9]{1,2})\.(?P<d>[0-9]{1,2})")
_CHINESE = re.compile(r"(?P<y>[0-9]{4})\s*年\s*(?P<m>[0-9]{1,2})\s*月\s*(?P<d>[0-9]{1,2})\s*日")
_COMPACT = re.compile(r"(?P<y>[0-9]{4})(?P<m>[0-9]{2})(?P<d>[0-9]{2})")
_DAY_MONTH = re.compile(r"([0-9]{1,2})([-/.])([0-9]{1,2})\2([0-9]{4})")
# Excel writes a date cell as text with its midnight: "2024-3-5 0:00:00", "2024/3/5 0:00"
_MIDNIGHT = re.compile(r"(.+?)\s+0?0:00(?::00)?")
_TIME = re.compile(r"(.+?)(?:\s+|T)([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?")
# Five digits only: 10000 is 1927-05-18 and 99999 is 2173-10-14. A shorter number is no date serial a
# clerk means (a year alone, 2024, would become 1905-07-16).
_SERIAL = re.compile(r"[0-9]{5}")
_SERIAL_TIME = re.compile(r"([0-9]{5})(?:\.([0-9]{1,9}))?")
_EXCEL_EPOCH = datetime.date(1899, 12, 30)  # serial 1 is 1900-01-01 (Excel's 1900 leap day lies before 10000)


@dataclass(frozen=True, slots=True)
class OtherOrder:
    """A day/month date that is no date in the declared order but is one read the other way (25/05/2024
    declared month first): the refusal names the order and the other reading."""

    declared: DateOrder
    other: datetime.date


DateValue = datetime.date | Ambiguous | OtherOrder | None


def _ymd(year: str, month: str, day: str) -> datetime.date | None:
    try:
        return datetime.date(int(year), int(month), int(day)) if int(year) >= 1 else None
    except ValueError:
        return None


def _day_month(match: re.Match[str], order: DateOrder | None) -> DateValue:
    first, second, year = match[1], match[3], match[4]
    day_first = _ymd(year, second, first)
    month_first = _ymd(year, first, second)
    if order is DateOrder.DMY:
        return day_first or (OtherOrder(order, month_first) if month_first is not None else None)
    if order is DateOrder.MDY:
        return month_first or (OtherOrder(order, day_first) if day_first is not None else None)
    if day_first is not None and month_first is not None and day_first != month_first:
        return Ambiguous(day_first, month_first)
    return day_first or month_first  # only one reading is a date (25/05/2024), or both are the same


def date_reader(forms: Iterable[str], order: DateOrder | None) -> Callable[[str], DateValue]:
    """Reads a cleaned cell's text as a date: YYYY-MM-DD or YYYY/M/D always, plus the listed forms."""
    wanted = frozenset(forms)
    simple = [_ISO]
    if DateForm.DOTS in wanted:
        simple.append(_DOTS)
    if DateForm.CHINESE in wanted:
        simple.append(_CHINESE)
    if DateForm.COMPACT in wanted:
        simple.append(_COMPACT)
    day_month = DateForm.DAY_MONTH in wanted
    serial = DateForm.EXCEL_SERIAL in wanted
    midnight = DateForm.MIDNIGHT in wanted

    def one(text: str) -> DateValue:
        for pattern in simple:
            m = pattern.fullmatch(text)
            if m is not None:
                return _ymd(m["y"], m["m"], m["d"])
        if day_month:
            m = _DAY_MONTH.fullmatch(text)
            if m is not None:
                return _day_month(m, order)
        if serial and _SERIAL.fullmatch(text):
            return _EXCEL_EPOCH + datetime.timedelta(days=int(text))
        return None

    def read(text: str) -> DateValue:
        value = one(text)
        if value is None and midnight:
            m = _MIDNIGHT.fullmatch(text)
            if m is not None and not _SERIAL.fullmatch(m[1]):
                value = one(m[1])
        return value

    return read


def datetime_reader(
    forms: Iterable[str], order: DateOrder | None
) -> Callable[[str], datetime.datetime | Ambiguous | OtherOrder | None]:
    """Reads a cleaned cell's text as a date and time in one of the listed date forms (the plain forms
    stay the validator's own): a date alone is midnight; an Excel serial may carry the time as its fraction."""
    wanted = frozenset(forms) - {DateForm.MIDNIGHT, DateForm.EXCEL_SERIAL}
    date_of = date_reader(wanted, order)
    serial = DateForm.EXCEL_SERIAL in frozenset(forms)

    def read(text: str) -> datetime.datetime | Ambiguous | OtherOrder | None:
        day = date_of(text)
        hour = minute = second = 0
        if day is None:
            m = _TIME.fullmatch(text)
            if m is not None:
                day = date_of(m[1])
                hour, minute, second = int(m[2]), int(m[3]), int(m[4] or 0)
                if hour > 23 or minute > 59 or second > 59:
                    return None
        if day is None and serial:
            m = _SERIAL_TIME.fullmatch(text)
            if m is not None:
                seconds = round(Decimal(f"0.{m[2] or 0}") * 86400)
                start = datetime.datetime.combine(_EXCEL_EPOCH, datetime.time())
                return start + datetime.timedelta(days=int(m[1]), seconds=seconds)
        if isinstance(day, datetime.date):
            return datetime.datetime(day.year, day.month, day.day, hour, minute, second)
        return day  # Ambiguous, OtherOrder or None

    return read


@dataclass(frozen=True, slots=True)
class DayMonthEvidence:
    """What a file's day/month dates say of their order: an example (row number, text) of a value that
    reads both ways, of one only a day-first reading makes a date (25/05/2024), and of a month-first one."""

    ambiguous: tuple[int, str] | None = None
    day_first: tuple[int, str] | None = None
    month_first: tuple[int, str] | None = None

    @property
    def suggested(self) -> DateOrder | None:
        """The order the file's own values show, when they show one only."""
        if self.day_first and not self.month_first:
            return DateOrder.DMY
        if self.month_first and not self.day_first:
            return DateOrder.MDY
        return None

    def readings(self) -> tuple[datetime.date, datetime.date] | None:
        """The two dates the ambiguous example can be: (day first, month first)."""
        if self.ambiguous is None:
            return None
        value = date_reader([DateForm.DAY_MONTH, DateForm.MIDNIGHT], None)(self.ambiguous[1])
        return (value.day_first, value.month_first) if isinstance(value, Ambiguous) else None

    @property
    def must_ask(self) -> bool:
        """Values read both ways and nothing in the file settles which: the clerk must say."""
        return self.ambiguous is not None and self.suggested is None


def day_month_evidence(values: Iterable[tuple[int, str]]) -> DayMonthEvidence:
    """Looks at (row number, cleaned text) of a day_month column for what its values say of their order."""
    found: dict[str, tuple[int, str]] = {}
    for number, text in values:
        m = _DAY_MONTH.fullmatch(text)
        if m is None:
            midnight = _MIDNIGHT.fullmatch(text)
            m = _DAY_MONTH.fullmatch(midnight[1]) if midnight is not None else None
        if m is None:
            continue
        day_first = _ymd(m[4], m[3], m[1])
        month_first = _ymd(m[4], m[1], m[3])
        kind = "ambiguous" if day_first and month_first and day_first != month_first else (
            "day_first" if day_first and not month_first else "month_first" if month_first and not day_first else ""
        )  # fmt: skip
        if kind:
            found.setdefault(kind, (number, text))
    return DayMonthEvidence(found.get("ambiguous"), found.get("day_first"), found.get("month_first"))


# --- numbers -----------------------------------------------------------------------------------------

# Groups of three digits, one separator throughout: "1,234,567" (a point file) or "1.234.567",
# "1 234 567" (a comma file; a space may be a no-break or a narrow no-break one).
_POINT_GROUPS = r"[0-9]{1,3}(?:,[0-9]{3})+"
_COMMA_GROUPS = r"[0-9]{1,3}(?:(?P<sep>[. \u00a0\u202f])[0-9]{3})(?:(?P=sep)[0-9]{3})*"


def _number_pattern(*, thousands: bool, decimal_comma: bool, fraction: bool, sign: str) -> re.Pattern[str]:
    whole = "[0-9]+"
    if thousands:
        whole = f"(?:{_COMMA_GROUPS if decimal_comma else _POINT_GROUPS}|[0-9]+)"
    mark = "," if decimal_comma else r"\."
    tail = f"(?:{mark}(?P<fraction>[0-9]+))?" if fraction else ""
    return re.compile(f"(?P<sign>{sign})(?P<whole>{whole}){tail}")


def _signs(signs: Iterable[str]) -> tuple[str, ...]:
    """The currency signs as written and NFKC-folded (a nfkc column's ￥ arrives as ¥), longest first."""
    folded = {s for sign in signs for s in (sign, unicodedata.normalize("NFKC", sign)) if s}
    return tuple(sorted(folded, key=len, reverse=True))


def _without_sign(text: str, signs: tuple[str, ...]) -> str:
    """The text with one currency sign removed from its start (after a minus) or its end."""
    negative = text.startswith("-")
    body = text[1:] if negative else text
    for sign in signs:
        if body.startswith(sign):
            return ("-" if negative else "") + body[len(sign) :].lstrip()
        if body.endswith(sign):
            return ("-" if negative else "") + body[: -len(sign)].rstrip()
    return text


def decimal_reader(
    *, thousands: bool, currency: Iterable[str], percent: bool, decimal_comma: bool
) -> Callable[[str], tuple[Decimal, int] | None]:
    """Reads a cleaned cell's text as (value, decimal places that count against decimal_scale), or None.

    A percentage ("12.5%") is stored as its fraction (0.125), its places those of that fraction without
    trailing zeros (50.00% is 0.5: one place); any other number counts the places as written.
    """
    pattern = _number_pattern(thousands=thousands, decimal_comma=decimal_comma, fraction=True, sign="-?")
    signs = _signs(currency)

    def read(text: str) -> tuple[Decimal, int] | None:
        if signs:
            text = _without_sign(text, signs)
        share = percent and text.endswith("%")
        if share:
            text = text[:-1].rstrip()
        m = pattern.fullmatch(text)
        if m is None:
            return None
        whole = re.sub("[^0-9]", "", m["whole"])
        fraction = m["fraction"] or ""
        value = Decimal(f"{m['sign']}{whole}.{fraction}" if fraction else f"{m['sign']}{whole}")
        if not share:
            return value, len(fraction)
        value = value.scaleb(-2)
        exponent = value.normalize().as_tuple().exponent
        places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
        return value.quantize(Decimal(1).scaleb(-places)), places

    return read


def integer_reader(*, decimal_comma: bool) -> Callable[[str], int | None]:
    """Reads a cleaned cell's text with thousands separators ("1,000"; "1.000" or "1 000" in a comma
    file) as an integer, or None."""
    pattern = _number_pattern(thousands=True, decimal_comma=decimal_comma, fraction=False, sign="[+-]?")

    def read(text: str) -> int | None:
        m = pattern.fullmatch(text)
        if m is None:
            return None
        return int(m["sign"] + re.sub("[^0-9]", "", m["whole"]))

    return read


# --- text ----------------------------------------------------------------------------------------------


def drop_set(drop_chars: str) -> str:
    """The characters a column drops, as written and NFKC-folded, sorted (the fast path tests the same)."""
    return "".join(sorted({c for ch in drop_chars for c in (ch, unicodedata.normalize("NFKC", ch))}))


def prefix_list(strip_prefixes: Iterable[str]) -> tuple[str, ...]:
    """The prefixes a column strips, as written and NFKC-folded, longest first."""
    return _signs(strip_prefixes)


def text_cleaner(drop_chars: str, strip_prefixes: Iterable[str]) -> Callable[[str], str] | None:
    """What a text column does before its checks: drop the listed characters anywhere, then strip one
    listed prefix (the longest that matches); None when the column lists neither."""
    drop = drop_set(drop_chars)
    table = str.maketrans("", "", drop)
    prefixes = prefix_list(strip_prefixes)
    if not drop and not prefixes:
        return None

    def clean(text: str) -> str:
        text = text.translate(table) if drop else text
        for prefix in prefixes:
            if text.startswith(prefix):
                return text[len(prefix) :]
        return text

    return clean
