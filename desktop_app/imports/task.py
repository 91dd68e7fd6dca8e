"""The `import` task type: one registered class that runs the staged import pipeline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from desktop_app.config import resources_dir
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.task import Lane, TaskOutcome
from desktop_app.imports.error_csv import keep_error_rows
from desktop_app.imports.import_type import ImportType, load_import_types
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.pipeline import ImportRun
from desktop_app.tasks.context import TaskContext


class ImportHandler:
    """Imports a CSV/XLSX/XLS file with a declarative import type (resources/import_types/*.toml)."""

    task_type = "import"
    lane = Lane.LONG

    def __init__(self, import_types: dict[str, ImportType]) -> None:
        self.import_types = import_types

    @classmethod
    def from_resources(cls, directory: Path | None = None) -> ImportHandler:
        return cls(load_import_types(directory or resources_dir() / "import_types"))

    def check_import_type(self, name: str) -> ImportType:
        try:
            return self.import_types[name]
        except KeyError:
            raise PermanentError(
                ErrorCode.UNKNOWN_IMPORT_TYPE,
                import_type=name,
                available=", ".join(sorted(self.import_types)),
            ) from None

    def run(self, ctx: TaskContext) -> TaskOutcome:
        settings = ctx.settings
        options = ImportOptions.from_params(
            ctx.params,
            batch_default=settings.batch_size,
            rows_default=settings.max_rows,
            mb_default=settings.max_file_mb,
        )
        return ImportRun(ctx, self.check_import_type(options.import_type), options).run()

    def on_end(self, ctx: TaskContext) -> dict[str, Any]:
        """Called when the task ends without an outcome of its own (cancel, failure): keep its error rows."""
        return keep_error_rows(ctx)
