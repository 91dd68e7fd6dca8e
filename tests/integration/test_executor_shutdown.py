"""The executor's stop: no task claimed after it, and a task never fails because its listener is gone."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from desktop_app.app import Core, build_core, build_executor
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Progress
from tests.integration.test_workers import wait_for
from tests.support.handlers import ledger_meta, make_test_handlers


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url, handlers=make_test_handlers(),
                      overrides={"poll_interval": 0.2, "heartbeat_interval": 0.3, "daily_cleanup": False})  # fmt: skip
    ledger_meta.create_all(core.store.engine)
    yield core
    core.store.engine.dispose()


class GatedClaims:
    """Once armed, the next claim waits at the gate before it looks at the table (a claim that waits on
    a busy database while the stop comes)."""

    def __init__(self, claim: Any) -> None:
        self._claim = claim
        self.armed = False
        self.entered = threading.Event()
        self.gate = threading.Event()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.armed:
            self.armed = False
            self.entered.set()
            assert self.gate.wait(30)
        return self._claim(*args, **kwargs)


def test_a_claim_under_way_as_the_stop_comes_starts_nothing_after_it(core: Core) -> None:
    task = core.store.submit(task_type="test.steps", params={"steps": 400, "sleep": 0.05}, creator="t").task
    executor = build_executor(core)
    gated = GatedClaims(core.store.claim)
    core.store.claim = gated  # type: ignore[method-assign]
    executor.start()
    wait_for(lambda: core.store.get(task.task_no).status is TaskStatus.RUNNING, 20, "the task to run")  # type: ignore[union-attr]
    gated.armed = True
    executor.wake()
    assert gated.entered.wait(10), "the scheduler's next claim round"
    result: list[bool] = []
    stopping = threading.Thread(target=lambda: result.append(executor.shutdown(30)))
    stopping.start()
    # Before the fix the stop went on meanwhile: the task stopped at its next step and went back to
    # pending, and the waiting claim then took it again (attempt 2) and ran it past the pool's wait.
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline and core.store.get(task.task_no).status is TaskStatus.RUNNING:  # type: ignore[union-attr]
        time.sleep(0.05)
    gated.gate.set()
    stopping.join(60)
    assert result == [True]
    assert executor.running_count() == 0
    after = core.store.get(task.task_no)
    assert after is not None
    assert (after.status, after.attempt, after.owner) == (TaskStatus.PENDING, 1, None), after


def test_progress_after_the_executor_is_deleted_is_dropped_quietly(core: Core) -> None:
    from shiboken6 import Shiboken

    executor = build_executor(core)
    tell = executor._tell_progress
    Shiboken.delete(executor)  # as the window's close deletes it while a worker still reports
    tell(Progress(task_id=1, task_no="T1", progress=50, stage="step", total_count=2, success_count=1,
                  fail_count=0))  # fmt: skip


def test_a_task_ended_here_as_the_heartbeat_looks_is_not_called_lost(core: Core, caplog: Any) -> None:
    """Seen in a tryout's log: "tasks [23] are no longer ours (ended or recovered elsewhere)" 45 ms after this
    very window ended the task: the heartbeat took the running ids, the task ended and only then the
    heartbeat's UPDATE looked. A task that ended under our own ownership is not lost; one another worker
    took still is."""
    import logging

    from desktop_app.store.tasks import Fence

    executor = build_executor(core)
    store = core.store
    ended = store.submit(task_type="test.steps", params={}, creator="me").task
    taken = store.submit(task_type="test.steps", params={}, creator="me").task
    (mine,) = store.claim(executor.owner, 1, only_ids=[ended.id])
    (theirs,) = store.claim("another-desk-worker", 1, only_ids=[taken.id])
    executor._running.update({mine.id: (mine.attempt, mine.lane), theirs.id: (theirs.attempt, theirs.lane)})
    assert store.finish(Fence(mine.id, executor.owner, mine.attempt), TaskStatus.SUCCEEDED)
    with caplog.at_level(logging.WARNING, logger="desktop_app.executor.executor"):
        executor._heartbeat()
    lost = [r.getMessage() for r in caplog.records if "no longer ours" in r.getMessage()]
    assert lost == [f"tasks [{theirs.id}] are no longer ours (ended or recovered elsewhere)"], lost
