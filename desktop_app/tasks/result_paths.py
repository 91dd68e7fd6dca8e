"""What BatchDesk may delete, move or overwrite: only files that resolve inside its own results folder.

The task table is not trusted here: any desk of a team can write it (and on one desk, anything that can
write the database file). A task number becomes a path only when it has the format new_task_no() gives,
and a path read from a row (result_path, error_csv) is used only when it resolves, symlinks followed,
to a place inside the results folder. Anything else is left alone and logged.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

log = logging.getLogger(__name__)

# T + yymmdd + "-" + 6 characters of Crockford base32 (store/task_rows.new_task_no)
TASK_NO = re.compile(r"T\d{6}-[0-9A-HJKMNP-TV-Z]{6}")


def is_task_no(text: str) -> bool:
    return TASK_NO.fullmatch(text) is not None


def task_folder(results_dir: Path, task_no: str) -> Path | None:
    """results/<task_no>, or None (logged) when the task number is not one BatchDesk makes."""
    if not is_task_no(task_no):
        log.warning("left alone: %r is not a task number, so it names no folder of BatchDesk's", task_no)
        return None
    return owned(results_dir, results_dir / task_no, task_no=task_no)


def owned(folder: Path, path: str | os.PathLike[str], *, task_no: str = "") -> Path | None:
    """The resolved path when it lies strictly inside `folder` (the results folder, or one below it),
    else None (logged). A relative path is taken relative to `folder`."""
    base = folder.resolve()
    candidate = Path(path)
    resolved = (candidate if candidate.is_absolute() else base / candidate).resolve()
    if resolved != base and resolved.is_relative_to(base):
        return resolved
    prefix = f"[{task_no}] " if task_no else ""
    log.warning("%sleft alone: %s resolves to %s, outside BatchDesk's folder %s", prefix, path, resolved, base)
    return None
