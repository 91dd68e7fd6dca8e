"""Loading and checking import type TOML files."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from desktop_app.imports.import_type import (
    ColumnSpec,
    ImportType,
    ImportTypeError,
    builtin_import_types_dir,
    load_import_type,
    load_import_types,
)

CUSTOMERS = builtin_import_types_dir() / "customers.toml"

# A small valid type; each malformed case below changes one thing in it.
BASE = """\
name = "things"
title_zh = "物品导入"
title_en = "Thing import"
table = "things"
unique_key = "code"

[[columns]]
key = "code"
label_zh = "编号"
label_en = "Code"
aliases = ["编号", "code"]
required = true
normalize = "nfkc"
kind = "text"
pattern = '^T\\d{3}$'

[[columns]]
key = "phone"
label_zh = "手机号"
label_en = "Phone"
aliases = ["手机号", "phone"]
kind = "text"

[[columns]]
key = "size"
label_zh = "尺寸"
label_en = "Size"
aliases = ["尺寸", "size"]
kind = "enum"
default = "s"
enum = { "小" = "s", "大" = "l", "S" = "s", "L" = "l" }
"""


def write(tmp_path: Path, text: str, name: str = "things.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_text(tmp_path: Path, text: str) -> ImportType:
    return load_import_type(write(tmp_path, text))


def error_of(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(ImportTypeError) as info:
        load_import_type(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message  # always names the file
    return message[len(f"{path}: ") :]


# --- the built-in customers type ------------------------------------------------------------------


def test_builtin_dir_holds_customers() -> None:
    assert builtin_import_types_dir() == Path(__file__).resolve().parents[3] / "resources" / "import_types"
    types = load_import_types(builtin_import_types_dir())
    assert "customers" in types
    assert types["customers"].source_path == CUSTOMERS


def test_customers_top_level() -> None:
    it = load_import_type(CUSTOMERS)
    assert it.name == "customers"
    assert it.title("zh") == "客户导入"
    assert it.title("en") == "Customer import"
    assert it.table == "customers"
    assert it.unique_key == "code"
    assert it.keys == (
        "code",
        "name",
        "phone",
        "email",
        "level",
        "opened_on",
        "credit_limit",
        "department",
        "note",
    )
    assert it.required_keys == ("code", "name", "phone")


def test_customers_columns() -> None:
    it = load_import_type(CUSTOMERS)
    assert it.column("code") == ColumnSpec(
        key="code",
        label_zh="客户编号",
        label_en="Customer code",
        aliases=("客户编号", "customer_code", "code"),
        required=True,
        normalize="nfkc",
        kind="text",
        pattern=r"^C\d{6}$",
        max_length=255,  # a text key without max_length: what its VARCHAR(255) holds
        hint_zh="，应为字母 C 加 6 位数字，如 C000123",
        hint_en=", it must be the letter C and 6 digits, e.g. C000123",
    )
    phone = it.column("phone")
    assert phone.aliases == ("手机号", "phone", "mobile")
    assert phone.hint("zh") == "，应为 11 位数字"
    assert phone.hint("en") == ", it must be 11 digits starting with 1"
    assert phone.label("zh") == "手机号"
    assert phone.label("en") == "Phone"

    name = it.column("name")
    assert (name.required, name.normalize, name.min_length, name.max_length) == (True, "trim", 1, 50)
    assert it.column("note").max_length == 200
    assert it.column("note").normalize == "trim"
    assert it.column("email").pattern == r"^[^@\s]+@[^@\s]+\.[^@\s]+$"

    level = it.column("level")
    assert level.kind == "enum"
    assert level.default == "standard"
    assert dict(level.enum_map) == {
        "普通": "standard",
        "银卡": "silver",
        "金卡": "gold",
        "standard": "standard",
        "silver": "silver",
        "gold": "gold",
    }
    assert level.enum_inputs == ("普通", "银卡", "金卡", "standard", "silver", "gold")

    assert it.column("opened_on").kind == "date"
    credit = it.column("credit_limit")
    assert (credit.kind, credit.default, credit.decimal_scale) == ("decimal", "0", 2)
    assert (credit.decimal_min, credit.decimal_max) == (Decimal("0"), Decimal("1000000"))

    dept = it.column("department")
    assert (dept.kind, dept.required, dept.normalize) == ("reference", False, "trim")
    assert (dept.reference_table, dept.reference_column, dept.reference_target) == (
        "departments",
        "name",
        "department_id",
    )
    nfkc = [c.key for c in it.columns if c.normalize == "nfkc"]
    assert nfkc == ["code", "phone", "email", "level", "opened_on", "credit_limit"]


def test_column_lookup_unknown_key() -> None:
    with pytest.raises(KeyError):
        load_import_type(CUSTOMERS).column("nope")


def test_alias_index_is_folded() -> None:
    it = load_import_type(CUSTOMERS)
    assert it.alias_index["customer_code"] == "code"
    assert it.alias_index["mobile"] == "phone"
    assert it.alias_index["手机号"] == "phone"


def test_base_fixture_is_valid(tmp_path: Path) -> None:
    it = load_text(tmp_path, BASE)
    assert it.name == "things"
    # enum inputs are folded case-insensitively
    assert dict(it.column("size").enum_map) == {"小": "s", "大": "l", "s": "s", "l": "l"}
    assert it.column("phone").normalize == "trim"  # the default
    assert it.column("phone").required is False


# --- malformed files ------------------------------------------------------------------------------


def test_error_is_a_value_error() -> None:
    assert issubclass(ImportTypeError, ValueError)


def test_not_toml(tmp_path: Path) -> None:
    assert error_of(tmp_path, BASE + "\nthis is = = not toml\n").startswith("not valid TOML: ")


def test_unknown_rule_kind(tmp_path: Path) -> None:
    text = BASE.replace(
        'aliases = ["手机号", "phone"]\nkind = "text"', 'aliases = ["手机号", "phone"]\nkind = "regexp"'
    )
    assert error_of(tmp_path, text) == (
        "column 'phone': unknown rule kind 'regexp' (expected one of: text, integer, decimal, date, datetime, "
        "boolean, enum, reference)"
    )


def test_bad_regex(tmp_path: Path) -> None:
    text = BASE.replace("pattern = '^T\\d{3}$'", "pattern = '^T(\\d{3}$'")
    assert error_of(tmp_path, text) == (
        "column 'code': bad regex '^T(\\\\d{3}$' in 'pattern': missing ), unterminated subpattern at position 2"
    )


def test_unique_key_names_no_column(tmp_path: Path) -> None:
    text = BASE.replace('unique_key = "code"', 'unique_key = "nope"')
    assert error_of(tmp_path, text) == "unique_key: 'nope' names no column (columns: code, phone, size)"


def test_unique_key_must_be_required(tmp_path: Path) -> None:
    text = BASE.replace('unique_key = "code"', 'unique_key = "phone"')
    assert error_of(tmp_path, text) == "unique_key: column 'phone' must be required = true"


def test_missing_aliases(tmp_path: Path) -> None:
    text = BASE.replace('aliases = ["手机号", "phone"]\n', "")
    assert error_of(tmp_path, text) == (
        "column 'phone': 'aliases' must be a non-empty list of header texts, got nothing"
    )


def test_empty_aliases(tmp_path: Path) -> None:
    text = BASE.replace('aliases = ["手机号", "phone"]', "aliases = []")
    assert error_of(tmp_path, text) == "column 'phone': 'aliases' must be a non-empty list of header texts, got []"


def test_blank_alias(tmp_path: Path) -> None:
    text = BASE.replace('aliases = ["手机号", "phone"]', 'aliases = ["手机号", "  "]')
    assert error_of(tmp_path, text) == "column 'phone': alias '  ' must be a non-empty string"


def test_duplicate_alias_across_columns(tmp_path: Path) -> None:
    # compared like headers: case-insensitive and trimmed
    text = BASE.replace('aliases = ["尺寸", "size"]', 'aliases = ["尺寸", " PHONE "]')
    assert error_of(tmp_path, text) == "column 'size': alias ' PHONE ' is also an alias of column 'phone'"


def test_duplicate_column_key(tmp_path: Path) -> None:
    text = BASE.replace('key = "size"', 'key = "phone"').replace('["尺寸", "size"]', '["尺寸"]')
    assert error_of(tmp_path, text) == "column 'phone': the key is used by another column too"


def test_unknown_setting(tmp_path: Path) -> None:
    text = BASE.replace('kind = "text"\npattern', 'kind = "text"\npatern = "x"\npattern')
    assert error_of(tmp_path, text) == (
        "column 'code': unknown setting(s) 'patern' for kind 'text' (allowed: aliases, default, drop_chars, "
        "hint_en, hint_zh, key, kind, label_en, label_zh, max_length, min_length, normalize, pattern, required, "
        "strip_prefixes)"
    )


def test_setting_of_another_kind(tmp_path: Path) -> None:
    text = BASE.replace('kind = "enum"', 'kind = "enum"\nmax_length = 3')
    assert error_of(tmp_path, text).startswith("column 'size': unknown setting(s) 'max_length' for kind 'enum'")


def test_unknown_top_level_setting(tmp_path: Path) -> None:
    assert error_of(tmp_path, 'colour = "red"\n' + BASE).startswith("unknown setting(s) 'colour' (allowed: ")


def test_bad_normalize(tmp_path: Path) -> None:
    text = BASE.replace('normalize = "nfkc"', 'normalize = "upper"')
    assert error_of(tmp_path, text) == "column 'code': 'normalize' must be one of nfkc, trim, none, not 'upper'"


def test_required_not_bool(tmp_path: Path) -> None:
    text = BASE.replace("required = true", 'required = "yes"')
    assert error_of(tmp_path, text) == "column 'code': 'required' must be true or false, not 'yes'"


def test_missing_label(tmp_path: Path) -> None:
    text = BASE.replace('label_en = "Phone"\n', "")
    assert error_of(tmp_path, text) == "column 'phone': 'label_en' must be a non-empty string, got nothing"


def test_missing_key(tmp_path: Path) -> None:
    text = BASE.replace('key = "phone"\n', "")
    assert error_of(tmp_path, text) == "column #2: 'key' must be a non-empty string, got nothing"


def test_key_not_identifier(tmp_path: Path) -> None:
    text = BASE.replace('key = "phone"', 'key = "phone number"')
    assert error_of(tmp_path, text).startswith("column #2: 'key' must be an identifier")


def test_table_not_identifier(tmp_path: Path) -> None:
    text = BASE.replace('table = "things"', 'table = "things; drop table x"')
    assert error_of(tmp_path, text).startswith("'table' must be an identifier")


def test_no_columns(tmp_path: Path) -> None:
    text = BASE[: BASE.index("[[columns]]")]
    assert error_of(tmp_path, text) == "'columns' must be a non-empty array of tables ([[columns]])"


def test_enum_without_values(tmp_path: Path) -> None:
    text = BASE.replace('enum = { "小" = "s", "大" = "l", "S" = "s", "L" = "l" }', "")
    assert error_of(tmp_path, text) == "column 'size': kind 'enum' needs 'enum' = { input = \"stored value\", ... }"


def test_enum_conflicting_inputs(tmp_path: Path) -> None:
    text = BASE.replace('"S" = "s", "L" = "l"', '"S" = "s", "s" = "l"')
    assert error_of(tmp_path, text) == (
        "column 'size': enum input 's' maps to both 's' and 'l' (inputs compare case-insensitively)"
    )


def test_enum_default_names_a_stored_value_or_an_input(tmp_path: Path) -> None:
    # an input as the default stands for its stored value, as that cell would
    assert load_text(tmp_path, BASE.replace('default = "s"', 'default = "大"')).column("size").default == "l"
    assert load_text(tmp_path, BASE.replace('default = "s"', 'default = "l"')).column("size").default == "l"


def test_enum_default_not_a_value(tmp_path: Path) -> None:
    text = BASE.replace('default = "s"', 'default = "中"')
    assert error_of(tmp_path, text) == (
        "column 'size': default '中' must be one of the stored enum values ['l', 's'] or one of the inputs"
    )


def test_default_on_required_column(tmp_path: Path) -> None:
    text = BASE.replace("required = true", 'required = true\ndefault = "T000"')
    assert error_of(tmp_path, text) == "column 'code': a required column cannot have a 'default'"


def test_text_default_must_pass_pattern(tmp_path: Path) -> None:
    text = (
        BASE.replace('unique_key = "code"', 'unique_key = "phone"')
        .replace('aliases = ["编号", "code"]\nrequired = true', 'aliases = ["编号", "code"]\ndefault = "X"')
        .replace('aliases = ["手机号", "phone"]', 'aliases = ["手机号", "phone"]\nrequired = true')
    )
    assert error_of(tmp_path, text) == "column 'code': default 'X' does not match 'pattern'"


def test_min_length_over_max_length(tmp_path: Path) -> None:
    text = BASE.replace('kind = "text"\n\n', 'kind = "text"\nmin_length = 5\nmax_length = 2\n\n')
    assert error_of(tmp_path, text) == "column 'phone': min_length 5 is greater than max_length 2"


def test_negative_length(tmp_path: Path) -> None:
    text = BASE.replace('kind = "text"\n\n', 'kind = "text"\nmax_length = -1\n\n')
    assert error_of(tmp_path, text) == "column 'phone': 'max_length' must be a whole number >= 0, not -1"


DECIMAL = """
[[columns]]
key = "price"
label_zh = "价格"
label_en = "Price"
aliases = ["价格", "price"]
kind = "decimal"
"""


def test_decimal_needs_scale(tmp_path: Path) -> None:
    assert error_of(tmp_path, BASE + DECIMAL) == (
        "column 'price': 'decimal_scale' (the most decimal places allowed) is required"
    )


def test_decimal_min_over_max(tmp_path: Path) -> None:
    text = BASE + DECIMAL + 'decimal_scale = 2\ndecimal_min = 10\ndecimal_max = "5.5"\n'
    assert error_of(tmp_path, text) == "column 'price': decimal_min 10 is greater than decimal_max 5.5"


def test_decimal_bound_not_a_number(tmp_path: Path) -> None:
    text = BASE + DECIMAL + 'decimal_scale = 2\ndecimal_max = "lots"\n'
    assert error_of(tmp_path, text) == "column 'price': 'decimal_max' must be a finite number, not 'lots'"


def test_decimal_default_scale(tmp_path: Path) -> None:
    text = BASE + DECIMAL + 'decimal_scale = 1\ndefault = "0.25"\n'
    assert error_of(tmp_path, text) == "column 'price': default '0.25' has more than 1 decimal places"


def test_decimal_ok(tmp_path: Path) -> None:
    text = BASE + DECIMAL + 'decimal_scale = 3\ndecimal_min = -1.5\ndecimal_max = 100\ndefault = "1.125"\n'
    price = load_text(tmp_path, text).column("price")
    assert (price.decimal_scale, price.decimal_min, price.decimal_max, price.default) == (
        3,
        Decimal("-1.5"),
        Decimal("100"),
        "1.125",
    )


@pytest.mark.parametrize(
    ("settings", "bounds"),
    [
        ("decimal_scale = 2\n", ("-9999999999999.99", "9999999999999.99")),  # 15 digits: what SQLite keeps
        ("decimal_scale = 0\ndecimal_min = 0\n", ("0", "999999999999999")),
        ("decimal_scale = 2\ndecimal_min = 100000000000000\n", ("100000000000000", "999999999999999.99")),
        ("decimal_scale = 20\ndecimal_max = 1\n", ("-9.99999999999999999999", "1")),
    ],
)  # fmt: skip
def test_an_open_decimal_bound_is_what_the_column_holds(tmp_path: Path, settings: str,
                                                        bounds: tuple[str, str]) -> None:  # fmt: skip
    # the effective bounds are on the ColumnSpec: every checker of the column sees them
    price = load_text(tmp_path, BASE + DECIMAL + settings).column("price")
    assert (price.decimal_min, price.decimal_max) == tuple(Decimal(b) for b in bounds)


def test_a_text_key_without_max_length_holds_255_characters(tmp_path: Path) -> None:
    it = load_text(tmp_path, BASE.replace("pattern = '^T\\d{3}$'\n", ""))
    assert (it.column("code").max_length, it.column("phone").max_length) == (255, None)  # the key's VARCHAR(255)
    text = BASE.replace("pattern = '^T\\d{3}$'", "min_length = 300")
    assert error_of(tmp_path, text) == (
        "column 'code': min_length 300 is more than the 255 characters a key column without max_length holds"
    )


def test_reference_needs_table(tmp_path: Path) -> None:
    text = (
        BASE
        + """
[[columns]]
key = "dept"
label_zh = "部门"
label_en = "Department"
aliases = ["部门"]
kind = "reference"
reference_column = "name"
reference_target = "dept_id"
"""
    )
    assert error_of(tmp_path, text) == "column 'dept': 'reference_table' must be a non-empty string, got nothing"


def test_duplicate_type_names_in_folder(tmp_path: Path) -> None:
    first = write(tmp_path, BASE, "a.toml")
    second = write(tmp_path, BASE, "b.toml")
    with pytest.raises(ImportTypeError) as info:
        load_import_types(tmp_path)
    assert str(info.value) == f"{second}: import type name 'things' is already declared by {first}"


def test_folder_loads_every_toml(tmp_path: Path) -> None:
    write(tmp_path, BASE, "a.toml")
    write(tmp_path, BASE.replace('name = "things"', 'name = "others"'), "b.toml")
    write(tmp_path, "not an import type", "readme.txt")
    assert sorted(load_import_types(tmp_path)) == ["others", "things"]


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ImportTypeError, match="does not exist"):
        load_import_types(tmp_path / "nope")


REFERENCE = """
[[columns]]
key = "dept"
label_zh = "部门"
label_en = "Department"
aliases = ["部门"]
kind = "reference"
reference_table = "departments"
reference_column = "name"
reference_target = "dept_id"
"""


def test_a_reference_may_let_clerks_add_names(tmp_path: Path) -> None:
    from desktop_app.imports.table_spec import references_of

    assert load_import_type(CUSTOMERS).column("department").allow_add is True
    plain = load_text(tmp_path, BASE + REFERENCE)
    assert plain.column("dept").allow_add is False and references_of(plain)[0].allow_add is False
    allowed = load_text(tmp_path, BASE + REFERENCE + "allow_add = true\n")
    assert allowed.column("dept").allow_add is True and references_of(allowed)[0].allow_add is True
    assert error_of(tmp_path, BASE + REFERENCE + 'allow_add = "yes"\n') == (
        "column 'dept': 'allow_add' must be true or false, not 'yes'"
    )
    text_column = BASE.replace('key = "code"', 'key = "code"\nallow_add = true', 1)
    assert "allow_add" in error_of(tmp_path, text_column)
