"""Which stopped imports offer "Import the remaining rows", and their missing references as stored."""

from __future__ import annotations

from typing import Any

import pytest

from desktop_app.domain.errors import ErrorCode, message
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskRecord
from desktop_app.imports.missing_references import MissingReference, describe, missing_of
from desktop_app.imports.resume import ResumeProblem, resume_problem, stopped_early


def task(status: TaskStatus, error_code: str | None = None, task_type: str = "import", **params: Any) -> TaskRecord:
    return TaskRecord(id=1, task_no="T261201-AAAAAA", task_type=task_type, lane=Lane.LONG, status=status,
                      params={"file": "/x/c.csv", "import_type": "customers", **params},
                      error_code=error_code)  # fmt: skip


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        (task(TaskStatus.CANCELLED), None),
        (task(TaskStatus.FAILED, ErrorCode.WORKER_LOST.value), None),
        (task(TaskStatus.FAILED, ErrorCode.RETRIES_EXHAUSTED.value), None),
        (task(TaskStatus.FAILED, ErrorCode.INTERNAL_ERROR.value), None),
        (task(TaskStatus.FAILED, ErrorCode.DATABASE_UNAVAILABLE.value), None),
        (task(TaskStatus.FAILED), ResumeProblem.FINISHED),  # over the threshold: it read the whole file
        (task(TaskStatus.SUCCEEDED), ResumeProblem.FINISHED),
        (task(TaskStatus.PARTIALLY_SUCCEEDED), ResumeProblem.FINISHED),
        (task(TaskStatus.FAILED, ErrorCode.CORRUPT_FILE.value), ResumeProblem.BAD_FILE),
        (task(TaskStatus.FAILED, ErrorCode.FILE_CHANGED.value), ResumeProblem.BAD_FILE),
        (task(TaskStatus.RUNNING), ResumeProblem.ACTIVE),
        (task(TaskStatus.PENDING), ResumeProblem.ACTIVE),
        (task(TaskStatus.CANCELLED, dry_run=True), ResumeProblem.DRY_RUN),
        (task(TaskStatus.CANCELLED, task_type="export"), ResumeProblem.NOT_IMPORT),
    ],
)
def test_which_imports_can_be_resumed(record: TaskRecord, problem: ResumeProblem | None) -> None:
    assert resume_problem(record) is problem
    assert stopped_early(record) is (problem is None)


def test_an_undone_import_is_not_resumed() -> None:
    from dataclasses import replace

    assert resume_problem(replace(task(TaskStatus.CANCELLED), undone_by="T261201-BBBBBB")) is (
        ResumeProblem.UNDONE
    )


def test_every_resume_problem_has_words_in_both_languages() -> None:
    for problem in ResumeProblem:
        for lang in ("zh", "en"):
            text = message(ErrorCode.NOT_RESUMABLE, lang, task_no="T1", why="x", reason=problem.value)  # type: ignore[arg-type]
            assert text != message(ErrorCode.NOT_RESUMABLE, lang, task_no="T1") and "T1" in text  # type: ignore[arg-type]


def test_missing_references_come_back_from_the_summary_and_read_in_words() -> None:
    stored = [{"column": "department", "value": "华东销售部", "rows": 4, "table": "departments", "can_add": True},
              "not a dict", {"column": "department", "value": "X", "rows": 1}]  # fmt: skip
    found = missing_of({"missing_references": stored})
    assert found == [MissingReference("department", "华东销售部", 4, "departments", True),
                     MissingReference("department", "X", 1, "", False)]  # fmt: skip
    assert missing_of({}) == []
    # without the type, the column's key stands for its label
    assert describe(found[1], None, "en") == "department not found: X (1 row)"
    assert describe(found[0], None, "zh") == "找不到department：华东销售部（4 行）"
