"""Every legal and illegal transition through the store, fenced by owner and attempt, on every back-end."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.status import IllegalTransition, TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.store.tasks import Fence, LostOwnership
from tests.support.handlers import ledger_meta, make_test_handlers

FINALS = [TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED, TaskStatus.FAILED, TaskStatus.CANCELLED]


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Core:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url, handlers=make_test_handlers())
    ledger_meta.create_all(core.store.engine)
    yield core
    core.store.engine.dispose()


def _running(core: Core, owner: str = "host:1:1:aa") -> tuple[TaskRecord, Fence]:
    result = core.store.submit(task_type="test.steps", params={}, creator="me")
    (task,) = core.store.claim(owner, 1, only_ids=[result.task.id])
    return task, Fence(task.id, owner, task.attempt)


def test_submit_creates_pending(core: Core) -> None:
    result = core.store.submit(task_type="test.steps", params={"steps": 2}, creator="clerk")
    task = result.task
    assert task.status is TaskStatus.PENDING and result.duplicate_of is None
    assert task.params == {"steps": 2} and task.creator == "clerk" and task.attempt == 0
    assert task.created_at is not None and task.task_no.startswith("T")


def test_pending_to_running_by_claim(core: Core) -> None:
    task, fence = _running(core)
    assert task.status is TaskStatus.RUNNING and task.owner == fence.owner and task.attempt == 1
    assert task.started_at is not None and task.heartbeat_at is not None
    # a second claimer finds nothing: the task is no longer pending
    assert core.store.claim("other:2:2:bb", 5) == []


@pytest.mark.parametrize("final", FINALS)
def test_running_to_each_final_status(core: Core, final: TaskStatus) -> None:
    task, fence = _running(core)
    assert core.store.finish(fence, final, total=10, success=9, fail=1)
    ended = core.store.get(task.task_no)
    assert ended is not None and ended.status is final and ended.ended_at is not None
    assert (ended.total_count, ended.success_count, ended.fail_count) == (10, 9, 1)


def test_running_to_pending_release_keeps_checkpoint(core: Core) -> None:
    task, fence = _running(core)
    core.store.report_progress(fence, progress=40, checkpoint={"row": 400})
    assert core.store.release(fence)
    again = core.store.get(task.task_no)
    assert again is not None and again.status is TaskStatus.PENDING and again.owner is None
    assert again.checkpoint == {"row": 400} and again.progress == 40
    (reclaimed,) = core.store.claim("b:2:2:bb", 1)
    assert reclaimed.attempt == 2 and reclaimed.checkpoint == {"row": 400}


def test_pending_to_cancelled_at_once(core: Core) -> None:
    task = core.store.submit(task_type="test.steps", params={}, creator="me").task
    cancelled = core.store.cancel(task.task_no)
    assert cancelled is not None and cancelled.status is TaskStatus.CANCELLED
    assert core.store.claim("a:1:1:aa", 5) == []


def test_running_cancel_is_a_request(core: Core) -> None:
    task, fence = _running(core)
    requested = core.store.cancel(task.task_no)
    assert requested is not None and requested.status is TaskStatus.RUNNING and requested.cancel_requested
    assert core.store.report_progress(fence, progress=10) is True  # the worker learns of it
    assert core.store.finish(fence, TaskStatus.CANCELLED)


@pytest.mark.parametrize("target", [TaskStatus.PENDING, TaskStatus.RUNNING])
def test_finish_rejects_non_final_targets(core: Core, target: TaskStatus) -> None:
    _, fence = _running(core)
    with pytest.raises((IllegalTransition, ValueError)):
        core.store.finish(fence, target)


@pytest.mark.parametrize("final", FINALS)
def test_final_statuses_are_final(core: Core, final: TaskStatus) -> None:
    task, fence = _running(core)
    assert core.store.finish(fence, final)
    # no write can move an ended task: not the owner's, not a release, not a cancel, not a claim
    assert not core.store.finish(fence, TaskStatus.SUCCEEDED)
    assert not core.store.release(fence)
    assert core.store.claim("x:9:9:zz", 5) == []
    after = core.store.cancel(task.task_no)
    assert after is not None and after.status is final


def test_pending_cannot_be_finished(core: Core) -> None:
    task = core.store.submit(task_type="test.steps", params={}, creator="me").task
    fence = Fence(task.id, "a:1:1:aa", 0)
    for final in FINALS:
        assert not core.store.finish(fence, final)
    assert not core.store.release(fence)
    current = core.store.get(task.task_no)
    assert current is not None and current.status is TaskStatus.PENDING


def test_a_batch_commits_write_reads_the_cancel_and_is_fenced(core: Core) -> None:
    """Inside a batch's transaction (a connection given): the checkpoint's write says whether a cancel
    was asked (one statement with RETURNING where the database has it), the fence's own write reads
    nothing, and a former owner's write raises and leaves the task as it was."""
    task, fence = _running(core)
    with core.store.engine.begin() as conn:
        assert core.store.report_progress(fence, progress=20, checkpoint={"row": 2}, conn=conn) is False
    core.store.cancel(task.task_no)
    with core.store.engine.begin() as conn:
        assert core.store.report_progress(fence, conn=conn, read_cancel=False) is False
        assert core.store.report_progress(fence, progress=30, checkpoint={"row": 3}, conn=conn) is True
    assert core.store.release(fence)
    with pytest.raises(LostOwnership), core.store.engine.begin() as conn:
        core.store.report_progress(fence, progress=90, checkpoint={"row": 9}, conn=conn)
    current = core.store.get(task.task_no)
    assert current is not None and current.checkpoint == {"row": 3} and current.progress == 30


def test_fence_drops_writes_of_a_former_owner(core: Core) -> None:
    task, old = _running(core)
    assert core.store.release(old)
    (task2,) = core.store.claim("new:2:2:bb", 1)
    new = Fence(task2.id, "new:2:2:bb", task2.attempt)
    # the old owner (same task, older attempt) can neither report nor finish
    with pytest.raises(LostOwnership):
        core.store.report_progress(old, progress=99)
    assert not core.store.finish(old, TaskStatus.FAILED, error_msg="stale")
    # same owner name but an older attempt is fenced too
    assert not core.store.finish(Fence(task2.id, "new:2:2:bb", task2.attempt - 1), TaskStatus.FAILED)
    assert core.store.finish(new, TaskStatus.SUCCEEDED)
    final = core.store.get(task.task_no)
    assert final is not None and final.status is TaskStatus.SUCCEEDED and final.error_msg is None


def test_progress_is_monotonic_and_clamped(core: Core) -> None:
    task, fence = _running(core)
    core.store.report_progress(fence, progress=60, stage="正在校验第 12000 行")
    core.store.report_progress(fence, progress=30)
    core.store.report_progress(fence, progress=250)
    current = core.store.get(task.task_no)
    assert current is not None and current.progress == 100 and current.stage == "正在校验第 12000 行"


def test_stale_running_task_recovered_then_failed_at_cap(core: Core) -> None:
    task, _ = _running(core)
    # stale_after=-1: every running heartbeat counts as stale (no waiting on a real clock)
    for number in range(1, 4):
        assert core.store.recover_stale(-1, max_recoveries=3) == [task.task_no]
        current = core.store.get(task.task_no)
        assert current is not None and current.status is TaskStatus.PENDING and current.recoveries == number
        (task,) = core.store.claim(f"w{number}:1:1:aa", 1)
    assert core.store.recover_stale(-1, max_recoveries=3) == [task.task_no]
    failed = core.store.get(task.task_no)
    assert failed is not None and failed.status is TaskStatus.FAILED and failed.error_code == "worker_lost"


def test_recoveries_of_a_task_that_moves_on_are_not_a_crash_loop(core: Core) -> None:
    """Four crashes, each after the import moved on (36,000 -> 50,000 -> 59,000 rows), used to end it
    worker_lost; only recoveries without progress in between count against the cap."""
    task, fence = _running(core)
    for number in range(1, 7):  # twice the cap, each run a batch further than the one before
        done = number * 1000
        core.store.report_progress(fence, counts=(10_000, done, 0), checkpoint={"next": done})
        assert core.store.recover_stale(-1, max_recoveries=3) == [task.task_no]
        current = core.store.get(task.task_no)
        assert current is not None and current.status is TaskStatus.PENDING and current.recoveries == 1, current
        (task,) = core.store.claim(f"w{number}:1:1:aa", 1)
        fence = Fence(task.id, task.owner or "", task.attempt)
    # the same batch again is no progress: a crash loop, failed at the cap
    core.store.report_progress(fence, counts=(10_000, 6000, 0), checkpoint={"next": 6000})
    for number in range(2, 4):  # recoveries 1 -> 2 -> 3
        assert core.store.recover_stale(-1, max_recoveries=3) == [task.task_no]
        (task,) = core.store.claim(f"loop{number}:1:1:aa", 1)
    assert core.store.recover_stale(-1, max_recoveries=3, lang="en") == [task.task_no]
    failed = core.store.get(task.task_no)
    assert failed is not None and failed.status is TaskStatus.FAILED and failed.error_code == "worker_lost"
    assert failed.error_msg is not None and failed.error_msg.startswith("The program running this task stopped 4 times")


def test_an_export_counts_every_crash_however_far_it_got(core: Core) -> None:
    """An export has no checkpoint and starts again from its first row: a run that got further than the
    one before kept nothing, so each crash counts, and the fourth ends it worker_lost (an import that
    moved on as far would stay pending: the test above)."""
    task = core.store.submit(task_type="export", params={"export": "customers"}, creator="t").task
    (task,) = core.store.claim("w0:1:1:aa", 1)
    for number in range(1, 4):
        fence = Fence(task.id, task.owner or "", task.attempt)
        core.store.report_progress(fence, counts=(10_000, number * 3000, 0))  # as ctx.report: no checkpoint
        assert core.store.recover_stale(-1, max_recoveries=3) == [task.task_no]
        current = core.store.get(task.task_no)
        assert current is not None and current.status is TaskStatus.PENDING and current.recoveries == number, current
        (task,) = core.store.claim(f"w{number}:1:1:aa", 1)
    core.store.report_progress(Fence(task.id, task.owner or "", task.attempt), counts=(10_000, 9500, 0))
    assert core.store.recover_stale(-1, max_recoveries=3, lang="en") == [task.task_no]
    failed = core.store.get(task.task_no)
    assert failed is not None and failed.status is TaskStatus.FAILED and failed.error_code == "worker_lost"


def test_worker_lost_follows_the_desks_language(core: Core) -> None:
    task, _ = _running(core, owner="thishost:999999:1:aa")
    assert core.store.recover_dead_owners("thishost", lambda owner: False, 1, lang="en") == [task.task_no]
    core.store.claim("thishost:999999:1:aa", 1)
    assert core.store.recover_dead_owners("thishost", lambda owner: False, 1, lang="en") == [task.task_no]
    failed = core.store.get(task.task_no)
    assert failed is not None and failed.error_code == "worker_lost"
    assert failed.error_msg == "The program running this task stopped 2 times (a crash or power loss?); no more retries"


def test_fresh_heartbeat_is_not_stale(core: Core) -> None:
    task, _ = _running(core)
    assert core.store.recover_stale(90, max_recoveries=3) == []
    assert core.store.get(task.task_no).status is TaskStatus.RUNNING  # type: ignore[union-attr]


def test_dead_local_owner_recovered_at_start(core: Core) -> None:
    task, _ = _running(core, owner="thishost:999999:1:aa")
    other, _ = _running(core, owner="otherhost:1:1:bb")
    recovered = core.store.recover_dead_owners("thishost", lambda owner: False, max_recoveries=3)
    assert recovered == [task.task_no]
    assert core.store.get(other.task_no).status is TaskStatus.RUNNING  # type: ignore[union-attr]


def test_retry_release_sets_next_run_in_the_future(core: Core) -> None:
    task, fence = _running(core)
    assert core.store.release(fence, delay=3600, is_retry=True)
    assert core.store.claim("a:1:1:aa", 5) == []  # not due yet
    current = core.store.get(task.task_no)
    assert current is not None and current.retries == 1 and current.next_run_at is not None


def test_retries_of_a_task_that_moves_on_start_again(core: Core) -> None:
    """A passing error after the database took a further batch is a new outage, not the same one: four
    short outages during a long import used to spend its three retries and fail it."""
    task, fence = _running(core)
    for number in range(1, 6):  # more outages than retries, each after a batch further than before
        core.store.report_progress(fence, counts=(10_000, number * 1000, 0), checkpoint={"next": number * 1000})
        assert core.store.release(fence, delay=0.001, is_retry=True)
        current = core.store.get(task.task_no)
        assert current is not None and current.retries == 1, current
        time.sleep(0.01)
        (task,) = core.store.claim(f"w{number}:1:1:aa", 1)
        fence = Fence(task.id, task.owner or "", task.attempt)
    # the same batch again is no progress: the retries add up
    core.store.report_progress(fence, counts=(10_000, 5000, 0), checkpoint={"next": 5000})
    assert core.store.release(fence, delay=0.001, is_retry=True)
    assert core.store.get(task.task_no).retries == 2  # type: ignore[union-attr]
    # an export reports no checkpoint: its retries are never reset
    export = core.store.submit(task_type="export", params={"export": "customers"}, creator="t").task
    (export,) = core.store.claim("e:1:1:aa", 1, only_ids=[export.id])
    efence = Fence(export.id, export.owner or "", export.attempt)
    assert core.store.release(efence, delay=0.001, is_retry=True)
    time.sleep(0.01)
    (export,) = core.store.claim("e:2:2:bb", 1, only_ids=[export.id])
    core.store.report_progress(Fence(export.id, export.owner or "", export.attempt), counts=(10, 9, 0))
    assert core.store.get(export.task_no).retries == 1  # type: ignore[union-attr]


def test_a_desk_claims_its_own_and_unbound_tasks_only(core: Core) -> None:
    mine = core.store.submit(task_type="test.steps", params={}, creator="me", host="desk-a").task
    theirs = core.store.submit(task_type="test.steps", params={}, creator="me", host="desk-b").task
    anyone = core.store.submit(task_type="test.steps", params={}, creator="me").task
    claimed = core.store.claim("desk-a:1:1:aa", 10, host="desk-a")
    assert sorted(t.task_no for t in claimed) == sorted([mine.task_no, anyone.task_no])
    assert core.store.get(theirs.task_no).status is TaskStatus.PENDING  # type: ignore[union-attr]
    (other,) = core.store.claim("desk-b:1:1:bb", 10, host="desk-b")
    assert other.task_no == theirs.task_no and other.host == "desk-b"


def test_a_workbook_lost_for_good_cancels_its_waiting_sheets(core: Core) -> None:
    """A workbook (a parent task) that fails as worker_lost left its sheets pending for ever: no worker
    claims a task with a parent on its own, and its parent's run would never come."""
    parent, _ = _running(core)
    first = core.store.submit(task_type="test.steps", params={}, creator="me", parent=parent.task_no).task
    second = core.store.submit(task_type="test.steps", params={"n": 2}, creator="me", parent=parent.task_no).task
    (running,) = core.store.claim("host:1:1:aa", 1, only_ids=[first.id], parent=parent.task_no)
    other = core.store.submit(task_type="test.steps", params={"n": 3}, creator="me").task  # no parent: untouched
    assert core.store.recover_stale(-1, max_recoveries=0) == [parent.task_no]
    found = {t: core.store.get(t) for t in (parent.task_no, first.task_no, second.task_no, other.task_no)}
    statuses = {t: r.status for t, r in found.items() if r is not None}
    assert statuses == {parent.task_no: TaskStatus.FAILED, running.task_no: TaskStatus.CANCELLED,
                        second.task_no: TaskStatus.CANCELLED, other.task_no: TaskStatus.PENDING}, statuses
