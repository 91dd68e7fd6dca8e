"""Which character separates a CSV's fields: the file's own ``sep=;`` line, else sniffed on a sample."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Final

from .files import open_binary

DELIMITERS: Final = (",", ";", "\t", "|")
"""What a clerk's files use: comma (the default), semicolon (Excel where the decimal mark is a comma),
tab (Excel's "Unicode text" and "Text (tab delimited)"), and the pipe of some systems' exports."""

SAMPLE_CHARS = 64 * 1024
SAMPLE_RECORDS = 50

# Excel writes and honours a first line "sep=;" naming the delimiter; it shows the next line as row 1.
_SEP_LINE = re.compile(r"\ufeff?sep=([^\"\r\n])(?:\r\n|\n|\r|$)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class CsvDialect:
    """How a CSV file separates its fields.

    ``sep_line``: the file starts with Excel's ``sep=X`` line, which is no row (the header is the line
    after it, and row numbers count from there as Excel shows them). ``sniffed``: the delimiter was
    chosen from the content, not named by the file's ``sep=`` line or by the clerk."""

    delimiter: str
    sep_line: bool = False
    sniffed: bool = False


def sep_line_delimiter(first_line: str) -> str | None:
    """The delimiter a leading ``sep=;`` line names, or None when the line is none."""
    m = _SEP_LINE.fullmatch(first_line)
    return m[1] if m else None


def sniff_delimiter(sample: str, *, complete: bool) -> str:
    """The candidate whose records have the same number of fields as the header most often, among
    those that split the header at all; a comma when none does (a one-column file). Ties go to the
    one giving more fields, then to the earlier candidate in DELIMITERS. ``complete``: the sample is
    the whole file (else its last record may be cut and is not counted)."""
    best, best_score = ",", (0.0, 0)
    for candidate in DELIMITERS:
        try:
            records = [r for r in islice(csv.reader(io.StringIO(sample), delimiter=candidate), SAMPLE_RECORDS + 1) if r]
        except csv.Error:
            continue
        if not complete and len(records) > 1:
            records = records[:-1]
        records = records[:SAMPLE_RECORDS]
        if not records or len(records[0]) < 2:
            continue
        width = len(records[0])
        score = (sum(1 for r in records if len(r) == width) / len(records), width)
        if score > best_score:  # the most consistent; then the one that splits into more fields
            best, best_score = candidate, score
    return best


def read_dialect(path: Path, encoding: str, delimiter: str | None = None) -> CsvDialect:
    """The file's dialect from its first SAMPLE_CHARS characters: its sep= line, else the clerk's
    delimiter, else a sniffed one. Undecodable bytes are replaced here: the reader itself reports them
    with their row."""
    raw = open_binary(path)
    with io.TextIOWrapper(raw, encoding=encoding, errors="replace", newline="") as text:
        sample = text.read(SAMPLE_CHARS)
        complete = not text.read(1)
    first = sample.splitlines(keepends=True)[0] if sample else ""
    named = sep_line_delimiter(first)
    if named is not None:
        # the clerk's choice still wins over the file's line (which is then not a row either)
        return CsvDialect(delimiter or named, sep_line=True)
    if delimiter is not None:
        return CsvDialect(delimiter)
    return CsvDialect(sniff_delimiter(sample, complete=complete), sniffed=True)
