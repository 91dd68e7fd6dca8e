"""An insert-mode import on the bulk path: each batch's sure rows loaded by the database, the rest by row.

Per batch (one transaction with its checkpoint, like the row path's batches): the rows the split
(batching.py) is sure of go to the database's bulk loader (store/bulk_load.py); the others through
the row writer (row_writer.py), in the same transaction. A batch the database refuses (a key already
there) goes through the row writer whole, in slices of batching.SLICE_ROWS (memory stays bounded): the same
outcome, row by row, as the row path would give.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import replace

from sqlalchemy import Connection

from desktop_app.imports.bulk.batching import BatchSplitter, BulkBatch, in_slices
from desktop_app.imports.row_plans import Candidate
from desktop_app.imports.row_writer import BatchResult, BatchWriter, Failed
from desktop_app.store.bulk_load import BulkLoader

Spill = Callable[[list[Failed]], None]


class BulkInsert:
    """Writes a file's bulk batches: the loader's rows, then the row writer's."""

    def __init__(self, splitter: BatchSplitter, writer: BatchWriter, loader: BulkLoader) -> None:
        self.splitter = splitter
        self.writer = writer
        self.loader = loader
        self.loaded = 0  # rows the database's own loader took
        self.by_row = 0  # rows the row writer wrote or failed

    def batches(self, skip_through: int) -> Iterator[BulkBatch]:
        """The file's batches after `skip_through` (a resume's last committed row)."""
        return self.splitter.batches(skip_through)

    def connection(self, batch: BulkBatch) -> AbstractContextManager[Connection]:
        """The connection the batch's transaction runs on (the loader's, set up for its rows)."""
        return self.loader.connection(batch.rows)

    def close(self) -> None:
        self.loader.close()

    def read_sha256(self) -> str | None:
        """The file's SHA-256 as its batches read it, once they read every byte (a CSV's), else None."""
        return self.splitter.source.read_sha256

    def write(
        self, conn: Connection, batch: BulkBatch, spill: Spill | None = None, loaded_ahead: bool | None = None
    ) -> BatchResult:
        """Inside the batch's transaction: the bulk rows (or, refused, all rows by the row writer), then
        the other rows by the row writer; `spill` takes the failed rows as each slice ends (the result
        then counts them as spilled). `loaded_ahead`: the bulk rows were loaded before (ahead.py) in this
        transaction (True) or refused (False)."""
        loaded = 0
        slices: Iterable[list[Candidate]] = in_slices(batch.candidates)
        if batch.rows is not None:
            took = self.loader.load(conn, batch.rows) if loaded_ahead is None else loaded_ahead
            if took:
                loaded = batch.rows.num_rows
            else:
                slices = self.splitter.refused_slices(batch)
        result = BatchResult()
        for part in slices:
            done = self.writer.write(conn, part)
            if spill is not None and done.failed:
                # each slice's failed rows go to the error CSV at once (slices come in file order): a
                # refused batch of rows all already there never holds all its failures
                spill(done.failed)
                done = replace(done, failed=[], spilled=done.spilled + len(done.failed))
            result.add(done)
            self.by_row += len(part)
        self.loaded += loaded
        result.inserted += loaded
        if loaded:
            result.pending += batch.pending
        return result
