"""Mapping profiles against import types: the TOML file form, the checks, and what an import takes of one.

The file (docs/PROFILES.md)::

    type = "customers"
    [columns]          # file header = column key; "" ignores the header
    "Customer No" = "code"
    [constants]        # a column the file does not have
    department = "华东销售部"
    [values.level]     # value mapping, per column
    "钻石" = "金卡"
    [options]          # as the import's flags
    delimiter = "semicolon"

:func:`parse_profile` reads one (a mistake is PROFILE_INVALID naming the key: exit 2 on the command
line), :func:`profile_text` writes one (parsing it gives the same profile), :func:`check_profile`
holds a profile to its import type when it is saved, :func:`check_fits` when an import is queued and
again when it runs (PROFILE_UNFIT naming the column: a type changed since the profile was saved).
An import takes a profile's header mapping and constants where the clerk's header overrides act
(:func:`header_overrides`), its value mappings in the row validator (fills.py), and its reading
options in the submission, below the flags the clerk gave (:func:`with_options`).
"""

from __future__ import annotations

import codecs
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from desktop_app.domain.errors import ErrorCode, Lang, PermanentError
from desktop_app.domain.modes import BlankPolicy, ImportMode
from desktop_app.domain.profiles import (
    DATE_ORDERS,
    DELIMITER_CHARS,
    DELIMITER_NAMES,
    OPTION_NAMES,
    Profile,
    ProfileOptions,
    ProfileVersion,
)
from desktop_app.imports.fills import ColumnFills, fold_input
from desktop_app.imports.import_type import ImportType, fold_header
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.regional import DateOrder, FileConventions
from desktop_app.imports.validator import column_checker

TABLES: Final = ("type", "columns", "constants", "values", "options")
_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_ESCAPES: Final = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_OPTION_VALUES: Final[Mapping[str, str]] = MappingProxyType({
    "encoding": "a text encoding such as utf-8, gb18030",
    "delimiter": "comma, semicolon, tab, pipe",
    "sheet": "a sheet name",
    "date_order": ", ".join(DATE_ORDERS),
    "decimal_comma": "true, false",
    "mode": ", ".join(m.value for m in ImportMode),
    "blank": ", ".join(b.value for b in BlankPolicy),
})  # fmt: skip


# --- the file ---------------------------------------------------------------------------------------


def toml_key(key: str) -> str:
    """A key as TOML writes it: bare when it may be, else a quoted string."""
    return key if key and set(key) <= _BARE else toml_string(key)


def toml_string(text: str) -> str:
    """A TOML basic string (control characters escaped, as TOML wants them)."""
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 32 or ord(char) == 127:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _path(*keys: str) -> str:
    """Where in the file a key is, as a clerk finds it: options.delimiter, values.level."钻石"."""
    return ".".join(toml_key(k) for k in keys)


class _Reader:
    """Reads one profile file's parsed TOML, failing on its first mistake with the key named."""

    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, reason: str, key: str, **params: object) -> PermanentError:
        return PermanentError(ErrorCode.PROFILE_INVALID, reason=reason, path=self.path, key=key, **params)

    def text(self, value: object, *keys: str, blank_ok: bool = True) -> str:
        if not isinstance(value, str):
            raise self.fail("not_text", _path(*keys))
        if "\x00" in value:
            raise self.fail("nul", _path(*keys))
        if not blank_ok and not value.strip():
            raise self.fail("blank", _path(*keys))
        return value

    def table(self, value: object, *keys: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail("not_table", _path(*keys))
        return value

    def key(self, key: str, *keys: str) -> str:
        if "\x00" in key:
            raise self.fail("nul", _path(*keys, key))
        if not key.strip():
            raise self.fail("blank", _path(*keys, key))
        return key

    def option(self, name: str, value: object) -> Any:
        key = _path("options", name)
        if name not in OPTION_NAMES:
            raise self.fail("unknown_option", key, allowed=", ".join(OPTION_NAMES))

        def bad() -> PermanentError:
            return self.fail("bad_option", key, value=toml_value(value), allowed=_OPTION_VALUES[name])

        if name == "decimal_comma":
            if not isinstance(value, bool):
                raise bad()
            return value
        if not isinstance(value, str) or not value.strip() or "\x00" in value:
            raise bad()
        if name == "encoding":
            try:
                codecs.lookup(value)
            except LookupError:
                raise bad() from None
            return value
        if name == "delimiter":
            char = DELIMITER_CHARS.get(value.lower()) or (value if value in DELIMITER_NAMES else None)
            if char is None:
                raise bad()
            return char
        if name == "date_order":
            if value not in DATE_ORDERS:
                raise bad()
            return value
        if name == "mode":
            try:
                return ImportMode(value)
            except ValueError:
                raise bad() from None
        if name == "blank":
            try:
                return BlankPolicy(value)
            except ValueError:
                raise bad() from None
        return value  # sheet


def toml_value(value: object) -> str:
    """A value as the file wrote it, for a message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return toml_string(value)
    return str(value)


def parse_profile(text: str, *, path: str) -> Profile:
    """A profile file's content: PROFILE_INVALID naming the key at the first mistake (unknown table,
    unknown option, bad option value, a value that is not a text...). The column keys are the import
    type's to judge (check_profile)."""
    reader = _Reader(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PermanentError(ErrorCode.PROFILE_INVALID, reason="syntax", path=path, key="", detail=str(exc)) from None
    for name in data:
        if name not in TABLES:
            raise reader.fail("unknown_table", toml_key(name))
    if "type" not in data:
        raise reader.fail("no_type", "type")
    import_type = reader.text(data["type"], "type", blank_ok=False).strip()
    columns = {}
    for header, key in reader.table(data.get("columns", {}), "columns").items():
        columns[reader.key(header, "columns")] = reader.text(key, "columns", header).strip()
    constants = {}
    for key, value in reader.table(data.get("constants", {}), "constants").items():
        constants[reader.key(key, "constants")] = reader.text(value, "constants", key)
    values: dict[str, Mapping[str, str]] = {}
    for column, mapping in reader.table(data.get("values", {}), "values").items():
        reader.key(column, "values")
        pairs = {}
        for written, target in reader.table(mapping, "values", column).items():
            pairs[reader.key(written, "values", column)] = reader.text(target, "values", column, written)
        values[column] = MappingProxyType(pairs)
    options = {name: reader.option(name, value) for name, value in reader.table(data.get("options", {}),
                                                                                  "options").items()}  # fmt: skip
    return Profile(import_type=import_type, columns=MappingProxyType(columns), constants=MappingProxyType(constants),
                   values=MappingProxyType(values), options=ProfileOptions(**options))  # fmt: skip


def read_profile_file(path: str) -> Profile:
    """parse_profile of a file (UTF-8, a BOM allowed); an unreadable one is PROFILE_INVALID too."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise PermanentError(ErrorCode.PROFILE_INVALID, reason="unreadable", path=path, key="", detail=detail) from None
    return parse_profile(text, path=path)


def profile_text(version: ProfileVersion | Profile, *, title: str = "") -> str:
    """The profile file of a version (or a profile): parse_profile of it gives the same profile."""
    profile = version.profile if isinstance(version, ProfileVersion) else version
    lines = [f"# {line}" for line in title.splitlines()]
    if isinstance(version, ProfileVersion):
        lines.append(f"# BatchDesk mapping profile {toml_string(version.name)}, version {version.version}")
    lines.append(f"type = {toml_string(profile.import_type)}")
    sections: list[tuple[str, Mapping[str, Any]]] = [("columns", profile.columns), ("constants", profile.constants)]
    sections += [(_path("values", column), mapping) for column, mapping in profile.values.items()]
    sections.append(("options", profile.options.to_dict()))
    for head, table in sections:
        if not table and not head.startswith("values."):
            continue
        lines += ["", f"[{head}]"]
        lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


# --- against the import type ------------------------------------------------------------------------


@dataclass(frozen=True)
class Misfit:
    """What in a profile does not fit its import type: a column it names that the type lacks, a constant
    or a mapped value the column's rules refuse (its reason in both languages)."""

    reason: str  # "no_column" | "bad_constant" | "bad_value"
    column: str
    key: str  # where in the profile file
    value: str = ""
    target: str = ""
    problem_zh: str = ""
    problem_en: str = ""

    def params(self) -> dict[str, object]:
        return {"reason": self.reason, "column": self.column, "key": self.key, "value": self.value,
                "target": self.target, "problem_zh": self.problem_zh, "problem_en": self.problem_en}  # fmt: skip


def conventions_of(profile: Profile) -> FileConventions:
    """The file conventions a profile declares (its date order, its decimal mark)."""
    order = profile.options.date_order
    return FileConventions(date_order=DateOrder(order) if order else None,
                           decimal_comma=bool(profile.options.decimal_comma))  # fmt: skip


def misfits(profile: Profile, itype: ImportType, conventions: FileConventions | None = None) -> list[Misfit]:
    """Everything in the profile that does not fit the type, in the file's order (empty: it fits).
    A blank constant or replacement is always allowed: it is an empty cell, which the import's rules
    judge row by row as any other."""
    conventions = conventions if conventions is not None else conventions_of(profile)
    keys = set(itype.keys)
    found: list[Misfit] = []
    for header, key in profile.columns.items():
        if key and key not in keys:
            found.append(Misfit("no_column", key, _path("columns", header)))
    for key, value in profile.constants.items():
        if key not in keys:
            found.append(Misfit("no_column", key, _path("constants", key)))
        elif value.strip():
            problem = _refused(itype, key, value, conventions)
            if problem is not None:
                found.append(Misfit("bad_constant", key, _path("constants", key), value=value,
                                    problem_zh=problem[0], problem_en=problem[1]))  # fmt: skip
    for key, mapping in profile.values.items():
        if key not in keys:
            found.append(Misfit("no_column", key, _path("values", key)))
            continue
        for written, target in mapping.items():
            problem = _refused(itype, key, target, conventions) if target.strip() else None
            if problem is not None:
                found.append(Misfit("bad_value", key, _path("values", key, written), value=written, target=target,
                                    problem_zh=problem[0], problem_en=problem[1]))  # fmt: skip
    return found


def _refused(itype: ImportType, key: str, value: str, conventions: FileConventions) -> tuple[str, str] | None:
    spec = itype.column(key)
    _value, error = column_checker(spec, conventions)(value)
    if error is None:
        return None
    langs: tuple[Lang, Lang] = ("zh", "en")
    zh, en = (str(error.message_for(spec, lang)) for lang in langs)
    return zh, en


def check_profile(profile: Profile, itype: ImportType, *, name: str, path: str) -> None:
    """A profile about to be saved as `name` (a file, or a task's mapping): PROFILE_TYPE_MISMATCH when it is
    another type's, else PROFILE_INVALID naming the key of the first thing in it that does not fit its
    type, or that it says twice."""
    reader = _Reader(path)
    if profile.import_type != itype.name:
        raise PermanentError(ErrorCode.PROFILE_TYPE_MISMATCH, name=name, profile_type=profile.import_type,
                             import_type=itype.name)  # fmt: skip
    folded: dict[str, str] = {}
    for header, key in profile.columns.items():
        fold = fold_header(header)
        if fold in folded:
            raise reader.fail("same_header", _path("columns", header))
        folded[fold] = key
        if key and key in profile.constants:
            raise reader.fail("twice", _path("columns", header), column=key)
    for key, mapping in profile.values.items():
        if key in itype.keys:
            seen: set[str] = set()
            for written in mapping:
                fold = fold_input(written, itype.column(key))
                if not fold:
                    raise reader.fail("blank", _path("values", key, written))
                if fold in seen:
                    raise reader.fail("same_value", _path("values", key, written))
                seen.add(fold)
    for misfit in misfits(profile, itype):
        if misfit.reason == "no_column":
            raise reader.fail("unknown_column", misfit.key, column=misfit.column, import_type=itype.name)
        raise reader.fail(misfit.reason, misfit.key, column=misfit.column, value=misfit.value, target=misfit.target,
                          problem_zh=misfit.problem_zh, problem_en=misfit.problem_en)  # fmt: skip


def check_fits(version: ProfileVersion, itype: ImportType, conventions: FileConventions) -> None:
    """A saved version as an import is about to use it (queued, or running): PROFILE_TYPE_MISMATCH for
    another type's profile, PROFILE_UNFIT naming the first column that no longer fits (the type changed
    since it was saved), never half applied."""
    if version.import_type != itype.name:
        raise PermanentError(ErrorCode.PROFILE_TYPE_MISMATCH, name=version.name, profile_type=version.import_type,
                             import_type=itype.name)  # fmt: skip
    found = misfits(version.profile, itype, conventions)
    if found:
        raise PermanentError(ErrorCode.PROFILE_UNFIT, name=version.name, version=version.version,
                             import_type=itype.name, **found[0].params())  # fmt: skip


# --- what an import takes of a profile --------------------------------------------------------------


def header_overrides(profile: Profile | None, overrides: Mapping[str, str]) -> dict[str, str]:
    """The header mapping an import uses: the profile's, then the clerk's own overrides (which win, header
    by header, compared as headers are)."""
    if profile is None:
        return dict(overrides)
    mine = {fold_header(h) for h in overrides}
    merged = {h: k for h, k in profile.columns.items() if fold_header(h) not in mine}
    merged.update(overrides)
    return merged


def fills_of(profile: Profile | None) -> ColumnFills | None:
    """The constants and value mappings the row validator applies."""
    if profile is None or not (profile.constants or profile.values):
        return None
    return ColumnFills(constants=profile.constants, values=profile.values)


def with_options(request: ImportOptions, version: ProfileVersion, *, keep: Collection[str] = ()) -> ImportOptions:
    """The request naming the version, with the profile's reading options where the request does not keep
    its own (`keep`: the option names the clerk gave explicitly, which win)."""
    given = {name: value for name, value in version.profile.options.given().items() if name not in keep}
    if "date_order" in given:
        given["date_order"] = DateOrder(given["date_order"])
    return request.but(profile=version.name, profile_version=version.version, **given)


def from_task(params: Mapping[str, Any], *, base: Profile | None, import_type: str) -> Profile:
    """The profile a task's parameters make: its header overrides (over the profile it used, if any) and
    its reading options (those it set: an encoding, a separator, a sheet, a date order, a decimal comma,
    a mode other than insert, a blank policy other than keep)."""
    start = base or Profile(import_type=import_type)
    columns = header_overrides(start, dict(params.get("header_overrides") or {}))
    # the task's options are what it ran with (its profile's, below the flags given): they alone say
    options: dict[str, Any] = {}
    for name in ("encoding", "delimiter", "sheet", "date_order"):
        if params.get(name):
            options[name] = str(params[name])
    if params.get("decimal_comma"):
        options["decimal_comma"] = True
    mode = ImportMode(params.get("mode") or ImportMode.INSERT)
    if mode is not ImportMode.INSERT:
        options["mode"] = mode
    blank = BlankPolicy(params.get("blank") or BlankPolicy.KEEP)
    if blank is not BlankPolicy.KEEP:
        options["blank"] = blank
    return Profile(import_type=import_type, columns=MappingProxyType(columns), constants=start.constants,
                   values=start.values, options=ProfileOptions(**options))  # fmt: skip
