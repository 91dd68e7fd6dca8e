"""Short task types: completing an import's pending references, and the daily clean-up (files and old rows)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskOutcome, TaskRecord
from desktop_app.imports.import_type import ImportType
from desktop_app.store.archive import archive_ended_before
from desktop_app.store.business import TableWriter, references_of
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.identity import host_name
from desktop_app.tasks.result_paths import owned, task_folder


class CompleteReferencesHandler:
    """Resolves the references an import left pending (e.g. a department created since)."""

    task_type = "complete_references"
    lane = Lane.SHORT

    def __init__(self, import_types: dict[str, ImportType]) -> None:
        self.import_types = import_types

    def run(self, ctx: TaskContext) -> TaskOutcome:
        task_no = str(ctx.params.get("task_no", ""))
        source = ctx.store.get(task_no)
        if source is None or source.task_type != "import":
            raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=task_no)
        itype = self.import_types.get(str(source.params.get("import_type")))
        if itype is None:
            raise PermanentError(ErrorCode.UNKNOWN_IMPORT_TYPE, import_type=source.params.get("import_type"),
                                 available=", ".join(self.import_types))  # fmt: skip
        refs = references_of(itype.columns)
        writer = TableWriter(ctx.store.engine, itype.table, itype.keys, itype.unique_key)
        before = source.pending_completion_count
        with ctx.store.engine.begin() as conn:
            left = sum(writer.complete_references(conn, ref, task_no) for ref in refs)
        ctx.store.annotate(source.id, pending_completion_count=left)
        done = max(0, before - left)
        return TaskOutcome(TaskStatus.SUCCEEDED, total_count=before, success_count=done,
                           summary={"completes": task_no, "pending_completion_count": left})  # fmt: skip


class CleanupHandler:
    """Retention (seed 000 §6), once a day per desk: the result files of this desk's tasks that ended
    more than `result_retention_days` ago are deleted and their tasks marked expired; final tasks that
    ended more than `task_retention_days` ago move to the archive (they are the history: never deleted).

    Only files inside the results folder are ever deleted (tasks/result_paths.py): the task table may
    hold anything."""

    task_type = "cleanup"
    lane = Lane.SHORT

    def run(self, ctx: TaskContext) -> TaskOutcome:
        days = int(ctx.params.get("retention_days", ctx.settings.result_retention_days))
        archive_days = int(ctx.params.get("archive_days", ctx.settings.task_retention_days))
        removed = 0
        here = host_name()
        for task in ctx.store.ended_before(_utc_days_ago(days)):
            if task.summary.get("expired") or task.id == ctx.task.id:
                continue
            if _desk_of(task) not in (None, here):
                continue  # its files are on the desk that ran it: that desk's clean-up expires them
            removed += _remove_files(ctx.results_dir, task)
            ctx.store.annotate(task.id, expired=True, expired_by=ctx.task.task_no)
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
