"""Lanes (a slot kept for short tasks), retries with backoff and jitter, and tasks that never get better."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select, update

from desktop_app.app import Core, build_core, build_executor
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskRecord
from desktop_app.store.schema import tasks
from desktop_app.tasks.runner import run_task
from tests.support.handlers import ledger_meta, make_test_handlers

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url, handlers=make_test_handlers(),
                      overrides={"max_workers": 2, "short_slots": 1, "poll_interval": 0.5})  # fmt: skip
    ledger_meta.create_all(core.store.engine)
    yield core
    core.store.engine.dispose()


def submit(core: Core, task_type: str = "test.steps", lane: Lane = Lane.LONG, **params: object) -> TaskRecord:
    return core.store.submit(task_type=task_type, params=params, creator="t", lane=lane).task


def run_claimed(core: Core, task_id: int, rand: float = 0.5) -> TaskRecord:
    (task,) = core.store.claim("t:1:1:aa", 1, only_ids=[task_id])
    run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
             stop_event=threading.Event(), retry_rand=lambda: rand)  # fmt: skip
    record = core.store.get_by_id(task_id)
    assert record is not None
    return record


def seconds_until_next_run(core: Core, task_id: int) -> float:
    with core.store.reading() as conn:
        next_run, now = conn.execute(select(tasks.c.next_run_at, core.store.now()).where(tasks.c.id == task_id)).one()
    if isinstance(now, str):  # SQLite returns the expression's text
        import datetime as dt

        now = dt.datetime.fromisoformat(now)
    return (next_run - now).total_seconds()


def advance_clock(core: Core, task_id: int) -> None:
    """Make a waiting retry due now, instead of sleeping through its backoff."""
    with core.store.engine.begin() as conn:
        conn.execute(update(tasks).where(tasks.c.id == task_id).values(next_run_at=core.store.now(-1)))


def test_short_task_starts_while_long_slots_are_busy(core: Core, qapp: object) -> None:
    longs = [submit(core, steps=60, sleep=0.05) for _ in range(3)]
    executor = build_executor(core)
    executor.start()
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and core.store.get(longs[0].task_no).status is not TaskStatus.RUNNING:  # type: ignore[union-attr]
            time.sleep(0.05)
        time.sleep(1.0)  # two polls: the other long tasks had every chance to take the free slot
        running = [t for t in core.store.list() if t.status is TaskStatus.RUNNING]
        assert [t.lane for t in running] == [Lane.LONG], "a long task took the slot kept for short tasks"
        short = submit(core, "test.short", Lane.SHORT, steps=1)  # from "another desk": found by polling
        waited = time.monotonic()
        while core.store.get(short.task_no).status is not TaskStatus.SUCCEEDED:  # type: ignore[union-attr]
            assert time.monotonic() - waited < 5, "the short task waited behind the long ones"
            time.sleep(0.02)
        started = core.store.get(short.task_no)
        assert started is not None and started.started_at is not None and started.created_at is not None
        assert (started.started_at - started.created_at).total_seconds() <= core.settings.poll_interval + 0.5
        assert core.store.get(longs[2].task_no).status is TaskStatus.PENDING  # type: ignore[union-attr]
    finally:
        executor.shutdown()


def test_transient_error_retries_on_schedule_then_fails(core: Core) -> None:
    task = submit(core, fail="transient")
    bounds = [(30, 36), (120, 144), (480, 576)]
    for number, (low, high) in enumerate(bounds, start=1):
        after = run_claimed(core, task.id, rand=0.999)
        assert after.status is TaskStatus.PENDING and after.retries == number
        wait = seconds_until_next_run(core, task.id)
        assert low <= wait <= high + 1, (number, wait)
        assert core.store.claim("other:2:2:bb", 5) == []  # not before its time
        advance_clock(core, task.id)
    final = run_claimed(core, task.id)
    assert final.status is TaskStatus.FAILED and final.error_code == "retries_exhausted"
    assert final.retries == 3 and final.attempt == 4
    assert final.error_msg and "3" in final.error_msg  # the last reason, in plain words


def test_jitter_is_never_early(core: Core) -> None:
    task = submit(core, fail="transient")
    run_claimed(core, task.id, rand=0.0)
    assert 30 - 1 <= seconds_until_next_run(core, task.id) <= 30 + 1


def test_permanent_error_is_never_retried(core: Core) -> None:
    final = run_claimed(core, submit(core, fail="permanent").id)
    assert final.status is TaskStatus.FAILED and final.retries == 0 and final.error_code == "invalid_params"


def test_a_bug_fails_the_task_in_plain_words(core: Core) -> None:
    final = run_claimed(core, submit(core, fail="bug").id)
    assert final.status is TaskStatus.FAILED and final.error_code == "internal_error" and final.retries == 0


def test_two_hundred_failures_in_one_second_spread_their_retries(core: Core) -> None:
    import random

    created = [submit(core, fail="transient") for _ in range(200)]
    claimed = core.store.claim("t:1:1:aa", 200)
    assert len(claimed) == 200
    rng = random.Random(1)
    for task in claimed:
        run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
                 stop_event=threading.Event(), retry_rand=rng.random)  # fmt: skip
    # each delay measured from its own release (the same UPDATE stamped both), not from now: running
    # 200 tasks one after another takes a while on a loaded machine
    waits = []
    for t in created:
        record = core.store.get_by_id(t.id)
        assert record is not None and record.next_run_at and record.updated_at
        waits.append((record.next_run_at - record.updated_at).total_seconds())
    assert all(30 <= w <= 36.01 for w in waits), (min(waits), max(waits))
    assert max(waits) - min(waits) > 4  # spread over most of the 6 s jitter window
    buckets = {int(w) for w in waits}
    assert len(buckets) >= 6  # no single second takes them all


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes")
def test_a_task_that_crashes_its_worker_every_time_ends_failed(core: Core, db_url: str, tmp_path: Path) -> None:
    task = submit(core, "test.crash")
    exits = []
    for _ in range(8):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.support.workerproc", "--db", db_url, "--data-dir", str(tmp_path / "data"),
             "--settings", '{"poll_interval": 0.2}'],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            current = core.store.get(task.task_no)
            if current is not None and current.status.is_final:
                break  # failed at start-up recovery: this worker has nothing to crash on
            time.sleep(0.1)
        if proc.poll() is None:
            proc.terminate()
            proc.wait(30)
        else:
            exits.append(proc.returncode)
        current = core.store.get(task.task_no)
        assert current is not None
        if current.status.is_final:
            break
    assert exits and set(exits) == {3}  # every run ended with the handler killing its worker
    assert current.status is TaskStatus.FAILED and current.error_code == "worker_lost"
    assert current.recoveries == 4 and current.attempt == 4


def test_stopped_import_resumes_from_its_checkpoint(tmp_path: Path, db_url: str) -> None:
    from tests.support.customers import row, write_csv

    core = build_core(data_dir=tmp_path / "imp", db_url=db_url)
    try:
        path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 3001)])
        result = core.store.submit(task_type="import", params={"file": str(path), "import_type": "customers",
                                                                "batch_size": 100}, creator="t")  # fmt: skip
        stop = threading.Event()

        def listener(progress: object) -> None:
            if getattr(progress, "success_count", 0) >= 1000:
                stop.set()  # as a transient error or a shutdown would: stop at the next batch boundary

        (task,) = core.store.claim("t:1:1:aa", 1)
        run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
                 stop_event=stop, listener=listener)  # fmt: skip
        paused = core.store.get(result.task.task_no)
        assert paused is not None and paused.status is TaskStatus.PENDING
        assert paused.checkpoint and 1000 <= paused.checkpoint["success"] < 3000
        done_before = paused.checkpoint["success"]
        (task,) = core.store.claim("t:2:2:bb", 1)
        run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
                 stop_event=threading.Event())  # fmt: skip
        final = core.store.get(result.task.task_no)
        assert final is not None and final.status is TaskStatus.SUCCEEDED
        assert (final.total_count, final.success_count, final.fail_count) == (3000, 3000, 0)  # nothing twice
        assert done_before > 0
    finally:
        core.store.engine.dispose()


def test_heartbeat_beats_during_a_slow_batch(db_url: str, tmp_path: Path, qapp: object) -> None:
    core = build_core(data_dir=tmp_path / "hb", db_url=db_url, handlers=make_test_handlers(),
                      overrides={"heartbeat_interval": 0.3, "poll_interval": 0.2})  # fmt: skip
    ledger_meta.create_all(core.store.engine)
    task = submit(core, steps=1, sleep=3.0)  # one batch that takes 3 s
    executor = build_executor(core)
    executor.start()
    try:
        beats: set[object] = set()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            current = core.store.get(task.task_no)
            assert current is not None
            if current.status is TaskStatus.RUNNING and current.heartbeat_at is not None:
                beats.add(current.heartbeat_at)
            if current.status.is_final:
                break
            time.sleep(0.1)
        assert len(beats) >= 4, "the heartbeat stood still while the batch ran"
    finally:
        executor.shutdown()
        core.store.engine.dispose()


def test_a_worker_never_rescues_its_own_running_task(db_url: str, tmp_path: Path, qapp: object) -> None:
    # As after a laptop sleep: the heartbeat timer is far off, so the task looks stale to a rescue.
    core = build_core(data_dir=tmp_path / "own", db_url=db_url, handlers=make_test_handlers(),
                      overrides={"heartbeat_interval": 1000, "stale_after": 1.0, "poll_interval": 0.2})  # fmt: skip
    ledger_meta.create_all(core.store.engine)
    task = submit(core, steps=3, sleep=1.5)
    executor = build_executor(core)
    executor.start()
    try:
        deadline = time.monotonic() + 30
        while not core.store.get(task.task_no).status.is_final:  # type: ignore[union-attr]
            assert time.monotonic() < deadline
            assert executor.running_count() <= 1
            time.sleep(0.1)
        final = core.store.get(task.task_no)
        assert final is not None and final.status is TaskStatus.SUCCEEDED
        assert final.attempt == 1 and final.recoveries == 0
    finally:
        executor.shutdown()
        core.store.engine.dispose()
