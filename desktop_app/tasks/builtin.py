"""The built-in task types, listed once."""

from __future__ import annotations

from desktop_app.config import Paths, Settings
from desktop_app.tasks.registry import TaskHandler


def builtin_handlers(paths: Paths, settings: Settings) -> list[TaskHandler]:
    from desktop_app.exports.task import ExportHandler
    from desktop_app.imports.task import ImportHandler
    from desktop_app.tasks.maintenance import CleanupHandler, CompleteReferencesHandler

    imports = ImportHandler.from_resources()
    return [
        imports,
        ExportHandler.from_resources(imports.import_types),
        CompleteReferencesHandler(imports.import_types),
        CleanupHandler(),
    ]
