"""The short task types: completing pending references, and the retention clean-up of result files."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from sqlalchemy import text, update

from desktop_app.app import Core
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane
from desktop_app.store.schema import tasks
from desktop_app.tasks.runner import run_task
from tests.support.customers import row, run_import, write_csv


def run_short(core: Core, task_type: str, **params: object):  # type: ignore[no-untyped-def]
    result = core.store.submit(task_type=task_type, params=params, creator="t", lane=Lane.SHORT)
    (task,) = core.store.claim("t:1:1:aa", 1, only_ids=[result.task.id])
    assert task.lane is Lane.SHORT
    run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
             stop_event=threading.Event())  # fmt: skip
    return core.store.get(task.task_no)


def test_complete_references_later(core: Core, tmp_path: Path) -> None:
    imported = run_import(core, write_csv(tmp_path / "c.csv", [row(1, 部门="火星部"), row(2, 部门="火星部"), row(3)]))
    assert imported.pending_completion_count == 2
    with core.store.engine.begin() as conn:
        conn.execute(text("INSERT INTO departments (name) VALUES ('火星部')"))
    done = run_short(core, "complete_references", task_no=imported.task_no)
    assert done.status is TaskStatus.SUCCEEDED and done.success_count == 2
    assert core.store.get(imported.task_no).pending_completion_count == 0  # type: ignore[union-attr]
    with core.store.reading() as conn:
        unresolved = conn.execute(text("SELECT COUNT(*) FROM customers WHERE department_id IS NULL")).scalar()
    assert unresolved == 0


def test_cleanup_removes_old_result_files_and_marks_tasks(core: Core, tmp_path: Path) -> None:
    old = run_import(core, write_csv(tmp_path / "old.csv", [row(1), row(2, 手机号="x")]))
    new = run_import(core, write_csv(tmp_path / "new.csv", [row(3), row(4, 手机号="x")]))
    old_folder = Path(old.error_csv or "").parent
    assert old_folder.exists()
    with core.store.engine.begin() as conn:
        conn.execute(update(tasks).where(tasks.c.id == old.id).values(ended_at=core.store.now(-10 * 86400)))
    done = run_short(core, "cleanup", retention_days=7)
    assert done.status is TaskStatus.SUCCEEDED and done.success_count == 1
    assert not old_folder.exists() and Path(new.error_csv or "").exists()
    assert core.store.get(old.task_no).summary["expired"] is True  # type: ignore[union-attr]
    assert core.store.get(old.task_no).status is old.status  # the status is history: it stays  # type: ignore[union-attr]


def test_the_daily_cleanup_is_queued_once_whoever_starts(core: Core, qapp: object) -> None:
    from desktop_app.app import build_executor

    for _ in range(3):  # several starts on one database, the same day (one after it ran, too)
        executor = build_executor(core)
        executor.start()
        executor.wait_idle(10)
        time.sleep(0.5)  # let the clean-up be claimed and end before the next start
        executor.wait_idle(10)
        executor.shutdown()
    cleanups = [t for t in core.store.list() if t.task_type == "cleanup"]
    assert len(cleanups) == 1 and cleanups[0].lane is Lane.SHORT
