"""Reading and checking an import type file: every mistake named with the file, the column and the fix."""

from __future__ import annotations

import datetime
import functools
import io
import re
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal, InvalidOperation, localcontext
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from desktop_app.domain.table_spec import SQLITE_DECIMAL_DIGITS
from desktop_app.imports.import_type import (
    _EMPTY_MAP,
    BOOKKEEPING_COLUMNS,
    KINDS,
    NORMALIZE_MODES,
    PATTERN_FLAGS,
    ColumnSpec,
    ImportType,
    ImportTypeError,
    Kind,
    fold_header,
    fold_value,
)
from desktop_app.imports.regional import DATE_FORMS, DateForm

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?")
_DECIMAL_TEXT = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_TOP_LEVEL = frozenset({"name", "title_zh", "title_en", "table", "unique_key", "columns", "create"})
_COMMON = frozenset(
    {"key", "label_zh", "label_en", "aliases", "required", "normalize", "kind", "default", "hint_zh", "hint_en"}
)
_PER_KIND: Final[Mapping[str, frozenset[str]]] = {
    Kind.TEXT: frozenset({"pattern", "min_length", "max_length", "drop_chars", "strip_prefixes"}),
    Kind.INTEGER: frozenset({"integer_min", "integer_max", "thousands"}),
    Kind.DECIMAL: frozenset({"decimal_scale", "decimal_min", "decimal_max", "thousands", "currency", "percent"}),
    Kind.DATE: frozenset({"date_formats"}),
    Kind.DATETIME: frozenset({"date_formats"}),
    Kind.BOOLEAN: frozenset(),
    Kind.ENUM: frozenset({"enum"}),
    Kind.REFERENCE: frozenset(
        {"reference_table", "reference_column", "reference_target", "allow_add", "min_length", "max_length"}
    ),
}
# A key's text (its columns' values joined) is kept in BatchDesk's bookkeeping, indexed: it must fit.
KEY_TEXT_LIMIT: Final = 700
KEY_KINDS: Final = (Kind.TEXT, Kind.INTEGER, Kind.DATE, Kind.DATETIME, Kind.ENUM)
DEFAULT_KEY_LENGTH: Final = 255  # a text key without max_length is stored as VARCHAR(255)
BIGINT_MIN, BIGINT_MAX = -(2**63), 2**63 - 1


def load_file(path: Path) -> ImportType:
    """Load and check one import type file."""
    try:
        content = path.read_bytes()
    except OSError as exc:
        raise ImportTypeError(f"{path}: cannot be read: {exc}") from exc
    return _checked(path, content)


@functools.lru_cache(maxsize=256)
def _checked(path: Path, content: bytes) -> ImportType:
    """A file's type, parsed once per process for the same path and the same bytes (an ImportType is
    frozen): each core built loads the catalog, and TOML parsed in Python is most of a core's start."""
    try:
        data = tomllib.load(io.BytesIO(content))
    except tomllib.TOMLDecodeError as exc:
        raise ImportTypeError(f"{path}: not valid TOML: {exc}") from exc
    return _Parser(path).import_type(data)


def load_folder(directory: Path) -> dict[str, ImportType]:
    """Every ``*.toml`` of a folder, by name; a broken file or two files declaring one name raise."""
    if not directory.is_dir():
        raise ImportTypeError(f"{directory}: the import type folder does not exist")
    types: dict[str, ImportType] = {}
    for path in sorted(directory.glob("*.toml")):
        it = load_file(path)
        if it.name in types:
            raise ImportTypeError(
                f"{path}: import type name {it.name!r} is already declared by {types[it.name].source_path}"
            )
        types[it.name] = it
    return types


def decimal_bounds(scale: int, low: Decimal | None, high: Decimal | None) -> tuple[Decimal, Decimal]:
    """A decimal column's effective bounds: the declared ones, and for a side left open what the
    stored NUMERIC holds, 15 significant digits (all SQLite keeps), or as many digits before the
    point as the other side's bound has: 9999999999999.99 with 2 decimal places."""
    if low is not None and high is not None:
        return low, high
    digits = max(1, SQLITE_DECIMAL_DIGITS - scale, *(integer_digits(b) for b in (low, high) if b is not None))
    with localcontext(prec=digits + scale + 1):  # exact: 28 digits would round 10 - 1e-30 to 10
        largest = Decimal(10) ** digits - Decimal(1).scaleb(-scale)
    return (largest.copy_negate() if low is None else low), (largest if high is None else high)


def integer_digits(value: Decimal) -> int:
    """How many digits a number has before its decimal point (at least 1)."""
    whole = abs(int(value))
    return len(str(whole)) if whole else 1


def key_text_length(spec: ColumnSpec) -> int:
    """The longest text one key column can take in the bookkeeping's key text."""
    if spec.kind == Kind.INTEGER:
        return 20
    if spec.kind == Kind.DATE:
        return 10
    if spec.kind == Kind.DATETIME:
        return 19
    if spec.kind == Kind.ENUM:
        return max(len(v) for v in spec.enum_map.values())
    return spec.max_length if spec.max_length is not None else DEFAULT_KEY_LENGTH


class _Parser:
    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, where: str, problem: str) -> ImportTypeError:
        if not where:
            return ImportTypeError(f"{self.path}: {problem}")
        return ImportTypeError(f"{self.path}: {where}: {problem}")

    # -- top level --------------------------------------------------------------------------------

    def import_type(self, data: dict[str, Any]) -> ImportType:
        unknown = sorted(set(data) - _TOP_LEVEL)
        if unknown:
            raise self.fail(
                "",
                f"unknown setting(s) {', '.join(map(repr, unknown))} (allowed: {', '.join(sorted(_TOP_LEVEL))})",
            )
        name = self.identifier(data, "name", "")
        title_zh = self.text(data, "title_zh", "")
        title_en = self.text(data, "title_en", "")
        table = self.text(data, "table", "")
        if not _TABLE.fullmatch(table):
            raise self.fail("", f"'table' must be an identifier or schema.table (letters, digits, _), got {table!r}")
        create = data.get("create", True)
        if not isinstance(create, bool):
            raise self.fail("", f"'create' must be true or false, not {create!r}")
        unique_keys = self.unique_keys(data)
        raw_columns = data.get("columns")
        if not isinstance(raw_columns, list) or not raw_columns:
            raise self.fail("", "'columns' must be a non-empty array of tables ([[columns]])")

        columns: list[ColumnSpec] = []
        seen_alias: dict[str, str] = {}
        for number, raw in enumerate(raw_columns, start=1):
            if not isinstance(raw, dict):
                raise self.fail(f"column #{number}", "must be a table ([[columns]])")
            col = self.column(raw, number)
            if any(c.key == col.key for c in columns):
                raise self.fail(f"column {col.key!r}", "the key is used by another column too")
            for alias in col.aliases:
                folded = fold_header(alias)
                other = seen_alias.get(folded)
                if other is not None and other != col.key:
                    raise self.fail(f"column {col.key!r}", f"alias {alias!r} is also an alias of column {other!r}")
                seen_alias[folded] = col.key
            columns.append(col)

        by_key = {c.key: c for c in columns}
        self.check_names(columns)
        for key in unique_keys:
            if key not in by_key:
                raise self.fail("unique_key", f"{key!r} names no column (columns: {', '.join(by_key)})")
            spec = by_key[key]
            if not spec.required:
                raise self.fail("unique_key", f"column {key!r} must be required = true")
            if spec.kind not in KEY_KINDS:
                raise self.fail(
                    "unique_key",
                    f"column {key!r} is of kind {spec.kind!r}; a key column must be "
                    f"{', '.join(k.value for k in KEY_KINDS)}",
                )
        for key in unique_keys:
            spec = by_key[key]
            if spec.kind == Kind.TEXT and spec.max_length is None:
                # The key is stored as VARCHAR(255): a longer key is that row's too_long, on every
                # back-end, and every checker of the column sees the limit (ColumnSpec.max_length).
                if spec.min_length is not None and spec.min_length > DEFAULT_KEY_LENGTH:
                    raise self.fail(
                        f"column {key!r}",
                        f"min_length {spec.min_length} is more than the {DEFAULT_KEY_LENGTH} characters a key "
                        "column without max_length holds",
                    )
                by_key[key] = replace(spec, max_length=DEFAULT_KEY_LENGTH)
        columns = [by_key[c.key] for c in columns]
        length = sum(key_text_length(by_key[k]) + 1 for k in unique_keys)
        if length > KEY_TEXT_LIMIT:
            raise self.fail(
                "unique_key",
                f"the key can be {length} characters long, more than {KEY_TEXT_LIMIT}: give its text columns a "
                "smaller max_length",
            )
        return ImportType(
            name=name,
            title_zh=title_zh,
            title_en=title_en,
            table=table,
            columns=tuple(columns),
            unique_keys=unique_keys,
            source_path=self.path,
            create=create,
        )

    def unique_keys(self, data: Mapping[str, Any]) -> tuple[str, ...]:
        value = data.get("unique_key")
        if isinstance(value, list):
            if not value:
                raise self.fail("", "'unique_key' must name at least one column")
            for item in value:
                if not isinstance(item, str) or not _IDENTIFIER.fullmatch(item):
                    raise self.fail("", f"'unique_key' must list column keys, got {item!r}")
            if len(set(value)) != len(value):
                raise self.fail("", f"'unique_key' names a column twice: {value!r}")
            return tuple(value)
        return (self.identifier(data, "unique_key", ""),)

    def check_names(self, columns: list[ColumnSpec]) -> None:
        """Column and reference-target names must not collide with each other or with BatchDesk's own."""
        reserved = BOOKKEEPING_COLUMNS
        keys = {c.key for c in columns}
        targets: set[str] = set()
        for col in columns:
            if col.key in reserved:
                raise self.fail(f"column {col.key!r}", f"the name {col.key!r} is kept for BatchDesk's own bookkeeping")
            target = col.reference_target
            if target is None:
                continue
            if target in keys or target in targets or target in reserved:
                raise self.fail(f"column {col.key!r}", f"reference_target {target!r} is already a column's name")
            targets.add(target)

    # -- one column -------------------------------------------------------------------------------

    def column(self, raw: dict[str, Any], number: int) -> ColumnSpec:
        where = f"column #{number}"
        key = self.identifier(raw, "key", where)
        where = f"column {key!r}"

        kind = raw.get("kind", "text")
        if kind not in KINDS:
            raise self.fail(where, f"unknown rule kind {kind!r} (expected one of: {', '.join(KINDS)})")
        allowed = _COMMON | _PER_KIND[kind]
        unknown = sorted(set(raw) - allowed)
        if unknown:
            raise self.fail(
                where,
                f"unknown setting(s) {', '.join(map(repr, unknown))} for kind {kind!r} "
                f"(allowed: {', '.join(sorted(allowed))})",
            )

        label_zh = self.text(raw, "label_zh", where)
        label_en = self.text(raw, "label_en", where)
        aliases = self.aliases(raw, where)
        required = raw.get("required", False)
        if not isinstance(required, bool):
            raise self.fail(where, f"'required' must be true or false, not {required!r}")
        normalize = raw.get("normalize", "trim")
        if normalize not in NORMALIZE_MODES:
            raise self.fail(where, f"'normalize' must be one of {', '.join(NORMALIZE_MODES)}, not {normalize!r}")
        hint_zh = self.text(raw, "hint_zh", where, optional=True) or ""
        hint_en = self.text(raw, "hint_en", where, optional=True) or ""
        default = raw.get("default")
        if default is not None:
            if isinstance(default, bool | int | float) and not isinstance(default, str):
                default = str(default).lower() if isinstance(default, bool) else str(default)
            if not isinstance(default, str) or not default.strip():
                raise self.fail(where, f"'default' must be a non-empty string, not {default!r}")
            if required:
                raise self.fail(where, "a required column cannot have a 'default'")

        pattern = self.pattern(raw, where)
        min_length = self.count(raw, "min_length", where)
        max_length = self.count(raw, "max_length", where)
        if min_length is not None and max_length is not None and min_length > max_length:
            raise self.fail(where, f"min_length {min_length} is greater than max_length {max_length}")

        enum_map: Mapping[str, str] = _EMPTY_MAP
        enum_inputs: tuple[str, ...] = ()
        if kind == Kind.ENUM:
            enum_map, enum_inputs = self.enum(raw, where)

        decimal_scale = decimal_min = decimal_max = None
        if kind == Kind.DECIMAL:
            decimal_scale = self.count(raw, "decimal_scale", where)
            if decimal_scale is None:
                raise self.fail(where, "'decimal_scale' (the most decimal places allowed) is required")
            if decimal_scale > 30:
                raise self.fail(where, "'decimal_scale' must be at most 30")
            decimal_min = self.decimal(raw, "decimal_min", where)
            decimal_max = self.decimal(raw, "decimal_max", where)
            if decimal_min is not None and decimal_max is not None and decimal_min > decimal_max:
                raise self.fail(where, f"decimal_min {decimal_min} is greater than decimal_max {decimal_max}")
            # What the stored NUMERIC holds bounds a side left open: a larger number is that row's
            # out_of_range, and every checker of the column sees the bound (ColumnSpec.decimal_min/max).
            decimal_min, decimal_max = decimal_bounds(decimal_scale, decimal_min, decimal_max)

        integer_min = integer_max = None
        if kind == Kind.INTEGER:
            integer_min = self.integer(raw, "integer_min", where)
            integer_max = self.integer(raw, "integer_max", where)
            if integer_min is not None and integer_max is not None and integer_min > integer_max:
                raise self.fail(where, f"integer_min {integer_min} is greater than integer_max {integer_max}")

        reference_table = reference_column = reference_target = None
        allow_add = False
        if kind == Kind.REFERENCE:
            allow_add = raw.get("allow_add", False)
            if not isinstance(allow_add, bool):
                raise self.fail(where, f"'allow_add' must be true or false, not {allow_add!r}")
            reference_table = self.text(raw, "reference_table", where)
            if not _TABLE.fullmatch(reference_table):
                raise self.fail(
                    where, f"'reference_table' must be an identifier or schema.table, not {reference_table!r}"
                )
            reference_column = self.identifier(raw, "reference_column", where)
            reference_target = self.identifier(raw, "reference_target", where)

        regional = self.regional(raw, kind, where)
        spec = ColumnSpec(
            key=key,
            label_zh=label_zh,
            label_en=label_en,
            aliases=aliases,
            required=required,
            normalize=normalize,
            kind=kind,
            pattern=pattern,
            min_length=min_length,
            max_length=max_length,
            enum_map=enum_map,
            enum_inputs=enum_inputs,
            default=default,
            decimal_scale=decimal_scale,
            decimal_min=decimal_min,
            decimal_max=decimal_max,
            integer_min=integer_min,
            integer_max=integer_max,
            reference_table=reference_table,
            reference_column=reference_column,
            reference_target=reference_target,
            allow_add=allow_add,
            hint_zh=hint_zh,
            hint_en=hint_en,
            **regional,
        )
        if default is not None:
            spec = self.check_default(spec, default, where)
        return spec

    def regional(self, raw: Mapping[str, Any], kind: str, where: str) -> dict[str, Any]:
        """The regional spellings a column accepts (desktop_app.imports.regional), checked."""
        found: dict[str, Any] = {}
        forms = self.strings(raw, "date_formats", where)
        for form in forms:
            if form not in DATE_FORMS:
                raise self.fail(
                    where, f"unknown date format {form!r} in 'date_formats' (known: {', '.join(DATE_FORMS)})"
                )
            if form == DateForm.MIDNIGHT and kind == Kind.DATETIME:
                raise self.fail(where, "'midnight' is for date columns: a datetime column takes any time already")
        if forms:
            found["date_formats"] = forms
        for name in ("thousands", "percent"):
            value = raw.get(name, False)
            if not isinstance(value, bool):
                raise self.fail(where, f"{name!r} must be true or false, not {value!r}")
            if value:
                found[name] = True
        currency = self.strings(raw, "currency", where)
        for sign in currency:
            if any(c.isdigit() or c.isspace() or c in "+-.,%" for c in sign):
                raise self.fail(where, f"currency sign {sign!r} must not hold digits, spaces or + - . , %")
        if currency:
            found["currency"] = currency
        drop = raw.get("drop_chars")
        if drop is not None:
            if not isinstance(drop, str) or not drop:
                raise self.fail(where, f"'drop_chars' must be a non-empty string of characters, not {drop!r}")
            found["drop_chars"] = drop
        prefixes = self.strings(raw, "strip_prefixes", where)
        if prefixes:
            found["strip_prefixes"] = prefixes
        return found

    # -- setting helpers --------------------------------------------------------------------------

    def strings(self, raw: Mapping[str, Any], name: str, where: str) -> tuple[str, ...]:
        """An optional non-empty list of distinct non-empty strings; () when the setting is absent."""
        value = raw.get(name)
        if value is None:
            return ()
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
            raise self.fail(where, f"{name!r} must be a non-empty list of non-empty strings, not {value!r}")
        if len(set(value)) != len(value):
            raise self.fail(where, f"{name!r} lists a value twice: {value!r}")
        return tuple(value)

    def text(self, raw: Mapping[str, Any], name: str, where: str, *, optional: bool = False) -> str:
        value = raw.get(name)
        if value is None and optional:
            return ""
        if not isinstance(value, str) or (not optional and not value.strip()):
            got = "nothing" if value is None else repr(value)
            raise self.fail(where, f"{name!r} must be a non-empty string, got {got}")
        return value

    def identifier(self, raw: Mapping[str, Any], name: str, where: str) -> str:
        value = self.text(raw, name, where)
        if not _IDENTIFIER.fullmatch(value):
            raise self.fail(
                where,
                f"{name!r} must be an identifier (letters, digits, _; not starting with a digit), got {value!r}",
            )
        return value

    def aliases(self, raw: Mapping[str, Any], where: str) -> tuple[str, ...]:
        value = raw.get("aliases")
        if not isinstance(value, list) or not value:
            got = "nothing" if value is None else repr(value)
            raise self.fail(where, f"'aliases' must be a non-empty list of header texts, got {got}")
        for alias in value:
            if not isinstance(alias, str) or not fold_header(alias):
                raise self.fail(where, f"alias {alias!r} must be a non-empty string")
        return tuple(value)

    def pattern(self, raw: Mapping[str, Any], where: str) -> str | None:
        value = raw.get("pattern")
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            raise self.fail(where, f"'pattern' must be a non-empty string, not {value!r}")
        try:
            re.compile(value, PATTERN_FLAGS)
        except re.error as exc:
            raise self.fail(where, f"bad regex {value!r} in 'pattern': {exc}") from exc
        return value

    def count(self, raw: Mapping[str, Any], name: str, where: str) -> int | None:
        value = raw.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self.fail(where, f"{name!r} must be a whole number >= 0, not {value!r}")
        return value

    def integer(self, raw: Mapping[str, Any], name: str, where: str) -> int | None:
        value = raw.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not BIGINT_MIN <= value <= BIGINT_MAX:
            raise self.fail(where, f"{name!r} must be a whole number (a 64-bit integer), not {value!r}")
        return value

    def decimal(self, raw: Mapping[str, Any], name: str, where: str) -> Decimal | None:
        value = raw.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise self.fail(where, f"{name!r} must be a number or a decimal string, not {value!r}")
        text = repr(value) if isinstance(value, float) else str(value)
        try:
            result = Decimal(text)
        except InvalidOperation:
            result = Decimal("NaN")
        if not result.is_finite():
            raise self.fail(where, f"{name!r} must be a finite number, not {value!r}")
        return result

    def enum(self, raw: Mapping[str, Any], where: str) -> tuple[Mapping[str, str], tuple[str, ...]]:
        value = raw.get("enum")
        if not isinstance(value, dict) or not value:
            raise self.fail(where, "kind 'enum' needs 'enum' = { input = \"stored value\", ... }")
        folded: dict[str, str] = {}
        for text, stored in value.items():
            if not isinstance(stored, str) or not stored:
                raise self.fail(where, f"enum value for {text!r} must be a non-empty string, not {stored!r}")
            key = fold_value(text, "nfkc")
            if not key:
                raise self.fail(where, "an enum input must not be empty")
            if folded.get(key, stored) != stored:
                raise self.fail(
                    where,
                    f"enum input {text!r} maps to both {folded[key]!r} and {stored!r} "
                    "(inputs compare case-insensitively)",
                )
            folded[key] = stored
        return MappingProxyType(folded), tuple(value)

    def check_default(self, spec: ColumnSpec, default: str, where: str) -> ColumnSpec:
        """The column with its default checked; an enum's default as the stored value it stands for."""
        problem: str | None = None
        if spec.kind == Kind.ENUM:
            stored = set(spec.enum_map.values())
            # A stored value as it is, else an input as a cell would give it: "G" or "绿" for 绿 = G
            # (a text that is both a stored value and another value's input is the stored value).
            resolved = default if default in stored else spec.enum_map.get(fold_value(default, "nfkc"))
            if resolved is None:
                problem = f"must be one of the stored enum values {sorted(stored)} or one of the inputs"
            else:
                spec = replace(spec, default=resolved)
        elif spec.kind == Kind.DATE:
            try:
                if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", default):
                    raise ValueError(default)
                datetime.date.fromisoformat(default)
            except ValueError:
                problem = "must be a date written YYYY-MM-DD"
        elif spec.kind == Kind.DECIMAL:
            if not _DECIMAL_TEXT.fullmatch(default):
                problem = "must be a plain decimal number"
            else:
                value = Decimal(default)
                places = len(default.partition(".")[2])
                if spec.decimal_scale is not None and places > spec.decimal_scale:
                    problem = f"has more than {spec.decimal_scale} decimal places"
                elif (spec.decimal_min is not None and value < spec.decimal_min) or (
                    spec.decimal_max is not None and value > spec.decimal_max
                ):
                    problem = f"is outside the column's range {spec.decimal_min}..{spec.decimal_max}"
        elif spec.kind in (Kind.INTEGER, Kind.DATETIME, Kind.BOOLEAN):
            from desktop_app.imports.validator import column_checker

            _, error = column_checker(replace(spec, default=None))(default)
            if error is not None:
                problem = f"does not pass the column's own rules ({error.message_for(spec, 'en')})"
        else:
            if spec.max_length is not None and len(default) > spec.max_length:
                problem = f"is longer than max_length {spec.max_length}"
            elif spec.min_length is not None and len(default) < spec.min_length:
                problem = f"is shorter than min_length {spec.min_length}"
            elif spec.pattern is not None and not re.fullmatch(spec.pattern, default, PATTERN_FLAGS):
                problem = "does not match 'pattern'"
        if problem:
            raise self.fail(where, f"default {default!r} {problem}")
        return spec
