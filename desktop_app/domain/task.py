"""Typed task records and values passed between the store, the executor and the views."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from desktop_app.domain.errors import Lang
from desktop_app.domain.rendering import render
from desktop_app.domain.status import TaskStatus


class Lane(StrEnum):
    """Long tasks (imports, exports) and short ones (notifications, completions) get their own slots."""

    LONG = "long"
    SHORT = "short"


class TaskLink(StrEnum):
    """A later task's mark on an earlier one: a typed column of the task table, named as its field on
    TaskRecord (written by the store's annotate(), read through the task kinds' links)."""

    UNDONE_BY = "undone_by"  # the undo that took an import's rows back
    RESUMED_BY = "resumed_by"  # the import that continues a stopped one
    REPLACED_BY = "replaced_by"  # the export whose file replaced this export's file
    APPLIED_BY = "applied_by"  # the import that committed this dry run's change plan


@dataclass(frozen=True)
class TaskRecord:
    """One row of the task table, as read at one moment."""

    id: int
    task_no: str
    task_type: str
    lane: Lane
    status: TaskStatus
    params: dict[str, Any]
    biz_key: str | None = None
    progress: int = 0
    stage: str = ""
    total_count: int = 0
    success_count: int = 0
    fail_count: int = 0
    result_path: str | None = None
    error_code: str | None = None
    error_msg: str | None = None
    creator: str = ""
    host: str | None = None  # the desk whose files it uses; None: any desk
    owner: str | None = None
    attempt: int = 0
    recoveries: int = 0
    retries: int = 0
    cancel_requested: bool = False
    next_run_at: dt.datetime | None = None
    checkpoint: dict[str, Any] | None = None
    summary: dict[str, Any] = field(default_factory=dict)
    started_at: dt.datetime | None = None
    ended_at: dt.datetime | None = None
    heartbeat_at: dt.datetime | None = None
    created_at: dt.datetime | None = None
    updated_at: dt.datetime | None = None
    # `stage` and `error_msg` as code and params (domain/phrase.py), None for plain text (an older
    # version's row): what stage_in() and error_in() render in the language in use
    stage_phrase: dict[str, Any] | None = None
    error_phrase: dict[str, Any] | None = None
    undone_by: str | None = None
    resumed_by: str | None = None
    replaced_by: str | None = None
    applied_by: str | None = None
    parent: str | None = None  # a workbook's sheet: the workbook task it belongs to

    def linked(self, link: TaskLink) -> str | None:
        """The number of the task that left this mark on this one, or None."""
        value: str | None = getattr(self, link.value)
        return value

    def stage_in(self, lang: Lang) -> str:
        """The stage in words, in `lang` (the text as stored for a row without its code)."""
        return render(self.stage_phrase, self.stage, lang) or ""

    def error_in(self, lang: Lang) -> str | None:
        """The error message in `lang` (the text as stored for a row without its code)."""
        return render(self.error_phrase, self.error_msg, lang)

    @property
    def error_csv(self) -> str | None:
        value = self.summary.get("error_csv")
        return str(value) if value else None

    @property
    def plan_counts(self) -> dict[str, int] | None:
        """A dry run's change plan counts {inserted, updated, unchanged, skipped, deleted, failed}, or None."""
        counts = self.summary.get("plan_counts")
        return {str(k): int(v or 0) for k, v in counts.items()} if isinstance(counts, dict) else None

    @property
    def checked_only(self) -> bool:
        """A validate-only run (a dry run) that went through its rows: nothing was written, so its status
        (partially_succeeded, or failed above the threshold) is worded as a check, never as an import."""
        if not self.params.get("dry_run"):
            return False
        by_rows = self.status is TaskStatus.FAILED and not self.error_code and self.fail_count > 0
        return by_rows or self.status in (TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED)

    @property
    def pending_completion_count(self) -> int:
        return int(self.summary.get("pending_completion_count", 0))

    @property
    def rows_waiting_for_names(self) -> int:
        """An ended import's rows in with a name their reference table lacks, as said beside its outcome (the
        window's list, the command line's line): none for a dry run (nothing written) or an undone import (its
        rows taken back). Only an import's: a completion's summary keeps the rows its import still has waiting."""
        if not self.status.is_final or self.params.get("dry_run") or self.undone_by:
            return 0
        return self.pending_completion_count

    @property
    def file_name(self) -> str:
        path = self.params.get("file")
        return Path(path).name if path else ""

    def elapsed_seconds(self, now: dt.datetime | None = None) -> float | None:
        """Actual time spent, from the record (seed 003): start to end, or to now while running."""
        if self.started_at is None:
            return None
        end = self.ended_at or now
        if end is None:
            return None
        return max(0.0, (end - self.started_at).total_seconds())

    def to_json(self, duplicate_of: str | None = None, lang: Lang | None = None) -> dict[str, Any]:
        """The command line's task JSON (a stable contract); `stage` and `error_msg` in `lang` (None: as
        stored, for callers that read only the counts)."""
        return {
            "task_no": self.task_no,
            "type": self.task_type,
            # an import's and an export's from their params; an undo's (and an older export's) from
            # what it ended with
            "import_type": self.params.get("import_type") or self.summary.get("import_type"),
            "status": self.status.value,
            "stage": self.stage if lang is None else self.stage_in(lang),
            "progress": self.progress,
            "total_count": self.total_count,
            "success_count": self.success_count,
            "fail_count": self.fail_count,
            "pending_completion_count": self.pending_completion_count,
            "error_csv": self.error_csv,
            "result_path": self.result_path,
            "error_code": self.error_code,
            "error_msg": self.error_msg if lang is None else self.error_in(lang),
            "duplicate_of": duplicate_of,
            "attempt": self.attempt,
            "retries": self.retries,
            "next_run_at": _iso(self.next_run_at),
            "created_at": _iso(self.created_at),
            "started_at": _iso(self.started_at),
            "ended_at": _iso(self.ended_at),
            "creator": self.creator,
            "host": self.host,
            "file": self.params.get("file"),
            "dry_run": bool(self.params.get("dry_run", False)),
            "warnings": list(self.summary.get("warnings", [])),
            "repairs": self.summary.get("repairs"),
            # the mapping profile an import used, by name and version (null: none)
            "profile": self.params.get("profile"),
            "profile_version": self.params.get("profile_version"),
            # a workbook's sheet: the workbook task it is a part of (null: none)
            "parent": self.parent,
            **self._kind_json(),
        }

    def _kind_json(self) -> dict[str, Any]:
        """The fields of an import (its mode and what its rows became) or of an undo."""
        if "undoes" in self.params:
            return {
                "undoes": self.params.get("undoes"),
                **{k: int(self.summary.get(k, 0)) for k in ("deleted_count", "restored_count", "kept_count")},
            }
        if "file" not in self.params or "import_type" not in self.params:
            return {}
        # while running, the last checkpoint has the counts; at the end, the summary
        counts = self.summary if "inserted_count" in self.summary else (self.checkpoint or {})
        names = ("inserted", "updated", "unchanged", "skipped", "deleted")
        kinds = {f"{n}_count": int(counts.get(f"{n}_count", counts.get(n, 0)) or 0) for n in names}
        if not any(kinds.values()) and self.success_count and "inserted" not in counts:
            kinds["inserted_count"] = self.success_count  # an import from before the modes existed
        return {"mode": self.params.get("mode") or "insert", **kinds, "undone_by": self.undone_by,
                # "Import the remaining rows": the stopped import this one continues, and the reverse
                "resumes": self.params.get("resumes"), "resumed_by": self.resumed_by,
                # the reference names not found: [{column, value, rows, table, can_add}]
                "missing_references": list(self.summary.get("missing_references") or []),
                # a dry run's change plan (its change file and counts; null: none), the apply that wrote
                # it, whether it was discarded; an apply: the dry run whose plan it holds to
                "changes_csv": self.summary.get("changes_csv"), "plan_counts": self.plan_counts,
                "applied_by": self.applied_by, "plan_discarded": bool(self.summary.get("plan_discarded")),
                "plan_of": self.params.get("plan_of")}  # fmt: skip


# A task's row read earlier than one already seen arrives late by a fraction of a second (reads run on
# other threads); one stamped minutes "earlier" is a clock set back (a desk's own SQLite file stamps with
# the desk's clock), whose rows must not be ignored until the clock catches up.
LATE_READ = dt.timedelta(seconds=60)


def read_earlier(record: TaskRecord, seen: dt.datetime | None) -> bool:
    """Whether this read of a task is older than a row of it already seen (stamped `seen`): a late read."""
    stamp = record.updated_at
    return stamp is not None and seen is not None and seen - LATE_READ < stamp < seen


def _iso(value: dt.datetime | None) -> str | None:
    # Stamps come from the database clock in UTC without a zone; say so explicitly.
    return None if value is None else value.replace(tzinfo=dt.UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class SubmitResult:
    """What submit() gives back: the task, and whether it already existed."""

    task: TaskRecord
    duplicate_of: str | None = None
    refused: bool = False  # the same bytes were already imported and --force was not given


@dataclass(frozen=True)
class TaskOutcome:
    """What a handler reports when it ends without raising."""

    status: TaskStatus
    total_count: int = 0
    success_count: int = 0
    fail_count: int = 0
    result_path: str | None = None
    error_code: str | None = None
    error_msg: str | None = None
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Progress:
    """A progress snapshot: what a worker last said about its task."""

    task_id: int
    task_no: str
    progress: int
    stage: str
    total_count: int
    success_count: int
    fail_count: int
    # the rows the whole run will process, when known (an import's file): the list's "of N" from the first
    # tick, not from the checkpoint read back on the next refresh (seen: "Importing row 20,001 of 300,000"
    # beside a bare "20,000")
    rows_in_file: int | None = None
