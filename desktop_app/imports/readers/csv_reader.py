"""Streaming a CSV file's records, decoded incrementally, numbered as Excel shows rows."""

from __future__ import annotations

import csv
import io
from collections import deque
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

from desktop_app.domain.errors import ErrorCode, PermanentError

from .cells import ROW_BUILDERS, SourceRow
from .csv_lines import CsvLines
from .csv_sniff import CsvDialect, read_dialect
from .encoding import decode_sample_encoding, normalize_encoding
from .files import ReaderBase, file_error, file_size, open_binary
from .limits import DEFAULT_LIMITS, ReaderWarning, ReadLimits

FIELD_LIMIT = DEFAULT_LIMITS.max_cell_chars
"""The longest field, in characters, a CSV may hold; longer means a stray quote ate the file, or the
file is no CSV. A line is bounded by the reader's own limit; this bounds a field across lines."""

# csv's limit is process-wide; only ever raise it (the default is 128 K characters).
if csv.field_size_limit() < FIELD_LIMIT:
    csv.field_size_limit(FIELD_LIMIT)

_BOM = "\ufeff"
_strip = str.strip


def _strip_bom(record: list[str]) -> list[str]:
    if record and record[0].startswith(_BOM):
        record[0] = record[0][1:]
    return record


class CsvReader(ReaderBase):
    """A CSV file read with the csv module's default dialect (RFC 4180) and the file's delimiter.

    The delimiter is the clerk's (``delimiter``), else the one a leading ``sep=;`` line names (that line
    is then skipped: Excel shows the next line as row 1, and so are rows numbered here), else sniffed on
    the first 64 K characters (csv_sniff).

    Each rows() or count_rows() call opens the file again and decodes it incrementally; a
    character split across read chunks is never corrupted, and bytes the encoding cannot
    decode raise ENCODING_UNDETECTABLE rather than being replaced. Fields are not trimmed.
    A line of limits.max_cell_chars characters or more raises CSV_FIELD_TOO_LONG, a run of NUL
    bytes CSV_NUL_BYTES, a quote left open to the end CORRUPT_FILE (reason csv_unclosed_quote).
    """

    format: str = "csv"
    encoding: str | None
    header: tuple[str, ...]
    warnings: tuple[ReaderWarning, ...] = ()
    dialect: CsvDialect

    def __init__(
        self,
        path: Path,
        *,
        encoding: str | None = None,
        delimiter: str | None = None,
        limits: ReadLimits = DEFAULT_LIMITS,
    ) -> None:
        self.path = path
        self._line_limit = limits.max_cell_chars
        self._codec = normalize_encoding(encoding) if encoding else decode_sample_encoding(path)
        self.encoding = self._codec
        try:
            self.dialect = read_dialect(path, self._codec, delimiter)
        except OSError as exc:
            raise file_error(path, exc) from exc
        self.delimiter = self.dialect.delimiter
        self._raw: io.FileIO | None = None  # the file under the current rows() iteration
        self._size = 0
        self._finished = False
        self.header = self._read_header()

    def _open(self) -> tuple[io.FileIO, io.TextIOWrapper]:
        raw = open_binary(self.path)
        try:
            text = io.TextIOWrapper(raw, encoding=self._codec, errors="strict", newline="")
        except BaseException:
            raw.close()
            raise
        if self.dialect.sep_line:
            text.readline()  # Excel's "sep=;": not a row (read_dialect decoded it already)
        return raw, text

    def _decode_error(self, exc: UnicodeDecodeError, **where: object) -> PermanentError:
        return PermanentError(ErrorCode.ENCODING_UNDETECTABLE, encoding=self._codec, detail=str(exc), **where)

    def _lines(self, text: io.TextIOWrapper) -> CsvLines:
        return CsvLines(text, self._line_limit)

    @staticmethod
    def _csv_error(lines: CsvLines, exc: Exception, row: int) -> BaseException:
        return lines.error(exc, row) or exc

    def _read_header(self) -> tuple[str, ...]:
        _, text = self._open()
        with text:
            lines = self._lines(text)
            try:
                first = next(csv.reader(lines, delimiter=self.delimiter), None)
            except UnicodeDecodeError as exc:
                raise self._decode_error(exc, after_row=0) from exc
            except CsvLines.REFUSED as exc:
                raise self._csv_error(lines, exc, 1) from exc
            except OSError as exc:
                raise file_error(self.path, exc) from exc
        return tuple(_strip_bom(first)) if first else ()

    def rows(self, skip_through: int = 1) -> Iterator[SourceRow]:
        """The non-blank records with row_number > skip_through, from the start of the file."""
        self._check_open()
        self._finished = False  # progress restarts with this iteration
        return self._rows(max(skip_through, 0))

    def _rows(self, skip: int) -> Iterator[SourceRow]:
        raw, text = self._open()
        self._raw, self._finished = raw, False
        num = skip
        lines = self._lines(text)
        try:
            with text:
                self._size = file_size(raw, self.path)
                reader = csv.reader(lines, delimiter=self.delimiter)
                if skip == 0:
                    first = next(reader, None)
                    if first is None:
                        self._finished = True
                        return
                    num = 1
                    if first and any(map(_strip, _strip_bom(first))):
                        yield SourceRow(1, tuple(first))
                else:
                    deque(islice(reader, skip), maxlen=0)
                # The hot loop: one test per record in the common case (first field has text)
                # and no call beyond csv itself and building the row.
                new, set_number, set_cells, tup, start = (*ROW_BUILDERS, tuple, num + 1)
                for num, record in enumerate(reader, start):
                    if record and (record[0].strip() or any(map(_strip, record))):
                        row = new(SourceRow)
                        set_number(row, num)
                        set_cells(row, tup(record))
                        yield row
                self._finished = True
        except UnicodeDecodeError as exc:
            raise self._decode_error(exc, after_row=num) from exc
        except CsvLines.REFUSED as exc:
            raise self._csv_error(lines, exc, num + 1) from exc
        except OSError as exc:
            raise file_error(self.path, exc) from exc
        finally:
            if self._raw is raw:
                self._raw = None

    def count_rows(self, limit: int | None = None) -> int:
        """Non-blank data records; stops at limit + 1 once the count exceeds limit."""
        self._check_open()
        _, text = self._open()
        count = num = 0
        lines = self._lines(text)
        try:
            with text:
                reader = csv.reader(lines, delimiter=self.delimiter)
                next(reader, None)  # the header
                num = 1
                for num, record in enumerate(reader, 2):  # noqa: B007 (num names the row of an error)
                    if record and (record[0].strip() or any(map(_strip, record))):  # blank lines come as []
                        count += 1
                        if limit is not None and count > limit:
                            break
        except UnicodeDecodeError as exc:
            raise self._decode_error(exc, rows_counted=count) from exc
        except CsvLines.REFUSED as exc:
            raise self._csv_error(lines, exc, num + 1) from exc
        except OSError as exc:
            raise file_error(self.path, exc) from exc
        return count

    def fraction_done(self) -> float:
        """Bytes consumed / file size for the current rows() iteration (read-ahead makes it approximate)."""
        if self._finished:
            return 1.0
        raw = self._raw
        if raw is None or self._size <= 0:
            return 0.0
        try:
            pos = raw.tell()
        except (OSError, ValueError):  # closed under us by the iterating thread
            return 1.0 if self._finished else 0.0
        return min(pos / self._size, 1.0)

    def close(self) -> None:
        raw = self._raw
        self._raw = None
        if raw is not None:
            raw.close()
        super().close()
