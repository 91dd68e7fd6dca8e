"""Export definitions: every import type exports as it imports (its columns under their first aliases);
a TOML file under resources/exports/ may name the columns, labels and filters of one (customers)."""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports.import_type import ImportType, Kind, fold_value
from desktop_app.imports.validator import column_checker

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
OPS = ("=", ">=", "<=")
FILTER_KINDS = ("text", "date", "enum", "task_no", "column")
IMPORTED_BY = "imported_by"  # the filter every export has: the rows one import task inserted or updated


class ExportDefinitionError(ValueError):
    """A malformed export definition file: names the file and what is wrong."""


@dataclass(frozen=True)
class ExportColumn:
    key: str
    header: str
    labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ExportFilter:
    name: str
    column: str
    op: str
    kind: str


@dataclass(frozen=True)
class ExportDefinition:
    name: str
    title_zh: str
    title_en: str
    table: str
    order_key: str
    columns: tuple[ExportColumn, ...]
    filters: tuple[ExportFilter, ...]
    import_type: ImportType
    source_path: Path

    def title(self, lang: str) -> str:
        return self.title_zh if lang == "zh" else self.title_en

    def filter(self, name: str) -> ExportFilter:
        for f in self.filters:
            if f.name == name:
                return f
        raise KeyError(name)

    def clean_filters(self, raw: Mapping[str, Any]) -> dict[str, str]:
        """Filter values checked and normalised (a level given as 金卡 or Gold becomes gold); raises
        PermanentError(INVALID_PARAMS) in plain words for an unknown filter or a bad value.

        Besides the definition's own filters, every column key of the type is a filter (equality on
        the column: ``--filter KEY=VALUE``), and ``imported_by`` takes a task number."""
        clean: dict[str, str] = {}
        for name, value in raw.items():
            if value is None or value == "":
                continue
            try:
                spec = self.filter(name)
            except KeyError:
                if name not in self.import_type.keys:
                    known = ", ".join([*(f.name for f in self.filters), *self.import_type.keys])
                    raise PermanentError(ErrorCode.INVALID_PARAMS,
                                         detail=f"no filter {name!r} (known: {known})") from None  # fmt: skip
                spec = ExportFilter(name=name, column=name, op="=", kind="column")
            clean[name] = self._clean_value(spec, str(value).strip())
        return dict(sorted(clean.items()))

    def filter_spec(self, name: str) -> ExportFilter:
        """The filter by name: the definition's own, or equality on a column of the type."""
        try:
            return self.filter(name)
        except KeyError:
            return ExportFilter(name=name, column=name, op="=", kind="column")

    def _clean_value(self, spec: ExportFilter, value: str) -> str:
        if spec.kind == "column":
            column = self.import_type.column(spec.column)
            checked, error = column_checker(column)(value)
            if error is not None or checked is None:
                reason = error.message_for(column, "en") if error is not None else "empty"
                raise PermanentError(ErrorCode.INVALID_PARAMS, detail=f"{spec.name}: {reason}")
            return _filter_text(checked)
        if spec.kind == "task_no":
            return value.upper()
        if spec.kind == "date":
            try:
                return dt.date.fromisoformat(value.replace("/", "-")).isoformat()
            except ValueError:
                raise PermanentError(
                    ErrorCode.INVALID_PARAMS, detail=f"{spec.name}: {value!r} is not a date (YYYY-MM-DD)"
                ) from None
        if spec.kind == "enum":
            column = self.import_type.column(spec.column)
            mapped = column.enum_map.get(fold_value(value, column.normalize))
            if mapped is None:
                allowed = "/".join(column.enum_inputs)
                raise PermanentError(ErrorCode.INVALID_PARAMS, detail=f"{spec.name}: {value!r} is not one of {allowed}")
            return mapped
        return value


def _filter_text(value: object) -> str:
    """A checked filter value as the task's parameter keeps it (parsed again when the export runs)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, dt.datetime):
        return value.isoformat(" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    return format(value, "f") if hasattr(value, "quantize") else str(value)


def generic_definition(itype: ImportType) -> ExportDefinition:
    """The export every import type has: all its columns under their first aliases, in its order,
    enum values written as their first input (so the file imports back as it is)."""
    columns = []
    for col in itype.columns:
        labels = {}
        if col.kind == Kind.ENUM:
            labels = {stored: col.input_for(stored) for stored in dict.fromkeys(col.enum_map.values())}
        columns.append(ExportColumn(key=col.key, header=col.header, labels=labels))
    return ExportDefinition(
        name=itype.name,
        title_zh=itype.title_zh,
        title_en=itype.title_en,
        table=itype.table,
        order_key=itype.unique_keys[0],
        columns=tuple(columns),
        filters=(ExportFilter(name=IMPORTED_BY, column="task_no", op="=", kind="task_no"),),
        import_type=itype,
        source_path=itype.source_path,
    )


def load_export_definition(path: Path, import_types: Mapping[str, ImportType]) -> ExportDefinition:
    def fail(problem: str) -> ExportDefinitionError:
        return ExportDefinitionError(f"{path}: {problem}")

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise fail(f"cannot be read as TOML: {exc}") from exc
    for key in ("name", "title_zh", "title_en", "table", "import_type", "order_key"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise fail(f"'{key}' is missing or empty")
    for key in ("name", "table", "order_key"):
        if not IDENTIFIER.fullmatch(data[key]):
            raise fail(f"'{key}' must be an identifier, not {data[key]!r}")
    itype = import_types.get(data["import_type"])
    if itype is None:
        raise fail(f"import_type {data['import_type']!r} does not exist")
    columns = []
    for number, raw in enumerate(data.get("columns") or [], start=1):
        key = raw.get("key")
        if key not in itype.keys:
            raise fail(f"column {number}: {key!r} is not a column of import type {itype.name}")
        labels = raw.get("labels") or {}
        if not isinstance(labels, dict) or not all(isinstance(v, str) for v in labels.values()):
            raise fail(f"column {key}: 'labels' must map stored values to text")
        columns.append(ExportColumn(key=key, header=itype.column(key).aliases[0], labels=dict(labels)))
    if not columns:
        raise fail("no [[columns]]")
    filters = []
    for number, raw in enumerate(data.get("filters") or [], start=1):
        name, column, op, kind = (raw.get(k) for k in ("name", "column", "op", "kind"))
        if not isinstance(name, str) or not IDENTIFIER.fullmatch(name):
            raise fail(f"filter {number}: 'name' must be an identifier")
        if not isinstance(column, str) or not IDENTIFIER.fullmatch(column):
            raise fail(f"filter {name}: 'column' must be an identifier")
        if op not in OPS:
            raise fail(f"filter {name}: 'op' must be one of {', '.join(OPS)}")
        if kind not in FILTER_KINDS:
            raise fail(f"filter {name}: 'kind' must be one of {', '.join(FILTER_KINDS)}")
        if kind == "enum" and (column not in itype.keys or itype.column(column).kind != "enum"):
            raise fail(f"filter {name}: an enum filter needs an enum column of {itype.name}")
        filters.append(ExportFilter(name=name, column=column, op=op, kind=kind))
    return ExportDefinition(
        name=data["name"],
        title_zh=data["title_zh"],
        title_en=data["title_en"],
        table=data["table"],
        order_key=data["order_key"],
        columns=tuple(columns),
        filters=tuple(filters),
        import_type=itype,
        source_path=path,
    )
