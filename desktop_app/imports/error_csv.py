"""The error CSV: every bad row with its row number, original cells and plain reasons; itself importable.

Its own columns (row number, codes, reasons, and an import's extra cells: a long row's cells beyond the
header) are named in the desk's language; a re-import knows them in either and ignores them. The error
CSV of a repair (an error CSV, fixed and imported again) keeps one row-number column, the row in the
clerk's original file, the original columns once, and only the new codes and reasons. Every cell
written is neutralised against formula injection, the header's too.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop_app.domain.errors import Lang
from desktop_app.domain.formula_cells import TRIGGERS, needs_neutralising
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.readers import Cell, cell_to_text
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.result_paths import owned, task_folder

ROW_COLUMN = "行号"
CODES_COLUMN = "错误代码"
REASONS_COLUMN = "错误原因"
EXTRA_COLUMN = "多余单元格"
# lang -> (row number, codes, reasons, extra cells): the words of the error CSV's own columns
MARKERS: Mapping[str, tuple[str, str, str, str]] = {
    "zh": (ROW_COLUMN, CODES_COLUMN, REASONS_COLUMN, EXTRA_COLUMN),
    "en": ("Row number", "Error codes", "Error reasons", "Extra cells"),
}
ROW_COLUMNS = frozenset(words[0] for words in MARKERS.values())
CODES_COLUMNS = frozenset(words[1] for words in MARKERS.values())
REASONS_COLUMNS = frozenset(words[2] for words in MARKERS.values())
EXTRA_COLUMNS = frozenset(words[3] for words in MARKERS.values())
MARKER_COLUMNS = ROW_COLUMNS | CODES_COLUMNS | REASONS_COLUMNS | EXTRA_COLUMNS
# A long row's cells beyond the header, in the one extra-cells column: a visible mark between them, the same
# whatever the file's separator (an .xlsx has none), that a comma inside a cell or a thousands separator is
# not mistaken for; a re-import ignores the column, so it is never split again.
EXTRA_JOINER = " | "
DANGEROUS = TRIGGERS  # OWASP CSV injection: a spreadsheet runs cells that start with these
BOM = "\ufeff"
NAME_PATTERN = re.compile(r"(T\d{6}-[0-9A-Z]{6})-errors")


def neutralise(text: str) -> str:
    return "'" + text if needs_neutralising(text) else text


def restore(text: str) -> str:
    """Undo neutralise() for a cell read back from an error CSV."""
    if len(text) > 1 and text[0] == "'" and text[1] in TRIGGERS:
        return text[1:]
    return text


def _bare(header_cell: str) -> str:
    return header_cell.strip().lstrip(BOM).strip()


def is_error_csv_header(header: Sequence[str]) -> bool:
    """A header with a row-number and a codes column, in either language: one of our error CSVs."""
    folded = {_bare(h) for h in header}
    return bool(folded & ROW_COLUMNS) and bool(folded & CODES_COLUMNS)


@dataclass(frozen=True)
class ErrorLayout:
    """Where an error CSV's cells come from: the source columns kept (all of them, or for a repair all but
    its row-number, codes and reasons columns) and, for a repair, the column holding the original row."""

    header: tuple[str, ...]  # the source columns written, as the source names them
    keep: tuple[int, ...]  # their positions in a source row
    width: int  # the source header's width: cells beyond it are a long row's extra cells
    row_at: int | None = None  # a repair: the position of the source's row-number column
    extra_at: int | None = None  # a repair: the position of the source's extra-cells column, if it has one

    @classmethod
    def of(cls, header: Sequence[str]) -> ErrorLayout:
        texts = tuple(str(h) for h in header)
        if not is_error_csv_header(texts):
            return cls(texts, tuple(range(len(texts))), len(texts))
        bare = [_bare(h) for h in texts]
        row_at = next(i for i, h in enumerate(bare) if h in ROW_COLUMNS)
        extra_at = next((i for i, h in enumerate(bare) if h in EXTRA_COLUMNS), None)
        keep = tuple(i for i, h in enumerate(bare) if h not in MARKER_COLUMNS)
        return cls(tuple(texts[i] for i in keep), keep, len(texts), row_at, extra_at)

    def extra_cells(self, texts: Sequence[str]) -> str:
        """A long row's cells beyond the header as one text (a repair's: the source's extra cells first,
        where the clerk left them); trailing blank cells carry nothing and are left out."""
        extra = list(texts[self.width :])
        if self.extra_at is not None and self.extra_at < len(texts) and texts[self.extra_at].strip():
            extra.insert(0, texts[self.extra_at])
        while extra and not extra[-1].strip():
            extra.pop()
        return EXTRA_JOINER.join(extra)


def repaired_task_from_name(path: Path) -> str | None:
    """An error CSV is named after its task; a fixed copy usually keeps that in its name."""
    match = NAME_PATTERN.search(path.name)
    return match.group(1) if match else None


class ErrorCsvWriter:
    """Appends failed rows to a temp file while importing (never held in memory).

    UTF-8 with BOM so Excel opens it right; RFC 4180 quoting. `size()` after each batch goes into
    the checkpoint, and a resumed import truncates back to it, so a crash never duplicates a line.
    A long row's cells beyond the header follow its reasons in one more cell; the file handed over names
    that column only when a row has one (settle_extra_column), so a file without long rows keeps the
    columns it always had.
    """

    def __init__(self, path: Path, header: Sequence[str], *, resume_at: int | None = None,
                 lang: Lang = "zh") -> None:  # fmt: skip
        self.path = path
        self.layout = ErrorLayout.of(header)
        self.saw_extra = False  # a row with extra cells written by this writer
        self.width = len(self.layout.keep)
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
            row_word, codes_word, reasons_word, _extra_word = MARKERS[lang]
            own = [neutralise(h) for h in self.layout.header]
            csv.writer(self._handle).writerow([row_word, *own, codes_word, reasons_word])
        self._writer = csv.writer(self._handle)

    def write(self, row_number: int, cells: Sequence[Cell], codes: Sequence[str], reasons: Sequence[str]) -> None:
        """One failed row; ``row_number`` is its row in the file read (a repair writes the original's)."""
        raw = [cell_to_text(c) for c in cells]
        texts = [neutralise(t) for t in raw]
        layout = self.layout
        number: int | str = row_number
        if layout.row_at is not None:  # a repair: the row in the clerk's first file, as the error CSV said
            number = texts[layout.row_at].strip() if layout.row_at < len(texts) else ""
        # Codes and reasons stay under their headings: a short row is padded, a long row's extra cells
        # go into one more cell after the reasons (kept, so nothing the clerk typed is lost).
        own = [texts[i] if i < len(texts) else "" for i in layout.keep]
        line = [number, *own, ";".join(codes), neutralise(";".join(reasons))]
        extra = layout.extra_cells(raw)
        if extra:
            line.append(neutralise(extra))
            self.saw_extra = True
        self._writer.writerow(line)
        self.rows_written += 1

    def size(self) -> int:
        """Flush to the OS and return the byte length: the resume point. No fsync: the database
        commits without one too (WAL, synchronous=NORMAL), and a killed process loses nothing flushed."""
        self._handle.flush()
        return os.fstat(self._handle.fileno()).st_size

    def close(self) -> None:
        if not self._handle.closed:
            self._handle.close()


def handed_over_name(task_no: str) -> str:
    """The error CSV's name in its task's results folder."""
    return f"{task_no}-errors.csv"


def error_csv_work_file(ctx: TaskContext) -> Path:
    return ctx.work_dir / f"{ctx.task.task_no}-errors.csv.part"


def resumed_writer(ctx: TaskContext, header: Sequence[str], *, resume_at: int | None, lang: Lang) -> ErrorCsvWriter:
    """The error CSV writer of a run, taking back the file a crashed run had already handed over.

    A run that is killed after it moved its error CSV into the results folder but before its end was
    recorded resumes at its last checkpoint with no work file: without this, it would start a fresh
    file (header only) and hand that over in place of the rows it had named."""
    work = error_csv_work_file(ctx)
    if resume_at is not None and not work.exists():
        task_no = ctx.task.task_no
        folder = task_folder(ctx.results_dir, task_no)
        handed = owned(ctx.results_dir, folder / handed_over_name(task_no), task_no=task_no) if folder else None
        if handed is not None and handed.is_file() and handed.stat().st_size >= resume_at:
            work.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(handed), work)
            ctx.log.info("took back the error CSV handed over before the crash: %s", handed)
    return ErrorCsvWriter(work, header, resume_at=resume_at, lang=lang)


def settle_extra_column(path: Path) -> bool:
    """Before an error CSV is handed over: when a row carries extra cells (a long row's, after its reasons),
    the header gains the extra-cells column, named in the header's language, and the other rows an empty
    cell under it; a file without such a row is left as it is. True when the file was rewritten. Read in
    one pass (a stream, never held whole); rewritten only in that rare case."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = csv.reader(handle)
        header = next(rows, None)
        if header is None or not any(len(r) > len(header) for r in rows):
            return False
    lang = next((lang for lang, words in MARKERS.items() if words[0] == _bare(header[0])), "zh")
    width = len(header) + 1
    temp = path.with_name(path.name + ".extra")
    with path.open(encoding="utf-8-sig", newline="") as source, temp.open("w", encoding="utf-8", newline="") as out:
        out.write(BOM)
        writer = csv.writer(out)
        reader = csv.reader(source)
        writer.writerow([*next(reader), MARKERS[lang][3]])
        for row in reader:
            writer.writerow(row + [""] * (width - len(row)))
    temp.replace(path)
    return True


def keep_error_rows(ctx: TaskContext) -> dict[str, Any]:
    """An import that ends early (cancelled, failed, retries spent) still hands over the error rows
    of the batches it committed: the clerk is told how many rows failed, so they must see which."""
    # The task number names files here: only one of BatchDesk's own format, inside its results folder.
    folder = task_folder(ctx.results_dir, ctx.task.task_no)
    work = owned(ctx.results_dir, error_csv_work_file(ctx), task_no=ctx.task.task_no) if folder else None
    if folder is None or work is None or not work.is_file():
        return {}
    committed = _error_bytes(ctx.saved_checkpoint)
    if 0 < committed < work.stat().st_size:
        # Only the rows of committed batches: what a failed batch (a full disk) wrote after them may
        # end mid-row, and a partial file is never handed over as the result.
        with work.open("r+b") as raw:
            raw.truncate(committed)
    with work.open("rb") as handle:
        rows = sum(1 for _ in handle) - 1
    if rows <= 0:
        work.unlink(missing_ok=True)
        return {}
    folder.mkdir(parents=True, exist_ok=True)
    settle_extra_column(work)
    target = folder / handed_over_name(ctx.task.task_no)
    shutil.move(str(work), target)
    return {"error_csv": str(target), WRITTEN: fingerprint(target)}


def cut_back_to_checkpoint(ctx: TaskContext) -> None:
    """A task handed back for a retry keeps of its error file only what its committed batches wrote: a
    resume rewrites the rest anyway (ErrorCsvWriter's resume_at), and on a full disk the space it held
    is what the hand-back's own status write needs (SQLite's file may share that disk)."""
    if task_folder(ctx.results_dir, ctx.task.task_no) is None:
        return
    work = owned(ctx.results_dir, error_csv_work_file(ctx), task_no=ctx.task.task_no)
    if work is None or not work.is_file():
        return
    # A batch whose COMMIT raised may have committed all the same (a connection lost as it went): its
    # rows are kept too. Keeping more is safe, the resume's writer cuts the file to the checkpoint the
    # server holds; keeping less loses rows a committed batch named. (The fault campaign once ended on
    # MariaDB, its sessions killed mid-import, with the first error rows missing and the counts right:
    # this is the one way found for a hand-back to cut below the server's checkpoint.)
    committed = max(_error_bytes(ctx.saved_checkpoint), _error_bytes(ctx.doubtful_checkpoint))
    if committed <= 0:
        work.unlink(missing_ok=True)  # no committed error row: a resume starts a fresh file
    elif committed < work.stat().st_size:
        with work.open("r+b") as raw:
            raw.truncate(committed)


def _error_bytes(checkpoint: dict[str, Any] | None) -> int:
    committed = (checkpoint or {}).get("error_bytes")
    return committed if isinstance(committed, int) else 0


WRITTEN = "error_csv_written"
"""The summary's [size, mtime_ns] of the error CSV as handed over, where no summary.json follows it."""


def fingerprint(path: Path) -> list[int]:
    stat = path.stat()
    return [stat.st_size, stat.st_mtime_ns]


def looks_unedited(record: TaskRecord) -> bool:
    """Whether the task's error CSV is still as BatchDesk wrote it (a re-import of it would fail the
    same rows again). Its size and time as handed over where the task kept them; else not newer than
    the summary.json written right after it (the same folder, the same clock). False when it cannot
    tell, or the file is gone."""
    if not record.error_csv:
        return False
    path = Path(record.error_csv)
    try:
        now = fingerprint(path)
    except OSError:
        return False
    written = record.summary.get(WRITTEN)
    if isinstance(written, list) and len(written) == 2:
        return now == [int(v) for v in written]
    summary = Path(record.result_path) if record.result_path else None
    if summary is None or summary.name != "summary.json" or summary.parent != path.parent:
        return False
    try:
        return now[1] <= summary.stat().st_mtime_ns
    except OSError:
        return False
