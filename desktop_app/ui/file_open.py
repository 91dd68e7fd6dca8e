"""Documents the system hands to the running app. macOS Finder (a .csv or .xlsx double-clicked, "Open
With", a file dropped on the Dock icon) sends them as a QFileOpenEvent to the QApplication, never in argv
(the bundle is built with argv_emulation=False): an event filter on the application routes each file to the
same place as `--open FILE`."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QFileOpenEvent


class FileOpenFilter(QObject):
    """Calls `handler(path)` for each local file of a QEvent.FileOpen the application receives; lets every
    other event through untouched (a filter on the application sees every event of every object, so the
    check comes first and costs one type check).

    A bound method is held weakly: the filter is its owner's child, and a strong reference back would
    make a cycle (owner -> filter -> owner) that only the cyclic collector could free."""

    def __init__(self, handler: Callable[[Path], object], parent: QObject | None = None) -> None:
        super().__init__(parent)
        if hasattr(handler, "__self__") and hasattr(handler, "__func__"):
            method = weakref.WeakMethod(handler)
            self._handler: Callable[[], Callable[[Path], object] | None] = method
        else:
            self._handler = lambda: handler

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # the class alone (PySide wraps a FileOpen event as QFileOpenEvent: its typesystem's polymorphic id):
        # event.type() made a Python enum for each of the thousands of events a second that pass here
        if not isinstance(event, QFileOpenEvent):
            return False
        name = event.file()  # empty for a URL that is not a local file: not BatchDesk's
        if not name:
            return False
        handler = self._handler()
        if handler is None:
            return False  # its owner is gone
        handler(Path(name))
        return True
