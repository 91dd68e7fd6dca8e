"""Rows per second and the time left of running tasks, from the progress ticks the window sees."""

from __future__ import annotations

import datetime as dt
from collections import deque

WINDOW = dt.timedelta(seconds=20)  # the speed is measured over the last ticks within this span
MIN_SPAN = dt.timedelta(seconds=1.5)  # shorter than this, a speed would be noise


class SpeedMeter:
    """Per task: (when, rows done, percent) samples; the speed is the slope over the recent ones. Qt-free."""

    def __init__(self) -> None:
        self._samples: dict[int, deque[tuple[dt.datetime, int, int]]] = {}

    def add(self, task_id: int, when: dt.datetime, done: int, percent: int = 0) -> None:
        samples = self._samples.setdefault(task_id, deque())
        if samples and done < samples[-1][1]:
            samples.clear()  # a retry or a resume started counting again
        samples.append((when, done, percent))
        while len(samples) > 2 and when - samples[0][0] > WINDOW:
            samples.popleft()

    def forget(self, task_id: int) -> None:
        self._samples.pop(task_id, None)

    def rate(self, task_id: int) -> float | None:
        """Rows per second, or None until the task has been watched long enough."""
        samples = self._samples.get(task_id)
        if not samples or len(samples) < 2:
            return None
        (first, start, _p), (last, end, _q) = samples[0], samples[-1]
        span = last - first
        if span < MIN_SPAN:
            return None
        return max(0.0, (end - start) / span.total_seconds())

    def remaining(self, task_id: int, total: int, percent: int = 0) -> float | None:
        """Seconds until `total` rows are done at the current speed; without a total, until 100 % at the
        pace the percentage moves. None when it cannot be said."""
        rate = self.rate(task_id)
        samples = self._samples.get(task_id)
        if not rate or not samples:
            return None
        (first, _s, low), (last, done, high) = samples[0], samples[-1]
        if total > done:
            return max(0.0, (total - done) / rate)
        pace = (high - low) / (last - first).total_seconds()  # percent per second
        return max(0.0, (100 - max(high, percent)) / pace) if pace > 0 else None


def format_rate(rate: float | None) -> str:
    if rate is None:
        return ""
    return f"{rate:,.0f}" if rate >= 10 else f"{rate:.1f}"


def format_remaining(seconds: float | None) -> str:
    """ "42 s", "3:05", "1:02:07": whole seconds, as a countdown reads."""
    if seconds is None:
        return ""
    total = round(seconds)
    if total < 60:
        return f"{total} s"
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
