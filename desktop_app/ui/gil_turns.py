"""How soon a busy worker thread hands Python's lock (the GIL) to the GUI thread while the window lives.

A worker running Python code (the row validator, the error CSV) keeps the GIL until the interpreter's
switch interval runs out, 5 ms by default; the GUI thread then waits that long for every turn it needs
(a repaint calls back into Python for each cell), which made frames of 30-50 ms while two imports ran.
A 0.5 ms interval gives it the lock ten times sooner: with two million-row imports running, lag p99
9-21 ms and max 41-68 ms at 1 ms, 10-15 ms and 27-45 ms at 0.5 ms, the imports no slower (33 s;
bench/bench_gui_lag.py, three runs each, docs/BENCHMARKS.md). The command line keeps Python's default:
it has no frames to keep.
"""

from __future__ import annotations

import sys

GUI_SWITCH_INTERVAL = 0.0005  # seconds


class GilTurns:
    """Sets the shorter switch interval while started; stop() puts back the one it found."""

    def __init__(self, interval: float = GUI_SWITCH_INTERVAL) -> None:
        self.interval = interval
        self._before: float | None = None

    def start(self) -> None:
        if self._before is None:
            self._before = sys.getswitchinterval()
        sys.setswitchinterval(self.interval)

    def stop(self) -> None:
        if self._before is not None:
            sys.setswitchinterval(self._before)
            self._before = None
