"""How the command line prints tasks: JSON for scripts, one readable line for people."""

from __future__ import annotations

import json
import sys
from typing import Any

from desktop_app.domain.errors import Lang
from desktop_app.domain.task import TaskRecord


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    sys.stdout.flush()


def task_line(task: TaskRecord, lang: Lang | None = None) -> str:
    """One task for people; its stage and error in `lang`, the command line's language (None: as stored)."""
    parts = [task.task_no, task.task_type, task.status.value, f"{task.progress}%"]
    if task.total_count:
        parts.append(f"rows {task.total_count} ok {task.success_count} failed {task.fail_count}")
    plan = task.plan_counts
    if plan is not None:
        # a dry run's change plan: the same names as its JSON's plan_counts, with thousands separators
        parts.append("plan " + " ".join(f"{name} {count:,}" for name, count in plan.items()))
        changes = task.summary.get("changes_csv")
        if changes and not task.summary.get("expired"):
            parts.append(f"changes: {changes}")
        if task.applied_by:
            parts.append(f"applied by {task.applied_by}")
        elif task.summary.get("plan_discarded"):
            parts.append("plan discarded")
    elif task.params.get("plan_of"):
        parts.append(f"applies the plan of {task.params['plan_of']}")
    stage, error = (task.stage, task.error_msg) if lang is None else (task.stage_in(lang), task.error_in(lang))
    if stage:
        parts.append(stage)
    if error:
        parts.append(error)
    if task.error_csv:
        # the retention clean-up deleted it: no dead path
        parts.append("errors: expired" if task.summary.get("expired") else f"errors: {task.error_csv}")
    return "  ".join(parts)


def show(task: TaskRecord, *, as_json: bool, lang: Lang, duplicate_of: str | None = None, **extra: Any) -> None:
    if as_json:
        print_json({**task.to_json(duplicate_of=duplicate_of, lang=lang), **extra})
    else:
        line = task_line(task, lang)
        if duplicate_of:
            line += f"  (same file as task {duplicate_of})"
        if extra.get("error_msg"):
            line += f"  {extra['error_msg']}"
        sys.stdout.write(line + "\n")
