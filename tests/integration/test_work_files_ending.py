"""A task's work files at its ending (tasks/runner.py): a worker that lost the task leaves its successor's
files alone; the worker whose fenced write ended it removes them; a task with no work file is not read back."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.log import task_logger
from desktop_app.store.tasks import Fence
from desktop_app.tasks.runner import _SettlingStore


@pytest.fixture
def core(sqlite_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=sqlite_url)
    yield core
    core.store.engine.dispose()


def _claimed(core: Core, owner: str) -> Fence:
    (task,) = core.store.claim(owner, 1)
    return Fence(task.id, owner, task.attempt)


def _ending(core: Core, task_no: str) -> _SettlingStore:
    log = task_logger(__name__, task_no)
    return _SettlingStore(core.store, threading.Event(), log, work_dir=core.paths.work_dir, task_no=task_no)


def test_a_worker_that_lost_the_task_keeps_its_successors_work_files(core: Core) -> None:
    task = core.store.submit(task_type="export", params={}, creator="t").task
    lost = _claimed(core, "desk:1:1:old")
    core.store.recover_stale(-1, max_recoveries=5)  # its heartbeat counts as stale: the task is pending again
    successor = _claimed(core, "desk:2:1:new")
    core.paths.work_dir.mkdir(parents=True, exist_ok=True)
    part = core.paths.work_dir / f"{task.task_no}-errors.csv.part"
    part.write_text("the successor's rows so far")

    assert _ending(core, task.task_no).finish(lost, TaskStatus.FAILED) is False
    assert part.exists(), "the worker that lost the task deleted its successor's work file"

    assert _ending(core, task.task_no).finish(successor, TaskStatus.SUCCEEDED) is True
    assert not part.exists()
    ended = core.store.get(task.task_no)
    assert ended is not None and ended.status is TaskStatus.SUCCEEDED and ended.owner == "desk:2:1:new"


def test_an_ending_without_work_files_does_not_read_the_task_back(core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    task = core.store.submit(task_type="export", params={}, creator="t").task
    fence = _claimed(core, "desk:1:1:only")
    reads: list[int] = []
    get_by_id = core.store.get_by_id

    def reading(task_id: int) -> TaskRecord | None:
        reads.append(task_id)
        return get_by_id(task_id)

    monkeypatch.setattr(core.store, "get_by_id", reading)
    assert _ending(core, task.task_no).finish(fence, TaskStatus.SUCCEEDED) is True
    assert reads == []  # an embedded desk keeps no copy of the task's files either
