"""The integer, datetime and boolean kinds, NUL cells, blanks in update modes, composite keys: every rule."""

from __future__ import annotations

import datetime as dt
import itertools
from decimal import Decimal
from pathlib import Path

import pytest

from desktop_app.domain.errors import ErrorCode
from desktop_app.imports.header import map_header
from desktop_app.imports.import_type import ImportType, ImportTypeError, load_import_type
from desktop_app.imports.validator import ABSENT, BLANK, Cell, RowValidator, compile_validator

C = ErrorCode

TYPE = """\
name = "stock"
title_zh = "库存"
title_en = "Stock"
table = "stock"
unique_key = ["site", "sku"]

[[columns]]
key = "site"
label_zh = "仓库"
label_en = "Site"
aliases = ["site"]
required = true

[[columns]]
key = "sku"
label_zh = "货号"
label_en = "SKU"
aliases = ["sku"]
required = true
normalize = "nfkc"

[[columns]]
key = "qty"
label_zh = "数量"
label_en = "Quantity"
aliases = ["qty"]
kind = "integer"
normalize = "nfkc"
integer_min = -5
integer_max = 1000

[[columns]]
key = "counted_at"
label_zh = "盘点时间"
label_en = "Counted at"
aliases = ["counted_at"]
kind = "datetime"
normalize = "nfkc"

[[columns]]
key = "ok"
label_zh = "已核对"
label_en = "Checked"
aliases = ["ok"]
kind = "boolean"
normalize = "nfkc"
default = "否"

[[columns]]
key = "big"
label_zh = "大数"
label_en = "Big"
aliases = ["big"]
kind = "integer"
"""
HEADER = ["site", "sku", "qty", "counted_at", "ok", "big"]
VALID = ("A", "X1", "7", "2024-03-05 14:30:00", "是", "1")


@pytest.fixture(scope="module")
def stock(tmp_path_factory: pytest.TempPathFactory) -> ImportType:
    path = tmp_path_factory.mktemp("t") / "stock.toml"
    path.write_text(TYPE, encoding="utf-8")
    return load_import_type(path)


@pytest.fixture(scope="module")
def v(stock: ImportType) -> RowValidator:
    return compile_validator(stock, map_header(stock, HEADER))


def cells(**changes: Cell) -> tuple[Cell, ...]:
    out = list(VALID)
    for key, value in changes.items():
        out[HEADER.index(key)] = value
    return tuple(out)


def value(v: RowValidator, key: str, cell: Cell) -> object:
    checked = v.check(cells(**{key: cell}))
    assert checked.errors == (), checked.errors
    assert checked.values is not None
    return checked.values[v.columns.index(key)]


def codes(v: RowValidator, key: str, cell: Cell) -> list[str]:
    return [e.code.value for e in v.check(cells(**{key: cell})).errors]


def test_composite_key(stock: ImportType, v: RowValidator) -> None:
    assert stock.unique_keys == ("site", "sku")
    assert v.key_indexes == (0, 1)


# --- integer -------------------------------------------------------------------------------------


INTEGERS = [("7", 7), ("+7", 7), ("-5", -5), ("0007", 7), ("１２", 12), ("²", 2), (" 12 ", 12), (12, 12), (12.0, 12),
            (1000, 1000), ("", None)]  # fmt: skip


@pytest.mark.parametrize(("cell", "expected"), INTEGERS)
def test_integers(v: RowValidator, cell: Cell, expected: int | None) -> None:
    assert value(v, "qty", cell) == expected


@pytest.mark.parametrize("cell", ["12.0", "1e3", "1,000", "12.5", "abc", "1 2", "--1", "٣", True, 12.5])
def test_not_whole_numbers(v: RowValidator, cell: Cell) -> None:
    assert codes(v, "qty", cell) == ["invalid_integer"]


@pytest.mark.parametrize("cell", ["-6", "1001", 1001.0, "99999999999999999999"])
def test_integer_out_of_range(v: RowValidator, cell: Cell) -> None:
    assert codes(v, "qty", cell) == ["out_of_range"]


def test_integer_messages(stock: ImportType, v: RowValidator) -> None:
    (error,) = v.check(cells(qty="1,000")).errors
    assert error.message(stock, "zh") == "数量“1,000”不是整数（只能是数字，可带正负号）"
    assert error.message(stock, "en") == 'Quantity "1,000" is not a whole number (digits only, with an optional sign)'
    (error,) = v.check(cells(qty="1001")).errors
    assert error.params == {"value": "1001", "min": "-5", "max": "1000"}


def test_an_unbounded_integer_stays_within_a_bigint(v: RowValidator) -> None:
    assert value(v, "big", str(2**63 - 1)) == 2**63 - 1
    assert codes(v, "big", str(2**63)) == ["out_of_range"]


def test_numbers_are_read_after_nfkc_whatever_normalize_says(tmp_path: Path) -> None:
    # big's normalize is the default "trim": full-width digits and signs are still numbers
    text = TYPE + '\n[[columns]]\nkey = "price"\nlabel_zh = "价"\nlabel_en = "Price"\naliases = ["price"]\n' \
                  'kind = "decimal"\ndecimal_scale = 2\nnormalize = "none"\n'  # fmt: skip
    itype = load(tmp_path, text)
    validator = compile_validator(itype, map_header(itype, [*HEADER, "price"]))
    checked = validator.check((*VALID[:-1], "－１２", "１２．５０"))
    assert checked.errors == () and checked.values is not None
    assert checked.values[-2:] == (-12, Decimal("12.50"))


# --- datetime ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("2024-03-05 14:30:00", dt.datetime(2024, 3, 5, 14, 30)),
        ("2024-03-05T14:30", dt.datetime(2024, 3, 5, 14, 30)),
        ("2024/3/5 9:05", dt.datetime(2024, 3, 5, 9, 5)),
        ("2024-03-05", dt.datetime(2024, 3, 5)),  # a date alone is midnight
        ("２０２４－０３－０５ １４：３０", dt.datetime(2024, 3, 5, 14, 30)),
        (dt.datetime(2024, 3, 5, 14, 30, 15, 999), dt.datetime(2024, 3, 5, 14, 30, 15)),  # an Excel cell
        (dt.date(2024, 3, 5), dt.datetime(2024, 3, 5)),
        ("", None),
    ],
)
def test_datetimes(v: RowValidator, cell: Cell, expected: dt.datetime | None) -> None:
    assert value(v, "counted_at", cell) == expected


@pytest.mark.parametrize("cell", ["2024-03-05 24:00", "2024-03-05 12:60", "2024-03-05 12:00:61", "2024-02-30 10:00",
                                  "2024-03-05 1430", "14:30", "2024-03-05  14:30", "yesterday", 45000])  # fmt: skip
def test_invalid_datetimes_are_invalid_date(v: RowValidator, cell: Cell) -> None:
    assert codes(v, "counted_at", cell) == ["invalid_date"]


def test_datetime_message_mentions_the_time(stock: ImportType, v: RowValidator) -> None:
    (error,) = v.check(cells(counted_at="x")).errors
    assert error.message(stock, "en").endswith("use YYYY-MM-DD or YYYY/MM/DD, optionally with a time H:MM or HH:MM:SS")


# --- boolean -------------------------------------------------------------------------------------


@pytest.mark.parametrize("cell", ["是", "真", "Y", "y", "yes", "YES", "True", "true", "1", True, 1, "ｙｅｓ"])
def test_true_words(v: RowValidator, cell: Cell) -> None:
    assert value(v, "ok", cell) is True


@pytest.mark.parametrize("cell", ["否", "假", "N", "no", "No", "FALSE", "0", False, 0])
def test_false_words(v: RowValidator, cell: Cell) -> None:
    assert value(v, "ok", cell) is False


def test_a_blank_boolean_takes_its_default(v: RowValidator) -> None:
    assert value(v, "ok", "") is False and value(v, "ok", None) is False


@pytest.mark.parametrize("cell", ["2", "yep", "对", "t", "f", "-1", 2])
def test_not_booleans(v: RowValidator, cell: Cell) -> None:
    assert codes(v, "ok", cell) == ["invalid_boolean"]


# --- NUL characters and the fast path ------------------------------------------------------------


def test_a_nul_in_any_cell_is_invalid_character(stock: ImportType) -> None:
    for nul_free in (False, True):
        validator = compile_validator(stock, map_header(stock, HEADER), nul_free=nul_free)
        result = validator.check(cells(site="A\x00B"))
        if not nul_free:  # with nul_free the caller promised there is none: only the full check sees it
            assert [e.code for e in result.errors] == [C.INVALID_CHARACTER]
            assert result.errors[0].value == "A\\0B"
    validator = compile_validator(stock, map_header(stock, HEADER))
    assert [e.code for e in validator._check_full(cells(qty="1\x002")).errors] == [C.INVALID_CHARACTER]


TRICKY: list[Cell] = ["", " ", None, "0", "7", "-5", "+7", "1001", "12.0", "1e3", "1,000", "１２", "是", "否", "Y",
                      "yes", "TRUE", "x", True, False, 0, 1, 12.0, 12.5, "2024-03-05", "2024-03-05 14:30",
                      "2024/3/5 9:05", "2024-03-05 24:00", dt.date(2024, 3, 5), dt.datetime(2024, 3, 5, 1, 2, 3),
                      str(2**63), "A\x00"]  # fmt: skip


@pytest.mark.parametrize("blanks_keep", [False, True])
def test_fast_path_matches_full_checker(stock: ImportType, blanks_keep: bool) -> None:
    validator = compile_validator(stock, map_header(stock, HEADER), blanks_keep=blanks_keep)
    for position, cell in itertools.product(range(len(HEADER)), TRICKY):
        row: list[Cell] = list(VALID)
        row[position] = cell
        assert validator.check(row) == validator._check_full(row), (HEADER[position], cell)


# --- update and upsert modes: blanks are the writer's call ---------------------------------------


def test_blanks_keep_mode(stock: ImportType) -> None:
    header = ["site", "sku", "qty", "ok"]  # counted_at and big are not in the file
    validator = compile_validator(stock, map_header(stock, header), blanks_keep=True)
    result = validator.check(("A", "X1", "", " "))
    assert result.values == ("A", "X1", BLANK, ABSENT, BLANK, ABSENT)
    # a blank key cell is still a row error: the key says which row to change
    assert [e.code for e in validator.check(("", "X1", "1", "")).errors] == [C.REQUIRED_MISSING]


def test_blanks_keep_mode_needs_only_the_key(stock: ImportType) -> None:
    compile_validator(stock, map_header(stock, ["sku", "site"]), blanks_keep=True)
    with pytest.raises(ValueError, match="site"):
        compile_validator(stock, map_header(stock, ["sku", "qty"]), blanks_keep=True)


def test_decimal_defaults_convert(tmp_path: Path) -> None:
    text = TYPE + '\n[[columns]]\nkey = "price"\nlabel_zh = "价"\nlabel_en = "Price"\naliases = ["price"]\n' \
                  'kind = "decimal"\ndecimal_scale = 2\ndefault = "1.5"\n'  # fmt: skip
    path = tmp_path / "t.toml"
    path.write_text(text, encoding="utf-8")
    itype = load_import_type(path)
    validator = compile_validator(itype, map_header(itype, HEADER))
    assert validator.check(VALID).values[-1] == Decimal("1.5")  # type: ignore[index]


# --- the type file -------------------------------------------------------------------------------


def load(tmp_path: Path, text: str) -> ImportType:
    path = tmp_path / "t.toml"
    path.write_text(text, encoding="utf-8")
    return load_import_type(path)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (('unique_key = ["site", "sku"]', 'unique_key = ["site", "qty"]'), "column 'qty' must be required = true"),
        (('unique_key = ["site", "sku"]', "unique_key = []"), "'unique_key' must name at least one column"),
        (('unique_key = ["site", "sku"]', 'unique_key = ["site", "site"]'), "names a column twice"),
        (("integer_max = 1000", "integer_max = -9"), "integer_min -5 is greater than integer_max -9"),
        (("integer_max = 1000", 'integer_max = "many"'), "'integer_max' must be a whole number"),
        (('default = "否"', 'default = "maybe"'), "default 'maybe' does not pass the column's own rules"),
        (('table = "stock"', 'table = "a.b.c"'), "'table' must be an identifier or schema.table"),
        (('key = "big"', 'key = "task_no"'), "kept for BatchDesk's own bookkeeping"),
        (('title_en = "Stock"', 'title_en = "Stock"\ncreate = "no"'), "'create' must be true or false"),
    ],
)
def test_problems_in_the_file(tmp_path: Path, change: tuple[str, str], problem: str) -> None:
    with pytest.raises(ImportTypeError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        load(tmp_path, TYPE.replace(*change))


def test_a_key_column_must_be_of_a_key_kind(tmp_path: Path) -> None:
    text = TYPE.replace('unique_key = ["site", "sku"]', 'unique_key = ["site", "ok"]').replace(
        'aliases = ["ok"]\nkind = "boolean"\nnormalize = "nfkc"\ndefault = "否"',
        'aliases = ["ok"]\nkind = "boolean"\nrequired = true',
    )
    with pytest.raises(ImportTypeError, match="a key column must be"):
        load(tmp_path, text)


def test_schema_table_and_create(tmp_path: Path) -> None:
    itype = load(tmp_path, TYPE.replace('table = "stock"', 'table = "erp.stock"\ncreate = false'))
    assert (itype.table, itype.create) == ("erp.stock", False)
    load(tmp_path, TYPE.replace('key = "big"', 'key = "id"'))  # BatchDesk keeps no id of its own
    with pytest.raises(ImportTypeError, match="bookkeeping"):
        load(tmp_path, TYPE.replace('key = "big"', 'key = "import_sig"'))
