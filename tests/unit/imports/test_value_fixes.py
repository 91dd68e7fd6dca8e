"""Value fixes (issue 25), without a database: the error CSV read back, the distinct bad values listed, the
rows a mapping fixes, the mappings held to the type (a value not allowed refused naming the allowed ones)."""

from __future__ import annotations

import csv
from pathlib import Path
from types import MappingProxyType

import pytest

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.profiles import Profile
from desktop_app.imports import error_csv
from desktop_app.imports.import_type import builtin_import_types_dir, load_import_type
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.value_fixes import (
    BadValue,
    bad_values,
    describe,
    fixable_rows,
    merged_profile,
    parse_mappings,
    read_error_file,
    rewrite_error_file,
)

CUSTOMERS = load_import_type(builtin_import_types_dir() / "customers.toml")
HEADER = ["客户编号", "姓名", "手机号", "邮箱", "等级", "开户日期", "信用额度", "部门", "备注"]
ALLOWED = ("普通", "银卡", "金卡", "standard", "silver", "gold")


def cells(i: int, level: str, phone: str = "") -> list[str]:
    return [f"C{i:06d}", f"客户{i}", phone or f"138{i:08d}", f"c{i}@example.com", level, "2024-01-02", "1.50",
            "销售部", "=SUM(A1)"]  # fmt: skip


def error_file(tmp_path: Path, rows: list[tuple[int, list[str], list[str]]]) -> Path:
    """An error CSV as the import writes it (neutralised cells, English markers)."""
    path = tmp_path / "T261206-AAAAAA-errors.csv"
    writer = error_csv.ErrorCsvWriter(path, HEADER, lang="en")
    for number, row, codes in rows:
        writer.write(number, row, codes, ["reason"] * len(codes))
    writer.close()
    return path


def options(tmp_path: Path) -> ImportOptions:
    return ImportOptions(file=tmp_path / "c.csv", import_type="customers")


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    return error_file(tmp_path, [
        (2, cells(1, "钻石"), ["not_in_enum"]),
        (3, cells(2, "钻石 "), ["not_in_enum"]),
        (4, cells(3, "白金"), ["not_in_enum"]),
        (5, cells(4, "钻石", phone="abc"), ["pattern_mismatch", "not_in_enum"]),
        (6, cells(5, "金卡", phone="abc"), ["pattern_mismatch"]),
    ])  # fmt: skip


def test_the_error_csv_is_read_back_with_its_cells_restored(sample: Path) -> None:
    errors = read_error_file(sample)
    assert errors.header == tuple(HEADER)
    assert [r.number for r in errors.rows] == ["2", "3", "4", "5", "6"]
    assert errors.rows[0].cells[-1] == "=SUM(A1)"  # the neutralising undone
    assert errors.rows[3].codes == ("pattern_mismatch", "not_in_enum")


def test_distinct_bad_values_with_their_rows_and_allowed_values(sample: Path, tmp_path: Path) -> None:
    found = bad_values(CUSTOMERS, read_error_file(sample), options(tmp_path))
    # "钻石 " is 钻石 once normalised; the row that also failed its phone counts too
    assert found == [BadValue("level", "钻石", 3, ALLOWED), BadValue("level", "白金", 1, ALLOWED)]
    assert found[0].to_dict() == {"column": "level", "value": "钻石", "rows": 3, "allowed": list(ALLOWED)}
    assert describe(found[1], CUSTOMERS, "en") == "Level: 白金 (1 row), allowed: 普通/银卡/金卡/standard/silver/gold"
    assert describe(found[0], CUSTOMERS, "zh") == "等级：钻石（3 行），允许的值：普通/银卡/金卡/standard/silver/gold"


def test_a_profile_s_own_mappings_are_applied_before_listing(sample: Path, tmp_path: Path) -> None:
    profile = Profile("customers", values=MappingProxyType({"level": MappingProxyType({"白金": "金卡"})}))
    found = bad_values(CUSTOMERS, read_error_file(sample), options(tmp_path), profile)
    assert [(b.value, b.rows) for b in found] == [("钻石", 3)]


def test_only_rows_that_failed_only_for_the_mapped_values_are_fixed(sample: Path, tmp_path: Path) -> None:
    errors = read_error_file(sample)
    fixable = fixable_rows(CUSTOMERS, errors, options(tmp_path), None, {"level": {"钻石": "金卡"}})
    assert [row.number for row, _ in fixable.rows] == ["2", "3"]  # not 白金, not the bad phone
    level = CUSTOMERS.keys.index("level")
    assert {values[level] for _, values in fixable.rows} == {"gold"}
    fixed = {id(row) for row, _ in fixable.rows}
    assert rewrite_error_file(errors, fixed, {}) == sample
    with sample.open(encoding="utf-8-sig", newline="") as handle:
        lines = list(csv.reader(handle))
    assert lines[0][0] == "Row number" and [line[0] for line in lines[1:]] == ["4", "5", "6"]
    assert lines[2][-3] == "'=SUM(A1)"  # the kept rows as they were written: still neutralised


def test_an_error_csv_with_every_row_fixed_is_removed(tmp_path: Path) -> None:
    path = error_file(tmp_path, [(2, cells(1, "钻石"), ["not_in_enum"])])
    errors = read_error_file(path)
    assert rewrite_error_file(errors, {id(errors.rows[0])}, {}) is None and not path.exists()


@pytest.mark.parametrize("text, code, says", [
    ("level:钻石=黑卡", ErrorCode.VALUE_NOT_ALLOWED, "普通/银卡/金卡/standard/silver/gold"),
    ("grade:钻石=金卡", ErrorCode.VALUE_COLUMN_UNKNOWN, "level"),
    ("phone:abc=13800000000", ErrorCode.VALUE_COLUMN_UNKNOWN, "level"),  # not a column with allowed values
    ("level钻石=金卡", ErrorCode.INVALID_PARAMS, "COLUMN:BAD=GOOD"),
    ("level:=金卡", ErrorCode.INVALID_PARAMS, "COLUMN:BAD=GOOD"),
])  # fmt: skip
def test_mappings_are_held_to_the_type(text: str, code: ErrorCode, says: str) -> None:
    with pytest.raises(PermanentError) as caught:
        parse_mappings(CUSTOMERS, [text])
    assert caught.value.code is code and says in caught.value.text("en")
    assert "\n" not in caught.value.text("zh")


def test_mappings_by_key_or_label_and_allowed_in_any_spelling() -> None:
    assert parse_mappings(CUSTOMERS, ["等级:钻石=金卡", "Level:白金=GOLD", "level:铂金=gold"]) == {
        "level": {"钻石": "金卡", "白金": "GOLD", "铂金": "gold"}
    }


def test_mappings_added_to_a_profile_or_a_new_one() -> None:
    new = merged_profile(None, "customers", {"level": {"钻石": "金卡"}})
    assert new.import_type == "customers" and dict(new.values["level"]) == {"钻石": "金卡"}
    existing = Profile("customers", columns=MappingProxyType({"Kunde": "name"}),
                       values=MappingProxyType({"level": MappingProxyType({"白金": "金卡"})}))  # fmt: skip
    more = merged_profile(existing, "customers", {"level": {"钻石": "银卡"}})
    assert dict(more.columns) == {"Kunde": "name"}
    assert dict(more.values["level"]) == {"白金": "金卡", "钻石": "银卡"}
