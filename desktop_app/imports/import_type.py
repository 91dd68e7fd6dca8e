"""Import types: declarative TOML files that say how a spreadsheet becomes rows of a table.

An import type is one ``<name>.toml`` file, in the built-in folder (``resources/import_types``) or
in ``import_types/`` inside the data folder (a company's own types); adding one needs no code and no
migration. :mod:`desktop_app.imports.type_parser` loads and checks a file: any mistake raises
:class:`ImportTypeError` naming the file, the column and what is wrong, so a broken file never
reaches a clerk's import. ``docs/EXTENDING.md`` walks through writing one.

Top-level settings::

    name        identifier of the type (unique across the folders), e.g. "customers"    (required)
    title_zh    title shown to the clerk, in Chinese and English                        (required)
    title_en
    table       target table: an identifier, or schema.table on PostgreSQL/MySQL       (required)
    unique_key  the key of a required column, or a list of them (a composite key),
                e.g. ["order_no", "line_no"]: a row whose key appears on an earlier row of the
                file is duplicate_in_file; one already in the table is already_exists (insert
                mode), skipped (insert_new), updated (update/upsert)                    (required)
    create      bool, default true: create the table when it does not exist yet; false: the
                table must exist (a company database's own table)
    columns     array of tables, one per column, in insert order                       (required)

Column settings::

    key         identifier; the column of the target table receiving the value       (required)
    label_zh    name of the column in messages ({column}), Chinese and English         (required)
    label_en
    aliases     non-empty list of header texts naming the column; matched trimmed, without a
                BOM, NFKC-folded and case-insensitively; an alias may name one column only;
                the first alias is the header of templates and exports                  (required)
    required    bool, default false: an empty cell is a row error (required_missing)
    normalize   "nfkc" (NFKC, so full-width digits/letters become ASCII, then trim) | "trim" | "none";
                default "trim"; an integer or decimal cell is read after NFKC whatever this says
    kind        "text" (default) | "integer" | "decimal" | "date" | "datetime" | "boolean" | "enum" |
                "reference"
    default     value used for an empty optional cell (not allowed on a required column); it must
                itself pass the column's rules (for an enum: a stored value, or an input, which
                stands for its stored value; a text that is both is the stored value); a column
                added to a type later gets it in the rows already in the table
    hint_zh     text appended to the pattern_mismatch message ({hint}), e.g. "，应为 11 位数字"
    hint_en

    kind "text":       pattern (Python regex, matched against the whole value; \\d \\w \\s are ASCII),
                       min_length, max_length (characters, after normalising and cleaning). Stored as
                       VARCHAR(max_length), TEXT without one; a key column without max_length gets
                       max_length 255 (VARCHAR(255)), so a longer key is that row's too_long.
                       drop_chars: characters removed anywhere before the checks, e.g. " -" so that
                       139 1234 5678 and 139-1234-5678 store 13912345678; strip_prefixes: a list of
                       prefixes of which one (the longest that matches) is removed after that, e.g.
                       ["+86", "0086"] so that +86 139 1234 5678 stores 13912345678 too. The cleaned
                       value is what is checked and stored; a cell cleaned to nothing is pattern_mismatch
    kind "integer":    integer_min, integer_max (inclusive): an optional sign and digits (after
                       NFKC), or a whole-valued Excel number; stored as BIGINT.
                       thousands = true: digits may be grouped by thousands, 1,000 (1.000 or 1 000 in
                       a file declared with a decimal comma)
    kind "decimal":    decimal_scale (max decimal places, required), decimal_min, decimal_max
                       (numbers or decimal strings; inclusive); a number is read after NFKC, as
                       an integer is; a bound left out is what 15
                       significant digits hold (-9999999999999.99 and 9999999999999.99 with 2
                       places; more when the other bound has more digits before the point), and
                       the ColumnSpec carries it; stored as NUMERIC(digits of the bounds + scale).
                       SQLite keeps 15 significant digits: a column that can hold more is a
                       type problem there (PostgreSQL and MySQL/MariaDB keep them all).
                       thousands = true: 1,234,567.50 (with a decimal comma: 1.234.567,50 or
                       1 234 567,50; the groups must be of three digits). currency: signs allowed once,
                       before the number (after a minus) or after it, e.g. ["¥", "￥", "元"]: ¥1,234.50
                       and ￥1,234.50 are 1234.50. percent = true: 50% is stored as its fraction, 0.5
                       (as Excel stores a percentage cell), so decimal_scale, decimal_min and decimal_max
                       speak of the fraction (12.5% needs decimal_scale = 3) and a number without % is
                       taken as written (0.5 is 0.5, 50 is 50). A file declared with a decimal comma
                       (the task's decimal_comma, --decimal-comma) writes 1234,50 in every decimal
                       column; then 1234.50 is invalid_number unless thousands makes it 123450
    kind "date":       YYYY-MM-DD or YYYY/MM/DD (month/day 1 or 2 digits) or a date cell, and the
                       spellings listed in date_formats:
                         "chinese"       2024年3月5日
                         "dots"          2024.3.5
                         "compact"       20240305 (exactly 8 digits)
                         "midnight"      any accepted date followed by 0:00 or 0:00:00, as Excel
                                         writes a date cell as text (2024-3-5 0:00:00); another time
                                         stays invalid_date (a date column would lose it)
                         "excel_serial"  an Excel date serial of five digits in a text cell (45356 is
                                         2024-03-05; 10000..99999 is 1927..2173; a number cell stays
                                         invalid_date, and so does a shorter number such as a year)
                         "day_month"     03/05/2024, 3-5-2024, 3.5.2024: day and month before a four-digit
                                         year, read in the order the file declares (the task's
                                         date_order, --date-order dmy|mdy); without one, a value that
                                         reads both ways is ambiguous_date, never guessed (25/05/2024
                                         has one reading and is taken so)
                       e.g. date_formats = ["chinese", "dots", "compact", "midnight", "excel_serial"]
    kind "datetime":   a date form, a space or T, then H:MM or HH:MM:SS (a date alone is midnight),
                       or an Excel date/time cell; date_formats as for a date (not "midnight", as a
                       datetime takes any time; an "excel_serial" may carry the time as its fraction)
    kind "boolean":    是/否, 真/假, Y/N, yes/no, true/false, 1/0 (case-insensitive) or an Excel
                       TRUE/FALSE cell
    kind "enum":       enum = { input = stored, ... } (inputs match case-insensitively); stored as
                       VARCHAR(longest stored value)
    kind "reference":  reference_table, reference_column (the key looked up), reference_target
                       (column of ``table`` the pipeline fills with the referenced row's id),
                       min_length, max_length; never a row error: the raw text is stored and
                       resolved while writing (or later, by a completion); allow_add = true lets
                       a clerk add the names not found to reference_table (reference_column; any
                       other column of that table must have a default), then complete
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import Final

__all__ = [
    "KINDS",
    "NORMALIZE_MODES",
    "ColumnSpec",
    "ImportType",
    "ImportTypeError",
    "Kind",
    "builtin_import_types_dir",
    "fold_header",
    "fold_value",
    "load_import_type",
    "load_import_types",
    "normalize_text",
]


class Kind(StrEnum):
    """How a column's cells are checked and stored."""

    TEXT = "text"
    INTEGER = "integer"
    DECIMAL = "decimal"
    DATE = "date"
    DATETIME = "datetime"
    BOOLEAN = "boolean"
    ENUM = "enum"
    REFERENCE = "reference"


KINDS: Final = tuple(k.value for k in Kind)
NORMALIZE_MODES: Final = ("nfkc", "trim", "none")
PATTERN_FLAGS: Final = re.ASCII
# The columns BatchDesk keeps in the tables it creates (a type may not declare them there).
BOOKKEEPING_COLUMNS: Final = ("task_no", "import_row", "import_sig")

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
    kind: str  # one of KINDS
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
    integer_min: int | None = None
    integer_max: int | None = None
    reference_table: str | None = None
    reference_column: str | None = None
    reference_target: str | None = None
    allow_add: bool = False  # a reference: a name not found may be added to reference_table by a clerk
    hint_zh: str = ""
    hint_en: str = ""
    # regional spellings (desktop_app.imports.regional)
    date_formats: tuple[str, ...] = ()
    thousands: bool = False
    currency: tuple[str, ...] = ()
    percent: bool = False
    drop_chars: str = ""
    strip_prefixes: tuple[str, ...] = ()

    def label(self, lang: str) -> str:
        return self.label_zh if lang == "zh" else self.label_en

    def hint(self, lang: str) -> str:
        return self.hint_zh if lang == "zh" else self.hint_en

    @property
    def header(self) -> str:
        """The header this column gets in templates and exports: its first alias."""
        return self.aliases[0]

    def enum_choices(self, lang: str) -> list[tuple[str, str]]:
        """An enum's stored values in the type's order, each once, with the label a clerk reads in ``lang``
        ("zh" or "en"): the first input written in that script (Chinese: one with Chinese characters; English:
        an ASCII one, capitalised), else the other script's, else the stored value. 普通/standard both stand
        for standard: one choice, 普通 in Chinese, Standard in English."""
        labels: dict[str, dict[bool, str]] = {}
        for written in self.enum_inputs:
            stored = self.enum_map.get(fold_value(written, self.normalize))
            if stored is not None:
                labels.setdefault(stored, {}).setdefault(written.isascii(), written)
        chinese = lang == "zh"
        choices = []
        for stored, by_script in labels.items():
            label = by_script.get(not chinese) or by_script.get(chinese) or stored
            choices.append((stored, label if chinese else label[:1].upper() + label[1:]))
        return choices

    def input_for(self, stored: str) -> str:
        """An enum's stored value as the first input that maps to it (what exports write back)."""
        for text in self.enum_inputs:
            if self.enum_map.get(fold_value(text, "nfkc")) == stored:
                return text
        return stored


@dataclass(frozen=True)
class ImportType:
    """A loaded, checked import type."""

    name: str
    title_zh: str
    title_en: str
    table: str
    columns: tuple[ColumnSpec, ...]
    unique_keys: tuple[str, ...]
    source_path: Path
    create: bool = True
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
    def unique_key(self) -> str:
        """The key's column names joined by ", " (the name itself for a one-column key)."""
        return ", ".join(self.unique_keys)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.columns)

    @property
    def required_keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.columns if c.required)

    @property
    def key_columns(self) -> tuple[ColumnSpec, ...]:
        return tuple(self._by_key[k] for k in self.unique_keys)

    @property
    def headers(self) -> tuple[str, ...]:
        """Each column's first alias, in the type's order (templates, exports)."""
        return tuple(c.header for c in self.columns)


def builtin_import_types_dir() -> Path:
    """resources/import_types, in a checkout or inside the frozen bundle."""
    from desktop_app.config import resources_dir

    return resources_dir() / "import_types"


def load_import_types(directory: Path) -> dict[str, ImportType]:
    """Every ``*.toml`` of a folder, by name; a broken file or two files declaring one name raise."""
    from desktop_app.imports.type_parser import load_folder

    return load_folder(directory)


def load_import_type(path: Path) -> ImportType:
    """Load and check one import type file."""
    from desktop_app.imports.type_parser import load_file

    return load_file(path)
