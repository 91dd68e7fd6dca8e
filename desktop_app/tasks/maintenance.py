"""The daily clean-up of result files (a short task type)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import ClassVar

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskOutcome
from desktop_app.tasks.context import TaskContext


class CleanupHandler:
    """Retention (seed 000 §6): result files of tasks that ended more than N days ago are deleted and
    their tasks marked expired; the task rows stay (they are the history)."""

    task_type: ClassVar[str] = "cleanup"
    lane = Lane.SHORT

    def run(self, ctx: TaskContext) -> TaskOutcome:
        days = int(ctx.params.get("retention_days", ctx.settings.result_retention_days))
        cutoff = dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(days=days)
        removed = 0
        for task in ctx.store.ended_before(cutoff):
            if task.summary.get("expired") or task.id == ctx.task.id:
                continue
            for path in _files_of(ctx, task.task_no, task.result_path):
                if path.is_dir():
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    path.unlink(missing_ok=True)
                removed += 1
            ctx.store.annotate(task.id, expired=True, expired_by=ctx.task.task_no)
        return TaskOutcome(TaskStatus.SUCCEEDED, total_count=removed, success_count=removed,
                           summary={"retention_days": days, "removed": removed})  # fmt: skip


def _files_of(ctx: TaskContext, task_no: str, result_path: str | None) -> list[Path]:
    found = []
    folder = ctx.results_dir / task_no
    if folder.exists():
        found.append(folder)
    if result_path:
        path = Path(result_path)
        if path.exists() and folder not in path.parents and ctx.results_dir in path.parents:
            found.append(path)
    return found
