"""Worker processes on one database: exactly-once side effects, kill -9, SIGSTOP, cancel, graceful stop."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from tests.support.handlers import ledger_meta, ledger_rows, make_test_handlers

ROOT = Path(__file__).resolve().parents[2]
FAST = {"poll_interval": 0.2, "heartbeat_interval": 0.3, "max_workers": 4}

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url, handlers=make_test_handlers())
    ledger_meta.create_all(core.store.engine)
    yield core
    core.store.engine.dispose()


class Workers:
    """Worker processes started for one test, all stopped at its end."""

    def __init__(self, db_url: str, data_dir: Path) -> None:
        self.db_url, self.data_dir = db_url, data_dir
        self.procs: list[subprocess.Popen[str]] = []

    def start(self, **settings: object) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.support.workerproc", "--db", self.db_url,
             "--data-dir", str(self.data_dir), "--settings", json.dumps({**FAST, **settings})],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.procs.append(proc)
        return proc

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGCONT)
                proc.terminate()
        for proc in self.procs:
            try:
                proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()


@pytest.fixture
def workers(db_url: str, tmp_path: Path) -> Iterator[Workers]:
    w = Workers(db_url, tmp_path / "data")
    yield w
    w.stop_all()


def wait_for(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def steps_of(core: Core, task_no: str) -> list[int]:
    with core.store.reading() as conn:
        return sorted(step for no, step, _ in ledger_rows(conn) if no == task_no)


def submit(core: Core, **params: object) -> TaskRecord:
    return core.store.submit(task_type="test.steps", params=params, creator="test").task


def status(core: Core, task_no: str) -> TaskStatus:
    task = core.store.get(task_no)
    assert task is not None
    return task.status


def test_four_workers_many_tasks_each_side_effect_once(core: Core, workers: Workers) -> None:
    # 100 tasks: four workers of four slots each race for the same head rows in every claim round, and
    # 100 tasks are several rounds for each of them; 500 ran the same race five times as long (about 13 ms
    # of the workers' CPU a task, the database server's on top).
    numbers = [submit(core, steps=1).task_no for _ in range(100)]
    for _ in range(4):
        workers.start()
    # one row at most per look, not the whole list: this loop looks twenty times a second
    active = [TaskStatus.PENDING, TaskStatus.RUNNING]
    wait_for(lambda: not core.store.list(statuses=active, limit=1), 240, "the tasks to end")
    with core.store.reading() as conn:
        rows = ledger_rows(conn)
    per_task = Counter(no for no, _, _ in rows)
    assert sorted(per_task) == sorted(numbers)
    assert set(per_task.values()) == {1}, "a side effect happened twice"
    assert all(t.status is TaskStatus.SUCCEEDED for t in core.store.list(limit=1000))
    assert len({worker for _, _, worker in rows}) > 1, "the work was not shared"


def test_kill_9_mid_task_then_restart_finishes_exactly_once(core: Core, workers: Workers) -> None:
    task = submit(core, steps=30, sleep=0.1)
    first = workers.start()
    wait_for(lambda: len(steps_of(core, task.task_no)) >= 5, 60, "some committed steps")
    first.kill()  # SIGKILL: no clean-up of any kind
    first.wait(10)
    assert status(core, task.task_no) is TaskStatus.RUNNING  # stuck until someone recovers it
    workers.start()  # same host: the dead owner is recovered at start-up, not after 90 s
    wait_for(lambda: status(core, task.task_no).is_final, 60, "the task to finish after restart")
    assert status(core, task.task_no) is TaskStatus.SUCCEEDED
    assert steps_of(core, task.task_no) == list(range(30))
    final = core.store.get(task.task_no)
    # one recovery, then batches beyond where it crashed: the count since the task last moved on is 0
    assert final is not None and final.attempt == 2 and final.recoveries == 0


def pause_outside_a_write(core: Core, proc: subprocess.Popen[str]) -> None:
    """SIGSTOP the worker, on SQLite at a moment it holds no write lock.

    A desk's SQLite file has one writer, and a stopped process's write lock cannot be broken from outside
    (the limit test_frozen_desk states for one desk): stopped inside its heartbeat's write, it would stall every
    other worker, whatever the fence. So, there, it is stopped again until another connection can write."""
    os.kill(proc.pid, signal.SIGSTOP)
    if core.store.engine.dialect.name != "sqlite":
        return
    database = core.store.engine.url.database
    assert database is not None
    for _ in range(200):
        probe = sqlite3.connect(database, timeout=0.2, isolation_level=None)
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
            return
        except sqlite3.OperationalError:  # "database is locked": stopped inside a write
            os.kill(proc.pid, signal.SIGCONT)
            time.sleep(0.05)
            os.kill(proc.pid, signal.SIGSTOP)
        finally:
            probe.close()
    raise AssertionError("the worker held the write lock at every pause")


def test_paused_worker_cannot_overwrite_after_recovery(core: Core, workers: Workers) -> None:
    task = submit(core, steps=8, sleep=0.8)
    paused = workers.start(stale_after=1.5)
    wait_for(lambda: len(steps_of(core, task.task_no)) >= 2, 60, "two committed steps")
    done_before = len(steps_of(core, task.task_no))
    pause_outside_a_write(core, paused)  # right after a commit: it sleeps between steps
    try:
        workers.start(stale_after=1.5)
        wait_for(lambda: status(core, task.task_no).is_final, 90, "another worker to finish it")
        finished = core.store.get(task.task_no)
        assert finished is not None and finished.status is TaskStatus.SUCCEEDED
    finally:
        os.kill(paused.pid, signal.SIGCONT)
    time.sleep(3.0)  # the resumed worker wakes, tries its next step, and must be fenced out
    after = core.store.get(task.task_no)
    assert after is not None and after.status is TaskStatus.SUCCEEDED
    assert (after.owner, after.attempt, after.ended_at) == (
        finished.owner,
        finished.attempt,
        finished.ended_at,
    )
    assert steps_of(core, task.task_no) == list(range(8)), "a step was committed twice"
    assert done_before >= 2


def test_cancel_pending_and_running(core: Core, workers: Workers) -> None:
    pending = submit(core, steps=1)
    core.store.cancel(pending.task_no)
    assert status(core, pending.task_no) is TaskStatus.CANCELLED
    running = submit(core, steps=200, sleep=0.05)
    workers.start()
    wait_for(lambda: len(steps_of(core, running.task_no)) >= 3, 60, "the task to be running")
    core.store.cancel(running.task_no)
    wait_for(lambda: status(core, running.task_no) is TaskStatus.CANCELLED, 30, "cancel at a batch boundary")
    done = steps_of(core, running.task_no)
    assert 3 <= len(done) < 200 and done == list(range(len(done)))  # what it committed stays
    final = core.store.get(running.task_no)
    assert final is not None and final.success_count == len(done)
    assert steps_of(core, pending.task_no) == []


def test_sigterm_returns_running_task_to_pending_then_resumes(core: Core, workers: Workers) -> None:
    task = submit(core, steps=60, sleep=0.05)
    proc = workers.start()
    wait_for(lambda: len(steps_of(core, task.task_no)) >= 3, 60, "the task to be running")
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    stopped = core.store.get(task.task_no)
    assert stopped is not None and stopped.status is TaskStatus.PENDING and stopped.owner is None
    committed = steps_of(core, task.task_no)
    assert stopped.checkpoint == {"next": len(committed)}
    workers.start()
    wait_for(lambda: status(core, task.task_no).is_final, 60, "the resumed task to finish")
    assert steps_of(core, task.task_no) == list(range(60))
