"""Garbage collection on the GUI thread only, by a timer (as Anki does).

Python's cyclic collector runs in whichever thread happens to allocate when a threshold is crossed:
with worker threads busy (imports allocate a lot), that is usually a worker. If a cycle holds a Qt
object (a closed dialog, a lambda connected to a widget), the worker then destroys a widget off the
GUI thread and the process crashes. So while the window lives, automatic collection is off and this
timer collects on the GUI thread, often and small: the youngest generation every 50 ms when it has
grown past Python's own threshold (a busy import allocates hundreds of thousands of containers a second:
collected once a second, that is a 100+ ms pause), the middle one every second, everything every 30 s.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

TICK_MS = 50
MIDDLE_EVERY = 20  # ticks: 1 s
FULL_EVERY = 600  # ticks: 30 s


class MainThreadGC(QObject):
    """Owns the process's cyclic garbage collection while started."""

    def __init__(self, interval_ms: int = TICK_MS, parent: QObject | None = None) -> None:
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
        if self._ticks % FULL_EVERY == 0:
            gc.collect(2)
        elif self._ticks % MIDDLE_EVERY == 0:
            gc.collect(1)
        elif gc.get_count()[0] > gc.get_threshold()[0]:
            gc.collect(0)
