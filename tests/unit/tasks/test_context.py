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

    engine = None  # a batch's transaction is stood in for (_commits)

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


def _commits(raise_at_commit: bool) -> Any:
    """A stand-in for the batch's transaction: the COMMIT at the block's end raises (the connection lost
    as it went: the server may have committed) or goes through."""
    from contextlib import contextmanager

    @contextmanager
    def transaction(engine: Any, connection: Any) -> Any:
        yield object()
        if raise_at_commit:
            raise ConnectionError("server closed the connection unexpectedly")

    return transaction


def test_a_batch_whose_commit_raised_is_in_doubt_until_one_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop_app.tasks import context

    ctx, *_ = make(tmp_path)
    monkeypatch.setattr(context, "_transaction", _commits(raise_at_commit=True))
    with pytest.raises(ConnectionError):
        ctx.commit_batch(lambda conn: None, checkpoint={"row": 500, "error_bytes": 120})
    assert ctx.saved_checkpoint is None and ctx.doubtful_checkpoint == {"row": 500, "error_bytes": 120}
    monkeypatch.setattr(context, "_transaction", _commits(raise_at_commit=False))
    ctx.commit_batch(lambda conn: None, checkpoint={"row": 1000, "error_bytes": 240})
    assert ctx.saved_checkpoint == {"row": 1000, "error_bytes": 240} and ctx.doubtful_checkpoint is None


def test_a_batch_that_failed_before_its_commit_is_not_in_doubt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # fmt: skip
    from desktop_app.tasks import context

    ctx, *_ = make(tmp_path)
    monkeypatch.setattr(context, "_transaction", _commits(raise_at_commit=False))

    def refused(conn: Any) -> None:
        raise ValueError("the batch's own statement failed: rolled back")

    with pytest.raises(ValueError):
        ctx.commit_batch(refused, checkpoint={"row": 500, "error_bytes": 120})
    assert ctx.doubtful_checkpoint is None


def test_a_hand_back_keeps_the_error_rows_of_a_batch_in_doubt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # fmt: skip
    """The resume's writer cuts the error file to the checkpoint the server holds; the hand-back must
    never cut it shorter (the rows of a batch that did commit would be lost)."""
    from desktop_app.imports.error_csv import cut_back_to_checkpoint, error_csv_work_file
    from desktop_app.tasks import context

    task = TaskRecord(id=1, task_no="T261203-ABC123", task_type="import", lane=Lane.LONG, status=TaskStatus.RUNNING,
                      params={}, owner="o", attempt=1)  # fmt: skip
    ctx = TaskContext(task=task, store=FakeStore(), fence=Fence(1, "o", 1), paths=Paths(tmp_path, tmp_path),  # type: ignore[arg-type]
                      settings=Settings(), stop_event=threading.Event())  # fmt: skip
    work = error_csv_work_file(ctx)
    work.parent.mkdir(parents=True, exist_ok=True)
    work.write_bytes(b"header\r\n" + b"row 1001\r\n" + b"row 2001\r\n" + b"half a ro")
    monkeypatch.setattr(context, "_transaction", _commits(raise_at_commit=True))
    with pytest.raises(ConnectionError):
        ctx.commit_batch(lambda conn: None, checkpoint={"row": 2500, "error_bytes": 28})
    cut_back_to_checkpoint(ctx)
    assert work.read_bytes() == b"header\r\nrow 1001\r\nrow 2001\r\n"


def test_the_ticks_carry_the_rows_of_the_file_once_known(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_app.tasks import context

    ctx, _, clock, seen, _ = make(tmp_path)
    ctx.report(stage="counting", force=True)
    assert seen[-1].rows_in_file is None, "not known yet"
    monkeypatch.setattr(context, "_transaction", _commits(raise_at_commit=False))
    clock.now = 1
    ctx.commit_batch(lambda conn: None, checkpoint={"row": 501}, counts=(500, 500, 0), rows_in_file=300_000)
    assert seen[-1].rows_in_file == 300_000 and seen[-1].success_count == 500
    clock.now = 2
    ctx.report(progress=50, force=True)
    assert seen[-1].rows_in_file == 300_000, "kept for the ticks after"
