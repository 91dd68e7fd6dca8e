"""A CSV file's physical lines for csv.reader: bounded in length, NUL runs refused, an unclosed quote told."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from desktop_app.domain.errors import ErrorCode, PermanentError

NUL_RUN = "\x00" * 16
"""A run this long is no stray NUL in a cell (that is a row's problem): the file is binary or zero-filled."""

# Fed to csv.reader once after the last line. After a complete record (the parser between records) it
# parses as one more record, ['\r'], which every reader skips as blank; inside a quoted field that ran
# to the end of the file, its first quote closes the field and its '\r' then meets a character, which
# csv rejects ("new-line character seen in unquoted field"). So a csv.Error after the end means an
# unclosed quote, told without a per-record check on the hot path.
END_SENTINEL = '"\r"'


class CsvLines:
    """Iterating gives the lines of an open text stream (newline=""), then END_SENTINEL.

    A line of limit characters or more raises CSV_FIELD_TOO_LONG, or CSV_NUL_BYTES when it holds a run
    of NULs, before it is held whole (both surface from csv.reader as REFUSED; error() names them). A
    short NUL run inside a line is left to the cell checks; precount's byte pass refuses any run.
    """

    REFUSED: tuple[type[Exception], ...]

    def __init__(self, text: io.TextIOBase, limit: int) -> None:
        self._text = text
        self.limit = limit
        self.ended = False  # the sentinel was handed out: the file's own lines are all read

    def __iter__(self) -> Iterator[str]:
        readline, limit = self._text.readline, self.limit
        line = readline(limit)
        if not line:
            self.ended = True  # an empty file: no sentinel, or it would read as a header
            return
        while line:
            if len(line) >= limit:  # a zero-filled file has no line breaks, so it ends up here too
                raise _LineRefused(NUL_RUN in line)
            yield line
            line = readline(limit)
        self.ended = True
        yield END_SENTINEL

    def error(self, exc: Exception, row: int) -> PermanentError | None:
        """The BatchDesk error for what csv.reader raised while reading the record at row (None: not
        a CSV problem, let it through)."""
        if isinstance(exc, _LineRefused):
            if exc.nul:
                return PermanentError(ErrorCode.CSV_NUL_BYTES, row=row)
            return PermanentError(ErrorCode.CSV_FIELD_TOO_LONG, row=row, limit=self.limit)
        if not isinstance(exc, csv.Error):
            return None
        if self.ended:
            return PermanentError(ErrorCode.CORRUPT_FILE, reason="csv_unclosed_quote", row=row, detail=str(exc))
        if "field larger than field limit" in str(exc):
            # A line is shorter than the limit, so this field spans lines: only a quoted one can, and a
            # million characters of quoted text is a quote left open, not a cell.
            return PermanentError(ErrorCode.CORRUPT_FILE, reason="csv_unclosed_quote", row=row, detail=str(exc))
        return PermanentError(ErrorCode.CORRUPT_FILE, reason="csv_malformed", row=row, detail=f"CSV: {exc}")


class _LineRefused(Exception):
    """Raised inside csv.reader's iteration; CsvLines.error turns it into the clerk's error."""

    def __init__(self, nul: bool) -> None:
        super().__init__("NUL bytes" if nul else "line too long")
        self.nul = nul


CsvLines.REFUSED = (csv.Error, _LineRefused)
