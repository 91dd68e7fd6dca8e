"""A task in words for the command line's readable lines (`tasks`, `status`), zh and en: its status, counts,
a validation's findings and the rows waiting for names, so that a line reads wholly in one language."""

from __future__ import annotations

from enum import StrEnum

from desktop_app.domain import messages
from desktop_app.domain.errors import Lang
from desktop_app.domain.status import TaskStatus


class LineWord(StrEnum):
    CHECKED = "checked"  # a validate-only run that went through its rows (TaskRecord.checked_only)
    CHECKED_ONE = "checked_one"
    CHECKED_ALL = "checked_all"
    CHECKED_SOME = "checked_some"
    CHECKED_NONE = "checked_none"
    WAITING = "waiting"  # rows in with a name their reference table lacks
    WITH_WAITING = "with_waiting"  # the stage, then the waiting rows
    ROWS = "rows"
    PLAN = "plan"
    INSERTED = "inserted"
    UPDATED = "updated"
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"
    DELETED = "deleted"
    PLAN_FAILED = "plan_failed"
    CHANGES = "changes"
    APPLIED_BY = "applied_by"
    PLAN_DISCARDED = "plan_discarded"
    APPLIES_PLAN = "applies_plan"
    ERRORS = "errors"
    ERRORS_EXPIRED = "errors_expired"
    SAME_FILE = "same_file"


# The status words are the window's (ui/texts.status_text); a check's and the waiting rows' are the window's
# too: ui/outcomes.py says them from this table, so a clerk reads the same in both.
TEXTS: dict[LineWord, tuple[str, str]] = {
    LineWord.CHECKED: ("已校验", "Checked"),
    LineWord.CHECKED_ONE: ("已校验：1 行可导入", "Checked: the 1 row would import"),
    LineWord.CHECKED_ALL: ("已校验：{ok:,} 行全部可导入", "Checked: all {ok:,} rows would import"),
    LineWord.CHECKED_SOME: (
        "已校验：{ok:,} 行可导入，{fail:,} 行会失败",
        "Checked: {ok:,} {ok:plural:row|rows} would import, {fail:,} would fail",
    ),
    LineWord.CHECKED_NONE: (
        "已校验：没有可导入的行，{fail:,} 行会失败",
        "Checked: no row would import, {fail:,} would fail",
    ),
    LineWord.WAITING: (
        "{rows:,} 行等待补充名称",
        "{rows:,} {rows:plural:row waits|rows wait} for names",
    ),
    LineWord.WITH_WAITING: ("{stage}；{waiting}", "{stage}; {waiting}"),
    LineWord.ROWS: ("共 {total:,} 行 成功 {ok:,} 失败 {fail:,}", "rows {total} ok {ok} failed {fail}"),
    LineWord.PLAN: ("计划 {counts}", "plan {counts}"),
    LineWord.INSERTED: ("新增 {count:,}", "inserted {count:,}"),
    LineWord.UPDATED: ("更新 {count:,}", "updated {count:,}"),
    LineWord.UNCHANGED: ("不变 {count:,}", "unchanged {count:,}"),
    LineWord.SKIPPED: ("跳过 {count:,}", "skipped {count:,}"),
    LineWord.DELETED: ("删除 {count:,}", "deleted {count:,}"),
    LineWord.PLAN_FAILED: ("失败 {count:,}", "failed {count:,}"),
    LineWord.CHANGES: ("变更文件：{path}", "changes: {path}"),
    LineWord.APPLIED_BY: ("已由 {task_no} 应用", "applied by {task_no}"),
    LineWord.PLAN_DISCARDED: ("计划已作废", "plan discarded"),
    LineWord.APPLIES_PLAN: ("应用 {task_no} 的计划", "applies the plan of {task_no}"),
    LineWord.ERRORS: ("错误文件：{path}", "errors: {path}"),
    LineWord.ERRORS_EXPIRED: ("错误文件：已过期删除", "errors: expired"),
    LineWord.SAME_FILE: ("（与任务 {task_no} 是同一个文件）", "(same file as task {task_no})"),
}

messages.register(LineWord, TEXTS)

STATUS_TEXTS: dict[TaskStatus, tuple[str, str]] = {
    TaskStatus.PENDING: ("等待中", "Pending"),
    TaskStatus.RUNNING: ("执行中", "Running"),
    TaskStatus.SUCCEEDED: ("成功", "Succeeded"),
    TaskStatus.PARTIALLY_SUCCEEDED: ("部分成功", "Partially succeeded"),
    TaskStatus.FAILED: ("失败", "Failed"),
    TaskStatus.CANCELLED: ("已取消", "Cancelled"),
}

messages.register(TaskStatus, STATUS_TEXTS)

# a change plan's counts by their JSON names (TaskRecord.plan_counts)
PLAN_WORDS = {"inserted": LineWord.INSERTED, "updated": LineWord.UPDATED, "unchanged": LineWord.UNCHANGED,
              "skipped": LineWord.SKIPPED, "deleted": LineWord.DELETED, "failed": LineWord.PLAN_FAILED}  # fmt: skip


def status_word(status: TaskStatus, lang: Lang) -> str:
    """A status in words, for the window's list and the command line's line alike."""
    return messages.text(status, lang)


def line_word(word: LineWord, lang: Lang, **params: object) -> str:
    return messages.text(word, lang, **params)


def check_words(ok: int, fail: int, lang: Lang) -> str:
    """What a validate-only run found, as what an import would do: "Checked: 995 rows would import, 5 would fail"."""
    if not fail:
        return line_word(LineWord.CHECKED_ONE, lang) if ok == 1 else line_word(LineWord.CHECKED_ALL, lang, ok=ok)
    return line_word(LineWord.CHECKED_SOME if ok else LineWord.CHECKED_NONE, lang, ok=ok, fail=fail)
