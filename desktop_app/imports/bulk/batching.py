"""A file's batches (a CSV's, an .xlsx sheet's) split for the bulk path: rows loaded in bulk, the rest by row.

Per batch (settings.bulk_batch_rows): blank records dropped, every column checked (checks.py); the
rows every check is sure of become the loader's table (the type's columns as stored text, each
reference's id, the row number, the signature); the others, and records of the wrong width, go
through the row validator as the row path takes them. A key that comes twice among the bulk rows is
not looked for here: the table's unique key refuses the load, and the batch goes to the row writer
whole (bulk/insert.py), which then says which row came first, as the row path would.
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Protocol, TypeVar

import pyarrow as pa
import pyarrow.compute as pc
import xxhash

from desktop_app.domain.values import NULL_TEXT, SEPARATOR
from desktop_app.imports.bulk.checks import Checked, ColumnCheck, blank_rows, type_checks
from desktop_app.imports.bulk.csv_batches import CsvBatch, OddRecord
from desktop_app.imports.error_csv import restore
from desktop_app.imports.fills import ValueMap
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.readers import SourceRow
from desktop_app.imports.readers.cells import Cell, is_blank
from desktop_app.imports.references import ReferenceResolver
from desktop_app.imports.row_plans import Candidate, FailedRow
from desktop_app.imports.validator import RowValidator
from desktop_app.store.business_rows import BusinessTable

_NEUTRALISED = r"\A'([=+\-@\t\r])"
# A batch the row writer takes (refused by the database) goes this many rows at a time, in its transaction:
# each slice sees the rows the ones before it wrote, as a batch sees the batches before it.
SLICE_ROWS = 2_000
_T = TypeVar("_T")


class BatchSource(Protocol):
    """A file's rows as CsvBatches: a CSV's (csv_batches.py) or an .xlsx sheet's (xlsx_batches.py)."""

    read_sha256: str | None  # the file's SHA-256 once its batches have read every byte of it (a CSV's)

    def batches(self, skip_through: int = 1) -> Iterator[CsvBatch]: ...


@dataclass
class BulkBatch:
    """One batch, split: the rows loaded in bulk (a table ready for the loader) and the rest."""

    rows: pa.Table | None  # the bulk rows, columns as the loader takes them
    candidates: list[Candidate]  # the rows for the row writer, in file order
    last_row: int
    size: int  # data rows in the batch (blank rows excluded)
    pending: int  # bulk rows with a reference name not found
    bulk_sources: Callable[[], Iterator[SourceRow]] | None = None  # the bulk rows as read, should the load be refused
    keys: pa.Array | None = None  # every key the batch may write, as the table compares them (None: none)

    def shares_keys(self, other: BulkBatch) -> bool:
        """Whether the two batches may write a row of the same key."""
        if self.keys is None or other.keys is None or not len(self.keys) or not len(other.keys):
            return False
        mine, theirs = self.key_range, other.key_range
        if mine is not None and theirs is not None and (mine[1] < theirs[0] or theirs[1] < mine[0]):
            # Apart, as most files' batches are (keys in the file's order): no set of keys to build
            # for each pair (measured: 75 pairs of 13,333 keys, 0.062 -> 0.021 s of the writing thread).
            return False
        return bool(pc.any(pc.is_in(other.keys, value_set=self.keys)).as_py())

    def forget_rows(self) -> None:
        """Let go of the rows' values once the database holds them (loaded ahead, in the batch's open
        transaction): the table keeps its row count, no column; the cells as read go too (only a refused
        load reads them again). Its keys stay: a later batch is held to them."""
        if self.rows is not None:
            self.rows = self.rows.select([])
        self.bulk_sources = None

    @functools.cached_property
    def key_range(self) -> tuple[str, str] | None:
        """The lowest and the highest key, as Arrow orders strings (by their UTF-8 bytes, which is the order
        of their code points, as Python's); None for no key."""
        if self.keys is None:
            return None
        bounds = pc.min_max(self.keys)
        low, high = bounds["min"], bounds["max"]
        if not low.is_valid or not high.is_valid:
            return None
        return low.as_py(), high.as_py()


class BatchSplitter:
    """Turns a file's CSV batches into BulkBatches."""

    def __init__(
        self,
        itype: ImportType,
        validator: RowValidator,
        table: BusinessTable,
        references: ReferenceResolver,
        source: BatchSource,
        *,
        restore_neutralised: bool,
        batch_rows: int,
    ) -> None:
        self.source = source
        self.batch_rows = batch_rows
        self.itype = itype
        self.validator = validator
        self.table = table
        self.references = references
        self.restore = restore_neutralised
        self.checks: list[ColumnCheck] = type_checks(itype)
        self.index = [validator.mapping.index_by_key.get(c.key) for c in itype.columns]
        # a mapping profile's, as the row validator applies them: its constants' values, its value mappings
        self.constants = validator.constants
        self.value_maps = validator.value_maps
        self.key_positions = [itype.keys.index(k) for k in itype.unique_keys]
        self._ref_arrays: dict[str, tuple[pa.Array, pa.Array]] | None = None
        # each batch's keys kept (BulkBatch.keys), for a loader that loads the next batch while one commits
        self.with_keys = False

    def batches(self, skip_through: int) -> Iterator[BulkBatch]:
        """The file's batches of about batch_rows rows after `skip_through`, split for writing."""
        waiting: list[CsvBatch] = []
        count = 0
        for batch in self.source.batches(skip_through):
            while count + batch.records >= self.batch_rows:
                head, batch = batch.split(self.batch_rows - count)
                yield self.split([*waiting, head])
                waiting, count = [], 0
            if batch.records:
                waiting.append(batch)
                count += batch.records
        if waiting:
            yield self.split(waiting)

    def split(self, parts: list[CsvBatch]) -> BulkBatch:
        width = len(parts[0].columns)
        cells = [pa.chunked_array([p.columns[i] for p in parts], pa.string()).combine_chunks() for i in range(width)]
        numbers = pa.chunked_array([p.row_numbers for p in parts], pa.int64()).combine_chunks()
        last = max(p.last_row for p in parts)
        # blank as read (the row reader skips a blank record before it restores neutralised cells)
        odd = [r for p in parts for r in p.odd if not is_blank(r.cells)]
        keep = pc.invert(blank_rows(cells)) if width else pa.repeat(pa.scalar(False), len(numbers))
        if not pc.all(keep).as_py():
            cells = [pc.filter(c, keep) for c in cells]
            numbers = pc.filter(numbers, keep)
        if self.restore:
            cells = [pc.replace_substring_regex(c, _NEUTRALISED, r"\1") for c in cells]
            odd = [OddRecord(r.row_number, tuple(map(_restored, r.cells))) for r in odd]
        checked = [self._check(chk, cells, i, len(numbers)) for chk, i in zip(self.checks, self.index, strict=True)]
        ok = checked[0].ok
        for c in checked[1:]:
            ok = pc.and_(ok, c.ok)
        texts = [c.text for c in checked]
        slow = [SourceRow(r.row_number, r.cells) for r in odd]
        bad = pc.invert(ok)
        if pc.any(bad).as_py():
            slow += _sources(pc.filter(numbers, bad), [pc.filter(c, bad) for c in cells])
            cells = [pc.filter(c, ok) for c in cells]
            texts = [pc.filter(t, ok) for t in texts]
            numbers = pc.filter(numbers, ok)
        slow.sort(key=_number)
        candidates = [self._candidate(source) for source in slow]
        size = len(numbers) + len(candidates)
        bulk_cells, bulk_numbers = cells, numbers

        def bulk_sources() -> Iterator[SourceRow]:
            for start in range(0, len(bulk_numbers), SLICE_ROWS):
                yield from _sources(
                    bulk_numbers.slice(start, SLICE_ROWS), [c.slice(start, SLICE_ROWS) for c in bulk_cells]
                )

        others = pa.array(self._written_keys(candidates), pa.string())
        if not len(numbers):
            return BulkBatch(None, candidates, last, size, 0, keys=others if self.with_keys else None)
        bulk_keys = self._bulk_keys(texts) if len(others) or self.with_keys else None
        keys = None if bulk_keys is None else pa.concat_arrays([bulk_keys, others]) if len(others) else bulk_keys
        if bulk_keys is not None and len(others) and pc.any(pc.is_in(bulk_keys, value_set=others)).as_py():
            # A bulk row's key is also a row writer's row: the load would take the bulk row first wherever
            # it is in the file, so the row writer takes the batch whole and names the duplicates in file order.
            every = sorted([*bulk_sources(), *slow], key=_number)
            return BulkBatch(None, [self._candidate(source) for source in every], last, size, 0,
                             keys=keys if self.with_keys else None)  # fmt: skip
        rows, pending = self._loadable(texts, numbers)
        return BulkBatch(rows, candidates, last, size, pending, bulk_sources, keys if self.with_keys else None)

    def _check(self, chk: ColumnCheck, cells: list[pa.Array], index: int | None, length: int) -> Checked:
        """One column's check: of its cells (a value mapping's replacements where it has one), else its
        constant or its default. The rows not sure go to the row validator with their own cells, which it
        maps the same way."""
        key = chk.spec.key
        if index is None:
            return chk.constant(self.constants[key], length) if key in self.constants else chk.absent(length)
        value_map = self.value_maps.get(key)
        return chk.check(cells[index] if value_map is None else mapped(cells[index], value_map))

    def _written_keys(self, candidates: list[Candidate]) -> list[str]:
        """The keys of the row writer's rows that may be written (the failed ones never are), as the
        table compares keys (case-folded on a case-insensitive MySQL table: BusinessTable.key_text)."""
        return [self.table.key_text(tuple(values[p] for p in self.key_positions))
                for c in candidates if not isinstance(c, FailedRow) for values in (c[1],)]  # fmt: skip

    def _bulk_keys(self, texts: list[pa.Array]) -> pa.Array:
        """The bulk rows' keys, as _written_keys gives the row writer's."""
        keys = [texts[p] for p in self.key_positions]
        joined = keys[0] if len(keys) == 1 else pc.binary_join_element_wise(*keys, SEPARATOR)
        if self.table.folds_case:
            joined = pa.array([k.casefold() for k in joined.to_pylist()], pa.string())
        return joined

    # --- what the loader takes -----------------------------------------------------------------

    def _loadable(self, texts: list[pa.Array], numbers: pa.Array) -> tuple[pa.Table, int]:
        """The type's columns, each reference's id, the row number and the signature of each row."""
        arrays = list(texts)
        names = list(self.itype.keys)
        pending = 0
        for ref in self.references.references:
            names_arr, ids_arr = self._reference_arrays()[ref.column]
            text = texts[self.itype.keys.index(ref.column)]
            ids = pc.take(ids_arr, pc.index_in(text, value_set=names_arr))
            pending += int(pc.sum(pc.and_(pc.is_valid(text), pc.is_null(ids))).as_py() or 0)
            arrays.append(ids)
            names.append(ref.id_column)
        arrays += [numbers, signatures(texts)]
        names += ["import_row", "import_sig"]
        return pa.Table.from_arrays(arrays, names=names), pending

    def _reference_arrays(self) -> dict[str, tuple[pa.Array, pa.Array]]:
        if self._ref_arrays is None:
            ids = self.references.ids()
            self._ref_arrays = {
                column: (pa.array([str(k) for k in found], pa.string()), pa.array(list(found.values()), pa.int64()))
                for column, found in ids.items()
            }
        return self._ref_arrays

    def refused_slices(self, batch: BulkBatch) -> Iterator[list[Candidate]]:
        """Every row of a batch the database refused, for the row writer, in file order, SLICE_ROWS at a
        time: the batch's rows are made Python rows, checked and looked up a slice at a time (a batch of
        20,000 such rows held whole, with its look-ups, took a re-import of existing rows past 200 MB)."""
        assert batch.bulk_sources is not None
        return in_slices(heapq.merge(map(self._candidate, batch.bulk_sources()), batch.candidates, key=_row_of))

    def _candidate(self, source: SourceRow) -> Candidate:
        checked = self.validator.check(source.cells)
        if checked.values is not None:
            return (source, checked.values)
        return FailedRow(source, checked.errors)


def mapped(cells: pa.Array, value_map: ValueMap) -> pa.Array:
    """A column's cells with a value mapping's replacements: each distinct text looked up once, as the row
    validator looks a cell up (fills.ValueMap), then replaced where it maps in one take."""
    inputs: list[str] = []
    outputs: list[str] = []
    for text in pc.unique(cells).to_pylist():
        if text is not None:
            found = value_map.lookup(text)
            if found is not None:
                inputs.append(text)
                outputs.append(found)
    if not inputs:
        return cells
    index = pc.index_in(cells, value_set=pa.array(inputs, pa.string()))
    return pc.coalesce(pc.take(pa.array(outputs, pa.string()), index), cells)


def in_slices(rows: Iterable[_T]) -> Iterator[list[_T]]:
    """`rows` SLICE_ROWS at a time, in their order."""
    it = iter(rows)
    while part := list(islice(it, SLICE_ROWS)):
        yield part


def _restored(cell: Cell) -> Cell:
    """A cell with its neutralised text restored, as the row path restores a text cell (not a typed one)."""
    return restore(cell) if isinstance(cell, str) else cell


def _row_of(candidate: Candidate) -> int:
    return candidate.source.row_number if isinstance(candidate, FailedRow) else candidate[0].row_number


def _number(source: SourceRow) -> int:
    return source.row_number


def _sources(numbers: pa.Array, cells: list[pa.Array]) -> list[SourceRow]:
    """Rows as the row reader gives them: their number and their cells as a tuple of text."""
    if not cells:
        return [SourceRow(n, ()) for n in numbers.to_pylist()]
    rows = zip(*(a.to_pylist() for a in cells), strict=True)
    return [SourceRow(n, c) for n, c in zip(numbers.to_pylist(), rows, strict=True)]


def signatures(texts: list[pa.Array]) -> pa.Array:
    """Each row's signature (desktop_app.domain.values.signature) from its canonical texts.

    The joined texts come out of Arrow as bytes in one call and are hashed by map (measured: 0.10 s a
    million rows in a list comprehension, 0.17 s for slices of the Arrow buffer), and the digests become
    hex text in one go. A null is joined as NULL_TEXT by the join itself (a fill_null per column cost
    ~0.04 s of the prefetch thread a million rows)."""
    joined = pc.binary_join_element_wise(*texts, SEPARATOR, null_handling="replace", null_replacement=NULL_TEXT)
    if not len(joined):
        return pa.array([], pa.string())
    digests = b"".join(map(xxhash.xxh3_64_digest, joined.cast(pa.binary()).to_pylist()))
    hexed = pa.py_buffer(digests.hex().encode("ascii"))
    return pa.FixedSizeBinaryArray.from_buffers(pa.binary(16), len(joined), [None, hexed]).cast(pa.string())
