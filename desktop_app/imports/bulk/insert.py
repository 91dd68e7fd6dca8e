"""An insert-mode import on the bulk path: each batch's sure rows loaded by the database, the rest by row.

Per batch (one transaction with its checkpoint, like the row path's batches): the rows the split
(batching.py) is sure of go to the database's bulk loader (store/bulk_load.py); the others through
the row writer (row_writer.py), in the same transaction. A batch the database refuses (a key already
there) goes through the row writer whole: the same outcome, row by row, as the row path would give.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager

from sqlalchemy import Connection

from desktop_app.imports.bulk.batching import BatchSplitter, BulkBatch
from desktop_app.imports.row_writer import BatchResult, BatchWriter
from desktop_app.store.bulk_load import BulkLoader


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

    def write(self, conn: Connection, batch: BulkBatch) -> BatchResult:
        """Inside the batch's transaction: the bulk rows (or, refused, all rows by the row writer), then
        the other rows by the row writer."""
        candidates = batch.candidates
        loaded = 0
        if batch.rows is not None:
            if self.loader.load(conn, batch.rows):
                loaded = batch.rows.num_rows
            else:
                candidates = self.splitter.candidates_of(batch)
        result = self.writer.write(conn, candidates) if candidates else BatchResult()
        self.loaded += loaded
        self.by_row += len(candidates)
        result.inserted += loaded
        if loaded:
            result.pending += batch.pending
        return result
