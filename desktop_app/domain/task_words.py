"""A task in words for the command line's readable lines (`tasks`, `status`), zh and en: its status, counts,
a validation's findings and the rows waiting for names, so that a line reads wholly in one language."""

from __future__ import annotations

from enum import StrEnum

from desktop_app.domain import messages
from desktop_app.domain.errors import Lang
from desktop_app.domain.notes import NoteCode
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord


class LineWord(StrEnum):
    CHECKED = "checked"  # a validate-only run that went through its rows (TaskRecord.checked_only)
    CHECKED_ONE = "checked_one"
    CHECKED_ALL = "checked_all"
    CHECKED_SOME = "checked_some"
    CHECKED_NONE = "checked_none"
    WOULD_WAIT = "would_wait"  # a check's rows that would import and then wait for names
    OVER_LIMIT = "over_limit"  # a check with more rows failing than the limit: the import would fail
    OVER_LIMIT_REASON = "over_limit_reason"  # its reason, from the failure note's params (fail, share, limit)
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
    UNDONE = "undone"  # an import an undo took back (TaskKind.undone), whatever its status
    UNDONE_BY = "undone_by"  # its stage: the undo's number, then how it ended
    UNDONE_BY_ALONE = "undone_by_alone"  # the same for an import whose own stage says nothing
    SYSTEM_HIDDEN = "system_hidden"  # after the `tasks` listing: the system tasks it left out
    MAX_ROWS_FLAG = "max_rows_flag"  # after a too_many_rows error on the command line: the flag that lets it in
    MAX_ROWS_SETTING = "max_rows_setting"  # the same after a feed's import: a feed takes the settings file's limit


# The window reads its status words (ui/texts.status_text), a check's and the waiting rows' (ui/outcomes.py) from
# this table too, so a clerk reads the same in the window and on the command line.
TEXTS: dict[LineWord | tuple[LineWord, str], tuple[str, str]] = {
    LineWord.CHECKED: ("已校验", "Checked"),
    # {waits}: "" or WOULD_WAIT; {over}: "" or OVER_LIMIT
    LineWord.CHECKED_ONE: ("已校验：1 行可导入{waits}", "Checked: the 1 row would import{waits}"),
    LineWord.CHECKED_ALL: ("已校验：{ok:,} 行全部可导入{waits}", "Checked: all {ok:,} rows would import{waits}"),
    LineWord.CHECKED_SOME: (
        "已校验：{ok:,} 行可导入{waits}，{fail:,} 行会失败{over}",
        "Checked: {ok:,} {ok:plural:row|rows} would import{waits}, {fail:,} would fail{over}",
    ),
    LineWord.CHECKED_NONE: (
        "已校验：没有可导入的行，{fail:,} 行会失败{over}",
        "Checked: no row would import, {fail:,} would fail{over}",
    ),
    LineWord.WOULD_WAIT: ("（其中 {rows:,} 行会等待补充名称）", " ({rows:,} would wait for names)"),
    LineWord.OVER_LIMIT: (
        "——失败超过 {limit}，导入会判定为失败",
        " — more than {limit} fail, so the import would count as failed",
    ),
    # a real import over the limit keeps the rows its committed batches wrote (notes.TOO_MANY_FAILED)
    LineWord.OVER_LIMIT_REASON: (
        "会失败 {fail:,} 行，占 {share}%，超过 {limit}，导入会判定为失败；可导入的 {success:,} 行导入后仍会保留",
        "{fail:,} {fail:plural:row|rows} would fail ({share}%, above {limit}): the import would count as "
        "failed; the {success:,} {success:plural:row that goes in would stay|rows that go in would stay}",
    ),
    (LineWord.OVER_LIMIT_REASON, "nothing"): (
        "会失败 {fail:,} 行，占 {share}%，超过 {limit}，导入会判定为失败，不会写入任何数据",
        "{fail:,} {fail:plural:row|rows} would fail ({share}%, above {limit}): the import would count as "
        "failed and write nothing",
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
    # the window's Status says UNDONE from this table; its Stage says "Undone by %1 — %2" (ui/outcomes.py)
    LineWord.UNDONE: ("已撤销", "Undone"),
    LineWord.UNDONE_BY: ("已被 {task_no} 撤销 — {stage}", "Undone by {task_no} — {stage}"),
    LineWord.UNDONE_BY_ALONE: ("已被 {task_no} 撤销", "Undone by {task_no}"),
    LineWord.SYSTEM_HIDDEN: (
        "另有 {count:,} 个系统任务未列出：加 --system 显示",
        "{count:,} system {count:plural:task|tasks} hidden: --system shows them",
    ),
    # the error itself (domain/errors.py) is the window's too, whose way out is the preview's box
    LineWord.MAX_ROWS_FLAG: (
        "（或在导入命令后加 --max-rows N 放宽行数上限）",
        "(or raise the row limit: --max-rows N on the import command)",
    ),
    LineWord.MAX_ROWS_SETTING: (
        "（或在数据文件夹的 settings.json 中调高 max_rows 行数上限）",
        "(or raise the row limit: max_rows in the data folder's settings.json)",
    ),
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


def check_words(ok: int, fail: int, lang: Lang, *, waiting: int = 0, limit: str | None = None) -> str:
    """What a validate-only run found, as what an import would do: "Checked: 995 rows would import (2 would wait
    for names), 5 would fail"; with the failed-rows `limit` it went over, that the import would count as failed."""
    waits = line_word(LineWord.WOULD_WAIT, lang, rows=waiting) if waiting and ok else ""
    over = line_word(LineWord.OVER_LIMIT, lang, limit=limit) if limit and fail else ""
    if not fail:
        if ok == 1:
            return line_word(LineWord.CHECKED_ONE, lang, waits=waits)
        return line_word(LineWord.CHECKED_ALL, lang, ok=ok, waits=waits)
    return line_word(LineWord.CHECKED_SOME if ok else LineWord.CHECKED_NONE, lang, ok=ok, fail=fail, waits=waits,
                     over=over)  # fmt: skip


_OVER_LIMIT_NOTES = (NoteCode.TOO_MANY_FAILED.value, NoteCode.TOO_MANY_FAILED_NOTHING_WRITTEN.value)


def _over_limit(task: TaskRecord) -> dict[str, object] | None:
    """The params of a check's failure note (more rows failed than the limit), as stored with its error."""
    phrase = task.error_phrase or {}
    if not task.checked_only or phrase.get("code") not in _OVER_LIMIT_NOTES:
        return None
    params = phrase.get("params")
    return dict(params) if isinstance(params, dict) else None


def over_limit_check(task: TaskRecord) -> bool:
    """A validation over the failed-rows limit: its stage says so ("… so the import would count as failed")."""
    return _over_limit(task) is not None


def task_check_words(task: TaskRecord, lang: Lang) -> str:
    """A validation's findings (TaskRecord.checked_only), for the window's list and the command line alike: its
    rows that would wait for names (its summary counts them as the real run would) and the limit it went over."""
    over = _over_limit(task)
    limit = str(over["limit"]) if over and over.get("limit") else None
    return check_words(task.success_count, task.fail_count, lang, waiting=task.pending_completion_count,
                       limit=limit)  # fmt: skip


def check_reason(task: TaskRecord, lang: Lang) -> str | None:
    """A validation over the failed-rows limit, its reason as what the import would do (its stored note says
    "the import counts as failed; nothing was written", true of the check, not of the import); None for any
    other task, whose error is shown as stored."""
    over = _over_limit(task)
    if over is None:
        return None
    try:
        success = int(str(over.get("success", task.success_count)))
    except ValueError:
        success = task.success_count
    params = {"fail": task.fail_count, "share": "", "limit": "", **over, "success": success}
    return line_word(LineWord.OVER_LIMIT_REASON, lang, reason=None if success else "nothing", **params)
