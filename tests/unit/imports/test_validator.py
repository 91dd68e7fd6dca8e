"""The compiled row validator: every rule, every row error code, messages in both languages."""

from __future__ import annotations

import datetime
import itertools
from decimal import Decimal
from pathlib import Path

import pytest

from desktop_app.domain.errors import ErrorCode
from desktop_app.imports.header import map_header
from desktop_app.imports.import_type import builtin_import_types_dir, load_import_type
from desktop_app.imports.validator import (
    Cell,
    CheckedRow,
    RowError,
    RowValidator,
    compile_validator,
)

CUSTOMERS = load_import_type(builtin_import_types_dir() / "customers.toml")
HEADER = ["客户编号", "姓名", "手机号", "邮箱", "等级", "开户日期", "信用额度", "部门", "备注"]
KEYS = ("code", "name", "phone", "email", "level", "opened_on", "credit_limit", "department", "note")
VALID = (
    "C000001",
    "张三",
    "13800138000",
    "zhang@example.com",
    "金卡",
    "2024-01-05",
    "1500.50",
    "销售部",
    "老客户",
)
V = compile_validator(CUSTOMERS, map_header(CUSTOMERS, HEADER))
C = ErrorCode


def row(**cells: Cell) -> tuple[Cell, ...]:
    """VALID with some cells replaced, by column key."""
    out: list[Cell] = list(VALID)
    for key, value in cells.items():
        out[KEYS.index(key)] = value
    return tuple(out)


def value_of(key: str, cell: Cell) -> object:
    result = V.check(row(**{key: cell}))
    assert result.errors == (), result.errors
    assert result.values is not None
    return result.values[KEYS.index(key)]


def only_error(key: str, cell: Cell) -> RowError:
    result = V.check(row(**{key: cell}))
    assert result.values is None
    assert len(result.errors) == 1, result.errors
    assert result.errors[0].column == key
    return result.errors[0]


def messages(error: RowError) -> tuple[str, str]:
    return error.message(CUSTOMERS, "zh"), error.message(CUSTOMERS, "en")


# --- the validator's shape ------------------------------------------------------------------------


def test_columns_and_unique_index() -> None:
    assert V.columns == KEYS
    assert V.unique_index == 0
    assert isinstance(V, RowValidator)


def test_valid_row_values() -> None:
    result = V.check(VALID)
    assert result == CheckedRow(
        values=(
            "C000001",
            "张三",
            "13800138000",
            "zhang@example.com",
            "gold",
            datetime.date(2024, 1, 5),
            Decimal("1500.50"),
            "销售部",
            "老客户",
        ),
        errors=(),
    )
    assert result.ok is True


def test_empty_optional_cells_give_defaults() -> None:
    result = V.check(row(email="", level="", opened_on="", credit_limit="", department="", note=""))
    assert result.values == (
        "C000001",
        "张三",
        "13800138000",
        None,
        "standard",
        None,
        Decimal("0"),
        None,
        None,
    )
    assert type(result.values[6]) is Decimal


def test_values_follow_type_order_not_file_order() -> None:
    header = ["备注", "手机号", "客户编号", "姓名"]
    v = compile_validator(CUSTOMERS, map_header(CUSTOMERS, header))
    assert v.columns == KEYS
    result = v.check(("hi", "13800138000", "C000002", "李四"))
    # unmapped optional columns: their default or None
    assert result.values == (
        "C000002",
        "李四",
        "13800138000",
        None,
        "standard",
        None,
        Decimal("0"),
        None,
        "hi",
    )


def test_unknown_header_columns_are_ignored() -> None:
    v = compile_validator(CUSTOMERS, map_header(CUSTOMERS, ["code", "微信", "name", "phone"]))
    assert v.check(("C000003", "wx123", "王五", "13900139000")).values == (
        "C000003",
        "王五",
        "13900139000",
        None,
        "standard",
        None,
        Decimal("0"),
        None,
        None,
    )


def test_missing_required_header_cannot_compile() -> None:
    with pytest.raises(ValueError, match="phone"):
        compile_validator(CUSTOMERS, map_header(CUSTOMERS, ["code", "name"]))


# --- code ------------------------------------------------------------------------------------------


def test_code_required() -> None:
    error = only_error("code", "")
    assert error == RowError(C.REQUIRED_MISSING, "code", "", {})
    assert messages(error) == ("客户编号不能为空", "Customer code must not be empty")
    assert only_error("code", "   ").code == C.REQUIRED_MISSING
    assert only_error("code", None).code == C.REQUIRED_MISSING


@pytest.mark.parametrize("cell", ["C12345", "C1234567", "c000001", "X000001", "C00000a", "C 000001", "C٠٠٠٠٠١"])
def test_code_pattern(cell: str) -> None:
    error = only_error("code", cell)
    assert error == RowError(C.PATTERN_MISMATCH, "code", cell, {"value": cell})


def test_code_pattern_message() -> None:
    assert messages(only_error("code", "C12345")) == (
        "客户编号格式不正确，应为字母 C 加 6 位数字，如 C000123",
        "Customer code has the wrong format, it must be the letter C and 6 digits, e.g. C000123",
    )


def test_code_trimmed_and_full_width() -> None:
    assert value_of("code", "  C000009 ") == "C000009"
    assert value_of("code", "Ｃ０００００１") == "C000001"
    assert value_of("code", "\u3000C000001\u3000") == "C000001"  # ideographic spaces


# --- name ------------------------------------------------------------------------------------------


def test_name_required_and_trimmed() -> None:
    assert only_error("name", " \t ") == RowError(C.REQUIRED_MISSING, "name", " \t ", {})
    assert messages(only_error("name", "")) == ("姓名不能为空", "Name must not be empty")
    assert value_of("name", "  张三 ") == "张三"


def test_name_length() -> None:
    assert value_of("name", "张" * 50) == "张" * 50
    assert value_of("name", " " + "a" * 50 + " ") == "a" * 50  # counted after trimming
    long = "张" * 51
    error = only_error("name", long)
    assert error == RowError(C.TOO_LONG, "name", long, {"value": long, "max": 50})
    assert messages(error) == ("姓名太长：最多 50 个字符", "Name is too long: at most 50 characters")


def test_name_is_not_nfkc_normalised() -> None:
    assert value_of("name", "Ｊｏｈｎ") == "Ｊｏｈｎ"


# --- phone -----------------------------------------------------------------------------------------


def test_phone_pattern_message_exact() -> None:
    error = only_error("phone", "1380013800")
    assert error == RowError(C.PATTERN_MISMATCH, "phone", "1380013800", {"value": "1380013800"})
    assert error.message(CUSTOMERS, "zh") == "手机号格式不正确，应为 11 位数字"
    assert error.message(CUSTOMERS, "en") == "Phone has the wrong format, it must be 11 digits starting with 1"


@pytest.mark.parametrize("cell", ["23800138000", "138001380000", "1380013800a", "1٣800138000"])
def test_phone_pattern(cell: str) -> None:
    assert only_error("phone", cell).code == C.PATTERN_MISMATCH


def test_phone_required() -> None:
    error = only_error("phone", "")
    assert error == RowError(C.REQUIRED_MISSING, "phone", "", {})
    assert messages(error) == ("手机号不能为空", "Phone must not be empty")


def test_phone_full_width_and_excel_numbers() -> None:
    assert value_of("phone", "１３８００１３８０００") == "13800138000"
    assert value_of("phone", 13800138000.0) == "13800138000"
    assert value_of("phone", 13800138000) == "13800138000"
    error = only_error("phone", 1380013800.0)
    assert error == RowError(C.PATTERN_MISMATCH, "phone", "1380013800", {"value": "1380013800"})


# --- email -----------------------------------------------------------------------------------------


def test_email() -> None:
    assert value_of("email", "") is None
    assert value_of("email", " a.b@c.cn ") == "a.b@c.cn"
    assert value_of("email", "ａ@ｂ.com") == "a@b.com"
    for cell in ["a@b", "ab.com", "a b@c.com", "a@@b.com", "@b.com"]:
        assert only_error("email", cell) == RowError(C.PATTERN_MISMATCH, "email", cell, {"value": cell})
    assert messages(only_error("email", "ab.com")) == (
        "邮箱格式不正确，应为 name@example.com 这样的地址",
        "Email has the wrong format, it must look like name@example.com",
    )


# --- level -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "stored"),
    [
        ("普通", "standard"),
        ("银卡", "silver"),
        ("金卡", "gold"),
        ("standard", "standard"),
        ("silver", "silver"),
        ("gold", "gold"),
        ("GOLD", "gold"),
        ("Gold", "gold"),
        ("gOlD", "gold"),
        ("SiLvEr", "silver"),
        (" 银卡 ", "silver"),
        ("ＧＯＬＤ", "gold"),
        ("", "standard"),
        ("  ", "standard"),
        (None, "standard"),
    ],
)
def test_level_mapping(cell: Cell, stored: str) -> None:
    assert value_of("level", cell) == stored


def test_level_not_in_enum() -> None:
    error = only_error("level", "钻石卡")
    allowed = "普通/银卡/金卡/standard/silver/gold"
    assert error == RowError(C.NOT_IN_ENUM, "level", "钻石卡", {"value": "钻石卡", "allowed": allowed})
    assert messages(error) == (
        f"等级“钻石卡”不是可选值，应为：{allowed}",
        f'Level "钻石卡" is not one of the allowed values: {allowed}',
    )
    assert only_error("level", "platinum").code == C.NOT_IN_ENUM
    assert only_error("level", 1).code == C.NOT_IN_ENUM


# --- opened_on -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("2024-2-5", datetime.date(2024, 2, 5)),
        ("2024/02/05", datetime.date(2024, 2, 5)),
        ("2024/2/5", datetime.date(2024, 2, 5)),
        ("2024-01-05", datetime.date(2024, 1, 5)),
        (" 2024-01-05 ", datetime.date(2024, 1, 5)),
        ("2024-02-29", datetime.date(2024, 2, 29)),
        ("2000-02-29", datetime.date(2000, 2, 29)),
        ("2024-12-31", datetime.date(2024, 12, 31)),
        ("２０２４－０１－０５", datetime.date(2024, 1, 5)),
        ("", None),
        (None, None),
        (datetime.date(2023, 7, 1), datetime.date(2023, 7, 1)),
        (datetime.datetime(2023, 7, 1), datetime.date(2023, 7, 1)),
        (datetime.datetime(2023, 7, 1, 9, 30), datetime.date(2023, 7, 1)),
    ],
)
def test_dates(cell: Cell, expected: datetime.date | None) -> None:
    value = value_of("opened_on", cell)
    assert value == expected
    assert type(value) is (datetime.date if expected is not None else type(None))


@pytest.mark.parametrize(
    "cell",
    [
        "2023-02-29",
        "1900-02-29",
        "2024-13-01",
        "2024-00-10",
        "2024-02-30",
        "2024-04-31",
        "2024-1-0",
        "0000-01-01",
        "2024-02/05",
        "24-01-05",
        "2024-01-05 10:00",
        "2024-W01-1",
        "yesterday",
        "2024-001-05",
    ],
)
def test_invalid_dates(cell: str) -> None:
    assert only_error("opened_on", cell) == RowError(C.INVALID_DATE, "opened_on", cell, {"value": cell})


def test_invalid_date_message() -> None:
    assert messages(only_error("opened_on", "2023-02-29")) == (
        "开户日期“2023-02-29”不是有效日期，应为 YYYY-MM-DD 或 YYYY/MM/DD",
        'Opening date "2023-02-29" is not a valid date; use YYYY-MM-DD or YYYY/MM/DD',
    )


def test_date_from_excel_number_is_invalid() -> None:
    assert only_error("opened_on", 45000).value == "45000"


# --- credit_limit ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("0", Decimal("0")),
        ("1000000", Decimal("1000000")),
        ("1000000.00", Decimal("1000000.00")),
        ("999999.99", Decimal("999999.99")),
        ("1500.5", Decimal("1500.5")),
        ("1500.50", Decimal("1500.50")),
        ("0.01", Decimal("0.01")),
        ("007", Decimal("7")),
        (" 12.5 ", Decimal("12.5")),
        ("１２．５", Decimal("12.5")),
        ("-0", Decimal("0")),
        ("", Decimal("0")),
        (None, Decimal("0")),
        (1500.5, Decimal("1500.5")),
        (20, Decimal("20")),
        (1000000.0, Decimal("1000000")),
    ],
)
def test_decimals(cell: Cell, expected: Decimal) -> None:
    value = value_of("credit_limit", cell)
    assert type(value) is Decimal
    assert value == expected
    assert str(value) == str(expected)


@pytest.mark.parametrize("cell", ["1000000.01", "-1", "-5", "-0.01", "1000001", "99999999999999999999"])
def test_out_of_range(cell: str) -> None:
    error = only_error("credit_limit", cell)
    assert error == RowError(C.OUT_OF_RANGE, "credit_limit", cell, {"value": cell, "min": "0", "max": "1000000"})


def test_out_of_range_message() -> None:
    assert messages(only_error("credit_limit", "1000000.01")) == (
        "信用额度“1000000.01”超出范围，应在 0 到 1000000 之间",
        'Credit limit "1000000.01" is out of range; it must be between 0 and 1000000',
    )
    assert only_error("credit_limit", 1000000.5).code == C.OUT_OF_RANGE
    assert only_error("credit_limit", -3).code == C.OUT_OF_RANGE


@pytest.mark.parametrize(
    "cell",
    [
        "12.345",
        "1e3",
        "1E3",
        "abc",
        "+5",
        "5.",
        ".5",
        "1.2.3",
        "1 000",
        "1_000",
        "NaN",
        "Infinity",
        "--1",
    ],
)
def test_invalid_number(cell: str) -> None:
    error = only_error("credit_limit", cell)
    assert error == RowError(C.INVALID_NUMBER, "credit_limit", cell, {"value": cell, "scale": 2})


def test_invalid_number_message_and_excel() -> None:
    assert messages(only_error("credit_limit", "12.345")) == (
        "信用额度“12.345”不是有效数字（最多 2 位小数）",
        'Credit limit "12.345" is not a valid number (at most 2 decimal places)',
    )
    # a float cell reads as Excel shows it (15 significant digits): 0.1 + 0.2 is 0.3, a valid amount
    assert value_of("credit_limit", 0.1 + 0.2) == Decimal("0.3")
    assert only_error("credit_limit", 0.125).value == "0.125"
    assert only_error("credit_limit", True).code == C.INVALID_NUMBER


# --- department and note ---------------------------------------------------------------------------


def test_department_is_never_an_error() -> None:
    assert value_of("department", "") is None
    assert value_of("department", " 华东区 销售部 ") == "华东区 销售部"
    assert value_of("department", "x" * 500) == "x" * 500
    assert value_of("department", 42) == "42"


def test_note_length() -> None:
    assert value_of("note", "") is None
    assert value_of("note", "好" * 200) == "好" * 200
    long = "好" * 201
    error = only_error("note", long)
    assert error == RowError(C.TOO_LONG, "note", long, {"value": long, "max": 200})
    assert messages(error) == ("备注太长：最多 200 个字符", "Note is too long: at most 200 characters")


# --- whole rows ------------------------------------------------------------------------------------


def test_several_problems_list_every_code() -> None:
    result = V.check(("C12", "", "1380013800", "bad", "钻石", "2023-02-29", "12.345", "销售部", "x" * 201))
    assert result.values is None
    assert [(e.code, e.column) for e in result.errors] == [
        (C.PATTERN_MISMATCH, "code"),
        (C.REQUIRED_MISSING, "name"),
        (C.PATTERN_MISMATCH, "phone"),
        (C.PATTERN_MISMATCH, "email"),
        (C.NOT_IN_ENUM, "level"),
        (C.INVALID_DATE, "opened_on"),
        (C.INVALID_NUMBER, "credit_limit"),
        (C.TOO_LONG, "note"),
    ]
    assert result.ok is False


def test_two_problems_in_otherwise_fast_row() -> None:
    result = V.check(row(phone="123", credit_limit="-1"))
    assert [e.code for e in result.errors] == [C.PATTERN_MISMATCH, C.OUT_OF_RANGE]


@pytest.mark.parametrize("found", [8, 10, 1])
def test_csv_column_count_mismatch(found: int) -> None:
    cells = (*VALID, "extra", "more")[:found]
    result = V.check(cells)
    assert result == CheckedRow(None, (RowError(C.COLUMN_COUNT_MISMATCH, None, "", {"found": found, "expected": 9}),))
    assert result.errors[0].message(CUSTOMERS, "zh") == f"这一行有 {found} 列，表头有 9 列（可能多了或少了逗号）"
    assert result.errors[0].message(CUSTOMERS, "en") == (
        f"This row has {found} fields but the header has 9 (a comma too many or too few?)"
    )


def test_csv_mismatch_reports_only_the_mismatch() -> None:
    result = V.check(("", "", ""))
    assert [e.code for e in result.errors] == [C.COLUMN_COUNT_MISMATCH]


def test_excel_short_row_is_padded() -> None:
    result = V.check(("C000001", "张三", 13800138000.0))
    assert result.values == (
        "C000001",
        "张三",
        "13800138000",
        None,
        "standard",
        None,
        Decimal("0"),
        None,
        None,
    )
    result = V.check(("C000001", None, 13800138000))
    assert [(e.code, e.column) for e in result.errors] == [(C.REQUIRED_MISSING, "name")]


def test_excel_long_row_with_empty_tail_is_fine() -> None:
    cells: tuple[Cell, ...] = (*VALID[:8], None, None, "  ", None)
    assert V.check(cells).ok


def test_excel_long_row_with_value_beyond_header() -> None:
    cells: tuple[Cell, ...] = (*VALID[:8], None, None, 5, None)
    result = V.check(cells)
    assert result.errors == (RowError(C.COLUMN_COUNT_MISMATCH, None, "", {"found": 11, "expected": 9}),)


def test_excel_typed_row_of_right_width() -> None:
    cells: tuple[Cell, ...] = (
        "C000001",
        "张三",
        13800138000.0,
        None,
        "Silver",
        datetime.datetime(2022, 3, 4),
        1500.5,
        None,
        None,
    )
    assert V.check(cells).values == (
        "C000001",
        "张三",
        "13800138000",
        None,
        "silver",
        datetime.date(2022, 3, 4),
        Decimal("1500.5"),
        None,
        None,
    )


# --- the fast path agrees with the full checker ----------------------------------------------------

TRICKY: list[Cell] = [
    "",
    " ",
    "\t",
    "\u3000",
    "0",
    "-0",
    "00",
    "7",
    "12.3",
    "12.34",
    "12.345",
    "12.",
    ".5",
    "1000000",
    "1000000.00",
    "1000000.01",
    "0999999.99",
    "9999999",
    "0000001000000",
    "0000001000001",
    "1e3",
    "１２",
    "C000001",
    " C000001 ",
    "Ｃ０００００１",
    "c000001",
    "13800138000",
    "１３８００１３８０００",
    "a@b.cn",
    "金卡",
    " 金卡",
    "GOLD",
    "Gold",
    "gold ",
    "ｇｏｌｄ",
    "platinum",
    "2024-01-05",
    "2024-1-5",
    "2024/01/05",
    "2024-02-29",
    "2023-02-29",
    "2024-13-01",
    "2024-W01-1",
    "2024-01-0\u0665",
    "２０２４－０１－０５",
    "张" * 50,
    "张" * 51,
    "x" * 200,
    "x" * 201,
    None,
    0,
    20,
    13800138000,
    13800138000.0,
    1500.5,
    0.1,
    True,
    datetime.date(2024, 1, 5),
    datetime.datetime(2024, 1, 5),
    datetime.datetime(2024, 1, 5, 8),
]


def test_fast_path_matches_full_checker() -> None:
    check_full = V._check_full
    for position, cell in itertools.product(range(9), TRICKY):
        cells: list[Cell] = list(VALID)
        cells[position] = cell
        assert V.check(cells) == check_full(cells), (KEYS[position], cell)


def test_generated_source_is_one_function() -> None:
    assert V.source.startswith("def check(cells):")


# --- other import types ----------------------------------------------------------------------------

OTHER = """\
name = "parts"
title_zh = "零件"
title_en = "Parts"
table = "parts"
unique_key = "sku"

[[columns]]
key = "sku"
label_zh = "货号"
label_en = "SKU"
aliases = ["sku"]
required = true
normalize = "none"
pattern = '^[A-Z]{3}$'

[[columns]]
key = "grade"
label_zh = "等级"
label_en = "Grade"
aliases = ["grade"]
min_length = 2
max_length = 4
default = "zz"
hint_zh = "，至少 2 个字符"
hint_en = ", at least 2 characters"

[[columns]]
key = "weight"
label_zh = "重量"
label_en = "Weight"
aliases = ["weight"]
kind = "decimal"
decimal_scale = 0
decimal_min = 1
decimal_max = "10"

[[columns]]
key = "made"
label_zh = "日期"
label_en = "Made on"
aliases = ["made"]
kind = "date"
required = true
"""


def test_other_type_rules(tmp_path: Path) -> None:
    path = tmp_path / "parts.toml"
    path.write_text(OTHER, encoding="utf-8")
    parts = load_import_type(path)
    v = compile_validator(parts, map_header(parts, ["sku", "grade", "weight", "made"]))
    assert v.check(("ABC", "", "", "2024-01-01")).values == ("ABC", "zz", None, datetime.date(2024, 1, 1))
    assert v.check(("ABC", " ab ", "10", "2024/1/1")).values == (
        "ABC",
        "ab",
        Decimal("10"),
        datetime.date(2024, 1, 1),
    )
    # normalize = "none": surrounding spaces are part of the value
    assert [e.code for e in v.check((" ABC", "ab", "5", "2024-01-01")).errors] == [C.PATTERN_MISMATCH]
    # min_length: reported as pattern_mismatch with the min (the catalog has no too_short)
    result = v.check(("ABC", "a", "0", ""))
    assert result.errors == (
        RowError(C.PATTERN_MISMATCH, "grade", "a", {"value": "a", "min": 2}),
        RowError(C.OUT_OF_RANGE, "weight", "0", {"value": "0", "min": "1", "max": "10"}),
        RowError(C.REQUIRED_MISSING, "made", "", {}),
    )
    assert result.errors[0].message(parts, "zh") == "等级格式不正确，至少 2 个字符"
    assert [e.code for e in v.check(("ABC", "abcde", "1.0", "x")).errors] == [
        C.TOO_LONG,
        C.INVALID_NUMBER,
        C.INVALID_DATE,
    ]
    assert v.check(("ABC", "ab", "11", "2024-01-01")).errors[0].params == {
        "value": "11",
        "min": "1",
        "max": "10",
    }
