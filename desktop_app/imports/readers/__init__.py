"""Streaming readers for CSV, XLSX and XLS files, with encoding detection."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from types import TracebackType
from typing import Protocol, Self

from desktop_app.domain.errors import ErrorCode, PermanentError

from .cells import Cell, SourceRow, cell_to_text
from .csv_reader import CsvReader
from .csv_sniff import DELIMITERS, CsvDialect
from .encoding import decode_sample_encoding
from .excel_reader import open_excel
from .files import ReaderBase, file_error, file_size, open_binary
from .limits import DEFAULT_LIMITS, ReaderWarning, ReadLimits
from .merged_cells import SheetMerges

__all__ = [
    "DELIMITERS",
    "Cell",
    "CsvDialect",
    "Preview",
    "ReadLimits",
    "ReaderWarning",
    "SheetMerges",
    "SourceRow",
    "TableReader",
    "cell_to_text",
    "decode_sample_encoding",
    "open_table",
    "preview",
]

FORMATS = {".csv": "csv", ".txt": "csv", ".tsv": "csv", ".xlsx": "xlsx", ".xls": "xls"}
"""Supported suffixes (any case) and the format each names: Excel saves "Unicode text" (UTF-16, tabs)
and "Text (tab delimited)" as .txt, read like a CSV whose delimiter is sniffed."""


class TableReader(Protocol):
    """A source file's header and its data rows, streamed."""

    format: str
    """ "csv", "xlsx" or "xls" (for Excel files, what the content is, whatever the suffix)."""
    encoding: str | None
    """The codec a CSV file is read with, detected or forced; None for Excel."""
    header: tuple[str, ...]
    """Row 1 as text (Excel cells via cell_to_text), BOM stripped, not otherwise normalised."""
    warnings: tuple[ReaderWarning, ...]
    """What the reader noticed without failing (the file may be damaged in a way it cannot tell);
    known once the reader is open. For the task's summary: [w.text(lang) for w in reader.warnings]."""

    def rows(self, skip_through: int = 1) -> Iterator[SourceRow]:
        """Non-blank rows with row_number > skip_through; every call starts from the top again."""
        ...

    def count_rows(self, limit: int | None = None) -> int:
        """Non-blank data rows; returns limit + 1 as soon as the count exceeds limit."""
        ...

    def fraction_done(self) -> float:
        """0..1 progress of the current rows() iteration; cheap enough to poll."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class _EmptyWorkbook(ReaderBase):
    """A zero-byte .xlsx/.xls: no header, no rows; whether that is an error is the pipeline's call."""

    encoding: str | None = None
    header: tuple[str, ...] = ()
    warnings: tuple[ReaderWarning, ...] = ()

    def __init__(self, format: str) -> None:
        self.format = format

    def rows(self, skip_through: int = 1) -> Iterator[SourceRow]:
        self._check_open()
        return iter(())

    def count_rows(self, limit: int | None = None) -> int:
        self._check_open()
        return 0

    def fraction_done(self) -> float:
        return 1.0


def open_table(
    path: Path | str,
    *,
    encoding: str | None = None,
    sheet: str | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
    delimiter: str | None = None,
    precount: bool = False,
) -> TableReader:
    """A reader for a .csv (.txt, .tsv), .xlsx or .xls file (by suffix, any case).

    encoding forces a CSV codec (any Python codec name); delimiter a CSV's field separator (one of
    csv_sniff.DELIMITERS; default: the file's sep= line, else sniffed); sheet picks an Excel sheet by name
    (default: the first); limits bounds what may be unpacked and held (ReadLimits(max_file_mb=...)
    with the import's --max-file-mb); precount: an .xlsx sheet's rows are counted for row_bound() while the
    reader opens (it reads the whole sheet's XML for its merged cells anyway). Raises PermanentError:
    UNSUPPORTED_FORMAT, FILE_NOT_FOUND, FILE_UNREADABLE, CORRUPT_FILE, FILE_TOO_LARGE (an .xlsx part or .xls
    sheet over the limits, or too many merged cells),
    CSV_FIELD_TOO_LONG, CSV_NUL_BYTES, ENCODING_UNDETECTABLE, INVALID_PARAMS (no such sheet); a
    file held by another program on Windows raises FILE_UNREADABLE as a TransientError. Reading
    rows may raise the same file-level errors. A zero-byte file or a header without data rows
    opens fine.
    """
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise PermanentError(ErrorCode.UNSUPPORTED_FORMAT, suffix=path.suffix)
    if fmt == "csv":
        return CsvReader(path, encoding=encoding, delimiter=delimiter, limits=limits)
    raw = open_binary(path)
    try:
        if file_size(raw, path) == 0:
            raw.close()
            return _EmptyWorkbook(fmt)
        head = raw.read(8) or b""
        raw.seek(0)
    except OSError as exc:
        raw.close()
        raise file_error(path, exc) from exc
    except BaseException:
        raw.close()
        raise
    return open_excel(path, raw, head, sheet, limits, precount=precount)


@dataclass(frozen=True, slots=True)
class Preview:
    """The first rows of a file, for showing before an import starts."""

    format: str
    encoding: str | None
    header: tuple[str, ...]
    rows: list[SourceRow]
    dialect: CsvDialect | None = None  # a CSV's delimiter (and whether it was sniffed)
    merges: SheetMerges | None = None  # an Excel sheet's merged cells (the rows are read as they make them)


def preview(
    path: Path | str,
    *,
    encoding: str | None = None,
    sheet: str | None = None,
    max_rows: int = 20,
    delimiter: str | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> Preview:
    """The header and the first max_rows non-blank data rows of a file."""
    with open_table(path, encoding=encoding, sheet=sheet, delimiter=delimiter, limits=limits) as reader:
        it = reader.rows()
        try:
            rows = list(islice(it, max(max_rows, 0)))
        finally:
            close = getattr(it, "close", None)  # stop a generator now, not at garbage collection
            if close is not None:
                close()
        return Preview(reader.format, reader.encoding, reader.header, rows, getattr(reader, "dialect", None),
                       getattr(reader, "merges", None))  # fmt: skip
