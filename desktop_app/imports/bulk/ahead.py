"""The next batch loaded on a connection of its own while the one before it finishes and commits (PostgreSQL,
MySQL/MariaDB).

There the server's COPY (LOAD DATA) is the bulk path's slowest part and keeps one server process (thread,
one core) busy; with the next batch's load running beside it, a second one works too. The batches still
commit one by one in file order, each with its checkpoint, and a batch only after the one before it (the task's
thread commits them, in order). What keeps that safe:
- a batch's rows are loaded before its fence (the fenced write of the task row, which would make the
  next batch wait for this one's commit): if the task was taken over meanwhile, the fence fails and the
  rows loaded are rolled back, never committed;
- two batches in flight never write the same key: the later one would wait for the earlier one's row
  while the earlier one's commit waits for the later one in this queue, a wait no server sees as a
  deadlock. A batch that shares a key with the one before it is loaded only once that one has committed;
- a stop (a cancel, a shutdown, an error) rolls every batch in flight back: nothing of them is kept.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass

from sqlalchemy import Connection

from desktop_app.imports.bulk.batching import BulkBatch
from desktop_app.imports.bulk.insert import BulkInsert
from desktop_app.store.bulk_load import Preloaded

IN_FLIGHT = 2
"""Batches loading at once: this batch's and the next one's. Each holds its rows in memory until the database
has them (then only their count and keys: BulkBatch.forget_rows), and two keep the two cores of the machines
measured busy (docs/BENCHMARKS.md)."""


@dataclass
class Ready:
    """A batch to finish and commit, in file order, on its connection."""

    batch: BulkBatch
    connection: AbstractContextManager[Connection]
    loaded: bool | None  # its rows already loaded (True), refused (False), or to load in its transaction (None)


def in_order(bulk: BulkInsert, batches: Iterable[BulkBatch]) -> Iterator[Ready]:
    """The batches in file order, each with its connection; loaded ahead where the loader can."""
    if not bulk.loader.preloads:
        for batch in batches:
            yield Ready(batch, bulk.connection(batch), None)
        return
    loading = ThreadPoolExecutor(max_workers=IN_FLIGHT, thread_name_prefix="batchdesk-load")
    flight: deque[tuple[BulkBatch, Future[Preloaded] | None]] = deque()
    try:
        for batch in batches:
            if any(loading_batch.shares_keys(batch) for loading_batch, _ in flight):
                while flight:  # the batches before it commit first
                    yield _ready(bulk, *flight.popleft())
            preload = loading.submit(_preload, bulk, batch) if batch.rows is not None else None
            flight.append((batch, preload))
            while len(flight) >= IN_FLIGHT:
                yield _ready(bulk, *flight.popleft())
        while flight:
            yield _ready(bulk, *flight.popleft())
    finally:
        for _, preload in flight:  # stopped: what was loaded ahead is rolled back
            if preload is not None:
                with suppress(BaseException):
                    preload.result().discard()
        loading.shutdown(wait=True)


def _preload(bulk: BulkInsert, batch: BulkBatch) -> Preloaded:
    """The batch's rows loaded on a connection of their own; once the database holds them (in the open
    transaction), the batch lets go of them and of its cells as read, which only a refused load needs
    again: a batch waiting its turn to commit holds its count, not its rows."""
    assert batch.rows is not None
    done = bulk.loader.preload(batch.rows)
    if done.loaded:
        batch.forget_rows()
    return done


def _ready(bulk: BulkInsert, batch: BulkBatch, preload: Future[Preloaded] | None) -> Ready:
    if preload is None:
        return Ready(batch, bulk.connection(batch), None)
    done = preload.result()  # a load's error (not a refusal) is the batch's, raised here as it would be in line
    return Ready(batch, _handed_over(done), done.loaded)


@contextmanager
def _handed_over(done: Preloaded) -> Iterator[Connection]:
    """The preloaded connection, rolled back (if its batch did not commit) and given back afterwards."""
    try:
        yield done.connection
    finally:
        done.discard()
