"""Run a queued task in the test's own thread: the executor's runner without Qt (huey's immediate mode)."""

from __future__ import annotations

import threading

from desktop_app.app import Core
from desktop_app.domain.task import TaskRecord
from desktop_app.tasks.runner import run_task


def run_now(core: Core, task_id: int, owner: str = "test:1:1:aa") -> TaskRecord:
    """Claim the task, run it to its end here, and return it as stored."""
    (task,) = core.store.claim(owner, 1, only_ids=[task_id])
    run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
             stop_event=threading.Event(), lang="zh")  # fmt: skip
    ended = core.store.get_by_id(task_id)
    assert ended is not None
    return ended


def run_cleanup(core: Core, **params: object) -> TaskRecord:
    """Queue and run the daily clean-up here, as this desk's worker would; it must succeed."""
    from desktop_app.domain.status import TaskStatus
    from desktop_app.domain.task import Lane
    from desktop_app.tasks.identity import host_name

    result = core.store.submit(task_type="cleanup", params=params, creator="BatchDesk", lane=Lane.SHORT)
    ended = run_now(core, result.task.id, owner=f"{host_name()}:1:1:aa")
    assert ended.status is TaskStatus.SUCCEEDED, ended
    return ended
