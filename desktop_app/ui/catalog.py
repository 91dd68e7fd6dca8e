"""The import types the window offers: titles, columns and which one a file's header matches best."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

from desktop_app.domain.errors import Lang
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.missing_references import describe, missing_of
from desktop_app.tasks.kinds import TaskKind, Title

if TYPE_CHECKING:
    from desktop_app.exports.definition import ExportDefinition, ExportFilter
    from desktop_app.imports.type_catalog import TypeCatalog

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ColumnInfo:
    """What the preview shows about a column of an import type."""

    key: str
    label: str
    required: bool


class ImportCatalog:
    """A read-only view of the loaded import types (desktop_app.imports) and export definitions
    (desktop_app.exports), in the clerk's language."""

    def __init__(self, types: dict[str, Any], lang: str, exports: dict[str, ExportDefinition] | None = None,
                 problems: dict[str, str] | None = None,
                 visible: Callable[[Any], bool] | None = None) -> None:  # fmt: skip
        # team mode (docs/TEAM.md): a type whose table the login may not read is not in its lists
        self._visible = visible
        self._types = self.shown(types)
        self._named = dict(types)  # every type's title, a hidden one's too: a title tells nothing of its rows
        self.lang = lang
        self.exports: dict[str, ExportDefinition] = {
            n: d for n, d in (exports or {}).items() if visible is None or visible(d.import_type)
        }
        # types that cannot be used (their file, or their table on this database): name -> why
        self.problems: dict[str, str] = dict(problems or {})

    def shown(self, types: dict[str, Any]) -> dict[str, Any]:
        """The types this desk's login may see (every one outside team mode)."""
        if self._visible is None:
            return types
        return {name: t for name, t in types.items() if self._visible(t)}

    def update(self, types: dict[str, Any], problems: dict[str, str]) -> None:
        """The types as the engine found them again (a type dropped into the folder, one that broke), those
        the login may not see left out already (TaskService.check_types, off the GUI thread)."""
        self._types = {name: t for name, t in types.items() if name not in problems}
        self._named = {**self._named, **types}
        self.problems = dict(problems)

    def problem(self, name: str) -> str | None:
        return self.problems.get(name)

    @classmethod
    def load(
        cls,
        lang: str,
        directory: Path | None = None,
        exports: dict[str, ExportDefinition] | None = None,
        source: TypeCatalog | None = None,
        visible: Callable[[Any], bool] | None = None,
    ) -> ImportCatalog:
        """The import types of ``source`` (the engine's catalog: built-in and the data folder's own),
        else of a folder; none when they cannot be loaded."""
        try:
            from desktop_app.imports.import_type import builtin_import_types_dir
            from desktop_app.imports.type_catalog import TypeCatalog

            source = source or TypeCatalog(directory or builtin_import_types_dir())
            problems = {e.name: e.problem or "" for e in source.entries() if not e.ok}
            return cls(source.types(), lang, exports, problems, visible)
        except Exception:
            log.exception("import types could not be loaded; the window offers none")
            return cls({}, lang, exports)

    def names(self) -> list[str]:
        """The types a clerk can import with."""
        return sorted(self._types)

    def broken_names(self) -> list[str]:
        """The types listed with their problem, not to be chosen."""
        return sorted(self.problems)

    def get(self, name: str) -> Any:
        return self._types.get(name)

    def title(self, name: str) -> str:
        it = self._types.get(name) or self._named.get(name)
        return it.title(self.lang) if it is not None else name

    def missing_reference_lines(self, record: TaskRecord) -> list[str]:
        """An import's reference names not found, one line each in the clerk's language:
        "Department not found: 华东销售部 (4 rows)"."""
        itype = self._types.get(str(record.params.get("import_type")))
        lang: Lang = "zh" if self.lang == "zh" else "en"
        return [describe(m, itype, lang) for m in missing_of(record.summary)]

    def key_columns(self, name: str) -> tuple[str, ...]:
        it = self._types.get(name)
        return tuple(it.unique_keys) if it is not None else ()

    def columns(self, name: str) -> list[ColumnInfo]:
        it = self._types.get(name)
        if it is None:
            return []
        return [ColumnInfo(c.key, c.label(self.lang), c.required) for c in it.columns]

    def best_match(self, header: Sequence[str]) -> str | None:
        """The type whose required columns the header names best; None if no type matches at all."""
        from desktop_app.imports.header import match_score

        scored = [(match_score(it, header), name) for name, it in self._types.items()]
        scored = [(score, name) for score, name in scored if score > 0]
        return max(scored)[1] if scored else None

    def map_header(self, name: str, header: Sequence[str], overrides: dict[str, str] | None = None) -> Any:
        from desktop_app.imports.header import map_header

        return map_header(self._types[name], header, overrides)

    # --- exports -------------------------------------------------------------------------

    def export_names(self) -> list[str]:
        return sorted(self.exports)

    def export_title(self, name: str) -> str:
        definition = self.exports.get(name)
        return definition.title(self.lang) if definition is not None else name

    def export_filter_label(self, name: str, spec: ExportFilter) -> str:
        """How the export dialog and the details name a filter: the known ones by their meaning, the
        others by their column's label in the import type."""
        known = {
            "level": QCoreApplication.translate("ImportCatalog", "Level"),
            "department": QCoreApplication.translate("ImportCatalog", "Department"),
            "opened_from": QCoreApplication.translate("ImportCatalog", "Opened from"),
            "opened_to": QCoreApplication.translate("ImportCatalog", "Opened until"),
            "imported_by": QCoreApplication.translate("ImportCatalog", "Imported by task"),
        }
        if spec.name in known:
            return known[spec.name]
        definition = self.exports.get(name)
        if definition is not None and spec.column in definition.import_type.keys:
            return str(definition.import_type.column(spec.column).label(self.lang))
        return spec.name

    def export_enum_choices(self, name: str, spec: ExportFilter) -> list[tuple[str, str]]:
        """(stored value, label in the clerk's language) of an enum filter, in the import type's order."""
        definition = self.exports.get(name)
        if definition is None or spec.column not in definition.import_type.keys:
            return []
        return list(definition.import_type.column(spec.column).enum_choices(self.lang))

    def fix_choices(self, import_type: str, key: str) -> list[tuple[str, str]]:
        """What the values an import's enum column refused may be changed to: each of its stored values once,
        as (what the value fix maps to, its label in the clerk's language); none for a type or column not
        known, or not an enum."""
        from desktop_app.imports.value_fixes import fix_choices

        itype = self._types.get(import_type)
        if itype is None or key not in itype.keys or itype.column(key).kind != "enum":
            return []
        return fix_choices(itype.column(key), self.lang)

    def export_filter_text(self, record: TaskRecord) -> str:
        """An export task's filters as the clerk reads them: "Level: Gold, Department: Sales"."""
        name = str(record.params.get("export", ""))
        definition = self.exports.get(name)
        filters: dict[str, Any] = record.params.get("filters") or {}
        parts = []
        for key, value in filters.items():
            text = str(value)
            spec = None
            if definition is not None:
                spec = next((f for f in definition.filters if f.name == key), None)
            if spec is not None and spec.kind == "enum":
                text = dict(self.export_enum_choices(name, spec)).get(text, text)
            label = self.export_filter_label(name, spec) if spec is not None else key
            parts.append(f"{label}: {text}")
        return ", ".join(parts) if parts else QCoreApplication.translate("ImportCatalog", "none (every row)")

    # --- the task list ------------------------------------------------------------------

    def describe(self, record: TaskRecord, kind: TaskKind) -> str:
        """How the task list names a task's type, as its kind's title says: the import type's title (marked
        when validate-only), the export's title and format, or the system task's name."""
        if kind.title is Title.EXPORT:
            fmt = str(record.params.get("format", "csv")).upper()
            return f"{self.export_title(str(record.params.get('export', '')))} ({fmt})"
        if kind.title is Title.COMPLETE_REFERENCES:
            if record.params.get("values"):  # a value fix (issue 25); its outcome names the import it fixed
                return QCoreApplication.translate("ImportCatalog", "Fix values")
            return QCoreApplication.translate("ImportCatalog", "Complete references")
        if kind.title is Title.CLEANUP:
            return QCoreApplication.translate("ImportCatalog", "Daily clean-up")
        if kind.title is Title.FEED_SCAN:
            return QCoreApplication.translate("ImportCatalog", "A feed's look at its folder")
        if kind.title is Title.FEED_MAIL:
            return QCoreApplication.translate("ImportCatalog", "A feed's mail about an import")
        if kind.title is Title.UNDO_OF:  # which import it takes back, where the list names the kind
            undoes = str(record.params.get(kind.source or "") or "")
            return QCoreApplication.translate("ImportCatalog", "Undo of %1").replace("%1", undoes)
        import_type = record.params.get("import_type")
        text = self.title(str(import_type)) if import_type else record.task_type
        if kind.title is Title.WORKBOOK:  # a workbook of several tables: its sheets are listed as their imports
            text = QCoreApplication.translate("ImportCatalog", "Workbook import")
        if record.params.get("dry_run"):
            text += QCoreApplication.translate("ImportCatalog", " (validate only)")
        return text
