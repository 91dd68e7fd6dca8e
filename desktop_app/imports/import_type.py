"""Import types: declarative TOML files that say how a spreadsheet becomes rows of a table.

An import type lives in ``resources/import_types/<name>.toml``; adding one needs no code. It is
loaded once at start-up and checked thoroughly: any mistake raises :class:`ImportTypeError` naming
the file, the column and what is wrong, so a broken file never reaches a clerk's import.

Top-level settings (all required)::

    name        identifier of the type (unique across the folder), e.g. "customers"
    title_zh    title shown to the clerk, in Chinese and English
    title_en
    table       target table
    unique_key  key of the (required) column that identifies a row; the pipeline rejects a row whose
                key appears earlier in the file (duplicate_in_file) or is already in the table
                (already_exists)
    columns     array of tables, one per column, in insert order

Column settings::

    key         identifier; the column of the target table receiving the value       (required)
    label_zh    name of the column in messages ({column}), Chinese and English         (required)
    label_en
    aliases     non-empty list of header texts naming the column; matched trimmed, without a
                BOM, NFKC-folded and case-insensitively; an alias may name one column only (required)
    required    bool, default false: an empty cell is a row error (required_missing)
    normalize   "nfkc" (NFKC, so full-width digits/letters become ASCII, then trim) | "trim" | "none";
                default "trim"
    kind        "text" (default) | "enum" | "date" | "decimal" | "reference"
    default     value used for an empty optional cell (not allowed on a required column); it must
                itself pass the column's rules (for an enum: one of the stored values)
    hint_zh     text appended to the pattern_mismatch message ({hint}), e.g. "，应为 11 位数字"
    hint_en

    kind "text":       pattern (Python regex, matched against the whole value; \\d \\w \\s are ASCII),
                       min_length, max_length (characters, after normalising)
    kind "enum":       enum = { input = stored, ... } (inputs match case-insensitively)
    kind "date":       no settings: YYYY-MM-DD or YYYY/MM/DD (month/day 1 or 2 digits) or a date cell
    kind "decimal":    decimal_scale (max decimal places, required), decimal_min, decimal_max
                       (numbers or decimal strings; inclusive)
    kind "reference":  reference_table, reference_column (the key looked up), reference_target
                       (column of ``table`` the pipeline fills after commit), min_length, max_length;
                       never a row error: the raw text is stored and resolved after commit
"""

from __future__ import annotations

import datetime
import re
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

__all__ = [
    "KINDS",
    "NORMALIZE_MODES",
    "ColumnSpec",
    "ImportType",
    "ImportTypeError",
    "builtin_import_types_dir",
    "fold_header",
    "fold_value",
    "load_import_type",
    "load_import_types",
    "normalize_text",
]

KINDS: Final = ("text", "enum", "date", "decimal", "reference")
NORMALIZE_MODES: Final = ("nfkc", "trim", "none")
PATTERN_FLAGS: Final = re.ASCII

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DECIMAL_TEXT = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_TOP_LEVEL = frozenset({"name", "title_zh", "title_en", "table", "unique_key", "columns"})
_COMMON = frozenset(
    {
        "key",
        "label_zh",
        "label_en",
        "aliases",
        "required",
        "normalize",
        "kind",
        "default",
        "hint_zh",
        "hint_en",
    }
)
_PER_KIND: Final[Mapping[str, frozenset[str]]] = {
    "text": frozenset({"pattern", "min_length", "max_length"}),
    "enum": frozenset({"enum"}),
    "date": frozenset(),
    "decimal": frozenset({"decimal_scale", "decimal_min", "decimal_max"}),
    "reference": frozenset({"reference_table", "reference_column", "reference_target", "min_length", "max_length"}),
}
_EMPTY_MAP: Final[Mapping[str, str]] = MappingProxyType({})


class ImportTypeError(ValueError):
    """An import type file is malformed; the message names the file, the column and the problem."""


def fold_header(text: str) -> str:
    """How header texts and aliases are compared: no BOM, NFKC, trimmed, case-folded."""
    text = text.replace("\ufeff", "")
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return text.strip().casefold()


def fold_value(text: str, normalize: str) -> str:
    """A cell's text normalised as the column says, then case-folded (how enum inputs compare)."""
    return normalize_text(text, normalize).casefold()


def normalize_text(text: str, normalize: str) -> str:
    """Apply a column's ``normalize`` setting to a cell's text."""
    if normalize == "none":
        return text
    if normalize == "nfkc" and not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return text.strip()


@dataclass(frozen=True)
class ColumnSpec:
    """One column of an import type, with its rule settings (see the module docstring)."""

    key: str
    label_zh: str
    label_en: str
    aliases: tuple[str, ...]
    required: bool
    normalize: str  # "nfkc" | "trim" | "none"
    kind: str  # "text" | "enum" | "date" | "decimal" | "reference"
    pattern: str | None = None
    min_length: int | None = None
    max_length: int | None = None
    # folded input (NFKC + casefold) -> stored value; enum_inputs keeps the inputs as written, in order
    enum_map: Mapping[str, str] = field(default_factory=lambda: _EMPTY_MAP, hash=False)
    enum_inputs: tuple[str, ...] = ()
    default: str | None = None
    decimal_scale: int | None = None
    decimal_min: Decimal | None = None
    decimal_max: Decimal | None = None
    reference_table: str | None = None
    reference_column: str | None = None
    reference_target: str | None = None
    hint_zh: str = ""
    hint_en: str = ""

    def label(self, lang: str) -> str:
        return self.label_zh if lang == "zh" else self.label_en

    def hint(self, lang: str) -> str:
        return self.hint_zh if lang == "zh" else self.hint_en


@dataclass(frozen=True)
class ImportType:
    """A loaded, checked import type."""

    name: str
    title_zh: str
    title_en: str
    table: str
    columns: tuple[ColumnSpec, ...]
    unique_key: str
    source_path: Path
    # folded alias -> column key (derived)
    alias_index: Mapping[str, str] = field(init=False, repr=False, compare=False, hash=False)
    _by_key: Mapping[str, ColumnSpec] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        by_key = {c.key: c for c in self.columns}
        aliases = {fold_header(a): c.key for c in self.columns for a in c.aliases}
        object.__setattr__(self, "_by_key", MappingProxyType(by_key))
        object.__setattr__(self, "alias_index", MappingProxyType(aliases))

    def column(self, key: str) -> ColumnSpec:
        """The column with this key; KeyError if there is none."""
        return self._by_key[key]

    def title(self, lang: str) -> str:
        return self.title_zh if lang == "zh" else self.title_en

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.columns)

    @property
    def required_keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.columns if c.required)


def builtin_import_types_dir() -> Path:
    """resources/import_types, in a checkout or inside the frozen bundle."""
    from desktop_app.config import resources_dir

    return resources_dir() / "import_types"


def load_import_types(directory: Path) -> dict[str, ImportType]:
    """Every ``*.toml`` of a folder, by name; two files declaring the same name is an error."""
    if not directory.is_dir():
        raise ImportTypeError(f"{directory}: the import type folder does not exist")
    types: dict[str, ImportType] = {}
    for path in sorted(directory.glob("*.toml")):
        it = load_import_type(path)
        if it.name in types:
            raise ImportTypeError(
                f"{path}: import type name {it.name!r} is already declared by {types[it.name].source_path}"
            )
        types[it.name] = it
    return types


def load_import_type(path: Path) -> ImportType:
    """Load and check one import type file."""
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise ImportTypeError(f"{path}: cannot be read: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ImportTypeError(f"{path}: not valid TOML: {exc}") from exc
    return _Parser(path).import_type(data)


# ------------------------------------------------------------------------------------------------


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
        table = self.identifier(data, "table", "")
        unique_key = self.identifier(data, "unique_key", "")
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
        if unique_key not in by_key:
            raise self.fail("unique_key", f"{unique_key!r} names no column (columns: {', '.join(by_key)})")
        if not by_key[unique_key].required:
            raise self.fail("unique_key", f"column {unique_key!r} must be required = true")
        return ImportType(
            name=name,
            title_zh=title_zh,
            title_en=title_en,
            table=table,
            columns=tuple(columns),
            unique_key=unique_key,
            source_path=self.path,
        )

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
        if kind == "enum":
            enum_map, enum_inputs = self.enum(raw, where)

        decimal_scale = decimal_min = decimal_max = None
        if kind == "decimal":
            decimal_scale = self.count(raw, "decimal_scale", where)
            if decimal_scale is None:
                raise self.fail(where, "'decimal_scale' (the most decimal places allowed) is required")
            decimal_min = self.decimal(raw, "decimal_min", where)
            decimal_max = self.decimal(raw, "decimal_max", where)
            if decimal_min is not None and decimal_max is not None and decimal_min > decimal_max:
                raise self.fail(where, f"decimal_min {decimal_min} is greater than decimal_max {decimal_max}")

        reference_table = reference_column = reference_target = None
        if kind == "reference":
            reference_table = self.identifier(raw, "reference_table", where)
            reference_column = self.identifier(raw, "reference_column", where)
            reference_target = self.identifier(raw, "reference_target", where)

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
            reference_table=reference_table,
            reference_column=reference_column,
            reference_target=reference_target,
            hint_zh=hint_zh,
            hint_en=hint_en,
        )
        if default is not None:
            self.check_default(spec, default, where)
        return spec

    # -- setting helpers --------------------------------------------------------------------------

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

    def check_default(self, spec: ColumnSpec, default: str, where: str) -> None:
        problem: str | None = None
        if spec.kind == "enum":
            if default not in set(spec.enum_map.values()):
                problem = f"must be one of the stored enum values {sorted(set(spec.enum_map.values()))}"
        elif spec.kind == "date":
            try:
                if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", default):
                    raise ValueError(default)
                datetime.date.fromisoformat(default)
            except ValueError:
                problem = "must be a date written YYYY-MM-DD"
        elif spec.kind == "decimal":
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
                    problem = "is outside decimal_min..decimal_max"
        else:
            if spec.max_length is not None and len(default) > spec.max_length:
                problem = f"is longer than max_length {spec.max_length}"
            elif spec.min_length is not None and len(default) < spec.min_length:
                problem = f"is shorter than min_length {spec.min_length}"
            elif spec.pattern is not None and not re.fullmatch(spec.pattern, default, PATTERN_FLAGS):
                problem = "does not match 'pattern'"
        if problem:
            raise self.fail(where, f"default {default!r} {problem}")
