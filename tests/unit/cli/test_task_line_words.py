"""The command line's readable task line: wholly in its language, a validation worded as a check, an
import's rows waiting for names said (the JSON keeps its codes: tests/integration/test_cli.py)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from desktop_app.cli.output import task_line
from desktop_app.domain.errors import Lang
from desktop_app.domain.notes import Note, NoteCode
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskRecord
from desktop_app.domain.task_words import check_reason, check_words

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
    assert task_line(replace(waiting, undone_by="T250302-ZZ99ZZ"), "en").endswith(" — Done")


def test_an_undone_import_reads_undone_as_in_the_window() -> None:
    # seen in a clerk's tryout: "Succeeded" / "成功" for an import the window's list called "Undone"
    undone = _task(TaskStatus.SUCCEEDED, (150, 150, 0), stage=Stage.DONE, undone_by="T250302-ZZ99ZZ")
    assert task_line(undone, "en") == (
        f"{TASK_NO}  import  Undone  100%  rows 150 ok 150 failed 0  Undone by T250302-ZZ99ZZ — Done"
    )
    assert task_line(undone, "zh") == (
        f"{TASK_NO}  导入  已撤销  100%  共 150 行 成功 150 失败 0  已被 T250302-ZZ99ZZ 撤销 — 已完成"
    )
    # the JSON's and the code line's status stays the stored one
    assert " succeeded " in task_line(undone)
    # only an import is undone: an export with the mark (none is made) keeps its status
    export = replace(undone, task_type="export", params={})
    assert " Succeeded " in task_line(export, "en")



@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_undone_import_without_a_stage_says_only_who_undid_it(lang: Lang) -> None:
    undone = _task(TaskStatus.SUCCEEDED, (150, 150, 0), stage=Stage.DONE, undone_by="T250302-ZZ99ZZ")
    blank = replace(undone, stage="", stage_phrase="")
    line = task_line(blank, lang)
    assert line.endswith({"en": "  Undone by T250302-ZZ99ZZ", "zh": "  已被 T250302-ZZ99ZZ 撤销"}[lang]), line
    assert "—" not in line, line


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


def test_a_validation_says_its_rows_that_would_wait_for_names() -> None:
    """Seen in a tryout: "Checked: 9 rows would import, 1 would fail" where the preview flagged 2 rows amber and
    the real import then said "2 rows wait for names": a dry run's summary counts them as the real run does."""
    check = _task(TaskStatus.PARTIALLY_SUCCEEDED, (10, 9, 1), stage=Stage.DONE_PARTIAL, dry_run=True,
                  summary={"pending_completion_count": 2})  # fmt: skip
    assert task_line(check, "en").endswith("Checked: 9 rows would import (2 would wait for names), 1 would fail")
    assert task_line(check, "zh").endswith("已校验：9 行可导入（其中 2 行会等待补充名称），1 行会失败")
    every = replace(check, status=TaskStatus.SUCCEEDED, success_count=10, fail_count=0)
    assert task_line(every, "en").endswith("Checked: all 10 rows would import (2 would wait for names)")
    assert check_words(5, 0, "en", waiting=0) == "Checked: all 5 rows would import"
    assert check_words(0, 3, "en", waiting=2) == "Checked: no row would import, 3 would fail"  # none goes in


def _over_limit(*, dry_run: bool, ok: int = 4, bad: int = 5) -> TaskRecord:
    code = NoteCode.TOO_MANY_FAILED_NOTHING_WRITTEN if dry_run or not ok else NoteCode.TOO_MANY_FAILED
    note = Note(code, {"fail": bad, "share": f"{100 * bad / (ok + bad):.1f}", "limit": "30%", "success": ok})
    error = note.text("en")
    return _task(TaskStatus.FAILED, (ok + bad, ok, bad), stage=Stage.FAILED, dry_run=dry_run, error_msg=error,
                 error_phrase=error.stored())  # type: ignore[attr-defined]  # fmt: skip


def test_a_validation_over_the_limit_says_the_import_would_fail() -> None:
    """Seen in a tryout: a validation read "Checked" with the reason "…the import counts as failed; nothing
    was written": its words now say what the import would do, from the note's code and params as stored."""
    check = _over_limit(dry_run=True)
    assert task_line(check, "en").endswith(
        "Checked: 4 rows would import, 5 would fail — more than 30% fail, so the import would count as failed  "
        "5 rows would fail (55.6%, above 30%): the import would count as failed; the 4 rows that go in would stay")
    assert task_line(check, "zh").endswith(
        "已校验：4 行可导入，5 行会失败——失败超过 30%，导入会判定为失败  "
        "会失败 5 行，占 55.6%，超过 30%，导入会判定为失败；可导入的 4 行导入后仍会保留")
    nothing = _over_limit(dry_run=True, ok=0, bad=5)
    assert check_reason(nothing, "en") == (
        "5 rows would fail (100.0%, above 30%): the import would count as failed and write nothing")
    # the JSON keeps the note as stored (a contract), and a real import's words are as before
    assert check.to_json(lang="en")["error_msg"].endswith("the import counts as failed; nothing was written")
    assert check.to_json(lang="en")["error_code"] is None
    real = _over_limit(dry_run=False)
    assert check_reason(real, "en") is None
    assert task_line(real, "en").endswith("the import counts as failed; the 4 rows that went in stay")


@pytest.mark.parametrize("dry_run", [False, True])
def test_the_line_shows_the_progress_the_window_shows(dry_run: bool) -> None:
    """Seen in a tryout: "98%" on the line for imports the window showed at 100 % (an import over the limit ends
    on its last tick, 98 %, before its summary; its check too); the JSON keeps the progress as stored."""
    ended = replace(_over_limit(dry_run=dry_run), progress=98)
    for lang in ("en", "zh", None):
        assert task_line(ended, lang).split("  ")[3] == "100%"  # type: ignore[arg-type]
    assert ended.to_json()["progress"] == 98
    running = replace(ended, status=TaskStatus.RUNNING, progress=42)
    assert task_line(running, "en").split("  ")[3] == "42%"
    undo = _task(TaskStatus.SUCCEEDED, (3, 3, 0), stage=Stage.DONE, task_type="undo",
                 params={"undoes": "T250301-XY12AB"}, progress=95)  # fmt: skip
    assert task_line(undo, "en").split("  ")[3] == "100%"


def test_a_file_over_the_row_limit_reads_0_percent_and_the_flag_that_lets_it_in() -> None:
    """Seen in a second tryout: "2%" for an import that failed before reading a row (its opening tick), and
    "split the file" without a word of --max-rows; the window's progress is the same (tasks/shown_progress.py)."""
    from desktop_app.domain.errors import BatchDeskError, ErrorCode
    from desktop_app.domain.feeds import FEED_PARAM
    from desktop_app.domain.phrase import stored_phrase

    error = BatchDeskError(ErrorCode.TOO_MANY_ROWS, limit=2)
    failed = _task(TaskStatus.FAILED, (0, 0, 0), stage=Stage.FAILED, progress=2, error_code="too_many_rows",
                   error_msg=error.text("en"), error_phrase=stored_phrase(error.text("en")))  # fmt: skip
    en, zh = task_line(failed, "en"), task_line(failed, "zh")
    assert en.split("  ")[3] == "0%" and zh.split("  ")[3] == "0%"
    assert en.endswith("import the parts  (or raise the row limit: --max-rows N on the import command)"), en
    assert "--max-rows N" in zh and _latin_words(zh.replace("max-rows", "")) == []
    # a feed's import has no flag to pass: the line names the settings file's limit, which it takes
    fed = replace(failed, params={**failed.params, FEED_PARAM: "daily"})
    fed_en, fed_zh = task_line(fed, "en"), task_line(fed, "zh")
    assert "--max-rows" not in fed_en and fed_en.endswith("(or raise the row limit: max_rows in the data folder's "
                                                          "settings.json)"), fed_en  # fmt: skip
    assert "--max-rows" not in fed_zh
    assert _latin_words(fed_zh.replace("max_rows", "").replace("settings.json", "")) == []
    assert failed.to_json(lang="en")["error_msg"] == error.text("en")  # the JSON's words stay the window's
    # a failed import that read rows keeps its share
    assert task_line(replace(failed, progress=40, error_code="db_error", success_count=40,
                             checkpoint={"rows_in_file": 100}), "en").split("  ")[3] == "40%"  # fmt: skip
