"""The staged import (seed 000 §2.3): pre-check -> parse and validate -> batch writes -> completion -> summary.

Each stage is its own small piece (precheck, row_writer with its dry-run twin, references,
summary); this class runs them in order for one task and resumes from the task's checkpoint.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from sqlalchemy import Connection

from desktop_app.domain.errors import ErrorCode, Lang, PermanentError
from desktop_app.domain.modes import ImportMode
from desktop_app.domain.profiles import Profile
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.task import TaskOutcome
from desktop_app.imports import error_csv
from desktop_app.imports.bulk.ahead import in_order
from desktop_app.imports.bulk.choice import bulk_insert
from desktop_app.imports.bulk.csv_batches import BulkReadError
from desktop_app.imports.bulk.insert import BulkInsert
from desktop_app.imports.bulk.prefetch import Prefetch
from desktop_app.imports.change_plan import (
    PLAN_FILE,
    ChangePlan,
    PlanCounts,
    PlanMeta,
    PlanWriter,
    changes_csv_name,
    write_changes_csv,
)
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.merged_cells import merged_cell_errors
from desktop_app.imports.missing_references import MissingReference, as_summary, find_missing
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.plan_apply import PlanHold
from desktop_app.imports.precheck import CheckedFile, check_header, count_rows, file_changed, open_source
from desktop_app.imports.progress_state import ImportCheckpoint, ImportCounts
from desktop_app.imports.readers import SourceRow, TableReader
from desktop_app.imports.references import ReferenceResolver
from desktop_app.imports.resume import carried_start, import_chain
from desktop_app.imports.row_plans import KEYED_FAILURES, Candidate, FailedRow, RowDecider
from desktop_app.imports.row_writer import BatchResult, BatchWriter, DryRunWriter, Failed
from desktop_app.imports.signature import SignedColumn, signature_function
from desktop_app.imports.summary import ImportFacts, PlanFacts, summarise
from desktop_app.imports.sync import absent_keys, absent_source, file_keys, out_of_scope, typed_scope
from desktop_app.imports.validator import CheckedRow
from desktop_app.imports.written_rows import complete_references
from desktop_app.store.business_rows import BusinessTable
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.result_paths import task_folder


@dataclass
class _Batch:
    """One batch's rows in file order: valid ones (source and values) and failed ones."""

    rows: list[Candidate] = field(default_factory=list)
    last_row: int = 1

    def __len__(self) -> int:
        return len(self.rows)


def signed_columns(itype: ImportType, table: BusinessTable) -> tuple[SignedColumn, ...]:
    """The columns an insert signs: every column of the type (not the reference ids, filled later)."""
    return tuple((name, *table.storage_of(name)) for name in itype.keys)


class ImportRun:
    """One run of one import task; resumes from the task's checkpoint."""

    def __init__(
        self,
        ctx: TaskContext,
        itype: ImportType,
        options: ImportOptions,
        table: BusinessTable,
        profile: Profile | None = None,
    ) -> None:
        self.ctx = ctx
        self.itype = itype
        self.options = options
        self.profile = profile  # the mapping profile's version the task names (header mapping, constants, values)
        self.table = table
        self.lang: Lang = ctx.lang
        self.task_no = ctx.task.task_no
        self.references = ReferenceResolver(itype, table, ctx.store.reading)
        self.signed = signed_columns(itype, table)
        self.counts = ImportCounts()
        self.work_file = error_csv.error_csv_work_file(ctx)
        self._lost_error_rows_before = 0
        self._committed_row = 1
        self._read_sha256: str | None = None  # the file's hash as the bulk reader read it, all of it
        self._plan_writer: PlanWriter | None = None  # a dry run's change plan, written batch by batch
        self._plan: ChangePlan | None = None  # an apply: the dry run's plan each row is held to

    # --- stages --------------------------------------------------------------------------

    def run(self) -> TaskOutcome:
        try:
            if self.options.plan_of:
                self._plan = self._open_plan(self.options.plan_of)
            return self._run()
        finally:
            if self._plan_writer is not None:  # stopped before its end: a rerun starts the plan afresh
                self._plan_writer.close()
            if self._plan is not None:
                self._plan.close()

    def _run(self) -> TaskOutcome:
        saved = self._start()
        self._stage(Stage.CHECKING, 1)
        with open_source(self.options, self.ctx.params, resuming=saved is not None) as reader:
            checked = check_header(reader, self.itype, self.options, self.lang, self.profile)
            if saved is not None:
                # error_bytes 0: a resumed import with no earlier error rows starts a fresh error file
                total_rows, resume_row, resume_bytes = saved.rows_in_file, saved.row, saved.error_bytes or None
                self.counts = saved.counts
            else:
                self._stage(Stage.COUNTING, 2)
                total_rows, resume_row, resume_bytes = count_rows(reader, self.options), 1, None
            errors = error_csv.resumed_writer(self.ctx, reader.header, resume_at=resume_bytes, lang=self.lang)
            self._lost_error_rows_before = resume_row if errors.lost_earlier_rows else 0
            if self.options.dry_run:
                self._plan_writer = PlanWriter(self._folder() / PLAN_FILE, self._plan_meta())
            try:
                self._import_rows(reader, checked, errors, total_rows, resume_row, fresh=saved is None)
            finally:
                errors.close()
            extra_cells = errors.saw_extra or resume_bytes is not None
        if self._file_changed():
            # Cut short or saved again while it was read: the rows read are not all of the file that
            # was queued, and a clerk would never learn that the rest is missing.
            raise PermanentError(ErrorCode.FILE_CHANGED, path=str(self.options.file))
        if self.counts.total == 0:
            raise PermanentError(ErrorCode.EMPTY_FILE)  # only blank rows after the header
        plan_facts = self._finish_plan()
        self._stage(Stage.COMPLETING, 96)
        missing: list[MissingReference] = []
        if not self.options.dry_run and self.counts.pending:
            refs = self.references.references
            with self.ctx.store.engine.begin() as conn:
                # a resumed import's pending rows include the stopped import's, under its task number
                chain = import_chain(self.ctx.store, self.task_no, self.ctx.params)
                pending = sum(complete_references(conn, self.table, refs, task_no) for task_no in chain)
                missing = find_missing(conn, self.table, refs, chain) if pending else []
            self.counts = ImportCounts(**{**self.counts.__dict__, "pending": pending})
        self._stage(Stage.SUMMARISING, 98)
        facts = ImportFacts(
            itype=self.itype, options=self.options, mapping=checked.mapping, encoding=reader.encoding,
            format=reader.format, table=self.table.spec.name, managed=self.table.managed, signed=self.signed,
            lost_error_rows_before=self._lost_error_rows_before, reader_warnings=tuple(reader.warnings),
            missing_references=tuple(as_summary(missing)), extra_cells=extra_cells, plan=plan_facts,
            plan_of=self.options.plan_of,
        )  # fmt: skip
        return summarise(facts=facts, counts=self.counts, work_file=self.work_file, folder=self._folder(),
                         task_no=self.task_no,
                         threshold=self.ctx.settings.fail_threshold, lang=self.lang)  # fmt: skip

    def _folder(self) -> Path:
        """The task's results folder (summary.json, the error CSV, a dry run's plan and change file)."""
        return self.ctx.results_dir / self.task_no

    def _plan_meta(self) -> PlanMeta:
        options = self.options
        return PlanMeta(task_no=self.task_no, import_type=self.itype.name, mode=options.mode, file=str(options.file),
                        file_sha256=self.ctx.params.get("file_sha256"), columns=self.itype.keys,
                        profile=options.profile, profile_version=options.profile_version, scope=dict(options.scope),
                        lang=self.lang)  # fmt: skip

    def _open_plan(self, task_no: str) -> ChangePlan:
        """The plan this apply holds its rows to: plan_not_applicable when it is gone, unfinished or of
        other bytes than the file queued (the submission refused those; a plan may go while the task waits)."""
        folder = task_folder(self.ctx.results_dir, task_no)  # None: not a task number of ours
        path = (folder if folder is not None else self.ctx.results_dir / task_no) / PLAN_FILE
        try:
            if folder is None:
                raise FileNotFoundError(str(path))
            plan = ChangePlan.open(path)
        except (OSError, sqlite3.DatabaseError) as exc:
            raise PermanentError(ErrorCode.PLAN_NOT_APPLICABLE, reason="plan_gone", task_no=task_no,
                                 path=str(path)) from exc  # fmt: skip
        if not plan.finished or plan.meta.file_sha256 != self.ctx.params.get("file_sha256"):
            plan.close()
            reason = "not_succeeded" if not plan.finished else "file_changed"
            raise PermanentError(ErrorCode.PLAN_NOT_APPLICABLE, reason=reason, task_no=task_no,
                                 path=str(self.options.file))  # fmt: skip
        return plan

    def _finish_plan(self) -> PlanFacts | None:
        """A dry run's plan completed (its counts) and listed in its change file, beside the error CSV."""
        writer = self._plan_writer
        if writer is None:
            return None
        c = self.counts
        counts = PlanCounts(inserted=c.inserted, updated=c.updated, unchanged=c.unchanged, skipped=c.skipped,
                            deleted=c.deleted, failed=c.fail)  # fmt: skip
        writer.finish(counts)
        self._plan_writer = None
        target = self._folder() / changes_csv_name(self.task_no)
        with ChangePlan.open(writer.path) as plan:
            lines = write_changes_csv(plan, target, self.itype, self.lang)
        self.ctx.log.info("change plan: %d rows planned to change or fail, listed in %s", lines, target)
        return PlanFacts(changes_csv=str(target), counts=counts)

    def _file_changed(self) -> bool:
        """Whether the file is not the one queued: its bytes as the bulk reader read them (every byte, once:
        those are the rows imported), else the file read again whole."""
        params = self.ctx.params
        if self._read_sha256 is None:
            return file_changed(self.options.file, params, full=True)
        expected = params.get("file_sha256")
        return bool(expected and self._read_sha256 != expected) or file_changed(self.options.file, params, full=False)

    def _start(self) -> ImportCheckpoint | None:
        """Where this run starts: its own checkpoint after a crash or a stop, else (the first run of an
        "Import the remaining rows") the stopped import's, else the top of the file."""
        if self.options.dry_run:
            return None
        if self.ctx.checkpoint:
            return ImportCheckpoint.from_dict(self.ctx.checkpoint)
        return carried_start(self.ctx.store, self.ctx.params, self.work_file, work_dir=self.ctx.work_dir,
                             results_dir=self.ctx.results_dir)  # fmt: skip

    def _writer(self, checked: CheckedFile) -> BatchWriter | DryRunWriter:
        mode = self.options.mode.row_mode  # a sync's rows are upserted
        decider = RowDecider(self.itype, mode, self.options.blank, self.table, checked.validator.key_indexes)
        if self.options.dry_run:
            return DryRunWriter(decider, self.table, self.references, self._plan_writer)
        writer = BatchWriter(self.itype, mode, self.table, decider, self.references, self.task_no,
                             signature_function(self.signed))  # fmt: skip
        if self._plan is not None:
            writer.hold = PlanHold(self._plan, decider, self.references, self.table)
        return writer

    def _import_rows(
        self,
        reader: TableReader,
        checked: CheckedFile,
        errors: error_csv.ErrorCsvWriter,
        total_rows: int,
        resume_row: int,
        *,
        fresh: bool,
    ) -> None:
        writer = self._writer(checked)
        self._committed_row = resume_row
        scope: dict[str, object] = {}
        if self.options.mode is ImportMode.SYNC:
            scope = typed_scope(checked, self.itype, self.options.scope)
            if fresh:  # a resumed sync did its deletes in its first transaction, committed with its checkpoint
                self._sync_deletes(reader, checked, writer, errors, total_rows, scope)
        bulk = bulk_insert(self.ctx, self.itype, self.options, reader, checked, self.table, self.references, writer)
        if bulk is not None:
            try:
                self._import_bulk(bulk, errors, total_rows, resume_row)
                return
            except BulkReadError as exc:
                # the row reader takes over where the last batch committed, and says what it says
                self.ctx.log.info("bulk reading stopped after row %d (%s): the row reader goes on",
                                  self._committed_row, exc)  # fmt: skip
                resume_row = self._committed_row
            finally:
                bulk.close()
        self._import_by_row(reader, checked, writer, errors, total_rows, resume_row, scope)

    def _sync_deletes(self, reader: TableReader, checked: CheckedFile, writer: BatchWriter | DryRunWriter,
                      errors: error_csv.ErrorCsvWriter, total_rows: int, scope: dict[str, object]) -> None:  # fmt: skip
        """A sync's deletes, before any row of the file is written, in one transaction with its checkpoint:
        the rows of the scope the file lacks, as many as the clerk confirmed (the table may have changed
        since the submission counted them: then the task fails, nothing written)."""
        self._stage(Stage.CHECKING, 2)
        present = file_keys(reader, checked, self.table)
        if self._plan is not None and isinstance(writer, BatchWriter):
            self._planned_deletes(reader, checked, writer, errors, total_rows, scope, present)
            return
        with self.ctx.store.engine.connect() as conn:
            count = len(absent_keys(conn, self.table, scope, present))
        confirmed = count if self.options.dry_run else self.options.confirm_deletes or 0

        def held(found: int) -> None:
            if found != confirmed:
                raise PermanentError(ErrorCode.SYNC_COUNT_CHANGED, table=self.table.spec.name, found=found,
                                     confirmed=confirmed)  # fmt: skip

        def write(conn: Connection) -> BatchResult:
            absent = absent_keys(conn, self.table, scope, present)
            held(len(absent))  # again in the transaction that deletes (the rows it reads whole are locked)
            return writer.delete_absent(conn, absent, partial(absent_source, reader, checked, self.table))

        held(count)
        # the table's rows the file lacks count among the task's rows (its done and failed never pass its total)
        self._flush(count, 1, write, errors, total_rows, 0.0)
        self.ctx.log.info("sync: %d rows the file lacks deleted", self.counts.deleted)

    def _planned_deletes(self, reader: TableReader, checked: CheckedFile, writer: BatchWriter,
                         errors: error_csv.ErrorCsvWriter, total_rows: int, scope: dict[str, object],
                         present: set[str]) -> None:  # fmt: skip
        """An applied sync's deletes: the plan's, each held to its planned row (not a count confirmed: a
        key the table gained since stays, listed as changed_since_plan), in the first transaction."""
        assert self._plan is not None
        planned = self._plan.absent_deletes()

        def write(conn: Connection) -> BatchResult:
            absent = absent_keys(conn, self.table, scope, present)
            return writer.delete_planned(conn, absent, planned, partial(absent_source, reader, checked, self.table))

        self._flush(len(planned), 1, write, errors, total_rows, 0.0)
        self.ctx.log.info("sync: %d of the %d rows the plan deletes deleted", self.counts.deleted, len(planned))

    def _import_bulk(
        self, bulk: BulkInsert, errors: error_csv.ErrorCsvWriter, total_rows: int, resume_row: int
    ) -> None:
        # the next batch is read and checked on a second thread while this one is written
        spill = partial(self._write_failures, errors)
        with Prefetch(bulk.batches(resume_row)) as batches:
            for ready in in_order(bulk, batches):
                batch = ready.batch
                with ready.connection as conn:
                    write = partial(bulk.write, batch=batch, spill=spill, loaded_ahead=ready.loaded)
                    self._flush(batch.size, batch.last_row, write, errors, total_rows,
                                batch.last_row / max(total_rows + 1, 1), connection=conn)  # fmt: skip
        self._read_sha256 = bulk.read_sha256()
        self.ctx.log.info("bulk path: %d rows loaded by the database's own loader, %d by the row writer",
                          bulk.loaded, bulk.by_row)  # fmt: skip

    def _import_by_row(
        self,
        reader: TableReader,
        checked: CheckedFile,
        writer: BatchWriter | DryRunWriter,
        errors: error_csv.ErrorCsvWriter,
        total_rows: int,
        resume_row: int,
        scope: dict[str, object] | None = None,
    ) -> None:
        # The hot loop: per row only the read, the compiled check and an append (no objects built).
        batch = _Batch()
        size = self.options.batch_size
        validator = checked.validator
        check = validator.check
        restore = error_csv.restore if checked.restore_neutralised else None
        mode = self.options.mode.row_mode
        columns = validator.columns
        scope_given = dict(self.options.scope)
        keyed = mode in KEYED_FAILURES
        upsert = mode is ImportMode.UPSERT
        rows = batch.rows
        # a row covered by a merge across columns fails with merged_cells alone: its cells are not where
        # the clerk sees them (an Excel sheet's; such a sheet never takes the bulk path)
        merged = merged_cell_errors(getattr(reader, "merges", None), checked.mapping)

        def flush(fraction: float) -> None:
            self._flush(len(batch), batch.last_row, partial(writer.write, rows=batch.rows), errors, total_rows,
                        fraction)  # fmt: skip

        for source in reader.rows(skip_through=resume_row):
            if restore is not None:
                source = SourceRow(
                    source.row_number, tuple(restore(c) if isinstance(c, str) else c for c in source.cells)
                )
            checked_row = check(source.cells)
            if merged is not None and (merge_error := merged(source.row_number)) is not None:
                checked_row = CheckedRow(None, (merge_error,))
            values = checked_row.values
            if scope and values is not None and (outside := out_of_scope(values, columns, scope, scope_given)):
                checked_row = CheckedRow(None, (outside,))
                values = None
            if values is None:
                cells = source.cells
                key = validator.key_of(cells) if keyed else None
                lacking = validator.blank_required(cells) if upsert and key is not None else ()
                rows.append(FailedRow(source, checked_row.errors, key, lacking))
            else:
                rows.append((source, values))
            batch.last_row = source.row_number
            if len(rows) >= size:
                flush(reader.fraction_done())
                batch = _Batch()
                rows = batch.rows
        if rows:
            flush(1.0)

    def _flush(
        self,
        size: int,
        last_row: int,
        write: Callable[[Connection], BatchResult],
        errors: error_csv.ErrorCsvWriter,
        total_rows: int,
        fraction: float,
        *,
        connection: Connection | None = None,
    ) -> None:
        """One batch of `size` rows up to `last_row`: one transaction with its checkpoint, failures written
        before the commit."""
        self.ctx.check_stop()  # the batch boundary: a cancel or shutdown stops here, nothing half-done
        # A polite pause between batches (seed 000 §3.2): the window's thread and the other tasks get
        # the GIL and the database; 1 ms a batch costs ~1 s on a million rows, so only the window sets it.
        if self.ctx.settings.batch_pause:
            self.ctx.sleep(self.ctx.settings.batch_pause)
        before = self.counts

        def work(conn: Connection) -> None:
            result = write(conn)
            self._write_failures(errors, result.failed)
            self.counts = self.counts.plus(result.counts(size))

        progress = 3 + 92 * min(1.0, max(fraction, (self.counts.total + size) / max(total_rows, 1)))
        stage = stage_text(Stage.VALIDATING if self.options.dry_run else Stage.IMPORTING, self.lang,
                           row=last_row, total=total_rows)  # fmt: skip
        checkpoint: Callable[[], dict[str, object]] = lambda: ImportCheckpoint(  # noqa: E731
            row=last_row, rows_in_file=total_rows, counts=self.counts, error_bytes=errors.size()
        ).to_dict()
        try:
            # the checkpoint is read after the work ran, inside the same transaction as the rows it covers
            self.ctx.commit_batch(work, checkpoint=checkpoint, counts=lambda: self.counts.as_tuple(),
                                  progress=progress, stage=stage, rows_in_file=total_rows,
                                  connection=connection)  # fmt: skip
        except BaseException:
            self.counts = before  # nothing of this batch was committed
            raise
        self._committed_row = last_row

    def _write_failures(self, errors: error_csv.ErrorCsvWriter, failed: Sequence[Failed]) -> None:
        """Failed rows into the error CSV, in row order (a batch's, or a slice's of it: slices come in order)."""
        for source, row_errors in sorted(failed, key=lambda item: item[0].row_number):
            errors.write(
                source.row_number,
                source.cells,
                [e.code.value for e in row_errors],
                [e.message(self.itype, self.lang) for e in row_errors],
            )

    def _stage(self, stage: Stage, progress: float) -> None:
        self.ctx.report(stage=stage_text(stage, self.lang), progress=progress, force=True)
