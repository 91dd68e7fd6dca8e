"""Faults in the heartbeat alone, and in the final status write only, on every database: the task ends right.

The heartbeat is the one write that says a task between batches is alive. Failing for less than the
stale threshold it must cost nothing (no rescue, no second run, heartbeats resume); failing for longer
while its owner lives on, another desk rescues the task, and the owner, when it next writes, finds
itself fenced: it commits nothing and the task runs once, on the new attempt.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.executor.executor import Executor
from desktop_app.store.tasks import TaskStore
from tests.integration.test_db_outage import _run_in_thread
from tests.integration.test_workers import wait_for
from tests.support.handlers import ledger_meta, ledger_rows, make_test_handlers

STALE = 1.5
FAST = {"poll_interval": 0.2, "heartbeat_interval": 0.2, "stale_after": STALE, "daily_cleanup": False}


class _Gone(Exception):
    """The driver's error behind the injected one."""


class FailingHeartbeat:
    """The store's heartbeat fails as a lost connection while `on` (every other statement works)."""

    def __init__(self, store: TaskStore) -> None:
        self._real = store.heartbeat
        self.on = False
        self.failed = 0
        self.stamped = 0

    def __call__(self, owner: str, task_ids: Any) -> set[int]:
        if self.on:
            self.failed += 1
            raise OperationalError("UPDATE tasks SET heartbeat_at", {}, _Gone("server closed the connection"),
                                   connection_invalidated=True)  # fmt: skip
        self.stamped += 1
        return self._real(owner, task_ids)


@pytest.fixture
def desks(db_url: str, tmp_path: Path) -> Iterator[tuple[Core, Core]]:
    """Two desks on one database (two engines, two executors' owners), as two machines would be."""
    one = build_core(data_dir=tmp_path / "one", db_url=db_url, handlers=make_test_handlers(), overrides=FAST)
    ledger_meta.create_all(one.store.engine)
    two = build_core(data_dir=tmp_path / "two", db_url=db_url, handlers=make_test_handlers(), overrides=FAST)
    yield one, two
    one.store.engine.dispose()
    two.store.engine.dispose()


def _executor(core: Core, only: list[int] | None = None) -> Executor:
    executor = Executor(store=core.store, registry=core.registry, paths=core.paths, settings=core.settings,
                        lang="en", only_task_ids=only)  # fmt: skip
    executor.start()
    return executor


def _owned(core: Core, monkeypatch: pytest.MonkeyPatch, *, steps: int) -> tuple[TaskRecord, FailingHeartbeat, Executor]:
    """A task run by the desk's executor whose heartbeat can be made to fail. Each step sleeps longer
    than the stale threshold between its commits: only the heartbeats keep it alive meanwhile."""
    task = core.store.submit(task_type="test.steps", params={"steps": steps, "sleep": 2.5 * STALE}, creator="t").task
    beat = FailingHeartbeat(core.store)
    monkeypatch.setattr(core.store, "heartbeat", beat)
    return task, beat, _executor(core, [task.id])


def _steps(core: Core, task_no: str) -> Counter[int]:
    with core.store.reading() as conn:
        return Counter(r.step for r in ledger_rows(conn) if r.task_no == task_no)


def _final(core: Core, task_no: str) -> bool:
    status = _status(core, task_no)
    return status is not None and status.is_final


def _started(core: Core, task_no: str) -> TaskRecord:
    """The task once an executor runs it (its first attempt's record)."""
    wait_for(lambda: _status(core, task_no) is TaskStatus.RUNNING, 20, "the owner to start it")
    record = core.store.get(task_no)
    assert record is not None
    return record


def _status(core: Core, task_no: str) -> TaskStatus | None:
    record = core.store.get(task_no)
    return None if record is None else record.status


def test_heartbeat_failing_shorter_than_stale_loses_nothing(
    desks: tuple[Core, Core], monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = desks
    task, beat, owner = _owned(one, monkeypatch, steps=2)
    rescuer = _executor(two, [])  # claims nothing; rescues whatever looks stale
    try:
        _started(one, task.task_no)
        time.sleep(0.5)
        beat.on = True
        time.sleep(0.6 * STALE)  # heartbeats fail, but for less than the threshold
        beat.on = False
        stamped = beat.stamped
        wait_for(lambda: _final(one, task.task_no), 30, "the task to end")
    finally:
        owner.shutdown(10)
        rescuer.shutdown(10)
    ended = one.store.get(task.task_no)
    assert ended is not None and ended.status is TaskStatus.SUCCEEDED, ended
    assert beat.failed > 0 and beat.stamped > stamped, "the heartbeats did not resume after the fault"
    assert (ended.attempt, ended.recoveries) == (1, 0), "rescued although its owner was alive and beating again"
    assert _steps(one, task.task_no) == Counter(range(2))  # each step once


def test_heartbeat_failing_past_stale_fences_the_live_owner(
    desks: tuple[Core, Core], monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = desks
    task, beat, owner = _owned(one, monkeypatch, steps=3)
    try:
        first = _started(one, task.task_no)
        beat.on = True  # from now on the owner's heartbeats fail; its steps go on
        rescuer = _executor(two)  # the other desk rescues the stale task and runs it
        try:
            wait_for(lambda: (one.store.get(task.task_no) or first).attempt >= 2, 30, "the rescue")
            beat.on = False
            wait_for(lambda: _final(one, task.task_no), 60, "the task to end")
        finally:
            rescuer.shutdown(10)
        time.sleep(2.5 * STALE)  # the old owner wakes from its step, tries to commit, and is fenced out
    finally:
        owner.shutdown(10)
    ended = one.store.get(task.task_no)
    assert ended is not None and ended.status is TaskStatus.SUCCEEDED, ended
    assert beat.failed > 0
    assert ended.attempt >= 2 and ended.owner != first.owner
    assert _steps(one, task.task_no) == Counter(range(3)), "the fenced owner committed a step, or one was lost"
    with one.store.reading() as conn:
        workers = {r.worker for r in ledger_rows(conn) if r.task_no == task.task_no}
    # the steps after the rescue were the new owner's: the old one's in-flight step was dropped
    assert ended.owner in workers


def test_final_write_committed_but_its_answer_lost_ends_once(
    desks: tuple[Core, Core], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The finish reaches the database, then the connection drops before its answer: the retry finds
    the task already ended by us and leaves it so (no second ending, no traceback out of the runner)."""
    one, _ = desks
    task = one.store.submit(task_type="test.steps", params={"steps": 2}, creator="t").task
    real = one.store.finish
    calls: list[bool] = []

    def finish_then_drop(*args: Any, **kwargs: Any) -> bool:
        done = real(*args, **kwargs)
        calls.append(done)
        if len(calls) == 1:
            raise OperationalError("COMMIT", {}, _Gone("server closed the connection"), connection_invalidated=True)
        return done

    monkeypatch.setattr(one.store, "finish", finish_then_drop)
    thread, errors = _run_in_thread(one, task.id, "test:1:1:aa")
    thread.join(30)
    assert not thread.is_alive() and not errors, errors
    ended = one.store.get(task.task_no)
    assert ended is not None and ended.status is TaskStatus.SUCCEEDED, ended
    assert calls == [True, False]  # the first landed; the retry was fenced (already ended), nothing more
    assert _steps(one, task.task_no) == Counter(range(2))
