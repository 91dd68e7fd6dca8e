"""An .xlsx sheet as the bulk path's batches: calamine's slices (or the streaming parser's rows) as text columns.

Each block of rows the reader gives (readers/xlsx_reader.py XlsxReader.row_blocks: a calamine slice, or a
run of the streaming parser's rows once the sheet is not plain) becomes one CsvBatch: the header's columns
as the text the row path reads of each cell (excel_text.py), the rows numbered as Excel shows them. A row
with a cell the bulk path does not take as text, or with content beyond the header's width, is an odd
record holding the typed cells the row reader gives (excel_reader.shape_row), for the row validator.
Blank rows are the splitter's to drop (batching.py), as a CSV's blank lines; blank odd rows are dropped here.

Anything the reader raises stops the bulk path with BulkReadError: the row reader goes on from the last
committed row and raises what it raises there. So does, before the first batch, a sheet whose rows the
count did not see numbered in increasing order (rows are committed and resumed by number).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pyarrow as pa

from desktop_app.imports.bulk.csv_batches import BulkReadError, CsvBatch, OddRecord
from desktop_app.imports.bulk.excel_text import Takes, column_texts, takes
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.readers.excel_reader import shape_row
from desktop_app.imports.readers.xlsx_reader import RowBlock, XlsxReader


class XlsxBatches:
    """Iterates an .xlsx sheet's data rows (the header skipped) in batches, as CsvBatches does a CSV's."""

    read_sha256: str | None = None  # a sheet is read from the unzipped parts, not the file's bytes

    def __init__(self, reader: XlsxReader, itype: ImportType, index_by_key: Mapping[str, int]) -> None:
        self.reader = reader
        self.header = reader.header
        self.width = len(reader.header)
        specs = {index_by_key[c.key]: c for c in itype.columns if c.key in index_by_key}
        self._takes: list[Takes] = [takes(specs.get(j)) for j in range(self.width)]

    def batches(self, skip_through: int = 1) -> Iterator[CsvBatch]:
        """Batches of the rows numbered after `skip_through` (a resume's last committed row)."""
        if skip_through <= 1:
            # from the top: a row numbered at or below one before it anywhere in the sheet sends the whole
            # import to the row reader before anything is committed (the count has seen the numbers)
            if self.reader.rows_in_order is None:
                self.reader.row_bound()
            if not self.reader.rows_in_order:
                raise BulkReadError("the sheet's rows are not seen to be numbered in increasing order")
        blocks = self.reader.row_blocks(max(skip_through, 1) + 1)
        last = skip_through
        while True:
            try:
                block = next(blocks)
            except StopIteration:
                return
            except Exception as exc:  # a damaged file: the row reader says what it always says
                raise BulkReadError(f"{type(exc).__name__}: {exc}") from exc
            numbers = block.numbers()
            if numbers and not _increasing(numbers, last):
                # a resumed import of a sheet with a row numbered at or below one before it (no writer but a
                # hand or a fault makes one): rows are committed by number, the row reader takes over and
                # skips what a resume of its own skips
                raise BulkReadError("a row number that does not increase")
            if numbers:
                last = numbers[-1]
            batch = self.batch(block)
            if batch.records:
                yield batch

    def batch(self, block: RowBlock) -> CsvBatch:
        """One block of rows as text columns of the header's width, and its odd records."""
        rows, numbers, pad = block.rows, block.numbers(), block.pad
        width = self.width
        if not rows:
            return CsvBatch([pa.array([], pa.string()) for _ in range(width)], pa.array([], pa.int64()))
        lengths = set(map(len, rows))
        if len(lengths) > 1:  # the streaming parser's rows: each as wide as its last cell
            longest = max(lengths)
            rows = [r + [None] * (longest - len(r)) if len(r) < longest else r for r in rows]
        area = list(zip(*rows, strict=True))  # the columns from `pad` on
        refused: set[int] = set()
        for column in area[max(width - pad, 0) :]:  # beyond the header: a row with content there is odd
            refused.update(k for k, v in enumerate(column) if v is not None and v != "")
        blank = ("",) * len(rows)
        columns: list[pa.Array] = []
        for j in range(width):
            k = j - pad
            values: Sequence[Any] = area[k] if 0 <= k < len(area) else blank
            texts, odd = column_texts(values, self._takes[j])
            columns.append(texts)
            refused.update(odd)
        row_numbers = pa.array(numbers, pa.int64())
        if not refused:
            return CsvBatch(columns, row_numbers)
        records = []
        for k in sorted(refused):
            cells = shape_row(block.values(block.rows[k]), width)
            if cells is not None:  # blank to the row reader (spaces beyond the header, say)
                records.append(OddRecord(numbers[k], cells))
        keep = pa.array([k not in refused for k in range(len(rows))])
        return CsvBatch([c.filter(keep) for c in columns], row_numbers.filter(keep), records)


def _increasing(numbers: Sequence[int], last: int) -> bool:
    if isinstance(numbers, range):
        return numbers.step > 0 and numbers[0] > last
    return numbers[0] > last and all(a < b for a, b in itertools.pairwise(numbers))
