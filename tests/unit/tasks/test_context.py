"""The handler's context: progress to the database at most every 0.8 s, to listeners ~5 times a second."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from desktop_app.config import Paths, Settings
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, Progress, TaskRecord
from desktop_app.store.tasks import Fence
from desktop_app.tasks.context import Stopped, StopReason, TaskContext


class FakeStore:
    """Counts the progress writes a context makes; says whether a cancel was requested."""

    def __init__(self) -> None:
        self.writes: list[dict[str, Any]] = []
        self.cancel = False

    def report_progress(self, fence: Fence, **values: Any) -> bool:
        self.writes.append(values)
        return self.cancel


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def make(tmp_path: Path) -> tuple[TaskContext, FakeStore, Clock, list[Progress], threading.Event]:
    store, clock, seen, stop = FakeStore(), Clock(), [], threading.Event()
    task = TaskRecord(id=1, task_no="T1", task_type="x", lane=Lane.LONG, status=TaskStatus.RUNNING, params={},
                      owner="o", attempt=1)  # fmt: skip
    ctx = TaskContext(task=task, store=store, fence=Fence(1, "o", 1), paths=Paths(tmp_path, tmp_path),  # type: ignore[arg-type]
                      settings=Settings(), stop_event=stop, listener=seen.append, clock=clock)  # fmt: skip
    return ctx, store, clock, seen, stop


def test_progress_is_throttled(tmp_path: Path) -> None:
    ctx, store, clock, seen, _ = make(tmp_path)
    for step in range(1000):  # 10 seconds of a report every 10 ms
        clock.now = step * 0.01
        ctx.report(progress=step / 10, stage=f"row {step}", counts=(1000, step, 0))
    assert 11 <= len(store.writes) <= 13  # at most once per 0.8 s
    assert 45 <= len(seen) <= 51  # about 5 a second to listeners
    assert store.writes[-1]["progress"] >= 90


def test_progress_never_goes_back(tmp_path: Path) -> None:
    ctx, store, clock, _, _ = make(tmp_path)
    ctx.report(progress=50, force=True)
    clock.now = 5
    ctx.report(progress=20, force=True)
    assert [w["progress"] for w in store.writes] == [50, 50]


def test_forced_report_writes_at_once(tmp_path: Path) -> None:
    ctx, store, _, _, _ = make(tmp_path)
    ctx.report(stage="a", force=True)
    ctx.report(stage="b", force=True)
    assert [w["stage"] for w in store.writes] == ["a", "b"]


def test_cancel_request_seen_through_a_progress_write(tmp_path: Path) -> None:
    ctx, store, _, _, _ = make(tmp_path)
    ctx.check_stop()
    store.cancel = True
    ctx.report(progress=1, force=True)
    with pytest.raises(Stopped) as info:
        ctx.check_stop()
    assert info.value.reason is StopReason.CANCEL


def test_shutdown_stops_at_the_next_boundary(tmp_path: Path) -> None:
    ctx, _, _, _, stop = make(tmp_path)
    stop.set()
    with pytest.raises(Stopped) as info:
        ctx.check_stop()
    assert info.value.reason is StopReason.SHUTDOWN
