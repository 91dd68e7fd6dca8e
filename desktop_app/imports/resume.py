"""Import the remaining rows of a stopped import: which ones may go on, and where the new task starts.

A cancelled import, or one that failed before the end of its file for a reason that is not the file's
(a worker lost, retries spent, an internal error), is continued by a new import task whose params are
the stopped task's plus ``resumes`` (its task number). The new task starts from the stopped task's last
committed checkpoint (its counts, its row) and copies the stopped task's error rows up to that
checkpoint, so its counts add up for the whole file and its error CSV names each bad row once.

Why a new task and not the stopped one re-opened: a final status stays final (the state machine has no
edge out of cancelled or failed, and the fencing relies on that), the list keeps the truth of what
happened ("cancelled at 56 %"), and the new task is an ordinary import for the engine (claim, fences,
heartbeats, crash resume) with the same idempotency key as the file, so the same file is never
imported twice at once.
"""

from __future__ import annotations

import shutil
from enum import StrEnum
from pathlib import Path

from desktop_app.domain.errors import FILE_AT_FAULT
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.progress_state import ImportCheckpoint
from desktop_app.store.tasks import TaskStore
from desktop_app.tasks import builtin_kinds
from desktop_app.tasks.result_paths import owned

RESUMES = "resumes"  # the param: the task number of the stopped import a task continues


class ResumeProblem(StrEnum):
    """Why a task cannot be resumed (the reason key of ErrorCode.NOT_RESUMABLE's messages)."""

    NOT_IMPORT = "not_import"
    DRY_RUN = "dry_run"
    ACTIVE = "active"
    FINISHED = "finished"  # it read the whole file (succeeded, or failed by its rows' errors)
    BAD_FILE = "bad_file"
    UNDONE = "undone"


def resume_problem(task: TaskRecord) -> ResumeProblem | None:
    """Why "Import the remaining rows" does not apply to this task, or None when it does."""
    if not builtin_kinds.IMPORT.owns(task) or "file" not in task.params:
        return ResumeProblem.NOT_IMPORT
    if task.params.get("dry_run"):
        return ResumeProblem.DRY_RUN
    if task.status.is_active:
        return ResumeProblem.ACTIVE
    if task.undone_by:
        return ResumeProblem.UNDONE
    if task.status is TaskStatus.CANCELLED:
        return None
    if task.status is not TaskStatus.FAILED or not task.error_code:
        # failed without a code: the whole file was read and too many rows failed (the error file says which)
        return ResumeProblem.FINISHED
    if task.error_code in FILE_AT_FAULT:
        return ResumeProblem.BAD_FILE
    return None


def stopped_early(task: TaskRecord) -> bool:
    """A cancelled or early-failed import whose remaining rows can be imported."""
    return resume_problem(task) is None


def last_committed(store: TaskStore, task: TaskRecord) -> tuple[TaskRecord, ImportCheckpoint] | None:
    """The task of the chain (this one, else the one it resumes, ...) whose checkpoint is the newest
    committed, with that checkpoint; None when none of them committed a batch."""
    seen: set[str] = set()
    current: TaskRecord | None = task
    while current is not None and current.task_no not in seen:
        seen.add(current.task_no)
        if current.checkpoint:
            return current, ImportCheckpoint.from_dict(current.checkpoint)
        earlier = current.params.get(RESUMES)
        current = store.get(str(earlier)) if earlier else None
    return None


def stopped_counts(store: TaskStore, task: TaskRecord) -> tuple[int, int]:
    """(rows done, rows in the file) where a stopped import stopped; (0, 0) when it committed nothing."""
    found = last_committed(store, task)
    if found is None:
        return 0, 0
    saved = found[1]
    return saved.counts.total, saved.rows_in_file


def _error_rows_of(task: TaskRecord, work_dir: Path, results_dir: Path) -> Path | None:
    """The stopped task's error rows: its work file when it never ended by itself (a worker lost), else
    the error CSV it handed over. Only a file inside BatchDesk's results folder."""
    candidates = [work_dir / f"{task.task_no}-errors.csv.part"]
    if task.error_csv:
        candidates.append(Path(task.error_csv))
    for candidate in candidates:
        path = owned(results_dir, candidate, task_no=task.task_no)
        if path is not None and path.is_file():
            return path
    return None


def carried_start(
    store: TaskStore, params: dict[str, object], work_file: Path, *, work_dir: Path, results_dir: Path
) -> ImportCheckpoint | None:
    """For the first run of a task that resumes a stopped import: the checkpoint it starts from, with the
    stopped task's error rows copied into `work_file` (the writer cuts them back to the checkpoint).
    ``error_bytes`` is 0 when there are no earlier error rows to carry (the writer starts a fresh file).
    None when the task resumes nothing, or nothing was committed before it (it starts at row 1)."""
    earlier_no = params.get(RESUMES)
    earlier = store.get(str(earlier_no)) if earlier_no else None
    if earlier is None:
        return None
    found = last_committed(store, earlier)
    if found is None:
        return None
    holder, saved = found
    if saved.counts.fail == 0:
        work_file.unlink(missing_ok=True)
        return ImportCheckpoint(row=saved.row, rows_in_file=saved.rows_in_file, counts=saved.counts, error_bytes=0)
    source = _error_rows_of(holder, work_dir, results_dir)
    work_file.parent.mkdir(parents=True, exist_ok=True)
    if source is not None:
        shutil.copyfile(source, work_file)
    else:
        # the earlier rows are gone: the writer sees a file shorter than the checkpoint and says so
        work_file.unlink(missing_ok=True)
    return saved


def import_chain(store: TaskStore, task_no: str, params: dict[str, object]) -> list[str]:
    """The task numbers whose rows make up one file's import: this task, then each stopped import it
    continues (its rows' pending references and bookkeeping are under their own numbers)."""
    chain = [task_no]
    earlier = params.get(RESUMES)
    while earlier and str(earlier) not in chain:
        chain.append(str(earlier))
        record = store.get(str(earlier))
        earlier = record.params.get(RESUMES) if record is not None else None
    return chain
