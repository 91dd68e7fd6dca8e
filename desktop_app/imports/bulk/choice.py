"""Which imports take the bulk path: a CSV or an .xlsx sheet inserted into one of BatchDesk's own tables, for real."""

from __future__ import annotations

import logging

import pyarrow as pa

from desktop_app.domain.modes import ImportMode
from desktop_app.imports.bulk.batching import BatchSplitter
from desktop_app.imports.bulk.csv_batches import CsvBatches, bulk_encoding
from desktop_app.imports.bulk.insert import BulkInsert
from desktop_app.imports.bulk.xlsx_batches import XlsxBatches
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.precheck import CheckedFile
from desktop_app.imports.readers import TableReader
from desktop_app.imports.readers.xlsx_reader import XlsxReader
from desktop_app.imports.references import ReferenceResolver
from desktop_app.imports.row_writer import BatchWriter, DryRunWriter
from desktop_app.store.bulk_load import BulkLoader
from desktop_app.store.business_rows import BusinessTable
from desktop_app.store.dialects import dialect_of
from desktop_app.tasks.context import TaskContext

log = logging.getLogger(__name__)


def lean_memory_pool() -> None:
    """Arrow's allocator that hands memory back: jemalloc where the build has it, else the system's.

    Measured on a 1,000,000-row import: mimalloc (pyarrow's default) keeps ~30 MB more of the freed
    batches, and peak memory is a goal of the bulk path."""
    try:
        pool = pa.jemalloc_memory_pool()
        # Freed pages go back after a second unused, not at once (0, Arrow's default): at once, each
        # batch faulted its memory in afresh and the import spent a third of its CPU in the kernel.
        # Measured on a million rows (SQLite): 3.65 -> 2.80 s, system CPU 1.4 -> 0.6 s, peak 158 ->
        # 162 MB (mimalloc: as fast, 191 MB).
        pa.jemalloc_set_decay_ms(1000)
    except NotImplementedError:
        pool = pa.system_memory_pool()
    if pa.default_memory_pool().backend_name != pool.backend_name:
        pa.set_memory_pool(pool)


BATCH_ROWS = 20_000
"""Rows a bulk batch holds where nothing else says. Where batches load ahead (ahead.py) three are in memory,
two of them only as their count and keys once the database holds their rows (BulkBatch.forget_rows).
Measured on a million rows into PostgreSQL, after the page cache was dropped: 20,000 rows a batch peaked at
188 MB and took ~0.3 s less CPU than 13,333 (179 MB; 196-198 MB at 20,000 while each batch kept its rows
until its commit): fewer batches, each with its transaction, its fenced writes and its loader's setup."""


def bulk_insert(
    ctx: TaskContext,
    itype: ImportType,
    options: ImportOptions,
    reader: TableReader,
    checked: CheckedFile,
    table: BusinessTable,
    references: ReferenceResolver,
    writer: BatchWriter | DryRunWriter,
) -> BulkInsert | None:
    """The bulk path for this import, or None when it goes row by row.

    Only insert mode (the other modes look every key up, row by row by nature), not a dry run (which
    writes nothing to compare with) nor the apply of its plan (each row held to the plan), a CSV in an
    ASCII-compatible encoding or an .xlsx, and our own tables (a company's table keeps its bookkeeping in
    import_rows, row by row)."""
    if not ctx.settings.bulk_loads or options.dry_run or options.mode is not ImportMode.INSERT:
        return None
    if options.plan_of:  # an apply: every row held to its dry run's plan, by the row writer
        return None
    if not isinstance(writer, BatchWriter) or reader.format not in ("csv", "xlsx") or not table.managed:
        return None
    source = _source(itype, options, reader, checked)
    if source is None:
        return None
    lean_memory_pool()
    engine = ctx.store.engine
    if not dialect_of(engine).bulk_available(engine):  # MySQL/MariaDB: the server's local_infile
        log.info("the server does not allow LOAD DATA LOCAL (local_infile=0): the import goes row by row")
        return None
    # Batches load ahead where nothing asks the import to be polite (batch_pause: the window sets one):
    # in the window, two million-row imports on PostgreSQL left the event loop's lag at p99 15-19 ms with
    # them ahead against 13-14 ms without (the goal: under 16), for no faster an import beside another.
    loader = BulkLoader(engine, table.spec.name, ctx.task.task_no, ctx.work_dir, ahead=not ctx.settings.batch_pause)
    # a batch size the task was given (--batch-size) holds on this path too, then the setting's, else the
    # bulk path's own
    batch_rows = int(ctx.params.get("batch_size") or 0) or ctx.settings.bulk_batch_rows or BATCH_ROWS
    splitter = BatchSplitter(itype, checked.validator, table, references, source,
                             restore_neutralised=checked.restore_neutralised, batch_rows=batch_rows)  # fmt: skip
    splitter.with_keys = loader.preloads  # two batches in flight must not share a key (ahead.py)
    return BulkInsert(splitter, writer, loader)


def _source(
    itype: ImportType, options: ImportOptions, reader: TableReader, checked: CheckedFile
) -> CsvBatches | XlsxBatches | None:
    """The file's batches: a CSV's by pyarrow, an .xlsx sheet's by its own reader; None: the row reader's."""
    if options.decimal_comma:
        return None  # the row reader's alone
    if isinstance(reader, XlsxReader):
        if reader.merges is not None and reader.merges.in_data:
            # filled down or failed by the row reader (readers/merged_cells.py); most sheets merge nothing
            log.info("the sheet merges cells inside its data: the import goes row by row")
            return None
        return XlsxBatches(reader, itype, checked.mapping.index_by_key)
    # Excel's sep= line before the header: the row reader's alone
    dialect = getattr(reader, "dialect", None)
    if reader.format != "csv" or dialect is None or dialect.sep_line:
        return None
    encoding = bulk_encoding(reader.encoding)
    if encoding is None:
        return None
    return CsvBatches(options.file, reader.header, encoding, delimiter=dialect.delimiter)
