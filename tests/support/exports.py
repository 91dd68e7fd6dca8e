"""Running exports in tests without Qt: submit through the handler, run with the executor's runner."""

from __future__ import annotations

import threading
from typing import Any

from desktop_app.app import Core
from desktop_app.domain.task import TaskRecord
from desktop_app.tasks.runner import run_task


def run_export(core: Core, name: str = "customers", *, user: str = "tester", **options: Any) -> TaskRecord:
    handler = core.registry.get("export")
    filters = options.pop("filters", {})
    result = handler.submit(core.store, name=name, filters=filters, user=user, **options)  # type: ignore[attr-defined]
    (task,) = core.store.claim("test:1:1:aa", 1, only_ids=[result.task.id])
    run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
             stop_event=threading.Event(), lang="zh")  # fmt: skip
    ended = core.store.get(task.task_no)
    assert ended is not None
    return ended
