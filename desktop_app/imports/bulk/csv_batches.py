"""A CSV file as Arrow batches of text cells, each row numbered as Excel shows it.

pyarrow's streaming reader, single-threaded (so it knows each record's number: the header is row 1,
a blank line takes its number, a quoted line break does not) and with small blocks (memory stays
flat). Records whose number of fields differs from the header's (a comma too many, a line of only
spaces) come out on their own with their number and text, for the row validator to judge as the
row-at-a-time reader would.

Where pyarrow and the row reader (readers/csv_reader.py) could part ways, this reader stops with
BulkReadError before the batch concerned is handed out, and the import goes on with the row reader
from its last committed row, which then says what it always says:
- a header that does not read the same (a BOM before a quote, ...);
- a record long enough that its line could reach the row reader's line limit;
- a quote left open at the end of the file (pyarrow takes it as a field running to the end; the row
  reader refuses the file): told by a sentinel record read after the file's own bytes, which only
  appears when the file ended outside a quoted field.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from desktop_app.imports.readers.cells import Cell
from desktop_app.imports.readers.limits import DEFAULT_LIMITS

BLOCK = 1 << 17
"""Bytes per block: a record longer than this (a cell of ~40,000 Chinese characters) sends the file back
to the row reader. Reading a million rows alone, measured: +13 MB resident at 128 KB, +20 MB at 256 KB,
+54 MB at 1 MB, for 0.1 s more CPU than 256 KB; the import's peak memory is a goal, its speed no worse."""
SENTINEL_CELL = "\x00batchdesk-end\x00"
"""Read as one quoted field after the file: a record of only this cell means the file's last record
ended cleanly. Inside a quote left open, its opening quote closes that field instead, and the record
seen last is the file's own (ending with this text and a stray quote), never this one."""
_SENTINEL = f'"{SENTINEL_CELL}"'.encode("ascii")


class BulkReadError(Exception):
    """The bulk reader cannot vouch for what comes next: the import goes on with the row-at-a-time
    reader from its last committed row."""


@dataclass(frozen=True)
class OddRecord:
    """A record whose number of fields differs from the header's: its row number and its cells (an Excel
    row's typed cells where the bulk path does not take one as text: xlsx_batches.py)."""

    row_number: int
    cells: tuple[Cell, ...]


@dataclass
class CsvBatch:
    """Rows of a file: text columns (as in the file, quotes removed), their row numbers, odd records."""

    columns: list[pa.Array]
    row_numbers: pa.Array  # int64, one per row of `columns`
    odd: list[OddRecord] = field(default_factory=list)

    @property
    def num_rows(self) -> int:
        return len(self.row_numbers)

    @property
    def records(self) -> int:
        return self.num_rows + len(self.odd)

    def split(self, count: int) -> tuple[CsvBatch, CsvBatch]:
        """The first `count` records (in file order) and the rest."""
        numbers = sorted([*self.row_numbers.to_pylist(), *(r.row_number for r in self.odd)])
        cut = numbers[count - 1]
        keep = pc.less_equal(self.row_numbers, cut)
        rest = pc.invert(keep)
        head = CsvBatch([pc.filter(c, keep) for c in self.columns], pc.filter(self.row_numbers, keep),
                        [r for r in self.odd if r.row_number <= cut])  # fmt: skip
        tail = CsvBatch([pc.filter(c, rest) for c in self.columns], pc.filter(self.row_numbers, rest),
                        [r for r in self.odd if r.row_number > cut])  # fmt: skip
        return head, tail

    @property
    def last_row(self) -> int:
        last = self.row_numbers[-1].as_py() if self.num_rows else 0
        return max([last, *(r.row_number for r in self.odd)])


def bulk_encoding(encoding: str | None) -> str | None:
    """The encoding pyarrow is given for a file in this codec, or None when the file stays on the row
    reader (UTF-16 and the like, where a byte is not a character)."""
    if not encoding:
        return None
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return None
    if name in ("utf-8", "utf-8-sig"):
        return "utf8"
    if name in ("gb18030", "gbk", "gb2312", "big5", "big5hkscs", "shift_jis", "cp932", "euc_jp", "euc_kr",
                "cp1252", "latin-1", "iso8859-1", "iso8859-15", "cp1250", "cp1251", "cp936", "ascii"):  # fmt: skip
        return name  # ASCII-compatible (a line break, a quote and a comma are those bytes): pyarrow
        # transcodes with Python's codec
    return None


class _ThenSentinel(io.RawIOBase):
    """The file's bytes, then (after a line break if the file lacks a last one) the sentinel record.

    No read ends with a CR while more follows: pyarrow (26) drops the LF of a CR LF inside a quoted
    field when a block ends between the two (a test holds this), and each read here is one block."""

    def __init__(self, path: Path) -> None:
        self._file = path.open("rb")
        # the file's bytes as read (each once, in order: held-back bytes are hashed as they are read):
        # the import's end checks them against the queued file's hash, no second pass over the file
        self.digest = hashlib.sha256()
        self.complete = False  # every byte of the file read
        self._carry = b""  # bytes held back from the end of the last read (a CR and the byte after it)
        self._tail: bytes | None = None  # the sentinel still to hand out, once the file is read
        self._last = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self._tail is None:
            count = len(self._carry)
            view[:count] = self._carry
            self._carry = b""
            read = self._file.readinto(view[count:]) or 0
            self.digest.update(view[count : count + read])
            count += read
            # a read that ends with a CR takes the bytes after it while it has room, else leaves the CR
            # for the next read: no block then ends between a CR and its LF
            while count and view[count - 1] == 0x0D:
                more = self._file.read(1)
                self.digest.update(more)
                if not more:
                    break
                if count < len(view):
                    view[count] = more[0]
                    count += 1
                else:
                    self._carry = b"\r" + more
                    count -= 1
                    break
            if count:
                self._last = bytes(view[count - 1 : count])
                return count
            self.complete = True
            self._tail = (b"" if self._last in (b"\n", b"\r", b"") else b"\n") + _SENTINEL
        count = min(len(view), len(self._tail))
        view[:count] = self._tail[:count]
        self._tail = self._tail[count:]
        return count

    def close(self) -> None:
        self._file.close()
        super().close()


class CsvBatches:
    """Iterates a CSV's data records (the header skipped) in batches."""

    def __init__(self, path: Path, header: tuple[str, ...], encoding: str, *, delimiter: str = ",",
                 line_limit: int = DEFAULT_LIMITS.max_cell_chars) -> None:  # fmt: skip
        self.path = path
        self.delimiter = delimiter
        self.header = header
        self.width = len(header)
        self.encoding = encoding
        self.line_limit = line_limit
        self.read_sha256: str | None = None  # the file's SHA-256 once a pass has read all of it

    def batches(self, skip_through: int = 1) -> Iterator[CsvBatch]:
        """Batches of the records numbered after `skip_through` (a resume's last committed row).

        Each batch is handed out only once the next one (or the sentinel) has been read: a quote left
        open at the end is known before the batch holding that record is written."""
        held: CsvBatch | None = None
        for batch in self._read():
            if held is not None:
                yield from _after(held, skip_through)
            held = batch
        if held is not None:
            yield from _after(held, skip_through)

    def _read(self) -> Iterator[CsvBatch]:
        names = [f"c{i}" for i in range(self.width)]
        pending: list[OddRecord] = []

        def odd(row: Any) -> str:
            if row.number is None:  # never with one thread; a guard all the same
                raise BulkReadError("a record without its number")
            pending.append(OddRecord(int(row.number), _cells(row.text, self.delimiter)))
            return "skip"

        read = pcsv.ReadOptions(use_threads=False, block_size=BLOCK, column_names=names, encoding=self.encoding)
        parse = pcsv.ParseOptions(delimiter=self.delimiter, newlines_in_values=True, ignore_empty_lines=False,
                                  invalid_row_handler=odd)  # fmt: skip
        convert = pcsv.ConvertOptions(column_types=dict.fromkeys(names, pa.string()), strings_can_be_null=False,
                                      quoted_strings_can_be_null=False)  # fmt: skip
        stream = _ThenSentinel(self.path)
        try:
            reader = pcsv.open_csv(stream, read_options=read, parse_options=parse, convert_options=convert)
        except (pa.ArrowInvalid, OSError) as exc:
            stream.close()
            raise BulkReadError(str(exc)) from exc
        cursor = 1  # the next record's number: the header is record 1, read as data (a line break in it counts)
        ended = False
        header_seen = False
        empty = [pa.array([], pa.string()) for _ in names]
        with reader, stream:
            while True:
                try:
                    batch = reader.read_next_batch()
                    columns = list(batch.columns)
                except StopIteration:
                    if not pending:
                        break
                    columns = empty  # odd records after the last regular row
                    cursor = max([cursor, *(r.row_number + 1 for r in pending)])
                except (pa.ArrowInvalid, OSError, UnicodeDecodeError) as exc:
                    raise BulkReadError(str(exc)) from exc
                # pyarrow may have parsed ahead: every odd record up to this batch's last row is known,
                # later ones may be too, and stay pending for their own batch
                numbers, cursor = _row_numbers(cursor, len(columns[0]), [r.row_number for r in pending])
                odd_records = [r for r in pending if r.row_number < cursor]
                pending[:] = [r for r in pending if r.row_number >= cursor]
                if not header_seen and (len(numbers) or pending):
                    columns, numbers = self._without_header(columns, numbers)
                    header_seen = True
                out = CsvBatch(columns, numbers, odd_records)
                if out.num_rows or out.odd:  # pyarrow may end with a batch of no rows
                    ended = _drop_sentinel(out)
                self._check_lengths(out)
                yield out
        if not ended:
            raise BulkReadError("the file ends inside a quoted field")
        if stream.complete:
            self.read_sha256 = stream.digest.hexdigest()

    def _without_header(self, columns: list[pa.Array], numbers: pa.Array) -> tuple[list[pa.Array], pa.Array]:
        if not len(numbers) or numbers[0].as_py() != 1:
            raise BulkReadError("the header is not one record of its own width")
        first = tuple(c[0].as_py() for c in columns)
        if first[:1] and first[0].startswith("\ufeff"):
            first = (first[0][1:], *first[1:])
        if first != self.header:
            raise BulkReadError("the header reads differently")
        return [c.slice(1) for c in columns], numbers.slice(1)

    def _check_lengths(self, batch: CsvBatch) -> None:
        """A record whose text could make a line of line_limit characters (each character a doubled
        quote, each field quoted): the row reader's limits decide."""
        if not batch.num_rows or 2 * BLOCK + 3 * self.width + 2 < self.line_limit:
            return  # none can: pyarrow refuses a record longer than a block, and a character is a byte or more
        total = pc.utf8_length(batch.columns[0])
        for col in batch.columns[1:]:
            total = pc.add(total, pc.utf8_length(col))
        longest = pc.max(total).as_py() or 0
        if 2 * longest + 3 * self.width + 2 >= self.line_limit:
            raise BulkReadError("a record near the line limit")
        texts = [cast(tuple[str, ...], r.cells) for r in batch.odd]  # a CSV's odd records hold text
        if any(2 * sum(map(len, cells)) + 3 * len(cells) + 2 >= self.line_limit for cells in texts):
            raise BulkReadError("a record near the line limit")


def _drop_sentinel(batch: CsvBatch) -> bool:
    """Remove the sentinel record if it is the batch's last; True when it was there."""
    if batch.odd and batch.odd[-1].cells == (SENTINEL_CELL,) and batch.odd[-1].row_number == batch.last_row:
        batch.odd.pop()
        return True
    last_regular = batch.num_rows and (not batch.odd or batch.odd[-1].row_number < batch.row_numbers[-1].as_py())
    if last_regular and len(batch.columns) == 1 and batch.columns[0][-1].as_py() == SENTINEL_CELL:
        batch.columns[0] = batch.columns[0].slice(0, batch.num_rows - 1)
        batch.row_numbers = batch.row_numbers.slice(0, batch.num_rows - 1)
        return True
    return False


def _cells(text: str, delimiter: str) -> tuple[str, ...]:
    """An odd record's text as the csv module reads it (the row reader's cells)."""
    return tuple(next(csv.reader([text], delimiter=delimiter), []))


def _row_numbers(first: int, count: int, odd: list[int]) -> tuple[pa.Array, int]:
    """The numbers of `count` regular rows from record `first` on, skipping the odd records' numbers;
    and the number of the record after them."""
    parts: list[tuple[int, int]] = []  # (start, length)
    position, remaining = first, count
    for number in sorted(n for n in odd if n >= first):
        gap = number - position
        if gap >= remaining:
            break
        if gap:
            parts.append((position, gap))
        remaining -= gap
        position = number + 1
    parts.append((position, remaining))
    arrays = [_counting(start, length) for start, length in parts]
    numbers = arrays[0] if len(arrays) == 1 else pa.concat_arrays(arrays)
    return numbers, position + remaining


def _counting(start: int, length: int) -> pa.Array:
    """start, start + 1, ... (length numbers), made in C++ (a Python range costs 0.2 s a million)."""
    if length <= 0:
        return pa.array([], pa.int64())
    return pc.cumulative_sum(pa.repeat(pa.scalar(1, pa.int64()), length), start=start - 1)


def _after(batch: CsvBatch, skip_through: int) -> Iterator[CsvBatch]:
    """The batch without the rows a resume has already committed."""
    if batch.num_rows == 0 and not batch.odd:
        return
    numbers = batch.row_numbers
    if (not batch.num_rows or numbers[0].as_py() > skip_through) and all(
        r.row_number > skip_through for r in batch.odd
    ):
        yield batch
        return
    keep = pc.greater(numbers, skip_through)
    columns = [pc.filter(col, keep) for col in batch.columns]
    kept = CsvBatch(columns, pc.filter(numbers, keep), [r for r in batch.odd if r.row_number > skip_through])
    if kept.num_rows or kept.odd:
        yield kept
