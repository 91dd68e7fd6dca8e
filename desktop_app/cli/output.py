"""How the command line prints tasks: JSON for scripts, one readable line for people."""

from __future__ import annotations

import json
import sys
from typing import Any

from desktop_app.domain.task import TaskRecord


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    sys.stdout.flush()


def task_line(task: TaskRecord) -> str:
    parts = [task.task_no, task.task_type, task.status.value, f"{task.progress}%"]
    if task.total_count:
        parts.append(f"rows {task.total_count} ok {task.success_count} failed {task.fail_count}")
    if task.stage:
        parts.append(task.stage)
    if task.error_msg:
        parts.append(task.error_msg)
    if task.error_csv:
        # the retention clean-up deleted it: no dead path
        parts.append("errors: expired" if task.summary.get("expired") else f"errors: {task.error_csv}")
    return "  ".join(parts)


def show(task: TaskRecord, *, as_json: bool, duplicate_of: str | None = None, **extra: Any) -> None:
    if as_json:
        print_json({**task.to_json(duplicate_of=duplicate_of), **extra})
    else:
        line = task_line(task)
        if duplicate_of:
            line += f"  (same file as task {duplicate_of})"
        if extra.get("error_msg"):
            line += f"  {extra['error_msg']}"
        sys.stdout.write(line + "\n")
