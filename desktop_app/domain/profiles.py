"""Mapping profiles as typed records: what one version of a profile holds, and how a task names one.

A profile belongs to one import type and says how a kind of file becomes that type's rows: which file
header fills which column (``""``: the header is ignored), constants for columns the file does not
have, value mappings per column (a cell's value replaced before it is checked), and the reading
options the import's flags would give. Saving it again makes a new version; a task names the name and
the version it used (docs/PROFILES.md). This module holds the plain data only: the TOML file form and
the checks against an import type are imports/profiles.py's, the tables store/profiles.py's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.modes import BlankPolicy, ImportMode

NAME_MAX: Final = 100
"""The longest profile name (the names table's key)."""

# A delimiter as the profile file (and --delimiter) writes it, and the character the reader takes.
DELIMITER_NAMES: Final[Mapping[str, str]] = MappingProxyType({",": "comma", ";": "semicolon", "\t": "tab",
                                                              "|": "pipe"})  # fmt: skip
DELIMITER_CHARS: Final[Mapping[str, str]] = MappingProxyType({v: k for k, v in DELIMITER_NAMES.items()})
DATE_ORDERS: Final = ("dmy", "mdy")
OPTION_NAMES: Final = ("encoding", "delimiter", "sheet", "date_order", "decimal_comma", "mode", "blank")
"""The reading options a profile may hold, as the import's flags name them (in the file's order)."""

_EMPTY: Final[Mapping[str, str]] = MappingProxyType({})


@dataclass(frozen=True)
class ProfileOptions:
    """Reading options; None: the profile says nothing (the import's own flag or default holds)."""

    encoding: str | None = None
    delimiter: str | None = None  # the character: "," ";" "\t" "|"
    sheet: str | None = None
    date_order: str | None = None  # "dmy" | "mdy"
    decimal_comma: bool | None = None
    mode: ImportMode | None = None
    blank: BlankPolicy | None = None

    def given(self) -> dict[str, Any]:
        """The options the profile sets, by name, as the import's options take them (the delimiter as its
        character, the mode and blank policy typed)."""
        return {name: getattr(self, name) for name in OPTION_NAMES if getattr(self, name) is not None}

    def to_dict(self) -> dict[str, Any]:
        """As the profile file writes them: the delimiter by its word, the others as plain values."""
        out: dict[str, Any] = {}
        for name, value in self.given().items():
            if name == "delimiter":
                value = DELIMITER_NAMES[value]
            elif isinstance(value, ImportMode | BlankPolicy):
                value = value.value
            out[name] = value
        return out


@dataclass(frozen=True)
class Profile:
    """One version's content. Mappings keep the order the file or the task gave them."""

    import_type: str
    columns: Mapping[str, str] = field(default_factory=lambda: _EMPTY)  # file header -> column key or ""
    constants: Mapping[str, str] = field(default_factory=lambda: _EMPTY)  # column key -> its text in every row
    values: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: MappingProxyType({}))  # column -> map
    options: ProfileOptions = field(default_factory=ProfileOptions)

    def to_dict(self) -> dict[str, Any]:
        """The stored and printed form: the profile file's tables (an empty one left out)."""
        out: dict[str, Any] = {"type": self.import_type}
        if self.columns:
            out["columns"] = dict(self.columns)
        if self.constants:
            out["constants"] = dict(self.constants)
        if self.values:
            out["values"] = {column: dict(mapping) for column, mapping in self.values.items()}
        options = self.options.to_dict()
        if options:
            out["options"] = options
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Profile:
        """A stored form read back (the store wrote it from a checked profile: no checks again here)."""
        raw = dict(data.get("options") or {})
        if "delimiter" in raw:
            raw["delimiter"] = DELIMITER_CHARS[raw["delimiter"]]
        if "mode" in raw:
            raw["mode"] = ImportMode(raw["mode"])
        if "blank" in raw:
            raw["blank"] = BlankPolicy(raw["blank"])
        return cls(
            import_type=str(data["type"]),
            columns=MappingProxyType(dict(data.get("columns") or {})),
            constants=MappingProxyType(dict(data.get("constants") or {})),
            values=MappingProxyType({c: MappingProxyType(dict(m)) for c, m in (data.get("values") or {}).items()}),
            options=ProfileOptions(**raw),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Profile) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(self.import_type)


@dataclass(frozen=True)
class ProfileVersion:
    """One saved version of a named profile."""

    name: str
    version: int
    profile: Profile
    saved_by: str
    saved_at: dt.datetime | None = None
    removed: bool = False  # the name was removed (hidden): a task that names this version still reads it

    @property
    def import_type(self) -> str:
        return self.profile.import_type

    def to_json(self) -> dict[str, Any]:
        """The command line's JSON of a version (profile show --json)."""
        content = self.profile.to_dict()
        saved_at = self.saved_at.replace(tzinfo=dt.UTC).isoformat(timespec="seconds") if self.saved_at else None
        return {
            "name": self.name,
            "version": self.version,
            "type": content.pop("type"),
            "saved_by": self.saved_by,
            "saved_at": saved_at,
            "removed": self.removed,
            "columns": content.get("columns", {}),
            "constants": content.get("constants", {}),
            "values": content.get("values", {}),
            "options": content.get("options", {}),
        }


@dataclass(frozen=True)
class ProfileRef:
    """A profile as an import names it: NAME (its latest version) or NAME@N."""

    name: str
    version: int | None = None

    @classmethod
    def parse(cls, text: str) -> ProfileRef:
        """``NAME`` or ``NAME@N``; a bad one is PROFILE_INVALID (exit 2)."""
        name, sep, number = text.strip().rpartition("@")
        if not sep:
            return cls(check_name(text))
        if not number.isdigit() or int(number) < 1:
            raise PermanentError(ErrorCode.PROFILE_INVALID, reason="bad_ref", name=text)
        return cls(check_name(name), int(number))

    def __str__(self) -> str:
        return self.name if self.version is None else f"{self.name}@{self.version}"


def check_name(name: str) -> str:
    """A profile's name, trimmed: not blank, no @ (which names a version), no control character, at most
    NAME_MAX characters; else PROFILE_INVALID naming it."""
    clean = name.strip()
    if not clean or "@" in clean or len(clean) > NAME_MAX or any(ord(c) < 32 for c in clean):
        raise PermanentError(ErrorCode.PROFILE_INVALID, reason="bad_name", name=name, limit=NAME_MAX)
    return clean
