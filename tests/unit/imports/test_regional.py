"""Regional spellings per column (dates, grouped numbers, currency, percentages, phones) and the file's own
conventions (day/month order, decimal comma): every form, what still fails and with which code, and the
generated fast path agreeing with the full checkers under every setting."""

from __future__ import annotations

import datetime as dt
import itertools
from decimal import Decimal
from pathlib import Path

import pytest

from desktop_app.domain.errors import ErrorCode
from desktop_app.imports.header import map_header
from desktop_app.imports.import_type import ImportType, ImportTypeError, builtin_import_types_dir, load_import_type
from desktop_app.imports.regional import PLAIN, DateOrder, FileConventions
from desktop_app.imports.validator import Cell, RowValidator, compile_validator

C = ErrorCode
CUSTOMERS = load_import_type(builtin_import_types_dir() / "customers.toml")
HEADER = ["客户编号", "姓名", "手机号", "邮箱", "等级", "开户日期", "信用额度", "部门", "备注"]
KEYS = ("code", "name", "phone", "email", "level", "opened_on", "credit_limit", "department", "note")
VALID: tuple[Cell, ...] = ("C000001", "张三", "13800138000", "", "金卡", "2024-01-05", "1500.50", "", "")
DMY = FileConventions(date_order=DateOrder.DMY)
MDY = FileConventions(date_order=DateOrder.MDY)
COMMA = FileConventions(decimal_comma=True)


def validator(conventions: FileConventions = PLAIN) -> RowValidator:
    return compile_validator(CUSTOMERS, map_header(CUSTOMERS, HEADER), conventions=conventions)


def check(key: str, cell: Cell, conventions: FileConventions = PLAIN) -> tuple[object, list[str]]:
    cells = list(VALID)
    cells[KEYS.index(key)] = cell
    result = validator(conventions).check(cells)
    values = result.values
    return (values[KEYS.index(key)] if values else None), [e.code.value for e in result.errors]


# --- dates: customers' opened_on lists every form ----------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("2024年3月5日", dt.date(2024, 3, 5)),
        ("2024年03月05日", dt.date(2024, 3, 5)),
        ("２０２４年３月５日", dt.date(2024, 3, 5)),  # full-width digits: NFKC first
        ("2024.3.5", dt.date(2024, 3, 5)),
        ("2024.01.05", dt.date(2024, 1, 5)),
        ("20240305", dt.date(2024, 3, 5)),
        ("2024-3-5 0:00:00", dt.date(2024, 3, 5)),  # Excel's text export of a date cell
        ("2024/3/5 0:00", dt.date(2024, 3, 5)),
        ("2024年3月5日 00:00:00", dt.date(2024, 3, 5)),
        ("45356", dt.date(2024, 3, 5)),  # an Excel serial in a text cell
        ("10000", dt.date(1927, 5, 18)),
        ("25/05/2024", dt.date(2024, 5, 25)),  # one reading only: no order needed
        ("5/25/2024", dt.date(2024, 5, 25)),
        ("05/05/2024", dt.date(2024, 5, 5)),  # both readings are the same day
    ],
)
def test_date_forms(cell: str, expected: dt.date) -> None:
    assert check("opened_on", cell) == (expected, [])


@pytest.mark.parametrize(
    "cell",
    [
        "2024年2月30日",
        "2024年3月5",  # no 日
        "2024.13.1",
        "2024.3",
        "2024030",  # seven digits
        "202403055",
        "20240230",
        "2024-3-5 10:00",  # a real time in a date column would be lost
        "2024-3-5 0:00:01",
        "2024",  # a year is no serial: 1905-07-16 would be a silent wrong date
        "9999",
        "100000",
        "45356.5",  # a date column takes whole days
        "32/13/2024",
        "03/05/24",  # a two-digit year is not read
        "03/05-2024",
    ],
)
def test_date_forms_that_still_fail(cell: str) -> None:
    assert check("opened_on", cell) == (None, ["invalid_date"])


def test_a_number_cell_is_no_serial() -> None:
    # Excel shows 45356 in a number cell as a number; only a text cell holding it is read as a serial
    assert check("opened_on", 45356) == (None, ["invalid_date"])
    assert check("opened_on", 45356.0) == (None, ["invalid_date"])


def test_day_month_order_is_never_guessed() -> None:
    assert check("opened_on", "03/05/2024") == (None, ["ambiguous_date"])
    assert check("opened_on", "03/05/2024", DMY) == (dt.date(2024, 5, 3), [])
    assert check("opened_on", "03/05/2024", MDY) == (dt.date(2024, 3, 5), [])
    assert check("opened_on", "3-5-2024", DMY) == (dt.date(2024, 5, 3), [])
    assert check("opened_on", "3.5.2024", MDY) == (dt.date(2024, 3, 5), [])
    # a declared order is held to: 25/05/2024 is no month-first date
    assert check("opened_on", "25/05/2024", MDY) == (None, ["invalid_date"])
    assert check("opened_on", "5/25/2024", DMY) == (None, ["invalid_date"])


def test_a_date_of_the_other_order_names_the_declared_order_and_the_other_reading() -> None:
    cells = list(VALID)
    cells[5] = "25/05/2024"
    (error,) = validator(MDY).check(cells).errors
    assert (error.code.value, error.params) == ("invalid_date", {"value": "25/05/2024", "reason": "not_mdy",
                                                                 "other": "2024-05-25"})  # fmt: skip
    assert error.message(CUSTOMERS, "en") == (
        'Opening date "25/05/2024" is not a date in month/day/year order (as declared); read as day/month/year '
        "it would be 2024-05-25: check the date order chosen (--date-order)"
    )
    assert error.message(CUSTOMERS, "zh") == (
        "开户日期“25/05/2024”按声明的“月/日/年”顺序不是有效日期；按“日/月/年”读则是 2024-05-25；请核对所选的日期顺序"
    )
    cells[5] = "5/25/2024"
    (error,) = validator(DMY).check(cells).errors
    assert error.params == {"value": "5/25/2024", "reason": "not_dmy", "other": "2024-05-25"}
    assert "day/month/year order (as declared); read as month/day/year" in error.message(CUSTOMERS, "en")
    cells[5] = "32/05/2024"  # a date in neither order: the plain message
    (error,) = validator(MDY).check(cells).errors
    plain = 'Opening date "32/05/2024" is not a valid date; use YYYY-MM-DD or YYYY/MM/DD'
    assert error.message(CUSTOMERS, "en") == plain


def test_ambiguous_date_message() -> None:
    cells = list(VALID)
    cells[5] = "03/05/2024"
    (error,) = validator().check(cells).errors
    assert error.params == {"value": "03/05/2024", "day_first": "2024-05-03", "month_first": "2024-03-05"}
    assert error.message(CUSTOMERS, "zh") == (
        "开户日期“03/05/2024”分不清日和月：可能是 2024-05-03，也可能是 2024-03-05；"
        "请在预览里选择日期顺序，或写成 YYYY-MM-DD"
    )
    assert error.message(CUSTOMERS, "en") == (
        'Opening date "03/05/2024" could be 2024-05-03 (day first) or 2024-03-05 (month first): choose the date '
        "order in the preview (--date-order dmy or mdy), or write YYYY-MM-DD"
    )


# --- numbers: customers' credit_limit has thousands and currency signs ------------------------------


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("1,000", Decimal("1000")),
        ("1,234.50", Decimal("1234.50")),
        ("¥1,234.50", Decimal("1234.50")),
        ("￥1,234.50", Decimal("1234.50")),
        ("¥ 1,234.50", Decimal("1234.50")),
        ("1,234.50元", Decimal("1234.50")),
        ("1,000,000", Decimal("1000000")),
        ("¥0", Decimal("0")),
    ],
)
def test_grouped_and_currency_amounts(cell: str, expected: Decimal) -> None:
    value, errors = check("credit_limit", cell)
    assert errors == [] and value == expected and str(value) == str(expected)


@pytest.mark.parametrize(
    ("cell", "code"),
    [
        ("1,00", "invalid_number"),  # groups are of three digits
        ("1,0000", "invalid_number"),
        ("1,234.567", "invalid_number"),  # the scale still holds
        ("1 000", "invalid_number"),  # a space groups only in a file with a decimal comma
        ("1.000,50", "invalid_number"),
        ("$5", "invalid_number"),  # not one of the column's signs
        ("¥¥5", "invalid_number"),
        ("¥1,000,001", "out_of_range"),
        ("-¥5", "out_of_range"),
        ("50%", "invalid_number"),  # no percent on this column
    ],
)
def test_amounts_that_still_fail(cell: str, code: str) -> None:
    assert check("credit_limit", cell) == (None, [code])


def test_a_decimal_comma_file() -> None:
    for cell, expected in [("1 234,50", "1234.50"), ("1.234,50", "1234.50"), ("1234,5", "1234.5"),
                           ("1\u00a0234,50", "1234.50"), ("¥1.234,50", "1234.50"), ("7", "7"),
                           ("1.000", "1000")]:  # fmt: skip
        value, errors = check("credit_limit", cell, COMMA)
        assert errors == [] and str(value) == expected, cell
    for cell in ["1234.50", "1,234.50", "1 234.50", "1.234.5"]:
        assert check("credit_limit", cell, COMMA) == (None, ["invalid_number"]), cell
    assert check("credit_limit", "1 234,50") == (None, ["invalid_number"])  # undeclared: not guessed
    assert check("credit_limit", 1500.5, COMMA) == (Decimal("1500.5"), [])  # a number cell is a number


# --- phones: customers' phone drops spaces and dashes, strips +86 / 0086 -----------------------------


@pytest.mark.parametrize(
    "cell",
    [
        "139 1234 5678",
        "139-1234-5678",
        "+86 139 1234 5678",
        "+86-139-1234-5678",
        "0086 13912345678",
        "+8613912345678",
        "１３９ １２３４ ５６７８",
        " 139 1234 5678 ",
    ],
)
def test_phone_spellings(cell: str) -> None:
    assert check("phone", cell) == ("13912345678", [])


@pytest.mark.parametrize("cell", ["139 1234 567", "+85 139 1234 5678", "139_1234_5678", "(139) 1234 5678", "-",
                                  "+86", "86 139 1234 5678"])  # fmt: skip
def test_phone_spellings_that_still_fail(cell: str) -> None:
    assert check("phone", cell) == (None, ["pattern_mismatch"])


# --- another type: percent, integer thousands, datetime forms, no prefix ---------------------------

RATES = """\
name = "rates"
title_zh = "费率"
title_en = "Rates"
table = "rates"
unique_key = "code"

[[columns]]
key = "code"
label_zh = "编号"
label_en = "Code"
aliases = ["code"]
required = true
drop_chars = " "

[[columns]]
key = "share"
label_zh = "比例"
label_en = "Share"
aliases = ["share"]
kind = "decimal"
normalize = "nfkc"
decimal_scale = 4
decimal_min = 0
decimal_max = 1
percent = true
default = "0.5"

[[columns]]
key = "qty"
label_zh = "数量"
label_en = "Quantity"
aliases = ["qty"]
kind = "integer"
thousands = true
integer_max = 5000000

[[columns]]
key = "at"
label_zh = "时间"
label_en = "At"
aliases = ["at"]
kind = "datetime"
normalize = "nfkc"
date_formats = ["chinese", "dots", "excel_serial", "day_month"]

[[columns]]
key = "tag"
label_zh = "标签"
label_en = "Tag"
aliases = ["tag"]
strip_prefixes = ["No.", "#"]
pattern = '^[0-9]+$'
"""
RATES_HEADER = ["code", "share", "qty", "at", "tag"]
RATES_VALID: tuple[Cell, ...] = ("A1", "25%", "7", "2024-03-05 08:00", "12")


@pytest.fixture(scope="module")
def rates(tmp_path_factory: pytest.TempPathFactory) -> ImportType:
    path = tmp_path_factory.mktemp("types") / "rates.toml"
    path.write_text(RATES, encoding="utf-8")
    return load_import_type(path)


def rate(itype: ImportType, key: str, cell: Cell, conventions: FileConventions = PLAIN) -> object:
    cells = list(RATES_VALID)
    cells[RATES_HEADER.index(key)] = cell
    result = compile_validator(itype, map_header(itype, RATES_HEADER), conventions=conventions).check(cells)
    if result.errors:
        return [e.code.value for e in result.errors]
    assert result.values is not None
    return result.values[RATES_HEADER.index(key)]


def test_a_percentage_is_stored_as_its_fraction(rates: ImportType) -> None:
    assert rate(rates, "share", "50%") == Decimal("0.5")
    assert rate(rates, "share", "12.5%") == Decimal("0.125")
    assert rate(rates, "share", "50.00%") == Decimal("0.5")  # trailing zeros do not count as places
    assert rate(rates, "share", "100%") == Decimal("1")
    assert rate(rates, "share", "0.5") == Decimal("0.5")  # a number without % is taken as written
    assert rate(rates, "share", "５０％") == Decimal("0.5")
    assert rate(rates, "share", "12,5%", COMMA) == Decimal("0.125")
    assert rate(rates, "share", "12.345%") == ["invalid_number"]  # 0.12345: five places, the scale is 4
    assert rate(rates, "share", "150%") == ["out_of_range"]
    assert rate(rates, "share", "50") == ["out_of_range"]
    assert rate(rates, "share", "%") == ["invalid_number"]
    assert rate(rates, "share", "") == Decimal("0.5")  # the default, read as the type file writes it
    assert rate(rates, "share", "", COMMA) == Decimal("0.5")


def test_integer_thousands(rates: ImportType) -> None:
    assert rate(rates, "qty", "1,000") == 1000
    assert rate(rates, "qty", "-1,000") == -1000
    assert rate(rates, "qty", "1.000", COMMA) == 1000
    assert rate(rates, "qty", "1 000 000", COMMA) == 1000000
    assert rate(rates, "qty", "1.000") == ["invalid_integer"]
    assert rate(rates, "qty", "1,00") == ["invalid_integer"]
    assert rate(rates, "qty", "9,999,999") == ["out_of_range"]


def test_datetime_forms(rates: ImportType) -> None:
    assert rate(rates, "at", "2024年3月5日 14:30") == dt.datetime(2024, 3, 5, 14, 30)
    assert rate(rates, "at", "2024.3.5") == dt.datetime(2024, 3, 5)
    assert rate(rates, "at", "45356.75") == dt.datetime(2024, 3, 5, 18, 0)
    assert rate(rates, "at", "03/05/2024 9:05", DMY) == dt.datetime(2024, 5, 3, 9, 5)
    assert rate(rates, "at", "03/05/2024 9:05") == ["ambiguous_date"]
    assert rate(rates, "at", "2024.3.5 24:00") == ["invalid_date"]
    assert rate(rates, "at", "20240305") == ["invalid_date"]  # not listed


def test_text_cleaning_without_a_pattern(rates: ImportType) -> None:
    assert rate(rates, "code", " A 1 ") == "A1"
    assert rate(rates, "tag", "No.12") == "12"
    assert rate(rates, "tag", "#7") == "7"
    assert rate(rates, "tag", "No.") == ["pattern_mismatch"]


def test_the_settings_are_checked(tmp_path: Path) -> None:
    def error(old: str, new: str) -> str:
        path = tmp_path / "bad.toml"
        text = RATES.replace(old, new)
        assert text != RATES
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ImportTypeError) as info:
            load_import_type(path)
        return str(info.value).split(": ", 1)[1]

    forms = 'date_formats = ["chinese", "dots", "excel_serial", "day_month"]'
    assert error(forms, 'date_formats = ["chinese", "roman"]') == (
        "column 'at': unknown date format 'roman' in 'date_formats' (known: chinese, dots, compact, midnight, "
        "excel_serial, day_month)"
    )
    assert error(forms, 'date_formats = ["midnight"]') == (
        "column 'at': 'midnight' is for date columns: a datetime column takes any time already"
    )
    assert error(forms, "date_formats = []").startswith("column 'at': 'date_formats' must be a non-empty list")
    assert error(forms, 'date_formats = ["dots", "dots"]').startswith("column 'at': 'date_formats' lists a value")
    assert error("percent = true", 'percent = "yes"') == "column 'share': 'percent' must be true or false, not 'yes'"
    assert error("percent = true", 'currency = ["1$"]') == (
        "column 'share': currency sign '1$' must not hold digits, spaces or + - . , %"
    )
    assert error('drop_chars = " "', 'drop_chars = ""').startswith("column 'code': 'drop_chars' must be")
    assert error("thousands = true", 'thousands = true\ncurrency = ["¥"]').startswith(
        "column 'qty': unknown setting(s) 'currency' for kind 'integer'"
    )


# --- the fast path accepts only what the full checkers accept, with the same value -----------------

TRICKY: list[Cell] = [
    "", " ", None, "0", "7", "-0", "00", "12.3", "12.34", "12.345", "1,000", "1,00", "1,000.5", "1.000",
    "1.000,5", "1 000", "1 234,50", "1234,5", "1,5", "¥5", "￥1,234.50", "5元", "-¥5", "50%", "12.5%", "%",
    "2024-01-05", "2024-1-5", "2024.1.5", "2024年1月5日", "20240105", "2024-01-05 0:00:00", "2024-01-05 10:00",
    "45356", "45356.5", "2024", "03/05/2024", "25/05/2024", "05/05/2024", "3.5.2024", "2024.02.30",
    "13800138000", "138 0013 8000", "138-0013-8000", "+8613800138000", "+86 138 0013 8000", "0086 13800138000",
    "-", "+86", "C000001", "Ｃ０００００１", "A 1", "No.12", "#7", "12", "金卡", "x" * 201,
    0, 12, 45356, 1500.5, 13800138000, True, dt.date(2024, 1, 5), dt.datetime(2024, 1, 5, 8),
]  # fmt: skip
CONVENTIONS = [FileConventions(), DMY, MDY, COMMA, FileConventions(DateOrder.DMY, decimal_comma=True)]


@pytest.mark.parametrize(("conventions", "blanks_keep"), list(itertools.product(CONVENTIONS, [False, True])))
def test_fast_path_matches_full_checker_for_customers(conventions: FileConventions, blanks_keep: bool) -> None:
    v = compile_validator(CUSTOMERS, map_header(CUSTOMERS, HEADER), conventions=conventions, blanks_keep=blanks_keep)
    for position, cell in itertools.product(range(len(HEADER)), TRICKY):
        cells = list(VALID)
        cells[position] = cell
        assert v.check(cells) == v._check_full(cells), (KEYS[position], cell, conventions)


@pytest.mark.parametrize(("conventions", "blanks_keep"), list(itertools.product(CONVENTIONS, [False, True])))
def test_fast_path_matches_full_checker_for_rates(
    rates: ImportType, conventions: FileConventions, blanks_keep: bool
) -> None:
    v = compile_validator(rates, map_header(rates, RATES_HEADER), conventions=conventions, blanks_keep=blanks_keep)
    for position, cell in itertools.product(range(len(RATES_HEADER)), TRICKY):
        cells = list(RATES_VALID)
        cells[position] = cell
        assert v.check(cells) == v._check_full(cells), (RATES_HEADER[position], cell, conventions)


def test_the_fast_path_still_takes_the_usual_spelling() -> None:
    """The regional settings keep the common spelling on the generated path: a comma file's amounts are
    split on the comma there, and a phone is only handed on when it holds a character to drop or a prefix."""
    fast = compile_validator(CUSTOMERS, map_header(CUSTOMERS, HEADER), conventions=COMMA)
    assert 'partition(",")' in fast.source and "drop2_0 not in v2" in fast.source
    assert "not v2.startswith(prefixes2)" in fast.source
    values = fast.check(("C000001", "张三", "13800138000", "", "金卡", "2024-01-05", "1500,5", "", "")).values
    assert values is not None and values[6] == Decimal("1500.5")
