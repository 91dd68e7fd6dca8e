"""The error CSV: every bad row with its row number, original cells and plain reasons; itself importable."""

from __future__ import annotations

import csv
import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from desktop_app.imports.readers import Cell, cell_to_text
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.result_paths import owned, task_folder

ROW_COLUMN = "行号"
CODES_COLUMN = "错误代码"
REASONS_COLUMN = "错误原因"
MARKER_COLUMNS = frozenset({ROW_COLUMN, CODES_COLUMN, REASONS_COLUMN})
# OWASP CSV injection: a spreadsheet runs cells that start with these.
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"
NAME_PATTERN = re.compile(r"(T\d{6}-[0-9A-Z]{6})-errors")


def neutralise(text: str) -> str:
    return "'" + text if text.startswith(DANGEROUS) else text


def restore(text: str) -> str:
    """Undo neutralise() for a cell read back from an error CSV."""
    if len(text) > 1 and text[0] == "'" and text[1] in "=+-@\t\r":
        return text[1:]
    return text


def is_error_csv_header(header: Sequence[str]) -> bool:
    folded = {h.strip().lstrip(BOM) for h in header}
    return {ROW_COLUMN, CODES_COLUMN} <= folded


def repaired_task_from_name(path: Path) -> str | None:
    """An error CSV is named after its task; a fixed copy usually keeps that in its name."""
    match = NAME_PATTERN.search(path.name)
    return match.group(1) if match else None


class ErrorCsvWriter:
    """Appends failed rows to a temp file while importing (never held in memory).

    UTF-8 with BOM so Excel opens it right; RFC 4180 quoting. `size()` after each batch goes into
    the checkpoint, and a resumed import truncates back to it, so a crash never duplicates a line.
    """

    def __init__(self, path: Path, header: Sequence[str], *, resume_at: int | None = None) -> None:
        self.path = path
        self.width = len(header)
        self.rows_written = 0
        # True when a resume found the earlier rows gone (the file deleted, or cut short by a power
        # loss): the rows after the checkpoint still get named, and the summary says what is missing.
        self.lost_earlier_rows = resume_at is not None and (not path.exists() or path.stat().st_size < resume_at)
        path.parent.mkdir(parents=True, exist_ok=True)
        if resume_at is not None and not self.lost_earlier_rows:
            with path.open("r+b") as raw:
                raw.truncate(resume_at)
            self._handle = path.open("a", encoding="utf-8", newline="")
        else:
            self._handle = path.open("w", encoding="utf-8", newline="")
            self._handle.write(BOM)
            csv.writer(self._handle).writerow([ROW_COLUMN, *header, CODES_COLUMN, REASONS_COLUMN])
        self._writer = csv.writer(self._handle)

    def write(self, row_number: int, cells: Sequence[Cell], codes: Sequence[str], reasons: Sequence[str]) -> None:
        texts = [neutralise(cell_to_text(c)) for c in cells]
        # Codes and reasons stay under their headings: a short row is padded, a long row's extra
        # cells follow the reasons (kept, so nothing the clerk typed is lost).
        own, extra = texts[: self.width], texts[self.width :]
        own += [""] * (self.width - len(own))
        self._writer.writerow([row_number, *own, ";".join(codes), neutralise(";".join(reasons)), *extra])
        self.rows_written += 1

    def size(self) -> int:
        """Flush to the OS and return the byte length: the resume point. No fsync: the database
        commits without one too (WAL, synchronous=NORMAL), and a killed process loses nothing flushed."""
        self._handle.flush()
        return os.fstat(self._handle.fileno()).st_size

    def close(self) -> None:
        if not self._handle.closed:
            self._handle.close()


def error_csv_work_file(ctx: TaskContext) -> Path:
    return ctx.work_dir / f"{ctx.task.task_no}-errors.csv.part"


def keep_error_rows(ctx: TaskContext) -> dict[str, Any]:
    """An import that ends early (cancelled, failed, retries spent) still hands over the error rows
    of the batches it committed: the clerk is told how many rows failed, so they must see which."""
    # The task number names files here: only one of BatchDesk's own format, inside its results folder.
    folder = task_folder(ctx.results_dir, ctx.task.task_no)
    work = owned(ctx.results_dir, error_csv_work_file(ctx), task_no=ctx.task.task_no) if folder else None
    if folder is None or work is None or not work.is_file():
        return {}
    with work.open("rb") as handle:
        rows = sum(1 for _ in handle) - 1
    if rows <= 0:
        work.unlink(missing_ok=True)
        return {}
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{ctx.task.task_no}-errors.csv"
    shutil.move(str(work), target)
    return {"error_csv": str(target)}
