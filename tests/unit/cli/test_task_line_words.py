"""The command line's readable task line: wholly in its language, a validation worded as a check, an
import's rows waiting for names said (the JSON keeps its codes: tests/integration/test_cli.py)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from desktop_app.cli.output import task_line
from desktop_app.domain.errors import Lang
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskRecord
from desktop_app.domain.task_words import check_words

TASK_NO = "T250301-AB12CD"
# what may stay Latin in a Chinese line: the task number and a file's path
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def _task(status: TaskStatus, counts: tuple[int, int, int], *, stage: Stage, lang: Lang = "en",
          dry_run: bool = False, **changes: Any) -> TaskRecord:  # fmt: skip
    total, ok, bad = counts
    shown = stage_text(stage, lang)
    record = TaskRecord(id=1, task_no=TASK_NO, task_type="import", lane=Lane.LONG, status=status,
                        params={"file": "/data/c.csv", "import_type": "customers", "dry_run": dry_run},
                        progress=100, stage=shown, stage_phrase=shown.stored(), total_count=total,  # type: ignore[attr-defined]
                        success_count=ok, fail_count=bad)  # fmt: skip
    return replace(record, **changes)


def _latin_words(line: str) -> list[str]:
    return LATIN_WORD.findall(line.replace(TASK_NO, "").replace("/data/errors.csv", ""))


@pytest.mark.parametrize(
    ("status", "counts", "stage", "en", "zh"),
    [
        (
            TaskStatus.PARTIALLY_SUCCEEDED,
            (1000, 995, 5),
            Stage.DONE_PARTIAL,
            "Checked  100%  rows 1000 ok 995 failed 5  Checked: 995 rows would import, 5 would fail",
            "已校验  100%  共 1,000 行 成功 995 失败 5  已校验：995 行可导入，5 行会失败",
        ),
        (
            TaskStatus.SUCCEEDED,
            (1000, 1000, 0),
            Stage.DONE,
            "Checked  100%  rows 1000 ok 1000 failed 0  Checked: all 1,000 rows would import",
            "已校验  100%  共 1,000 行 成功 1,000 失败 0  已校验：1,000 行全部可导入",
        ),
        (
            TaskStatus.FAILED,
            (20, 0, 20),
            Stage.FAILED,  # above the threshold: still a check, nothing broke
            "Checked  100%  rows 20 ok 0 failed 20  Checked: no row would import, 20 would fail",
            "已校验  100%  共 20 行 成功 0 失败 20  已校验：没有可导入的行，20 行会失败",
        ),
    ],
)
def test_a_validation_reads_as_a_check_not_as_an_import(
    status: TaskStatus, counts: tuple[int, int, int], stage: Stage, en: str, zh: str
) -> None:
    for lang, expected in (("en", en), ("zh", zh)):
        line = task_line(_task(status, counts, stage=stage, dry_run=True), lang)  # type: ignore[arg-type]
        assert line.endswith(expected), line
        assert "artially" not in line and "部分成功" not in line, line
    # without a language: the codes and the stage as stored, as before
    assert status.value in task_line(_task(status, counts, stage=stage, dry_run=True))


def test_a_validation_that_failed_on_its_file_still_reads_failed() -> None:
    broken = _task(TaskStatus.FAILED, (0, 0, 0), stage=Stage.FAILED, dry_run=True, error_code="corrupt_file")
    assert not broken.checked_only
    assert " Failed  " in task_line(broken, "en") and " 失败  " in task_line(broken, "zh")


def test_the_check_words_for_one_row() -> None:
    assert check_words(1, 0, "en") == "Checked: the 1 row would import"
    assert check_words(1, 2, "en") == "Checked: 1 row would import, 2 would fail"
    assert check_words(1, 0, "zh") == "已校验：1 行可导入"


def test_an_import_with_rows_waiting_for_names_says_so() -> None:
    waiting = _task(TaskStatus.SUCCEEDED, (1000, 1000, 0), stage=Stage.DONE,
                    summary={"pending_completion_count": 10})  # fmt: skip
    assert task_line(waiting, "en").endswith("Done; 10 rows wait for names")
    assert task_line(waiting, "zh").endswith("已完成；10 行等待补充名称")
    one = replace(waiting, summary={"pending_completion_count": 1})
    assert task_line(one, "en").endswith("Done; 1 row waits for names")
    # once completed (the completion lowers the count) or undone, nothing waits any more
    assert task_line(replace(waiting, summary={"pending_completion_count": 0}), "en").endswith("  Done")
    assert task_line(replace(waiting, undone_by="T250302-ZZ99ZZ"), "en").endswith("  Done")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_chinese_line_has_no_english_word_and_an_english_one_no_chinese(lang: Lang) -> None:
    tasks = [
        _task(TaskStatus.PARTIALLY_SUCCEEDED, (1000, 990, 10), stage=Stage.DONE_PARTIAL, lang="en",
              summary={"error_csv": "/data/errors.csv", "pending_completion_count": 10}),
        _task(TaskStatus.PARTIALLY_SUCCEEDED, (7, 6, 1), stage=Stage.DONE_PARTIAL, lang="en", dry_run=True,
              summary={"plan_counts": {"inserted": 1, "updated": 2, "unchanged": 3, "skipped": 0, "deleted": 0,
                                       "failed": 1}, "changes_csv": "/data/errors.csv", "plan_discarded": True}),
        _task(TaskStatus.RUNNING, (0, 0, 0), stage=Stage.CHECKING, lang="en"),
        _task(TaskStatus.SUCCEEDED, (5, 5, 0), stage=Stage.DONE, lang="en", task_type="export", params={}),
    ]  # fmt: skip
    for task in tasks:
        line = task_line(task, lang)
        if lang == "zh":
            assert _latin_words(line) == [], line
        else:
            assert not re.search(r"[\u4e00-\u9fff]", line), line


def test_only_an_import_says_its_rows_waiting_for_names() -> None:
    # a completion (or a value fix) keeps the import's rows still waiting in its summary: the window's list says
    # them on the import only ("Completed 3 of 5 references"), and so does the line
    completion = _task(TaskStatus.SUCCEEDED, (5, 3, 0), stage=Stage.DONE, task_type="complete_references",
                       params={"task_no": "T250301-XY12AB"}, summary={"pending_completion_count": 2})  # fmt: skip
    for lang in ("en", "zh"):
        line = task_line(completion, lang)  # type: ignore[arg-type]
        assert "wait" not in line and "等待" not in line, line


@pytest.mark.parametrize(("params", "word"), [({"import_task": "T250301-XY12ZZ"}, "补全关联"),
                                              ({"import_task": "T250301-XY12ZZ", "values": {"level": {}}}, "修正取值")])
def test_a_chinese_line_names_a_value_fix_as_the_window_does(params: dict[str, Any], word: str) -> None:
    """Seen in review: a value fix's Chinese line named it "补全关联" (completing references), the task it
    shares its type with, where the window's list says "修正取值"."""
    task = replace(_task(TaskStatus.SUCCEEDED, (3, 3, 0), stage=Stage.DONE, lang="zh"),
                   task_type="complete_references", params=params)
    assert task_line(task, "zh").split("  ")[1] == word
