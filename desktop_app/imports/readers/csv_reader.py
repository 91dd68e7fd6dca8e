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
from .encoding import decode_sample_encoding, normalize_encoding
from .files import ReaderBase, file_error, file_size, open_binary

FIELD_LIMIT = 10 * 1024 * 1024
"""The longest field, in characters, a CSV may hold; longer means a stray quote ate the file."""

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
    """A CSV file read with the csv module's default dialect (RFC 4180).

    Each rows() or count_rows() call opens the file again and decodes it incrementally; a
    character split across read chunks is never corrupted, and bytes the encoding cannot
    decode raise ENCODING_UNDETECTABLE rather than being replaced. Fields are not trimmed.
    """

    format: str = "csv"
    encoding: str | None
    header: tuple[str, ...]

    def __init__(self, path: Path, *, encoding: str | None = None) -> None:
        self.path = path
        self._codec = normalize_encoding(encoding) if encoding else decode_sample_encoding(path)
        self.encoding = self._codec
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
        return raw, text

    def _decode_error(self, exc: UnicodeDecodeError, **where: object) -> PermanentError:
        return PermanentError(ErrorCode.ENCODING_UNDETECTABLE, encoding=self._codec, detail=str(exc), **where)

    def _csv_error(self, exc: csv.Error, **where: object) -> PermanentError:
        # A field over FIELD_LIMIT: almost always an unbalanced quote that swallowed the rest.
        return PermanentError(ErrorCode.CORRUPT_FILE, detail=f"CSV: {exc}", **where)

    def _read_header(self) -> tuple[str, ...]:
        _, text = self._open()
        with text:
            try:
                first = next(csv.reader(text), None)
            except UnicodeDecodeError as exc:
                raise self._decode_error(exc, after_row=0) from exc
            except csv.Error as exc:
                raise self._csv_error(exc, after_row=0) from exc
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
        try:
            with text:
                self._size = file_size(raw, self.path)
                reader = csv.reader(text)
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
        except csv.Error as exc:
            raise self._csv_error(exc, after_row=num) from exc
        except OSError as exc:
            raise file_error(self.path, exc) from exc
        finally:
            if self._raw is raw:
                self._raw = None

    def count_rows(self, limit: int | None = None) -> int:
        """Non-blank data records; stops at limit + 1 once the count exceeds limit."""
        self._check_open()
        _, text = self._open()
        count = 0
        try:
            with text:
                reader = csv.reader(text)
                next(reader, None)  # the header
                for record in filter(None, reader):  # blank lines come as []
                    if record[0].strip() or any(map(_strip, record)):
                        count += 1
                        if limit is not None and count > limit:
                            break
        except UnicodeDecodeError as exc:
            raise self._decode_error(exc, rows_counted=count) from exc
        except csv.Error as exc:
            raise self._csv_error(exc, rows_counted=count) from exc
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
