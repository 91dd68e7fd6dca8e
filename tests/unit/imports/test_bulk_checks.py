"""The bulk path's column checks never accept what the row validator refuses, and store what it stores.

Every column kind and setting, each over a palette of tricky cells: a cell the vectorised check calls
sure must pass the row validator with the same canonical text (what is stored, signed, compared); and
the ordinary cells of each column must be sure (else the bulk path would be the row path, slowly).
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from desktop_app.domain.values import canonical
from desktop_app.imports.bulk.checks import ColumnCheck, nfkc_stable
from desktop_app.imports.import_type import ImportType, load_import_type
from desktop_app.imports.regional import PLAIN, DateOrder, FileConventions
from desktop_app.imports.table_spec import stored_column
from desktop_app.imports.validator import _compile_full

TYPE = """\
name = "every"
title_zh = "全部"
title_en = "Every kind"
table = "every"
unique_key = "code"

[[columns]]
key = "code"
label_zh = "编号"
label_en = "Code"
aliases = ["code"]
required = true
normalize = "nfkc"
pattern = '^C\\d{6}$'

[[columns]]
key = "name"
label_zh = "名"
label_en = "Name"
aliases = ["name"]
required = true
min_length = 2
max_length = 8

[[columns]]
key = "raw"
label_zh = "原样"
label_en = "Raw"
aliases = ["raw"]
normalize = "none"
max_length = 10

[[columns]]
key = "email"
label_zh = "邮箱"
label_en = "Email"
aliases = ["email"]
normalize = "nfkc"
pattern = '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$'

[[columns]]
key = "folded"
label_zh = "不分大小写"
label_en = "Any case"
aliases = ["folded"]
pattern = '(?i)^ab[a-z]$'

[[columns]]
key = "counted"
label_zh = "计数"
label_en = "Counted"
aliases = ["counted"]
pattern = '^a{,3}$'

[[columns]]
key = "ahead"
label_zh = "前瞻"
label_en = "Lookahead"
aliases = ["ahead"]
pattern = '^(?=a)\\w+$'

[[columns]]
key = "level"
label_zh = "等级"
label_en = "Level"
aliases = ["level"]
normalize = "nfkc"
kind = "enum"
default = "standard"
enum = { "普通" = "standard", "金卡" = "gold", "standard" = "standard", "gold" = "gold" }

[[columns]]
key = "opened"
label_zh = "日期"
label_en = "Date"
aliases = ["opened"]
normalize = "nfkc"
kind = "date"

[[columns]]
key = "stamp"
label_zh = "时间"
label_en = "Time"
aliases = ["stamp"]
kind = "datetime"

[[columns]]
key = "amount"
label_zh = "金额"
label_en = "Amount"
aliases = ["amount"]
normalize = "nfkc"
kind = "decimal"
default = "0"
decimal_scale = 2
decimal_min = "0"
decimal_max = "1000.5"

[[columns]]
key = "signed"
label_zh = "正负"
label_en = "Signed"
aliases = ["signed"]
kind = "decimal"
decimal_scale = 0

[[columns]]
key = "above"
label_zh = "下限"
label_en = "Above"
aliases = ["above"]
kind = "decimal"
decimal_scale = 1
decimal_min = "5"

[[columns]]
key = "qty"
label_zh = "数量"
label_en = "Quantity"
aliases = ["qty"]
kind = "integer"
integer_min = 1
integer_max = 999
default = "1"

[[columns]]
key = "big"
label_zh = "大数"
label_en = "Big"
aliases = ["big"]
kind = "integer"

[[columns]]
key = "active"
label_zh = "启用"
label_en = "Active"
aliases = ["active"]
kind = "boolean"

[[columns]]
key = "mobile"
label_zh = "手机"
label_en = "Mobile"
aliases = ["mobile"]
normalize = "nfkc"
pattern = '^1[0-9]{10}$'
drop_chars = " -"
strip_prefixes = ["+86", "0086"]

[[columns]]
key = "when"
label_zh = "哪天"
label_en = "When"
aliases = ["when"]
kind = "date"
date_formats = ["chinese", "dots", "compact", "day_month", "excel_serial"]

[[columns]]
key = "money"
label_zh = "钱"
label_en = "Money"
aliases = ["money"]
normalize = "nfkc"
kind = "decimal"
decimal_scale = 2
thousands = true
currency = ["¥", "元"]

[[columns]]
key = "share"
label_zh = "占比"
label_en = "Share"
aliases = ["share"]
kind = "decimal"
decimal_scale = 3
percent = true

[[columns]]
key = "many"
label_zh = "很多"
label_en = "Many"
aliases = ["many"]
kind = "integer"
thousands = true

[[columns]]
key = "dept"
label_zh = "部门"
label_en = "Department"
aliases = ["dept"]
kind = "reference"
reference_table = "departments"
reference_column = "name"
reference_target = "dept_id"
"""

TRICKY = [
    "",
    " ",
    "  ",
    "\t",
    "\u3000",
    "\u00a0",
    "\x1c",
    "\x85",
    "\u2028",
    "\x0b",
    "\x00",
    "a\x00b",
    " a",
    "a ",
    "a\u3000",
    "\u3000a",
    "ａ",
    "ＡＢＣ",
    "ﬁ",
    "Å",
    "Å",
    "e\u0301",
    "\ufeffa",
    "C000123",
    "C0001234",
    "c000123",
    "Ｃ０００１２３",
    " C000123",
    "C000123 ",
    "C000123\n",
    "C00012３",
    "ab",
    "abc",
    "ABC",
    "abC",
    "ab\u212a",
    "aBK",
    "abcdefghi",
    "abcdefgh",
    "一二",
    "一二三四五六七八九",
    "x@y.z",
    "x@y.zz",
    "x y@z.w",
    "x\x1c@y.z",
    "x\x0b@y.z",
    "x\u3000@y.z",
    "ｘ@ｙ.ｚ",
    "@y.z",
    "a",
    "aa",
    "aaa",
    "aaaa",
    "a{,3}",
    "ab1",
    "b1",
    "普通",
    "金卡",
    "standard",
    "Standard",
    "STANDARD",
    "gold",
    "Gold",
    "gold ",
    "vip",
    "金 卡",
    "2024-02-29",
    "2023-02-29",
    "2024-02-30",
    "2024-13-01",
    "2024-00-10",
    "2024-01-00",
    "2024-1-5",
    "2024/01/05",
    "0999-01-01",
    "1000-01-01",
    "9999-12-31",
    "2024-01-05 ",
    "２０２４-01-05",
    "2024-01-05 08:00:00",
    "2024-01-05 24:00:00",
    "2024-01-05 23:59:60",
    "2024-01-05 08:00",
    "2024-01-05T08:00:00",
    "0",
    "00",
    "007",
    "1",
    "12",
    "999",
    "1000",
    "-1",
    "+1",
    "1.0",
    "1e3",
    "1,000",
    "１２",
    "9" * 18,
    "9" * 19,
    "12.5",
    "12.50",
    "012.50",
    "12.505",
    ".5",
    "5.",
    "-0",
    "-0.00",
    "1000.5",
    "1000.50",
    "1000.51",
    "1000.49",
    "4.9",
    "5",
    "5.0",
    "5.00",
    "99999999999999999999999999999999999999",
    "1" + "0" * 40,
    "true",
    "false",
    "TRUE",
    "True",
    "yes",
    "no",
    "是",
    "否",
    "1 ",
    "y",
    "n",
    "on",
    "off",
    "销售部",
    "不存在部",
    " 销售部",
]
ORDINARY = {
    "code": ["C000123"], "name": ["王小明", "ab"], "raw": ["x", " y "], "email": ["x@y.zz"], "folded": ["abc"],
    "level": ["普通", "gold"], "opened": ["2024-02-29"],
    "stamp": ["2024-01-05", "2024-01-05 08:00:00", "2024-01-05 08:00"],
    "amount": ["12.5", "1000.50", "0"], "signed": ["12"], "qty": ["12"], "big": ["123456789012345678"],
    "active": ["true", "no"], "dept": ["销售部", "不存在部"], "mobile": ["13800138000"], "when": ["2024-03-05"],
    "money": ["12.5", "1234.50"], "share": ["0.125"], "many": ["1000"],
}  # fmt: skip


@pytest.fixture(scope="module")
def itype(tmp_path_factory: pytest.TempPathFactory) -> ImportType:
    path: Path = tmp_path_factory.mktemp("types") / "every.toml"
    path.write_text(TYPE, encoding="utf-8")
    return load_import_type(path)


def test_nfkc_stable_is_pythons_own_answer() -> None:
    import unicodedata

    cells = ["abc", "ａ", "Å", "Å", "e\u0301", "中文", "ﬁ", "\u3000", "①"]
    got = nfkc_stable(pa.array(cells, pa.string())).to_pylist()
    assert got == [unicodedata.is_normalized("NFKC", c) for c in cells]


COLUMNS = ["code", "name", "raw", "email", "folded", "counted", "ahead", "level", "opened", "stamp", "amount",
           "signed", "above", "qty", "big", "active", "mobile", "when", "money", "share", "many", "dept"]  # fmt: skip
CONVENTIONS = [PLAIN, FileConventions(date_order=DateOrder("dmy")), FileConventions(date_order=DateOrder("mdy"))]


@pytest.mark.parametrize("conventions", CONVENTIONS, ids=["plain", "dmy", "mdy"])
@pytest.mark.parametrize("column", COLUMNS)
def test_a_sure_cell_is_the_row_validators_value(itype: ImportType, column: str,
                                                 conventions: FileConventions) -> None:  # fmt: skip
    spec = next(c for c in itype.columns if c.key == column)
    is_key = column in itype.unique_keys
    check = ColumnCheck(spec, is_key=is_key)
    stored = stored_column(spec, is_key=is_key)
    full = _compile_full(spec, None, conventions)
    cells = [*TRICKY, *ORDINARY.get(column, [])]
    result = check.check(pa.array(cells, pa.string()))
    for cell, ok, text in zip(cells, result.ok.to_pylist(), result.text.to_pylist(), strict=True):
        value, error = full(cell)
        if ok:
            assert error is None, f"{column}: {cell!r} was sure but the row validator says {error}"
            assert text == canonical(stored.storage, value, stored.scale), f"{column}: {cell!r}"
    sure = dict(zip(cells, result.ok.to_pylist(), strict=True))
    for cell in ORDINARY.get(column, []):
        assert sure[cell], f"{column}: the ordinary cell {cell!r} should not need the row validator"


@pytest.mark.parametrize("column", COLUMNS)
def test_a_cell_checked_alone_is_the_row_validators_value(itype: ImportType, column: str) -> None:
    # alone, a column's cells take the shortcuts a whole column of their kind takes (no character to drop
    # anywhere in the column: no search for one; no amount long enough to pass the maximum: no comparison)
    spec = next(c for c in itype.columns if c.key == column)
    is_key = column in itype.unique_keys
    check = ColumnCheck(spec, is_key=is_key)
    stored = stored_column(spec, is_key=is_key)
    full = _compile_full(spec, None, PLAIN)
    for cell in [*TRICKY, *ORDINARY.get(column, [])]:
        result = check.check(pa.array([cell], pa.string()))
        if result.ok.to_pylist() == [True]:
            value, error = full(cell)
            assert error is None, f"{column}: {cell!r} was sure alone but the row validator says {error}"
            assert result.text.to_pylist() == [canonical(stored.storage, value, stored.scale)], f"{column}: {cell!r}"


def test_a_null_date_is_left_to_the_row_validator_beside_real_days(itype: ImportType) -> None:
    spec = next(c for c in itype.columns if c.key == "opened")
    result = ColumnCheck(spec, is_key=False).check(pa.array(["2013-04-05", None], pa.string()))
    assert result.ok.to_pylist() == [True, False]


@pytest.mark.parametrize(("cells", "sure"), [
    (["12.50", "1000.50", "1000.51"], [True, True, False]),  # one amount long enough: each one compared
    (["12.50", "999.99", "0"], [True, True, True]),  # none as long as the maximum's whole part: none compared
    (["0001000.51", "5"], [False, True]),  # leading zeros count as digits: compared, and over
])
def test_an_amount_over_the_maximum_is_never_sure(itype: ImportType, cells: list[str], sure: list[bool]) -> None:
    spec = next(c for c in itype.columns if c.key == "amount")  # decimal_max = "1000.5"
    assert ColumnCheck(spec, is_key=False).check(pa.array(cells, pa.string())).ok.to_pylist() == sure


DAYS = ["2013-04-05", "2012-02-29", "2013-02-29", "2013-13-01", "2013-04-00", "0999-01-01", "2013-4-05",
        "2013-04-05 ", " 2013-04-05", "+2013-04-05", "2013/04/05", "20130405", "10000-01-01", "２０１３-04-05",
        "2013-04-05T00:00", "2013-0a-05", "2013-04-05\x00", ""]


@pytest.mark.parametrize("cell", DAYS)
def test_a_date_column_of_real_days_takes_its_shortcut_only_where_the_pattern_holds(itype: ImportType,
                                                                                   cell: str) -> None:
    # alone (the shortcut: one cast of the column) and beside a real day (mixed) the same answer
    spec = next(c for c in itype.columns if c.key == "opened")
    check = ColumnCheck(spec, is_key=False)
    alone = check.check(pa.array([cell], pa.string())).ok.to_pylist()[0]
    mixed = check.check(pa.array(["2013-04-05", cell], pa.string())).ok.to_pylist()[1]
    assert alone == mixed
    value, error = _compile_full(spec, None, PLAIN)(cell)
    if alone and cell:  # a blank cell takes the column's default, as everywhere
        assert error is None and cell == canonical(stored_column(spec, is_key=False).storage, value, None)


@pytest.mark.parametrize(("cells", "sure"), [
    (["13912345678", "139-1234-5678"], [True, False]),  # a dash in the column: each cell searched
    (["13912345678", "13812345678"], [True, True]),  # none anywhere: no cell has one
    (["139 1234 5678"], [False]),
])
def test_a_phone_with_a_character_to_drop_is_never_sure(itype: ImportType, cells: list[str], sure: list[bool]) -> None:
    spec = next(c for c in itype.columns if c.key == "mobile")  # drop_chars = " -"
    assert ColumnCheck(spec, is_key=False).check(pa.array(cells, pa.string())).ok.to_pylist() == sure


@pytest.mark.parametrize("column", ["amount", "signed", "above", "money", "share"])
def test_a_decimal_column_of_one_spelling_takes_the_shortcuts_to_the_same_text(itype: ImportType, column: str) -> None:
    # one cell a column: a column whose amounts are all written as stored (or all with leading zeros, or
    # all short of decimals) skips a rewrite (_decimal_text), and must still give the validator's text
    spec = next(c for c in itype.columns if c.key == column)
    assert spec.kind == "decimal"
    stored = stored_column(spec, is_key=False)
    check = ColumnCheck(spec, is_key=False)
    full = _compile_full(spec, None, PLAIN)
    for cell in ["0", "00", "007", "12", "12.5", "12.50", "012.50", "0.125", "1000", "1000.50", "5.00"]:
        result = check.check(pa.array([cell, cell], pa.string()))
        if result.ok.to_pylist()[0]:
            value, error = full(cell)
            assert error is None
            assert result.text.to_pylist() == [canonical(stored.storage, value, stored.scale)] * 2, (
                f"{column}: {cell!r}"
            )


def test_an_absent_column_takes_its_default(itype: ImportType) -> None:
    for spec in itype.columns:
        check = ColumnCheck(spec, is_key=spec.key in itype.unique_keys)
        absent = check.absent(3)
        assert absent.ok.to_pylist() == [True] * 3
        assert len(set(absent.text.to_pylist())) == 1


def test_arrow_trims_what_python_strips() -> None:
    import pyarrow.compute as pc

    chars = [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    trimmed = pc.utf8_trim_whitespace(pa.array(["a" + c for c in chars], pa.string())).to_pylist()
    arrow = {c for c, t in zip(chars, trimmed, strict=True) if t != "a" + c}
    assert arrow == {c for c in chars if c.isspace()}


def test_signatures_are_the_domains_signature() -> None:
    from desktop_app.domain.values import signature
    from desktop_app.imports.bulk.batching import signatures

    rows = [("C1", "王", None, "12.50"), ("", "x\x1fy", "😀", None), ("a" * 300, "b", "c", "d")]
    columns = [pa.array(list(col), pa.string()) for col in zip(*rows, strict=True)]
    assert signatures(columns).to_pylist() == [signature(r) for r in rows]
    sliced = [c.slice(1) for c in columns]
    assert signatures(sliced).to_pylist() == [signature(r) for r in rows[1:]]


@pytest.mark.parametrize(("order", "cell"), [("mdy", "25/05/2024"), ("dmy", "5/25/2024")])
def test_a_date_of_the_other_order_is_left_to_the_row_validator_and_named_as_it_names_it(
    itype: ImportType, order: str, cell: str
) -> None:
    spec = next(c for c in itype.columns if c.key == "when")
    result = ColumnCheck(spec, is_key=False).check(pa.array([cell], pa.string()))
    assert result.ok.to_pylist() == [False]  # not sure: the row path judges it, with the same code and words
    value, error = _compile_full(spec, None, FileConventions(date_order=DateOrder(order)))(cell)
    assert value is None and error is not None
    assert (error.code.value, error.params["reason"], error.params["other"]) == ("invalid_date", f"not_{order}",
                                                                                 "2024-05-25")  # fmt: skip
    assert "(as declared); read as" in error.message_for(spec, "en")
