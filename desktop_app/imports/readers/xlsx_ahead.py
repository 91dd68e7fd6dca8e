"""An .xlsx file's first sheet's row tags counted ahead, on a thread of its own, while the command line loads.

The reader's pre-count (XlsxReader.row_bound: xlsx_plain.count_row_tags) inflates the whole sheet's
XML once before the first batch: 0.42-0.49 s of a 200,000-row sheet (77 MB of XML), measured, of an
import of ~5 s. Begun while the program loads, zlib's inflating lets go of the GIL and runs on the
other core. The count needs no limit but the file's own (count_row_tags reads the part as the zip
declares it), so the same file and the same part give the same count: the reader takes it only for
the part it picked, from a file unchanged since (tasks.file_ahead); else it counts itself, as before.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any

from desktop_app.tasks.file_ahead import FileAhead

from .limits import DEFAULT_LIMITS, MIB, ReadLimits
from .xlsx_plain import count_row_tags
from .xlsx_zip import open_zip

Counted = tuple[str, tuple[int, bool] | None]  # the sheet's part, and count_row_tags's answer for it


def _count_first_sheet(path: Path) -> Counted | None:
    """The part of the sheet an import reads when none is named (the first that is not a chart), and its
    row tags counted; None for a workbook without one."""
    from .xlsx_book import BookReader

    # limits no smaller than an import of this file has (its --max-file-mb holds the file): the count
    # itself reads the part as the zip declares it, whatever the limits
    limits = ReadLimits(max_file_mb=max(DEFAULT_LIMITS.max_file_mb, math.ceil(path.stat().st_size / MIB)))
    with path.open("rb") as raw:
        archive = open_zip(raw, limits)  # type: ignore[arg-type]  # a file opened for reading
        try:
            book = BookReader(archive, limits)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # style and extension notes about the file
                book.read_manifest()
                book.read_workbook()
                book.read_worksheets()
            first = next((s for s in book.sheets if not s.chart), None)
            if first is None:
                return None
            return first.part, count_row_tags(archive, first.part)
        finally:
            archive.close()


_AHEAD: FileAhead[Counted | None] = FileAhead("batchdesk-count", _count_first_sheet)


def count_ahead(path: Path) -> None:
    """Begin counting the first sheet's row tags of an .xlsx file (an import that names no sheet)."""
    _AHEAD.begin(path)


def take(path: Path, part: str) -> Any:
    """count_row_tags's answer for `part` of the file, counted ahead while it was unchanged; MISSING when
    nothing was begun, the file changed, the part differs or the count ahead failed (the reader counts
    itself then, and says what is wrong)."""
    begun = _AHEAD.take(path)
    if begun is None:
        return MISSING
    try:
        counted = begun.result()
    except Exception:
        return MISSING
    if counted is None or counted[0] != part:
        return MISSING
    return counted[1]


MISSING = object()
