"""Import the remaining rows: after a cancel, an early failure or a lost worker, the file finishes with
exact counts, each row in the table once and each bad row in the error CSV once (every database)."""

from __future__ import annotations

import csv
import dataclasses
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Progress, TaskRecord
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.resume import stopped_counts, stopped_early
from desktop_app.tasks.runner import run_task
from tests.support.customers import codes_by_row, error_rows, row, write_csv

ROWS = 1_000
BAD_EVERY = 97  # rows 97, 194, ...: a bad phone
BAD = ROWS // BAD_EVERY
OWNER = "test:1:1:aa"


class _Halt(BaseException):
    """Stops a run the way a killed process does: no ending is written (the runner catches Exception only)."""


@pytest.fixture(params=[True, False], ids=["bulk", "by-row"])
def bulk(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


def _file(tmp_path: Path) -> Path:
    rows = [row(i, 手机号="bad") if i % BAD_EVERY == 0 else row(i) for i in range(1, ROWS + 1)]
    return write_csv(tmp_path / "customers.csv", rows)


def _run(core: Core, task: TaskRecord, bulk: bool, listener: Callable[[Progress], None] | None = None) -> TaskRecord:
    (claimed,) = core.store.claim(OWNER, 1, only_ids=[task.id])
    settings = dataclasses.replace(core.settings, bulk_loads=bulk)
    run_task(claimed, registry=core.registry, store=core.store, paths=core.paths, settings=settings,
             stop_event=threading.Event(), listener=listener, lang="en")  # fmt: skip
    ended = core.store.get_by_id(task.id)
    assert ended is not None
    return ended


def _submit(core: Core, path: Path) -> TaskRecord:
    options = ImportOptions(file=path, import_type="customers", batch_size=100)
    result = core.submitter().submit_import(options, user="clerk")
    assert not result.refused and result.duplicate_of is None
    return result.task


def _after(rows: int, act: Callable[[], None]) -> Callable[[Progress], None]:
    done = False

    def listener(progress: Progress) -> None:
        nonlocal done
        if not done and progress.success_count >= rows:
            done = True
            act()

    return listener


def _assert_whole_file(core: Core, task: TaskRecord) -> None:
    assert task.status is TaskStatus.PARTIALLY_SUCCEEDED, (task.error_code, task.error_msg)
    assert (task.total_count, task.success_count, task.fail_count) == (ROWS, ROWS - BAD, BAD)
    kinds = task.to_json()
    assert kinds["inserted_count"] == ROWS - BAD and kinds["skipped_count"] == 0
    with core.store.reading() as conn:
        count, distinct = conn.exec_driver_sql("SELECT COUNT(*), COUNT(DISTINCT code) FROM customers").one()
    assert count == distinct == ROWS - BAD
    # each bad row once, none of the rows already in as already_exists
    assert len(error_rows(task)) == BAD
    assert codes_by_row(task) == {i + 1: ["pattern_mismatch"] for i in range(BAD_EVERY, ROWS + 1, BAD_EVERY)}


def _resume_and_check(core: Core, stopped: TaskRecord, path: Path, bulk: bool) -> TaskRecord:
    assert stopped_early(stopped)
    done, total = stopped_counts(core.store, stopped)
    assert 0 < done < ROWS and total == ROWS
    # queueing the same file again is refused, naming the stopped task (the window offers the resume)
    again = core.submitter().submit_import(ImportOptions(file=path, import_type="customers"), user="clerk")
    assert again.refused and again.task.task_no == stopped.task_no
    resumed = core.submitter().submit_resume(stopped.task_no, user="clerk")
    assert resumed.duplicate_of is None and resumed.task.params["resumes"] == stopped.task_no
    # asking twice gives the same task
    twice = core.submitter().submit_resume(stopped.task_no, user="clerk")
    assert twice.duplicate_of == resumed.task.task_no
    ended = _run(core, resumed.task, bulk)
    _assert_whole_file(core, ended)
    assert ended.to_json()["resumes"] == stopped.task_no
    earlier = core.store.get(stopped.task_no)
    assert earlier is not None and earlier.to_json()["resumed_by"] == ended.task_no
    assert earlier.status is stopped.status  # the stopped task's history stays as it was
    # after it: asking again returns the finished one, queueing the file again is refused as imported
    third = core.submitter().submit_resume(stopped.task_no, user="clerk")
    assert third.duplicate_of == ended.task_no
    last = core.submitter().submit_import(ImportOptions(file=path, import_type="customers"), user="clerk")
    assert last.refused and last.task.task_no == ended.task_no and not stopped_early(last.task)
    return ended


def test_resume_after_cancel(core: Core, tmp_path: Path, bulk: bool) -> None:
    path = _file(tmp_path)
    task = _submit(core, path)
    stopped = _run(core, task, bulk, _after(300, lambda: core.store.cancel(task.task_no)))
    assert stopped.status is TaskStatus.CANCELLED
    assert 300 <= stopped.success_count < ROWS - BAD
    resumed = _resume_and_check(core, stopped, path, bulk)
    # "what it imported" is the whole file, as its counts say
    export = core.submitter().submit_export("customers", filters={"imported_by": resumed.task_no}, user="clerk")
    exported = _run(core, export.task, bulk)
    assert exported.status is TaskStatus.SUCCEEDED and exported.result_path, exported.error_msg
    with open(exported.result_path, encoding="utf-8-sig", newline="") as handle:
        codes = [line[0] for line in csv.reader(handle)][1:]
    assert len(codes) == len(set(codes)) == ROWS - BAD


def test_resume_after_an_early_failure(core: Core, tmp_path: Path, bulk: bool) -> None:
    path = _file(tmp_path)
    task = _submit(core, path)

    def boom() -> None:
        raise RuntimeError("a bug after the batch committed")

    stopped = _run(core, task, bulk, _after(400, boom))
    assert stopped.status is TaskStatus.FAILED and stopped.error_code == ErrorCode.INTERNAL_ERROR.value
    _resume_and_check(core, stopped, path, bulk)


def test_resume_after_worker_lost(core: Core, tmp_path: Path, bulk: bool) -> None:
    path = _file(tmp_path)
    task = _submit(core, path)

    def halt() -> None:
        raise _Halt

    with pytest.raises(_Halt):
        _run(core, task, bulk, _after(500, halt))
    # the worker is gone for good: its heartbeat goes stale and it has no recoveries left
    assert core.store.recover_stale(-5, 0) == [task.task_no]
    stopped = core.store.get(task.task_no)
    assert stopped is not None and stopped.error_code == ErrorCode.WORKER_LOST.value
    _resume_and_check(core, stopped, path, bulk)


def test_resume_refusals(core: Core, tmp_path: Path) -> None:
    path = _file(tmp_path)
    task = _submit(core, path)
    with pytest.raises(PermanentError) as running:
        core.submitter().submit_resume(task.task_no, user="clerk")
    assert running.value.code is ErrorCode.NOT_RESUMABLE and "still queued or running" in running.value.text("en")
    ended = _run(core, task, True)
    with pytest.raises(PermanentError) as finished:
        core.submitter().submit_resume(ended.task_no, user="clerk")
    assert "read the whole file" in finished.value.text("en")
    with pytest.raises(PermanentError) as other:
        core.submitter().submit_resume(ended.task_no, user="someone", creator="someone")
    assert other.value.code is ErrorCode.TASK_NOT_FOUND
    dry = core.submitter().submit_import(ImportOptions(file=path, import_type="customers", dry_run=True), user="clerk")
    checked = _run(core, dry.task, True)
    with pytest.raises(PermanentError) as dry_run:
        core.submitter().submit_resume(checked.task_no, user="clerk")
    assert "only checked the file" in dry_run.value.text("en")


def test_resume_of_a_changed_file_is_refused(core: Core, tmp_path: Path) -> None:
    path = _file(tmp_path)
    task = _submit(core, path)
    stopped = _run(core, task, True, _after(300, lambda: core.store.cancel(task.task_no)))
    path.write_text(path.read_text(encoding="utf-8-sig") + "C999999,x,13800000000,,普通,,,,\n", encoding="utf-8")
    with pytest.raises(PermanentError) as changed:
        core.submitter().submit_resume(stopped.task_no, user="clerk")
    assert changed.value.code is ErrorCode.FILE_CHANGED


def test_cli_resume(tmp_path: Path) -> None:
    from tests.integration.test_cli import cli

    data_dir = tmp_path / "data"
    core = build_core(data_dir=data_dir)
    try:
        path = _file(tmp_path)
        task = _submit(core, path)
        stopped = _run(core, task, True, _after(300, lambda: core.store.cancel(task.task_no)))
    finally:
        core.store.engine.dispose()
    where = ("--data-dir", str(data_dir), "--user", "clerk")
    # queueing it again: refused in one line that says where it stopped and names the command
    code, out, err = cli("import", str(path), "--type", "customers", "--wait", *where, check_json=False)
    assert code == 1 and len(str(out).strip().splitlines()) == 1
    assert f"batchdesk resume {stopped.task_no}" in str(out) and "cancelled at" in str(out)
    assert f"{stopped.total_count:,} of {ROWS:,}" in str(out)
    code, refused, _ = cli("import", str(path), "--type", "customers", "--json", *where)
    assert code == 1 and isinstance(refused, dict) and refused["error_code"] == "already_imported"
    assert f"batchdesk resume {stopped.task_no}" in refused["error_msg"]
    # (another clerk's task is no task: test_resume_refusals; on one desk its user administers it)
    code, resumed, err = cli("resume", stopped.task_no.lower(), "--wait", "--json", *where)
    assert code == 0, err
    assert isinstance(resumed, dict) and resumed["resumes"] == stopped.task_no
    assert (resumed["total_count"], resumed["success_count"], resumed["fail_count"]) == (ROWS, ROWS - BAD, BAD)
    code, again, _ = cli("resume", stopped.task_no, "--json", *where)
    assert code == 0 and isinstance(again, dict) and again["duplicate_of"] == resumed["task_no"]
    # a task that read its whole file cannot be resumed: one plain line, exit 2
    code, _, err = cli("resume", resumed["task_no"], "--json", *where)
    assert code == 2 and err.strip().splitlines() == [f"batchdesk: Task {resumed['task_no']} cannot be resumed: "
                                                      "it has read the whole file"]  # fmt: skip


def test_the_undo_of_a_resumed_import_takes_back_the_whole_file(core: Core, tmp_path: Path) -> None:
    path = _file(tmp_path)
    task = _submit(core, path)
    stopped = _run(core, task, True, _after(300, lambda: core.store.cancel(task.task_no)))
    first = _run(core, core.submitter().submit_resume(stopped.task_no, user="clerk").task, True)
    _assert_whole_file(core, first)
    undo = _run(core, core.submitter().submit_undo(first.task_no, user="clerk").task, True)
    assert undo.status is TaskStatus.SUCCEEDED, undo.error_msg
    # its counts were the whole file's: so is what it takes back, the stopped task's rows too
    assert undo.to_json()["deleted_count"] == ROWS - BAD
    with core.store.reading() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM customers").scalar_one() == 0
    earlier = core.store.get(stopped.task_no)
    assert earlier is not None and earlier.undone_by == undo.task_no
    # the run names both tasks it marked: a window reads both again (it re-read only the one asked for)
    assert sorted(undo.summary["annotated"]) == sorted([first.task_no, stopped.task_no])
    with pytest.raises(PermanentError) as undone:
        core.submitter().submit_resume(stopped.task_no, user="clerk")
    assert "it was undone" in undone.value.text("en")
    # the file may be imported again, without --force, and goes in whole
    again = core.submitter().submit_import(ImportOptions(file=path, import_type="customers"), user="clerk")
    assert not again.refused and again.duplicate_of is None
    ended = _run(core, again.task, True)
    assert (ended.total_count, ended.success_count, ended.fail_count) == (ROWS, ROWS - BAD, BAD)
