"""The daily clean-up of result files (a short task type)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import ClassVar

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskOutcome, TaskRecord
from desktop_app.store import task_files
from desktop_app.store.archive import archive_ended_before
from desktop_app.tasks import builtin_kinds
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.identity import host_name
from desktop_app.tasks.kinds import TaskKind
from desktop_app.tasks.result_paths import owned, task_folder


class CleanupHandler:
    """Retention (seed 000 §6), once a day per desk: the result files of this desk's tasks that ended
    more than `result_retention_days` ago are deleted and their tasks marked expired; final tasks that
    ended more than `task_retention_days` ago move to the archive (they are the history: never deleted).

    Only files inside the results folder are ever deleted (tasks/result_paths.py): the task table may
    hold anything."""

    kind: ClassVar[TaskKind] = builtin_kinds.CLEANUP
    task_type: ClassVar[str] = kind.name
    lane = kind.lane

    def run(self, ctx: TaskContext) -> TaskOutcome:
        days = int(ctx.params.get("retention_days", ctx.settings.result_retention_days))
        archive_days = int(ctx.params.get("archive_days", ctx.settings.task_retention_days))
        removed = 0
        here = host_name()
        expired: list[str] = []
        for task in ctx.store.ended_before(_utc_days_ago(days)):
            if task.summary.get("expired") or task.id == ctx.task.id:
                continue
            if task.params.get("output"):
                continue  # an export saved where the clerk chose: the clerk's file, never expired nor deleted
            if _desk_of(task) not in (None, here):
                continue  # its files are on the desk that ran it: that desk's clean-up expires them
            removed += _remove_files(ctx.results_dir, task)
            ctx.annotate(task, expired=True, expired_by=ctx.task.task_no)
            expired.append(task.task_no)
        # the copies a shared database kept of the expired tasks' error CSVs and change files go too
        task_files.remove(ctx.store.engine, expired)
        archived = archive_ended_before(ctx.store, _utc_days_ago(archive_days))
        return TaskOutcome(TaskStatus.SUCCEEDED, total_count=removed, success_count=removed,
                           summary={"retention_days": days, "removed": removed, "archive_days": archive_days,
                                    "archived": archived})  # fmt: skip


def _desk_of(task: TaskRecord) -> str | None:
    """The desk whose data folder holds the task's files: its own desk, else the one that last ran it."""
    return task.host or (task.owner.split(":", 1)[0] if task.owner else None)


def _utc_days_ago(days: int) -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(days=days)


def _remove_files(results_dir: Path, task: TaskRecord) -> int:
    """Delete the task's folder and its result file; what is not BatchDesk's is left alone (logged)."""
    removed = 0
    folder = task_folder(results_dir, task.task_no)
    if folder is not None and folder.is_dir():
        shutil.rmtree(folder, ignore_errors=True)
        removed += 1
    # A result file outside the task's folder (an export's): a file, never a folder (the row could
    # name results/.work or results/exports).
    target = owned(results_dir, task.result_path, task_no=task.task_no) if task.result_path else None
    if target is not None and target.is_file() and (folder is None or not target.is_relative_to(folder)):
        target.unlink(missing_ok=True)
        removed += 1
    return removed
