"""How the command line prints tasks: JSON for scripts, one readable line for people."""

from __future__ import annotations

import json
import sys
from typing import Any

from desktop_app.domain.errors import ErrorCode, Lang
from desktop_app.domain.feeds import FEED_PARAM
from desktop_app.domain.task import TaskRecord
from desktop_app.domain.task_words import (
    PLAN_WORDS,
    LineWord,
    check_reason,
    line_word,
    status_word,
    task_check_words,
)
from desktop_app.tasks.builtin_kinds import builtin_task_kinds
from desktop_app.tasks.kinds import Title, Words
from desktop_app.tasks.shown_progress import shown_progress

# A task's type in a Chinese line: its kind's word, as the window's list says it without the import type's own
# title (ui/catalog.describe); in English the type's name, as the JSON's `type` says it. A type without words of
# its own keeps its name.
ZH_TYPES = {Title.IMPORT_TYPE: "导入", Title.EXPORT: "导出", Title.WORKBOOK: "工作簿导入", Title.UNDO_OF: "撤销",
            Title.COMPLETE_REFERENCES: "补全关联", Title.CLEANUP: "每日清理", Title.FEED_SCAN: "自动导入检查文件夹",
            Title.FEED_MAIL: "自动导入的导入通知邮件"}  # fmt: skip
_KINDS = builtin_task_kinds()
# the kinds queued for the clerk, not by them (a feed's look at its folder, the daily clean-up): the readable
# `tasks` listing hides them unless --system, as the window's list does (TaskKind.system)
SYSTEM_TYPES = tuple(kind.name for kind in _KINDS.kinds if kind.system)


def _zh_type(task: TaskRecord) -> str:
    title = _KINDS.of(task).title
    if title is Title.COMPLETE_REFERENCES and task.params.get("values"):
        return "修正取值"  # a value fix shares its type with a completion; the window names it apart
    return ZH_TYPES.get(title, task.task_type)


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    sys.stdout.flush()


def task_line(task: TaskRecord, lang: Lang | None = None) -> str:
    """One task for people, wholly in `lang`, the command line's language: its status, counts and stage in
    words (a validation says what it found, an import its rows waiting for names). None: the status's code
    and the stage and error as stored, the labels in English."""
    words: Lang = lang or "en"
    checked = lang is not None and task.checked_only  # seen: "partially_succeeded" for a validation
    # an import an undo took back: the window's "Undone", not "Succeeded" (seen in a clerk's tryout)
    undone = lang is not None and _KINDS.of(task).undone(task)
    if lang is None:
        status = task.status.value
    elif undone:
        status = line_word(LineWord.UNDONE, lang)
    else:
        status = line_word(LineWord.CHECKED, lang) if checked else status_word(task.status, lang)
    shown_type = _zh_type(task) if lang == "zh" else task.task_type
    # the progress as the window shows it: an ended import's last tick was 98 % (the JSON keeps it as stored)
    parts = [task.task_no, shown_type, status, f"{shown_progress(task, _KINDS.of(task))}%"]
    if task.total_count:
        parts.append(line_word(LineWord.ROWS, words, total=task.total_count, ok=task.success_count,
                               fail=task.fail_count))  # fmt: skip
    plan = task.plan_counts
    if plan is not None:
        # a dry run's change plan: the same names as its JSON's plan_counts (in English), with thousands separators
        counts = " ".join(line_word(PLAN_WORDS[name], words, count=count) if name in PLAN_WORDS
                          else f"{name} {count:,}" for name, count in plan.items())  # fmt: skip
        parts.append(line_word(LineWord.PLAN, words, counts=counts))
        changes = task.summary.get("changes_csv")
        if changes and not task.summary.get("expired"):
            parts.append(line_word(LineWord.CHANGES, words, path=changes))
        if task.applied_by:
            parts.append(line_word(LineWord.APPLIED_BY, words, task_no=task.applied_by))
        elif task.summary.get("plan_discarded"):
            parts.append(line_word(LineWord.PLAN_DISCARDED, words))
    elif task.params.get("plan_of"):
        parts.append(line_word(LineWord.APPLIES_PLAN, words, task_no=task.params["plan_of"]))
    stage = _stage(task, lang, checked=checked)
    if undone and lang is not None:
        said = LineWord.UNDONE_BY if stage else LineWord.UNDONE_BY_ALONE  # not "Undone by T… — " and nothing
        stage = line_word(said, lang, task_no=task.undone_by, stage=stage)
    # a check over the failed-rows limit: what the import would do, not "nothing was written" (its JSON keeps it)
    error = task.error_msg if lang is None else check_reason(task, lang) or task.error_in(lang)
    if stage:
        parts.append(stage)
    if error:
        parts.append(error)
        if lang is not None and task.error_code == ErrorCode.TOO_MANY_ROWS:
            # the import's flag (only the line says it); a feed's import has no flag: the settings' limit is its
            feed = bool(task.params.get(FEED_PARAM))
            parts.append(line_word(LineWord.MAX_ROWS_SETTING if feed else LineWord.MAX_ROWS_FLAG, lang))
    if task.error_csv:
        # the retention clean-up deleted it: no dead path
        expired = task.summary.get("expired")
        parts.append(line_word(LineWord.ERRORS_EXPIRED, words) if expired
                     else line_word(LineWord.ERRORS, words, path=task.error_csv))  # fmt: skip
    return "  ".join(parts)


def _stage(task: TaskRecord, lang: Lang | None, *, checked: bool) -> str:
    """The stage in `lang`: a validation's findings in place of its "Done (some rows failed)"; an import's
    rows waiting for names after it, as the window's list says them."""
    if lang is None:
        return task.stage
    if checked:
        return task_check_words(task, lang)
    stage = task.stage_in(lang)
    waiting = task.rows_waiting_for_names if _KINDS.of(task).words is Words.IMPORT else 0
    if not waiting:
        return stage
    text = line_word(LineWord.WAITING, lang, rows=waiting)
    return line_word(LineWord.WITH_WAITING, lang, stage=stage, waiting=text) if stage else text


def show(task: TaskRecord, *, as_json: bool, lang: Lang, duplicate_of: str | None = None, **extra: Any) -> None:
    if as_json:
        print_json({**task.to_json(duplicate_of=duplicate_of, lang=lang), **extra})
    else:
        line = task_line(task, lang)
        if duplicate_of:
            line += "  " + line_word(LineWord.SAME_FILE, lang, task_no=duplicate_of)
        if extra.get("error_msg"):
            line += f"  {extra['error_msg']}"
        sys.stdout.write(line + "\n")
