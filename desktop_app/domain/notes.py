"""Notes a finished task carries besides its counts (warnings, the failure summary), as codes with
params and their words in Chinese and English: stored as codes, rendered when shown."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from desktop_app.domain import messages
from desktop_app.domain.errors import Lang
from desktop_app.domain.phrase import Phrase


class NoteCode(StrEnum):
    UNKNOWN_COLUMN = "unknown_column"
    ERROR_ROWS_LOST = "error_rows_lost"
    TOO_MANY_FAILED = "too_many_failed"
    TOO_MANY_FAILED_NOTHING_WRITTEN = "too_many_failed_nothing_written"
    VALUES_FIXED = "values_fixed"
    NO_BAD_VALUES = "no_bad_values"
    IGNORED_IN_DELETE = "ignored_in_delete"


TEXTS: dict[NoteCode, tuple[str, str]] = {
    # a value fix of an ended import (`values TASK_NO --map`)
    NoteCode.VALUES_FIXED: (
        "任务 {task_no}：修正后导入 {fixed} 行，仍失败 {left} 行（修正任务 {fix_task}）",
        "Task {task_no}: {fixed} rows imported with the fixed values, {left} rows still failed (fix task {fix_task})",
    ),
    NoteCode.NO_BAD_VALUES: (
        "任务 {task_no} 没有因取值不在允许范围内而失败的行",
        "Task {task_no} has no rows that failed for a value not allowed",
    ),
    NoteCode.UNKNOWN_COLUMN: ("未识别的列“{header}”已忽略", 'Unknown column "{header}" was ignored'),
    # delete mode reads the key's columns only
    NoteCode.IGNORED_IN_DELETE: (
        "删除模式只读取键列，以下列已忽略：{headers}",
        "Delete mode reads only the key's columns; these columns were ignored: {headers}",
    ),
    NoteCode.ERROR_ROWS_LOST: (
        "第 {row:,} 行之前的错误明细在中断后丢失（失败计数仍然准确），如需明细请对原文件做一次仅校验",
        "the error rows before row {row:,} were lost in an interruption (the counts are right); "
        "run a validation-only pass of the file to list them",
    ),
    # counts with thousands separators, and "1 row" / "2 rows" (the catalog's {n:,} and {n:plural:...})
    NoteCode.TOO_MANY_FAILED: (
        "失败 {fail:,} 行，占 {share}%，超过 {limit}，整体判定为失败；已成功导入的 {success:,} 行保留",
        "{fail:,} {fail:plural:row|rows} failed ({share}%, above {limit}): the import counts as failed; the "
        "{success:,} {success:plural:row that went in stays|rows that went in stay}",
    ),
    NoteCode.TOO_MANY_FAILED_NOTHING_WRITTEN: (
        "失败 {fail:,} 行，占 {share}%，超过 {limit}，整体判定为失败（未写入任何数据）",
        "{fail:,} {fail:plural:row|rows} failed ({share}%, above {limit}): the import counts as failed; "
        "nothing was written",
    ),
}

messages.register(NoteCode, TEXTS)


@dataclass(frozen=True)
class Note:
    """One note: a code and the params its words need."""

    code: NoteCode
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, lang: Lang = "zh") -> str:
        """Its words in `lang`: a Phrase, so a task's error_msg made of it is shown in another language."""
        return Phrase(messages.text(self.code, lang, **self.params), "note", self.code.value, self.params)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code.value, "params": dict(self.params)}
