"""The end of an import: its status from the counts, the result files, and what the task keeps as summary."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop_app.domain.errors import Lang
from desktop_app.domain.notes import Note, NoteCode
from desktop_app.domain.status import TaskStatus, outcome_status
from desktop_app.domain.task import TaskOutcome
from desktop_app.imports import error_csv
from desktop_app.imports.change_plan import PlanCounts
from desktop_app.imports.header import HeaderMapping
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.progress_state import ImportCounts
from desktop_app.imports.readers import ReaderWarning
from desktop_app.imports.signature import SignedColumn


@dataclass(frozen=True)
class PlanFacts:
    """A dry run's change plan as its summary names it: the change file and the plan's counts."""

    changes_csv: str
    counts: PlanCounts


@dataclass(frozen=True)
class ImportFacts:
    """What the summary says of the file and of where the rows went."""

    itype: ImportType
    options: ImportOptions
    mapping: HeaderMapping
    encoding: str | None
    format: str
    table: str
    managed: bool
    signed: tuple[SignedColumn, ...]  # the columns an insert signed (an undo compares them)
    lost_error_rows_before: int = 0
    reader_warnings: tuple[ReaderWarning, ...] = ()  # e.g. an .xls whose records could not all be checked
    # the reference names not found, as imports/missing_references keeps them ({column, value, rows, ...})
    missing_references: tuple[dict[str, Any], ...] = ()
    # a row with extra cells may be in the error CSV (this run wrote one, or an earlier run of a resumed
    # task may have): the handed-over file then names their column
    extra_cells: bool = False
    plan: PlanFacts | None = None  # a dry run's change plan
    plan_of: str | None = None  # an apply: the dry run whose plan it wrote


def summarise(
    *, facts: ImportFacts, counts: ImportCounts, work_file: Path, folder: Path, task_no: str, threshold: float,
    lang: Lang,
) -> TaskOutcome:  # fmt: skip
    """Move the error CSV into place, write summary.json, and say how the import ended."""
    folder.mkdir(parents=True, exist_ok=True)
    error_path: Path | None = None
    if counts.fail:
        error_path = folder / error_csv.handed_over_name(task_no)
        if facts.extra_cells:
            error_csv.settle_extra_column(work_file)
        shutil.move(str(work_file), error_path)
    else:
        work_file.unlink(missing_ok=True)
    notes = [
        Note(NoteCode.UNKNOWN_COLUMN, {"header": h})
        for h in facts.mapping.unknown
        if h.strip().lstrip(error_csv.BOM) not in error_csv.MARKER_COLUMNS
    ]
    if facts.mapping.ignored:  # delete mode: the columns of the type it did not read
        notes.append(Note(NoteCode.IGNORED_IN_DELETE, {"headers": ", ".join(facts.mapping.ignored)}))
    if facts.lost_error_rows_before:
        notes.append(Note(NoteCode.ERROR_ROWS_LOST, {"row": facts.lost_error_rows_before}))
    warned = [w.text(lang) for w in facts.reader_warnings]
    reader_notes = [{"code": w.code.value, "params": dict(w.params)} for w in facts.reader_warnings]
    total, success, fail = counts.as_tuple()
    status = outcome_status(total, fail, threshold)
    options = facts.options
    failure = None
    if status is TaskStatus.FAILED:
        params = {"fail": fail, "share": f"{100 * fail / max(total, 1):.1f}", "limit": f"{threshold:.0%}",
                  "success": success}  # fmt: skip
        nothing = options.dry_run or not success
        failure = Note(NoteCode.TOO_MANY_FAILED_NOTHING_WRITTEN if nothing else NoteCode.TOO_MANY_FAILED, params)
    summary: dict[str, Any] = {
        "import_type": facts.itype.name,
        "table": facts.table,
        "file": str(options.file),
        "format": facts.format,
        "encoding": facts.encoding,
        "dry_run": options.dry_run,
        "mode": options.mode.value,
        "blank": options.blank.value,
        "total_count": total,
        "success_count": success,
        "fail_count": fail,
        **counts.mode_counts(),
        "pending_completion_count": counts.pending,
        "missing_references": list(facts.missing_references),
        "error_csv": str(error_path) if error_path else None,
        "warnings": [*warned, *(n.text(lang) for n in notes)],
        "notes": [*reader_notes, *(n.to_json() for n in notes)],
        "repairs": options.repairs or error_csv.repaired_task_from_name(options.file),
        "status": status.value,
        "managed_table": facts.managed,
        "signed_columns": [[name, storage.value, scale] for name, storage, scale in facts.signed],
    }
    if facts.plan is not None:
        summary["changes_csv"] = facts.plan.changes_csv
        summary["plan_counts"] = facts.plan.counts.to_json()
    if facts.plan_of:
        summary["plan_of"] = facts.plan_of
    if failure is not None:
        summary["failure"] = failure.to_json()
    summary_path = folder / "summary.json"
    summary_path.write_text(json.dumps(summary, ensure_ascii=False, indent=2), encoding="utf-8")
    return TaskOutcome(
        status=status,
        total_count=total,
        success_count=success,
        fail_count=fail,
        result_path=str(summary_path),
        error_msg=failure.text(lang) if failure else None,
        summary=summary,
    )
