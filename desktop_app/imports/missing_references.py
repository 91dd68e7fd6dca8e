"""The names an import's references did not find: which column, which name, how many rows (Qt-free).

Kept in the import's summary as ``missing_references`` (codes and parameters, never words), rendered in
the clerk's language where they are shown ("Department not found: 华东销售部 (4 rows)").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import Connection

from desktop_app.domain.errors import ErrorCode, Lang, message
from desktop_app.domain.table_spec import TableReference
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.written_rows import log_pages, logged_actions, parse_key_text
from desktop_app.store.business_rows import BusinessTable

SUMMARY_KEY = "missing_references"
MAX_LISTED = 100  # distinct names kept in the summary, the most frequent first


@dataclass(frozen=True)
class MissingReference:
    """One name not found in a reference column, and the rows that hold it."""

    column: str  # the type's column key
    value: str
    rows: int
    table: str  # the reference table it was looked up in
    can_add: bool  # the type lets a clerk add it there (allow_add = true)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MissingReference:
        return cls(column=str(data.get("column", "")), value=str(data.get("value", "")), rows=int(data.get("rows", 0)),
                   table=str(data.get("table", "")), can_add=bool(data.get("can_add", False)))  # fmt: skip


def find_missing(
    conn: Connection,
    table: BusinessTable,
    refs: Sequence[TableReference],
    task_nos: Iterable[str],
    *,
    limit: int | None = MAX_LISTED,
) -> list[MissingReference]:
    """The names still not found among the rows these tasks wrote, most rows first (at most ``limit``)."""
    numbers = list(task_nos)
    found: list[MissingReference] = []
    for ref in refs:
        counts: dict[str, int] = {}
        for task_no in numbers:
            parts = [table.unresolved_names(conn, ref, task_no=task_no)] if table.managed else []
            parts += [table.unresolved_names(conn, ref, keys=[parse_key_text(table, e.key_text) for e in page])
                      for page in log_pages(conn, task_no, logged_actions(table))]  # fmt: skip
            for part in parts:
                for name, rows in part.items():
                    counts[name] = counts.get(name, 0) + rows
        found.extend(MissingReference(ref.column, name, rows, ref.ref_table, ref.allow_add)
                     for name, rows in counts.items())  # fmt: skip
    found.sort(key=lambda m: (-m.rows, m.column, m.value))
    return found if limit is None else found[:limit]


def missing_of(summary: dict[str, Any]) -> list[MissingReference]:
    """A task's missing references, as its summary keeps them."""
    items = summary.get(SUMMARY_KEY) or []
    return [MissingReference.from_dict(item) for item in items if isinstance(item, dict)]


def as_summary(missing: Sequence[MissingReference]) -> list[dict[str, Any]]:
    return [m.to_dict() for m in missing]


def column_label(itype: ImportType | None, key: str, lang: Lang) -> str:
    column = next((c for c in itype.columns if c.key == key), None) if itype is not None else None
    if column is None:
        return key
    return column.label_zh if lang == "zh" else column.label_en


def describe(missing: MissingReference, itype: ImportType | None, lang: Lang) -> str:
    """ "Department not found: 华东销售部 (4 rows)" in the clerk's language."""
    reason = "one" if missing.rows == 1 else "many"
    return message(ErrorCode.REFERENCE_NOT_FOUND, lang, column=column_label(itype, missing.column, lang),
                   value=missing.value, rows=f"{missing.rows:,}", reason=reason)  # fmt: skip
