"""Mapping a header row onto the columns of an import type."""

from __future__ import annotations

import pytest

from desktop_app.imports.header import HeaderMapping, map_header, match_score
from desktop_app.imports.import_type import builtin_import_types_dir, load_import_type

CUSTOMERS = load_import_type(builtin_import_types_dir() / "customers.toml")
ZH = ["客户编号", "姓名", "手机号", "邮箱", "等级", "开户日期", "信用额度", "部门", "备注"]
ALL_KEYS = {
    "code": 0,
    "name": 1,
    "phone": 2,
    "email": 3,
    "level": 4,
    "opened_on": 5,
    "credit_limit": 6,
    "department": 7,
    "note": 8,
}


def test_chinese_header() -> None:
    m = map_header(CUSTOMERS, ZH)
    assert dict(m.index_by_key) == ALL_KEYS
    assert (m.unknown, m.missing_required, m.width, m.ok) == ((), (), 9, True)


def test_english_aliases_case_trim_and_bom() -> None:
    header = [
        "\ufeffCustomer_Code",
        "  NAME ",
        "Mobile",
        "EMAIL",
        "Level\t",
        "Opened_On",
        "credit_LIMIT",
        "Department",
        " Note",
    ]
    m = map_header(CUSTOMERS, header)
    assert dict(m.index_by_key) == ALL_KEYS
    assert m.unknown == ()


def test_bom_before_chinese_header() -> None:
    m = map_header(CUSTOMERS, ["\ufeff客户编号", "姓名", "手机号"])
    assert dict(m.index_by_key) == {"code": 0, "name": 1, "phone": 2}
    assert m.missing_required == ()


def test_full_width_header_text() -> None:
    m = map_header(CUSTOMERS, ["ＣＯＤＥ", "ｎａｍｅ", "ＰＨＯＮＥ"])
    assert dict(m.index_by_key) == {"code": 0, "name": 1, "phone": 2}


def test_column_order_is_free() -> None:
    header = ["备注", "phone", "信用额度", "code", "姓名"]
    m = map_header(CUSTOMERS, header)
    assert dict(m.index_by_key) == {"note": 0, "phone": 1, "credit_limit": 2, "code": 3, "name": 4}
    assert m.width == 5


def test_unknown_extra_columns_are_listed_not_errors() -> None:
    m = map_header(CUSTOMERS, ["微信", "code", "name", "phone", "Fax ", ""])
    assert dict(m.index_by_key) == {"code": 1, "name": 2, "phone": 3}
    assert m.unknown == ("微信", "Fax ")  # original texts; the blank header is not listed
    assert m.missing_required == ()
    assert m.width == 6


def test_missing_required_columns_in_type_order() -> None:
    m = map_header(CUSTOMERS, ["email", "name"])
    assert m.missing_required == ("code", "phone")
    assert m.ok is False
    assert dict(m.index_by_key) == {"email": 0, "name": 1}


def test_missing_optional_columns_are_fine() -> None:
    m = map_header(CUSTOMERS, ["code", "name", "phone"])
    assert m.missing_required == ()
    assert "level" not in m.index_by_key


def test_two_headers_for_one_column_first_wins() -> None:
    m = map_header(CUSTOMERS, ["code", "name", "mobile", "手机号", "PHONE"])
    assert m.index_by_key["phone"] == 2
    assert m.unknown == ("手机号", "PHONE")


def test_override_names_a_column() -> None:
    m = map_header(CUSTOMERS, ["code", "name", "联系电话"], overrides={"联系电话": "phone"})
    assert dict(m.index_by_key) == {"code": 0, "name": 1, "phone": 2}
    assert m.unknown == ()
    assert m.missing_required == ()


def test_override_wins_over_alias() -> None:
    # the clerk says the second phone column is the real one
    m = map_header(CUSTOMERS, ["手机号", "code", "name", "备用手机"], overrides={"备用手机": "phone"})
    assert m.index_by_key["phone"] == 3
    assert m.unknown == ("手机号",)


def test_override_to_empty_ignores_the_header() -> None:
    m = map_header(CUSTOMERS, ["code", "name", "phone", "email"], overrides={"email": ""})
    assert "email" not in m.index_by_key
    assert m.unknown == ("email",)
    m = map_header(CUSTOMERS, ["code", "name", "phone"], overrides={"phone": ""})
    assert m.missing_required == ("phone",)


def test_override_keys_compare_like_headers() -> None:
    m = map_header(CUSTOMERS, ["code", "name", " Tel "], overrides={"tel": "phone"})
    assert m.index_by_key["phone"] == 2


def test_override_to_unknown_column_is_an_error() -> None:
    with pytest.raises(ValueError, match="'fax' is not a column of customers"):
        map_header(CUSTOMERS, ["code"], overrides={"code": "fax"})


def test_index_by_key_is_read_only() -> None:
    m = map_header(CUSTOMERS, ZH)
    with pytest.raises(TypeError):
        m.index_by_key["code"] = 3  # type: ignore[index]
    assert isinstance(m, HeaderMapping)


def test_empty_header() -> None:
    m = map_header(CUSTOMERS, [])
    assert (dict(m.index_by_key), m.unknown, m.missing_required, m.width) == (
        {},
        (),
        ("code", "name", "phone"),
        0,
    )


def test_match_score() -> None:
    assert match_score(CUSTOMERS, ZH) == 1.0
    assert match_score(CUSTOMERS, ["code", "phone", "other"]) == pytest.approx(2 / 3)
    assert match_score(CUSTOMERS, ["email", "note"]) == 0.0  # optional columns do not count
    assert match_score(CUSTOMERS, ["\ufeffCODE", "Name", "Mobile"]) == 1.0
    assert match_score(CUSTOMERS, []) == 0.0


def test_a_header_ignored_because_its_column_is_taken_says_by_which() -> None:
    m = map_header(CUSTOMERS, ["手机号", "客户编号", "mobile", "备注", "小区"])
    assert m.index_by_key["phone"] == 0 and m.unknown == ("mobile", "小区")
    assert dict(m.taken_by) == {2: 0}  # "mobile" names the phone column, which 手机号 fills
    # the clerk's choice of one column for two headers: the first keeps it
    chosen = map_header(CUSTOMERS, ["客户编号", "备注", "小区"], {"小区": "note", "备注": "note"})
    assert chosen.index_by_key["note"] == 1 and dict(chosen.taken_by) == {2: 1}


def test_a_delete_reads_the_key_alone_and_names_the_headers_it_ignores() -> None:
    header = ["姓名", "客户编号", "未知", "备注"]
    m = map_header(CUSTOMERS, header).keys_only(CUSTOMERS.unique_keys, header)
    assert dict(m.index_by_key) == {"code": 1}
    # the type's other columns are ignored by name (the summary's notice); an unknown header stays unknown
    assert (m.ignored, m.unknown, m.missing_required, m.width) == (("姓名", "备注"), ("未知",), (), 4)
