"""Stage texts (what a task is doing, in words), in Chinese and English; stages are never statuses."""

from __future__ import annotations

from enum import StrEnum

from desktop_app.domain import messages
from desktop_app.domain.errors import Lang
from desktop_app.domain.phrase import Phrase


class Stage(StrEnum):
    CHECKING = "checking"
    COUNTING = "counting"
    IMPORTING = "importing"
    VALIDATING = "validating"
    COMPLETING = "completing"
    SUMMARISING = "summarising"
    EXPORTING = "exporting"
    UNDOING = "undoing"
    DONE = "done"
    DONE_PARTIAL = "done_partial"
    FAILED = "failed"
    CANCELLED = "cancelled"
    CANCELLED_KEPT = "cancelled_kept"
    PAUSED = "paused"
    WAITING_RETRY = "waiting_retry"
    WAITING_RECOVERY = "waiting_recovery"
    FEED_LOOKING = "feed_looking"
    WORKBOOK_SHEET = "workbook_sheet"


TEXTS: dict[Stage, tuple[str, str]] = {
    Stage.CHECKING: ("正在检查文件", "Checking the file"),
    Stage.COUNTING: ("正在统计行数", "Counting rows"),
    Stage.IMPORTING: ("正在导入第 {row:,} 行（共 {total:,} 行）", "Importing row {row:,} of {total:,}"),
    Stage.VALIDATING: (
        "正在校验第 {row:,} 行（共 {total:,} 行，仅校验）",
        "Validating row {row:,} of {total:,} (validation only)",
    ),
    Stage.COMPLETING: ("正在补全关联数据", "Completing related data"),
    Stage.SUMMARISING: ("正在生成结果文件", "Writing the result files"),
    Stage.EXPORTING: ("正在导出第 {row:,} 行（共 {total:,} 行）", "Exporting row {row:,} of {total:,}"),
    Stage.UNDOING: ("正在撤销任务 {task_no} 写入的数据", "Undoing what task {task_no} wrote"),
    Stage.DONE: ("已完成", "Done"),
    Stage.DONE_PARTIAL: ("已完成（部分失败）", "Done (some rows failed)"),
    Stage.FAILED: ("失败", "Failed"),
    Stage.CANCELLED: ("已取消", "Cancelled"),
    Stage.CANCELLED_KEPT: ("已取消（已提交的数据保留）", "Cancelled (rows already committed stay)"),
    Stage.PAUSED: ("已暂停，下次启动时从断点继续", "Paused; resumes where it stopped at the next start"),
    Stage.WAITING_RETRY: ("等待第 {number} 次重试", "Waiting for retry {number}"),
    Stage.WAITING_RECOVERY: ("程序中断，等待恢复执行", "Interrupted; waiting to resume"),
    Stage.FEED_LOOKING: ("正在查看文件夹 {folder}", "Looking at the folder {folder}"),
    Stage.WORKBOOK_SHEET: ("第 {index} 个工作表（共 {count} 个）：{sheet}", "Sheet {index} of {count}: {sheet}"),
}


# "正在导入第 50,001 行（共 200,000 行）": a clerk reads 200000 as 20000 at a glance. Only the words get
# the separators ({row:,}); the phrase keeps the plain number it was given.
messages.register(Stage, TEXTS)


def stage_text(stage: Stage, lang: Lang = "zh", **params: object) -> str:
    """A stage in words: a Phrase keeping its code and params, so that it is shown in another language."""
    return Phrase(messages.text(stage, lang, **params), "stage", stage.value, params)
