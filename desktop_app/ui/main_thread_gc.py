"""Garbage collection on the GUI thread only, by a timer (as Anki does).

Python's cyclic collector runs in whichever thread happens to allocate when a threshold is crossed:
with worker threads busy (imports allocate a lot), that is usually a worker. If a cycle holds a Qt
object (a closed dialog, a lambda connected to a widget), the worker then destroys a widget off the
GUI thread and the process crashes. So while the window lives, automatic collection is off and this
timer collects on the GUI thread: the young generations every second, everything every 30 s.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

FULL_EVERY = 30


class MainThreadGC(QObject):
    """Owns the process's cyclic garbage collection while started."""

    def __init__(self, interval_ms: int = 1000, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._collect)
        self._ticks = 0
        self._was_enabled = gc.isenabled()

    def start(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer.start()

    def stop(self) -> None:
        """Collect once more here, on the GUI thread, then give collection back to Python."""
        self._timer.stop()
        gc.collect()
        if self._was_enabled:
            gc.enable()

    def _collect(self) -> None:
        self._ticks += 1
        gc.collect(2 if self._ticks % FULL_EVERY == 0 else 1)
