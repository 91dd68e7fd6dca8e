"""The progress and the file's rows a clerk reads of a task, Qt-free: the window's list and Details and the
command line's line say the same (seen: "98%" on the line for an import the window showed at 100 %)."""

from __future__ import annotations

from desktop_app.domain.errors import ErrorCode
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.tasks.kinds import TaskKind, Words

# the failures of an import's look at its file before its rows (imports/precheck.py): none of its rows was read
BEFORE_ROWS = frozenset({ErrorCode.FILE_NOT_FOUND, ErrorCode.FILE_CHANGED, ErrorCode.FILE_TOO_LARGE,
                         ErrorCode.EMPTY_FILE, ErrorCode.MISSING_REQUIRED_COLUMN, ErrorCode.TOO_MANY_ROWS})  # fmt: skip


def file_rows(record: TaskRecord) -> int | None:
    """The rows of the task's file, when known: the import's own count of its file (kept in its
    checkpoint), else a total above what was processed (a handler that reports its file's total). The
    engine's total_count of an import is what it processed so far, so it is not the file's size."""
    counted = (record.checkpoint or {}).get("rows_in_file")
    if isinstance(counted, int) and counted > 0:
        return counted
    done = record.success_count + record.fail_count
    return record.total_count if record.total_count > done else None


def shown_progress(record: TaskRecord, kind: TaskKind) -> int:
    """The progress cell: a running task's progress; an ended one's as it ended, in rows. A failed import
    that read its whole file showed 98 % (its last tick, before the summary); 100 % when every row was
    read, whatever the outcome; else the share of the file's rows read, never rounded up to 100."""
    if not record.status.is_final:
        return record.progress
    if record.status in (TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED):
        return 100
    if kind.words is Words.IMPORT and record.status is TaskStatus.FAILED and not record.error_code:
        return 100  # failed by its rows' errors: the whole file was read (imports/resume.py, FINISHED)
    # as the Processed cell beside it reads them ("132,000 / 200,000")
    done, total = record.success_count + record.fail_count, file_rows(record)
    if not total:
        if kind.words is Words.IMPORT and record.error_code in BEFORE_ROWS and not done and not record.total_count:
            return 0  # failed before reading a row (seen: 2 % for a file over the row limit, its opening tick)
        return record.progress
    return 100 if done >= total else min(99, 100 * done // total)
