"""The built-in task types, listed once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop_app.config import Paths, Settings
from desktop_app.tasks.registry import TaskHandler

if TYPE_CHECKING:
    from desktop_app.imports.type_catalog import TypeCatalog


def builtin_handlers(paths: Paths, settings: Settings, catalog: TypeCatalog) -> list[TaskHandler]:
    from desktop_app.exports.task import ExportHandler
    from desktop_app.feeds.mail import FeedMailHandler
    from desktop_app.feeds.scan import FeedScanHandler
    from desktop_app.imports.completion import CompleteReferencesHandler
    from desktop_app.imports.task import ImportHandler
    from desktop_app.imports.undo import UndoHandler
    from desktop_app.imports.workbook_task import WorkbookHandler
    from desktop_app.tasks.maintenance import CleanupHandler

    return [
        ImportHandler(catalog),
        WorkbookHandler(catalog),
        ExportHandler.from_resources(catalog),
        CompleteReferencesHandler(catalog),
        UndoHandler(catalog),
        CleanupHandler(),
        FeedScanHandler(catalog),
        FeedMailHandler(),
    ]
