"""Rows written straight into the task table, as another desk (or anything that can write it) could."""

from __future__ import annotations

from typing import Any

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.store.schema import tasks
from desktop_app.store.tasks import TaskStore


def plant(store: TaskStore, task_no: str, *, ended_days_ago: float = 10, **values: Any) -> TaskRecord:
    """An ended task row with any task number and fields, ended `ended_days_ago` days ago."""
    row: dict[str, Any] = {
        "task_no": task_no,
        "task_type": "import",
        "lane": "long",
        "params": {},
        "status": TaskStatus.SUCCEEDED.value,
        "creator": "someone",
        "summary": {},
        "created_at": store.now(-ended_days_ago * 86400 - 60),
        "updated_at": store.now(-ended_days_ago * 86400),
        "ended_at": store.now(-ended_days_ago * 86400),
        **values,
    }
    with store.engine.begin() as conn:
        conn.execute(tasks.insert().values(**row))
    record = store.get(task_no)
    assert record is not None
    return record
