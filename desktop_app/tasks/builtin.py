"""The built-in task types, listed once."""

from __future__ import annotations

from desktop_app.config import Paths, Settings
from desktop_app.tasks.registry import TaskHandler


def builtin_handlers(paths: Paths, settings: Settings) -> list[TaskHandler]:
    handlers: list[TaskHandler] = []
    try:
        from desktop_app.imports.task import ImportHandler
    except ImportError:  # the import pipeline is being built; the engine runs without it
        return handlers
    handlers.append(ImportHandler.from_resources())
    return handlers
