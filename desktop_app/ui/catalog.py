"""The import types the window offers: titles, columns and which one a file's header matches best."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop_app.domain.task import TaskRecord

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ColumnInfo:
    """What the preview shows about a column of an import type."""

    key: str
    label: str
    required: bool


class ImportCatalog:
    """A read-only view of the loaded import types (desktop_app.imports), in the clerk's language."""

    def __init__(self, types: dict[str, Any], lang: str) -> None:
        self._types = types
        self.lang = lang

    @classmethod
    def load(cls, lang: str, directory: Path | None = None) -> ImportCatalog:
        """The built-in import types; none when the import pipeline's modules are missing or broken."""
        try:
            from desktop_app.imports.import_type import builtin_import_types_dir, load_import_types

            return cls(load_import_types(directory or builtin_import_types_dir()), lang)
        except Exception:
            log.exception("import types could not be loaded; the window offers none")
            return cls({}, lang)

    def names(self) -> list[str]:
        return sorted(self._types)

    def get(self, name: str) -> Any:
        return self._types.get(name)

    def title(self, name: str) -> str:
        it = self._types.get(name)
        return it.title(self.lang) if it is not None else name

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

    def describe(self, record: TaskRecord) -> str:
        """How the task list names a task's type: the import type's title, marked when validate-only."""
        import_type = record.params.get("import_type")
        text = self.title(str(import_type)) if import_type else record.task_type
        if record.params.get("dry_run"):
            from PySide6.QtCore import QCoreApplication

            text += QCoreApplication.translate("ImportCatalog", " (validate only)")
        return text
