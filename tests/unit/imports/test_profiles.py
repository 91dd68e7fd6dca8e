"""Mapping profiles without a database: the TOML file, its refusals, the checks against a type, value mappings
folded as the column's validation folds, constants and mappings in the row validator (both of its paths)."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType

import pytest

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.modes import BlankPolicy, ImportMode
from desktop_app.domain.profiles import Profile, ProfileOptions, ProfileRef, ProfileVersion, check_name
from desktop_app.imports.fills import ColumnFills, ValueMap
from desktop_app.imports.header import map_header
from desktop_app.imports.import_type import builtin_import_types_dir, fold_value, load_import_type
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.profiles import (
    check_fits,
    check_profile,
    from_task,
    header_overrides,
    misfits,
    parse_profile,
    profile_text,
    with_options,
)
from desktop_app.imports.regional import DateOrder
from desktop_app.imports.validator import RowValidator, compile_validator

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "docs" / "examples" / "east-customers.toml"
CUSTOMERS = load_import_type(builtin_import_types_dir() / "customers.toml")
HEADER = ["Customer No", "姓名", "手机号", "等级", "Remark"]


def refused(text: str) -> PermanentError:
    with pytest.raises(PermanentError) as caught:
        parse_profile(text, path="p.toml")
    return caught.value


def one_line(error: PermanentError) -> str:
    text = error.text("en")
    assert "\n" not in text and "Traceback" not in text
    return text


# --- the file ------------------------------------------------------------------------------------


def test_the_documented_example_reads_as_it_says() -> None:
    profile = parse_profile(EXAMPLE.read_text(encoding="utf-8"), path=str(EXAMPLE))
    assert profile.import_type == "customers"
    assert dict(profile.columns) == {"Customer No": "code", "Remark": ""}
    assert dict(profile.constants) == {"department": "华东销售部"}
    assert {k: dict(v) for k, v in profile.values.items()} == {"level": {"钻石": "金卡"}}
    assert profile.options == ProfileOptions(delimiter=";")
    check_profile(profile, CUSTOMERS, name="east", path=str(EXAMPLE))  # it fits the built-in type


ODD_VALUES = {"level": MappingProxyType({"钻石": "金卡", "\x7fodd": "silver"}), "note": MappingProxyType({})}
ODD_OPTIONS = ProfileOptions(encoding="gb18030", delimiter="\t", sheet="Sheet 1", date_order="mdy",
                             decimal_comma=True, mode=ImportMode.UPSERT, blank=BlankPolicy.CLEAR)  # fmt: skip
ODD = Profile(
    import_type="customers",
    columns=MappingProxyType({'Cust "No"': "code", "a\tb": "", "备注\\x": "note", "plain_key-1": "name"}),
    constants=MappingProxyType({"department": "华东\n销售部", "level": "gold"}),
    values=MappingProxyType(ODD_VALUES),
    options=ODD_OPTIONS,
)


@pytest.mark.parametrize("profile", [ODD, Profile(import_type="customers")])
def test_written_and_read_back_it_is_the_same_profile(profile: Profile) -> None:
    text = profile_text(profile)
    again = parse_profile(text, path="x.toml")
    assert again == profile and again.to_dict() == profile.to_dict()
    assert profile_text(again) == text
    # the stored (JSON) form round-trips too
    assert Profile.from_dict(profile.to_dict()) == profile


def test_a_version_is_written_with_a_comment_that_names_it() -> None:
    version = ProfileVersion("华东 east", 3, ODD, saved_by="alice")
    text = profile_text(version)
    assert text.startswith('# BatchDesk mapping profile "华东 east", version 3\n')
    assert parse_profile(text, path="x") == ODD


@pytest.mark.parametrize(
    ("text", "reason", "named"),
    [
        ('type = "customers"\n[column]\n"a" = "code"\n', "unknown_table", "column"),
        ('type = "customers"\nmode = "update"\n', "unknown_table", "mode"),
        ('[columns]\n"a" = "code"\n', "no_type", "type"),
        ('type = "customers"\n[options]\nseparator = ";"\n', "unknown_option", "options.separator"),
        ('type = "customers"\n[options]\ndelimiter = "colon"\n', "bad_option", "options.delimiter"),
        ('type = "customers"\n[options]\ndate_order = "ymd"\n', "bad_option", "options.date_order"),
        ('type = "customers"\n[options]\ndecimal_comma = "yes"\n', "bad_option", "options.decimal_comma"),
        ('type = "customers"\n[options]\nmode = "replace"\n', "bad_option", "options.mode"),
        ('type = "customers"\n[options]\nblank = "empty"\n', "bad_option", "options.blank"),
        ('type = "customers"\n[options]\nencoding = "klingon-8"\n', "bad_option", "options.encoding"),
        ('type = "customers"\n[options]\nsheet = ""\n', "bad_option", "options.sheet"),
        ('type = "customers"\n[constants]\ncredit_limit = 1000\n', "not_text", "constants.credit_limit"),
        ('type = "customers"\n[columns]\n"a" = 1\n', "not_text", 'columns.a'),
        ('type = "customers"\ncolumns = "code"\n', "not_table", "columns"),
        ('type = "customers"\n[values]\nlevel = "gold"\n', "not_table", "values.level"),
        ('type = "customers"\n[values.level]\n"  " = "gold"\n', "blank", 'values.level."  "'),
        ('type = ""\n', "blank", "type"),
        ('type = "customers"\n[columns\n', "syntax", ""),
    ],
)
def test_a_bad_file_is_one_line_naming_the_key(text: str, reason: str, named: str) -> None:
    error = refused(text)
    assert error.code is ErrorCode.PROFILE_INVALID and error.params.get("reason") == reason
    line = one_line(error)
    assert "p.toml" in line and named in line, line
    assert named in error.text("zh")


@pytest.mark.parametrize(
    ("text", "reason", "named"),
    [
        ('type = "customers"\n[columns]\n"Cust" = "customer_code"\n', "unknown_column", "columns.Cust"),
        ('type = "customers"\n[constants]\nregion = "east"\n', "unknown_column", "constants.region"),
        ('type = "customers"\n[values.grade]\n"a" = "b"\n', "unknown_column", "values.grade"),
        ('type = "customers"\n[values.level]\n"钻石" = "钻石"\n', "bad_value", 'values.level."钻石"'),
        ('type = "customers"\n[constants]\nlevel = "platinum"\n', "bad_constant", "constants.level"),
        ('type = "customers"\n[constants]\ncredit_limit = "lots"\n', "bad_constant", "constants.credit_limit"),
        ('type = "customers"\n[values.level]\n"VIP" = "gold"\n"ｖｉｐ " = "silver"\n', "same_value",
         'values.level."ｖｉｐ "'),
        ('type = "customers"\n[columns]\n"No" = "code"\n"ＮＯ" = "name"\n', "same_header", 'columns."ＮＯ"'),
        ('type = "customers"\n[columns]\n"Dept" = "department"\n[constants]\ndepartment = "x"\n', "twice",
         "columns.Dept"),
    ],
)  # fmt: skip
def test_what_does_not_fit_the_type_is_refused_when_saved(text: str, reason: str, named: str) -> None:
    profile = parse_profile(text, path="p.toml")
    with pytest.raises(PermanentError) as caught:
        check_profile(profile, CUSTOMERS, name="p", path="p.toml")
    assert caught.value.code is ErrorCode.PROFILE_INVALID and caught.value.params.get("reason") == reason
    line = one_line(caught.value)
    assert named in line, line
    assert "not_in_enum" not in line and "{" not in caught.value.text("zh")


def test_another_types_profile_is_a_type_mismatch() -> None:
    profile = parse_profile('type = "products"\n', path="p.toml")
    with pytest.raises(PermanentError) as caught:
        check_profile(profile, CUSTOMERS, name="p", path="p.toml")
    assert caught.value.code is ErrorCode.PROFILE_TYPE_MISMATCH and "products" in one_line(caught.value)


def test_a_blank_constant_or_replacement_is_an_empty_cell_not_a_misfit() -> None:
    profile = parse_profile('type = "customers"\n[constants]\nnote = ""\n[values.level]\n"n/a" = ""\n', path="p")
    assert misfits(profile, CUSTOMERS) == []


def test_the_file_date_order_decides_whether_a_mapped_date_fits() -> None:
    text = 'type = "customers"\n[values.opened_on]\n"soon" = "03/05/2024"\n'
    ambiguous = parse_profile(text, path="p")
    assert [m.reason for m in misfits(ambiguous, CUSTOMERS)] == ["bad_value"]  # ambiguous_date without an order
    declared = parse_profile(text + '[options]\ndate_order = "dmy"\n', path="p")
    assert misfits(declared, CUSTOMERS) == []


# --- a saved version against a type that changed ---------------------------------------------------


def _without(column: str) -> object:
    return dataclasses.replace(CUSTOMERS, columns=tuple(c for c in CUSTOMERS.columns if c.key != column))


def test_a_version_that_no_longer_fits_names_the_column() -> None:
    profile = parse_profile(EXAMPLE.read_text(encoding="utf-8"), path="x")
    version = ProfileVersion("east", 2, profile, saved_by="a")
    check_fits(version, CUSTOMERS, profile_conventions := ImportOptions(Path("f"), "customers").conventions)
    changed = _without("department")
    with pytest.raises(PermanentError) as caught:
        check_fits(version, changed, profile_conventions)  # type: ignore[arg-type]
    error = caught.value
    assert error.code is ErrorCode.PROFILE_UNFIT and error.params["column"] == "department"
    assert "department" in one_line(error) and "version 2" in one_line(error)
    assert "department" in error.text("zh")
    # an enum whose inputs changed: the mapped value is no longer allowed
    level = CUSTOMERS.column("level")
    narrower = dataclasses.replace(level, enum_map=MappingProxyType({"普通": "standard", "standard": "standard"}),
                                   enum_inputs=("普通", "standard"), default=None)  # fmt: skip
    enum_changed = dataclasses.replace(CUSTOMERS, columns=tuple(narrower if c.key == "level" else c
                                                                for c in CUSTOMERS.columns))  # fmt: skip
    with pytest.raises(PermanentError) as caught:
        check_fits(version, enum_changed, profile_conventions)
    assert caught.value.params["reason"] == "bad_value" and caught.value.params["column"] == "level"
    assert "金卡" in one_line(caught.value)


# --- value mappings: folded as the column's validation folds -------------------------------------------


def test_a_mapping_matches_what_the_columns_normalize_makes_of_a_cell() -> None:
    level = CUSTOMERS.column("level")  # normalize nfkc
    name = CUSTOMERS.column("name")  # normalize trim
    assert level.normalize == "nfkc" and name.normalize == "trim"
    nfkc = ValueMap(level, {"VIP": "金卡"})
    for cell in ("VIP", "vip", " Vip ", "ＶＩＰ", "\u3000ｖｉｐ\u3000"):
        assert nfkc(cell) == "金卡", cell
    assert nfkc("V I P") == "V I P" and nfkc("") == "" and nfkc(None) is None
    trim = ValueMap(name, {"ACME": "艾克米"})
    assert trim(" acme ") == "艾克米" and trim("ＡＣＭＥ") == "ＡＣＭＥ"  # trim folds no width
    none = ValueMap(dataclasses.replace(name, normalize="none"), {"acme": "艾克米"})
    assert none("ACME") == "艾克米" and none(" acme") == " acme"  # case folded, spaces kept, as none says
    # an Excel cell is looked up as the text the column reads of it
    assert ValueMap(level, {"1": "金卡"})(1) == "金卡" and ValueMap(level, {"TRUE": "gold"})(True) == "gold"


def test_the_key_is_the_validators_own_fold() -> None:
    level = CUSTOMERS.column("level")
    for cell in ("ＧＯＬＤ", " gold\t", "Gold"):
        assert ValueMap(level, {fold_value(cell, level.normalize): "x"}).lookup(cell) == "x"


# --- in the row validator: constants and mappings on both of its paths --------------------------------

FILLS = ColumnFills(constants=MappingProxyType({"department": "华东销售部", "credit_limit": "1,000"}),
                    values=MappingProxyType({"level": {"钻石": "金卡", "gold": "silver"},
                                             "name": {"n/a": ""}}))  # fmt: skip


def _validator(header: list[str] = HEADER, fills: ColumnFills = FILLS, number_cells: bool = False) -> RowValidator:
    mapping = map_header(CUSTOMERS, header, header_overrides(parse_profile(EXAMPLE.read_text("utf-8"), path="x"), {}))
    return compile_validator(CUSTOMERS, mapping, fills=fills, number_cells=number_cells)


def test_constants_fill_columns_the_file_lacks_and_mappings_replace_cells() -> None:
    v = _validator()
    assert dict(v.constants) == {"department": "华东销售部", "credit_limit": Decimal("1000")}
    values = dict(zip(v.columns, v.check(("C000001", "张三", "13800000001", "钻石", "x")).values or (), strict=True))
    assert values["level"] == "gold" and values["department"] == "华东销售部" and values["note"] is None
    assert values["credit_limit"] == Decimal("1000")
    # gold -> silver, and only once (a replacement is not looked up again)
    assert v.check(("C000001", "张三", "13800000001", "GOLD", "")).values[4] == "silver"  # type: ignore[index]
    # a mapped required cell that becomes blank is that column's required_missing, like any blank cell
    result = v.check(("C000001", "n/a", "13800000001", "钻石", ""))
    assert [e.code for e in result.errors] == [ErrorCode.REQUIRED_MISSING]


@pytest.mark.parametrize("number_cells", [False, True])
def test_the_fast_and_the_full_checks_agree_on_mapped_cells(number_cells: bool) -> None:
    v = _validator(number_cells=number_cells)
    cells = ["钻石", "gold", "Gold", "ｇｏｌｄ", "银卡", "", " 钻石 ", "platinum", 1, None]
    for level in cells:
        fast = v.check(("C000001", "张三", "13800000001", level, ""))
        full = v._check_full(("C000001", "张三", "13800000001", level, ""))
        assert fast == full, level
        # a row whose other cell fails goes to the full check: the same value and errors
        bad = v.check(("C000001", "张三", "phone", level, ""))
        assert bad.values is None and ErrorCode.PATTERN_MISMATCH in {e.code for e in bad.errors}


def test_a_required_column_a_constant_fills_needs_no_header() -> None:
    fills = ColumnFills(constants=MappingProxyType({"phone": "13800000009"}))
    v = _validator(header=["Customer No", "姓名"], fills=fills)
    assert v.check(("C000002", "李四")).values[2] == "13800000009"  # type: ignore[index]
    with pytest.raises(ValueError, match="phone"):
        _validator(header=["Customer No", "姓名"], fills=ColumnFills())


def test_a_header_in_the_file_wins_over_a_constant() -> None:
    fills = ColumnFills(constants=MappingProxyType({"name": "常量"}))
    v = _validator(fills=fills)
    assert "name" not in v.constants
    assert v.check(("C000001", "张三", "13800000001", "", "")).values[1] == "张三"  # type: ignore[index]


def test_in_update_mode_a_constant_is_written_and_a_key_may_be_one() -> None:
    fills = ColumnFills(constants=MappingProxyType({"level": "金卡"}))
    mapping = map_header(CUSTOMERS, ["客户编号", "备注"])
    v = compile_validator(CUSTOMERS, mapping, blanks_keep=True, fills=fills)
    values = dict(zip(v.columns, v.check(("C000003", "")).values or (), strict=True))
    assert values["level"] == "gold" and repr(values["name"]) == "ABSENT" and repr(values["note"]) == "BLANK"


# --- what an import takes of a profile -----------------------------------------------------------------


def test_the_clerks_own_header_overrides_win_over_the_profiles() -> None:
    profile = parse_profile(EXAMPLE.read_text("utf-8"), path="x")
    merged = header_overrides(profile, {" customer no ": "name", "Extra": "note"})
    assert merged == {"Remark": "", " customer no ": "name", "Extra": "note"}
    assert header_overrides(None, {"a": "b"}) == {"a": "b"}


def test_the_profiles_options_fill_what_the_request_does_not_keep() -> None:
    profile = Profile("customers", options=ProfileOptions(delimiter=";", date_order="dmy", mode=ImportMode.UPSERT,
                                                          encoding="gb18030", decimal_comma=True))  # fmt: skip
    version = ProfileVersion("east", 4, profile, saved_by="a")
    request = ImportOptions(Path("f.csv"), "customers", mode=ImportMode.INSERT, delimiter=",")
    options = with_options(request, version, keep={"mode", "delimiter"})
    assert (options.profile, options.profile_version) == ("east", 4)
    assert (options.mode, options.delimiter) == (ImportMode.INSERT, ",")  # the flags given win
    assert (options.date_order, options.encoding, options.decimal_comma) == (DateOrder.DMY, "gb18030", True)
    params = options.to_params()
    assert (params["profile"], params["profile_version"]) == ("east", 4)
    again = ImportOptions.from_params(params, batch_default=1, rows_default=1, mb_default=1)
    assert (again.profile, again.profile_version) == ("east", 4)
    # a request without a profile stores no profile keys (what it always stored)
    assert "profile" not in request.to_params()


def test_a_tasks_mapping_and_options_make_a_profile() -> None:
    params = {"import_type": "customers", "header_overrides": {"Cust": "code", "Junk": ""}, "delimiter": ";",
              "encoding": "gbk", "mode": "update", "blank": "keep", "decimal_comma": False, "sheet": None}  # fmt: skip
    made = from_task(params, base=None, import_type="customers")
    assert dict(made.columns) == {"Cust": "code", "Junk": ""}
    assert made.options == ProfileOptions(encoding="gbk", delimiter=";", mode=ImportMode.UPDATE)
    base = parse_profile(EXAMPLE.read_text("utf-8"), path="x")
    over = from_task({**params, "mode": "insert"}, base=base, import_type="customers")
    assert dict(over.columns) == {"Customer No": "code", "Remark": "", "Cust": "code", "Junk": ""}
    assert over.constants == base.constants and over.values == base.values
    assert over.options == ProfileOptions(encoding="gbk", delimiter=";")  # the task's options alone


@pytest.mark.parametrize(("text", "ref"), [("east", ProfileRef("east")), ("华东 客户@12", ProfileRef("华东 客户", 12)),
                                           (" east@1 ", ProfileRef("east", 1))])  # fmt: skip
def test_a_profile_is_named_with_or_without_its_version(text: str, ref: ProfileRef) -> None:
    assert ProfileRef.parse(text) == ref


@pytest.mark.parametrize("text", ["east@", "east@0", "east@x", "@3", "", "a@b@2"])
def test_a_bad_reference_or_name_is_one_line(text: str) -> None:
    with pytest.raises(PermanentError) as caught:
        ProfileRef.parse(text)
    assert caught.value.code is ErrorCode.PROFILE_INVALID
    one_line(caught.value)


def test_names() -> None:
    assert check_name("  华东 ") == "华东"
    for bad in ("", "a@b", "x" * 101, "a\nb"):
        with pytest.raises(PermanentError):
            check_name(bad)


def test_the_generated_check_reads_a_seen_text_in_one_look_up_and_forgets_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast check asks the map's remembered outputs first; past MEMO_SIZE texts it asks the map itself,
    with the same answers."""
    from desktop_app.imports import fills

    v = _validator()
    assert "c = vget4(c) or vmap4(c)" in v.source  # the level column, the type's fifth
    monkeypatch.setattr(fills, "MEMO_SIZE", 2)
    small = _validator(fills=ColumnFills(values=MappingProxyType({"level": {f"L{i}": "gold" for i in range(50)}})))
    for _ in range(2):
        for i in range(50):
            for cell in (f"L{i}", f"l{i}", f"Ｌ{i}"):
                assert small.check(("C000001", "张三", "13800000001", cell, "")).values[4] == "gold"  # type: ignore[index]
    assert len(small.value_maps["level"].outputs) == 2
