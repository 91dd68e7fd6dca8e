"""The words of a change plan (a dry run's planned rows): its actions and its change file's headers, zh and en."""

from __future__ import annotations

from enum import StrEnum

from desktop_app.domain import messages
from desktop_app.domain.errors import Lang


class PlanWord(StrEnum):
    # what a planned row does (the values of imports/row_plans.Action)
    INSERT = "insert"
    UPDATE = "update"
    UNCHANGED = "unchanged"
    SKIP = "skip"
    DELETE = "delete"
    FAIL = "fail"
    # an insert that names a reference the table lacks yet (change_plan.waits_for_name)
    INSERT_WAITING = "insert_waiting"
    # the change file's own columns
    ROW = "row"
    KEY = "key"
    ACTION = "action"
    REASON = "reason"
    BEFORE = "before"
    AFTER = "after"


TEXTS: dict[PlanWord, tuple[str, str]] = {
    PlanWord.INSERT: ("新增", "insert"),
    PlanWord.UPDATE: ("更新", "update"),
    PlanWord.UNCHANGED: ("不变", "unchanged"),
    PlanWord.SKIP: ("跳过", "skip"),
    PlanWord.DELETE: ("删除", "delete"),
    PlanWord.FAIL: ("失败", "fail"),
    PlanWord.INSERT_WAITING: ("新增（等待补充名称）", "insert (waits for a name)"),
    # the same word as the error CSV's row-number column (imports/error_csv.MARKERS)
    PlanWord.ROW: ("行号", "Row number"),
    PlanWord.KEY: ("键", "Key"),
    PlanWord.ACTION: ("动作", "Action"),
    PlanWord.REASON: ("原因", "Reason"),
    PlanWord.BEFORE: ("{column}（原值）", "{column} (before)"),
    PlanWord.AFTER: ("{column}（新值）", "{column} (after)"),
}

messages.register(PlanWord, TEXTS)


def plan_word(word: PlanWord | str, lang: Lang, **params: object) -> str:
    """A plan's word in the desk's language (an action's value names its word)."""
    return messages.text(PlanWord(word), lang, **params)
