"""The staged import (seed 000 §2.3): pre-check -> parse and validate -> batch insert -> completion -> summary."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from desktop_app.domain.errors import ErrorCode, Lang, PermanentError
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.status import TaskStatus, outcome_status
from desktop_app.domain.task import TaskOutcome
from desktop_app.imports import error_csv
from desktop_app.imports.header import HeaderMapping, map_header
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.precount import holds_neutralised_cells, line_bound
from desktop_app.imports.readers import ReadLimits, SourceRow, TableReader, open_table
from desktop_app.imports.validator import RowError, RowValidator, compile_validator
from desktop_app.store.business import TableWriter, references_of
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.submit import file_sha256

MIB = 1024 * 1024
PRECHECK_ROWS = 20


@dataclass
class Counts:
    total: int = 0  # data rows consumed (blank rows excluded)
    success: int = 0
    fail: int = 0

    def as_tuple(self) -> tuple[int, int, int]:
        return (self.total, self.success, self.fail)


_Failed = tuple[SourceRow, tuple[RowError, ...]]


@dataclass
class _Batch:
    """One batch's rows, split as they are checked: valid ones (source and values) and failed ones."""

    good_sources: list[SourceRow] = field(default_factory=list)
    good_values: list[tuple[object, ...]] = field(default_factory=list)
    bad: list[_Failed] = field(default_factory=list)
    last_row: int = 1


class ImportRun:
    """One run of one import task; resumes from the task's checkpoint."""

    def __init__(self, ctx: TaskContext, itype: ImportType, options: ImportOptions) -> None:
        self.ctx = ctx
        self.itype = itype
        self.options = options
        self.lang: Lang = ctx.lang
        self.task_no = ctx.task.task_no
        self.references = references_of(itype.columns)
        # the insert's columns: the type's, then the id of each resolved reference
        columns = (*itype.keys, *(ref.id_column for ref in self.references))
        self.writer = TableWriter(ctx.store.engine, itype.table, columns, itype.unique_key)
        self.counts = Counts()
        self.pending_completion = 0
        self._seen: set[object] = set()  # dry run only: the keys a real run would have inserted
        self._ref_ids: dict[str, dict[object, int]] = {}
        self._key_position = {key: i for i, key in enumerate(itype.keys)}
        self.work_file = error_csv.error_csv_work_file(ctx)
        self._lost_error_rows_before = 0

    # --- stages --------------------------------------------------------------------------

    def run(self) -> TaskOutcome:
        checkpoint = None if self.options.dry_run else self.ctx.checkpoint
        self._stage(Stage.CHECKING, 1)
        with self._open() as reader:
            mapping, validator, is_error_csv = self._precheck(reader)
            if checkpoint:
                total_rows = int(checkpoint["rows_in_file"])
                self.counts = Counts(int(checkpoint["total"]), int(checkpoint["success"]), int(checkpoint["fail"]))
                self.pending_completion = int(checkpoint.get("pending", 0))
                resume_row, resume_bytes = int(checkpoint["row"]), int(checkpoint["error_bytes"])
            else:
                total_rows = self._count(reader)
                resume_row, resume_bytes = 1, None
            errors = error_csv.ErrorCsvWriter(self.work_file, reader.header, resume_at=resume_bytes)
            self._lost_error_rows_before = resume_row if errors.lost_earlier_rows else 0
            try:
                self._import_rows(reader, validator, errors, total_rows, resume_row, is_error_csv)
            finally:
                errors.close()
        if self.counts.total == 0:
            raise PermanentError(ErrorCode.EMPTY_FILE)  # only blank rows after the header
        self._stage(Stage.COMPLETING, 96)
        if not self.options.dry_run and self.pending_completion:
            self._complete_references()
        return self._summarise(mapping, reader.encoding, reader.format)

    def _open(self) -> TableReader:
        path = self.options.file
        if not path.exists():
            raise PermanentError(ErrorCode.FILE_NOT_FOUND, path=str(path))
        if self._file_changed(path):
            # Edited in Excel while queued, or between a stop and the resume: the checkpoint's row
            # numbers and the idempotency key speak of other bytes.
            raise PermanentError(ErrorCode.FILE_CHANGED, path=str(path))
        size = path.stat().st_size
        if size > self.options.max_file_mb * MIB:
            raise PermanentError(
                ErrorCode.FILE_TOO_LARGE, size_mb=f"{size / MIB:.1f}", limit_mb=self.options.max_file_mb
            )
        limits = ReadLimits(max_file_mb=self.options.max_file_mb)
        return open_table(path, encoding=self.options.encoding, sheet=self.options.sheet, limits=limits)

    def _file_changed(self, path: Path) -> bool:
        """Size and modification time say whether the file was saved again since it was queued (a
        full hash again would cost a core for a second on a big file); a resume checks every byte."""
        params = self.ctx.params
        stat = path.stat()
        if params.get("file_size") is not None and stat.st_size != params["file_size"]:
            return True
        if params.get("file_mtime_ns") is not None and stat.st_mtime_ns != params["file_mtime_ns"]:
            return True
        expected = params.get("file_sha256")
        return bool(expected and self.ctx.checkpoint and file_sha256(path) != expected)

    def _precheck(self, reader: TableReader) -> tuple[HeaderMapping, RowValidator, bool]:
        """Header and the first rows before anything is written (seed 000 §3.1)."""
        header = tuple(reader.header)
        if not any(h.strip() for h in header):
            raise PermanentError(ErrorCode.EMPTY_FILE)
        mapping = map_header(self.itype, header, self.options.header_overrides or None)
        if mapping.missing_required:
            labels = "、".join(self.itype.column(k).label(self.lang) for k in mapping.missing_required)
            raise PermanentError(ErrorCode.MISSING_REQUIRED_COLUMN, column=labels)
        for _ in zip(range(PRECHECK_ROWS), reader.rows(), strict=False):
            pass  # decoding and parsing problems of the first rows surface here, before any write
        # Cells neutralised against CSV injection come back as typed: in our error CSVs and in our
        # exports (which use exactly the type's first header names).
        canonical = tuple(h.strip().lstrip(error_csv.BOM) for h in header) == tuple(
            c.aliases[0] for c in self.itype.columns
        )
        restore = (
            (canonical or error_csv.is_error_csv_header(header))
            and reader.format == "csv"  # only CSV cells are neutralised (XLSX cells are typed as text)
            and holds_neutralised_cells(self.options.file, reader.encoding)  # else restoring costs for nothing
        )
        return mapping, compile_validator(self.itype, mapping), restore

    def _count(self, reader: TableReader) -> int:
        """Data rows, checked against the limit before anything is imported.

        For a CSV in an ASCII-compatible encoding, counting line breaks in the raw bytes (~0.1 s for
        100 MB) gives an upper bound: blank lines and quoted line breaks only make records fewer. Only
        when that bound passes the limit is the exact (parsing) count needed.
        """
        self._stage(Stage.COUNTING, 2)
        bound = line_bound(self.options.file, reader.encoding) if reader.format == "csv" else None
        if bound is not None and bound <= self.options.max_rows:
            return bound
        rows = reader.count_rows(limit=self.options.max_rows)
        if rows > self.options.max_rows:
            raise PermanentError(ErrorCode.TOO_MANY_ROWS, limit=self.options.max_rows)
        if rows == 0:
            raise PermanentError(ErrorCode.EMPTY_FILE)
        return rows

    def _import_rows(
        self,
        reader: TableReader,
        validator: RowValidator,
        errors: error_csv.ErrorCsvWriter,
        total_rows: int,
        resume_row: int,
        is_error_csv: bool,
    ) -> None:
        # The hot loop: per row only the read, the compiled check and an append (no objects built).
        batch = _Batch()
        size = self.options.batch_size
        check = validator.check
        restore = error_csv.restore
        key_index = validator.unique_index
        good_src, good_values, bad = batch.good_sources, batch.good_values, batch.bad
        for source in reader.rows(skip_through=resume_row):
            if is_error_csv:
                source = SourceRow(
                    source.row_number, tuple(restore(c) if isinstance(c, str) else c for c in source.cells)
                )
            checked = check(source.cells)
            values = checked.values
            if values is None:
                bad.append((source, checked.errors))
            else:
                good_src.append(source)
                good_values.append(values)
            batch.last_row = source.row_number
            if len(good_values) + len(bad) >= size:
                self._flush(batch, key_index, errors, total_rows, reader.fraction_done())
                batch = _Batch()
                good_src, good_values, bad = batch.good_sources, batch.good_values, batch.bad
        if good_values or bad:
            self._flush(batch, key_index, errors, total_rows, 1.0)

    def _flush(
        self,
        batch: _Batch,
        key_index: int,
        errors: error_csv.ErrorCsvWriter,
        total_rows: int,
        fraction: float,
    ) -> None:
        """One batch: one transaction with its checkpoint, failures written before the commit."""
        self.ctx.check_stop()  # the batch boundary: a cancel or shutdown stops here, nothing half-done
        # A polite pause between batches (seed 000 §3.2): the window's thread and the other tasks get
        # the GIL and the database; 1 ms a batch costs ~1 s on a million rows, so only the window sets it.
        if self.ctx.settings.batch_pause:
            self.ctx.sleep(self.ctx.settings.batch_pause)
        size = len(batch.good_values) + len(batch.bad)

        def work(conn: Connection) -> None:
            failed = self._write_batch(conn, batch, key_index)
            for source, row_errors in failed:
                errors.write(
                    source.row_number,
                    source.cells,
                    [e.code.value for e in row_errors],
                    [e.message(self.itype, self.lang) for e in row_errors],
                )
            self.counts.total += size
            self.counts.fail += len(failed)
            self.counts.success += size - len(failed)

        before = Counts(*self.counts.as_tuple())
        pending_before = self.pending_completion
        last_row = batch.last_row
        progress = 3 + 92 * min(1.0, max(fraction, (self.counts.total + size) / max(total_rows, 1)))
        stage = stage_text(Stage.VALIDATING if self.options.dry_run else Stage.IMPORTING, self.lang,
                           row=last_row, total=total_rows)  # fmt: skip
        try:
            self.ctx.commit_batch(
                work,
                # read after the work ran, inside the same transaction as the rows it covers
                checkpoint=lambda: {
                    "row": last_row,
                    "rows_in_file": total_rows,
                    "total": self.counts.total,
                    "success": self.counts.success,
                    "fail": self.counts.fail,
                    "pending": self.pending_completion,
                    "error_bytes": errors.size(),
                },
                counts=self.counts.as_tuple,
                progress=progress,
                stage=stage,
            )
        except BaseException:
            # nothing of this batch was committed: the counts go back to the last checkpoint
            self.counts = before
            self.pending_completion = pending_before
            raise

    def _write_batch(self, conn: Connection, batch: _Batch, key_index: int) -> list[_Failed]:
        """Insert the batch's valid rows; returns the failed rows (in row order) with their errors."""
        failed: list[_Failed] = list(batch.bad)
        sources, values = batch.good_sources, batch.good_values
        keys = [v[key_index] for v in values]
        if len(set(keys)) != len(keys) or self.options.dry_run:
            # Rare: a key repeats inside the batch (or a dry run, which keeps every key it saw).
            seen = self._seen if self.options.dry_run else set()
            kept_src, kept_values = [], []
            for source, row in zip(sources, values, strict=True):
                key = row[key_index]
                if key in seen:
                    failed.append((source, (self._key_error(ErrorCode.DUPLICATE_IN_FILE, key),)))
                else:
                    seen.add(key)
                    kept_src.append(source)
                    kept_values.append(row)
            sources, values = kept_src, kept_values
        if self.options.dry_run:
            failed.extend(self._check_existing(conn, sources, values, key_index))
        else:
            failed.extend(self._insert(conn, sources, values, key_index))
        if len(failed) > 1:
            failed.sort(key=lambda item: item[0].row_number)
        return failed

    def _check_existing(
        self, conn: Connection, sources: list[SourceRow], values: list[tuple[object, ...]], key_index: int
    ) -> list[_Failed]:
        """Dry run: the keys a real run would find taken; counts what it would leave unresolved."""
        owners = self.writer.owners_of(conn, [str(v[key_index]) for v in values])
        failed: list[_Failed] = []
        kept: list[tuple[object, ...]] = []
        for source, row in zip(sources, values, strict=True):
            key = row[key_index]
            if key in owners:
                self._seen.discard(key)  # a real run would not have inserted it either
                failed.append((source, (self._key_error(ErrorCode.ALREADY_EXISTS, key),)))
            else:
                kept.append(row)
        self.pending_completion += self._unresolved(self._with_references(kept))
        return failed

    def _insert(
        self, conn: Connection, sources: list[SourceRow], values: list[tuple[object, ...]], key_index: int
    ) -> list[_Failed]:
        rows = self._with_references(values)
        try:
            with conn.begin_nested():
                self.writer.insert_many(conn, rows, self.task_no)
            self.pending_completion += self._unresolved(rows)
            return []
        except IntegrityError:
            pass
        # A unique conflict somewhere in the batch: name the rows whose key is taken, insert the rest.
        owners = self.writer.owners_of(conn, [str(v[key_index]) for v in values])
        failed: list[_Failed] = []
        free_src, free_values = [], []
        for source, row in zip(sources, values, strict=True):
            key = row[key_index]
            if key in owners:
                code = ErrorCode.DUPLICATE_IN_FILE if owners[key] == self.task_no else ErrorCode.ALREADY_EXISTS
                failed.append((source, (self._key_error(code, key),)))
            else:
                free_src.append(source)
                free_values.append(row)
        # Row by row, so a row that conflicts only now (another desk importing the same codes) fails alone.
        extended = self._with_references(free_values)
        went_in = self.writer.insert_each(conn, extended, self.task_no)
        for source, row, ok in zip(free_src, extended, went_in, strict=True):
            if not ok:
                failed.append((source, (self._key_error(ErrorCode.ALREADY_EXISTS, row[key_index]),)))
        self.pending_completion += self._unresolved([r for r, ok in zip(extended, went_in, strict=True) if ok])
        return failed

    def _key_error(self, code: ErrorCode, key: object) -> RowError:
        return RowError(code, self.itype.unique_key, str(key), {"value": str(key)})

    # --- completion ----------------------------------------------------------------------

    def _load_reference_ids(self) -> None:
        with self.ctx.store.reading() as conn:
            for ref in self.references:
                self._ref_ids[ref.column] = self.writer.reference_ids(conn, ref)

    def _with_references(self, rows: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
        """Resolve references as the batch is written (a look-up in a small table read once); a name
        not found there gets no id now and is left for the completion stage."""
        if not self.references:
            return rows
        if not self._ref_ids:
            self._load_reference_ids()
        for ref in self.references:
            index, get = self._key_position[ref.column], self._ref_ids[ref.column].get
            rows = [(*r, get(r[index])) for r in rows]
        return rows

    def _unresolved(self, rows: list[tuple[object, ...]]) -> int:
        """Rows (as extended by _with_references) with a reference name that found no id."""
        width = len(self.itype.keys)
        count = 0
        for n, ref in enumerate(self.references):
            index = self._key_position[ref.column]
            count += sum(1 for r in rows if r[index] is not None and r[width + n] is None)
        return count

    def _complete_references(self) -> None:
        """The completion stage: names unknown at write time may be known now (seed 000 §5.3: outside
        the batch transactions); what is still unknown stays pending and can be completed later."""
        with self.ctx.store.engine.begin() as conn:
            self.pending_completion = sum(
                self.writer.complete_references(conn, ref, self.task_no) for ref in self.references
            )

    # --- the result ----------------------------------------------------------------------

    def _summarise(self, mapping: HeaderMapping, encoding: str | None, fmt: str) -> TaskOutcome:
        self._stage(Stage.SUMMARISING, 98)
        folder = self.ctx.results_dir / self.task_no
        folder.mkdir(parents=True, exist_ok=True)
        error_path: Path | None = None
        if self.counts.fail:
            error_path = folder / f"{self.task_no}-errors.csv"
            shutil.move(str(self.work_file), error_path)
        else:
            self.work_file.unlink(missing_ok=True)
        warnings = [
            _unknown_warning(h, self.lang)
            for h in mapping.unknown
            if h.strip().lstrip(error_csv.BOM) not in error_csv.MARKER_COLUMNS
        ]
        if self._lost_error_rows_before:
            row = self._lost_error_rows_before
            warnings.append(
                f"第 {row} 行之前的错误明细在中断后丢失（失败计数仍然准确），如需明细请对原文件做一次仅校验"
                if self.lang == "zh"
                else f"the error rows before row {row} were lost in an interruption (the counts are right); "
                "run a validation-only pass of the file to list them"
            )
        total, success, fail = self.counts.as_tuple()
        status = outcome_status(total, fail, self.ctx.settings.fail_threshold)
        repairs = self.options.repairs or error_csv.repaired_task_from_name(self.options.file)
        summary = {
            "import_type": self.itype.name,
            "file": str(self.options.file),
            "format": fmt,
            "encoding": encoding,
            "dry_run": self.options.dry_run,
            "total_count": total,
            "success_count": success,
            "fail_count": fail,
            "pending_completion_count": self.pending_completion,
            "error_csv": str(error_path) if error_path else None,
            "warnings": warnings,
            "repairs": repairs,
            "status": status.value,
        }
        summary_path = folder / "summary.json"
        summary_path.write_text(json.dumps(summary, ensure_ascii=False, indent=2), encoding="utf-8")
        error_msg = None
        if status is TaskStatus.FAILED:
            share = 100 * fail / max(total, 1)
            limit = f"{self.ctx.settings.fail_threshold:.0%}"
            if self.lang == "zh":
                kept = ("（未写入任何数据）" if self.options.dry_run or not success
                        else f"；已成功导入的 {success} 行保留")  # fmt: skip
                error_msg = f"失败 {fail} 行，占 {share:.1f}%，超过 {limit}，整体判定为失败{kept}"
            else:
                kept = ("nothing was written" if self.options.dry_run or not success
                        else f"the {success} rows that went in stay")  # fmt: skip
                error_msg = f"{fail} rows failed ({share:.1f}%, above {limit}): the import counts as failed; {kept}"
        return TaskOutcome(
            status=status,
            total_count=total,
            success_count=success,
            fail_count=fail,
            result_path=str(summary_path),
            error_msg=error_msg,
            summary=summary,
        )

    def _stage(self, stage: Stage, progress: float) -> None:
        self.ctx.report(stage=stage_text(stage, self.lang), progress=progress, force=True)


def _unknown_warning(header: str, lang: Lang) -> str:
    if lang == "zh":
        return f"未识别的列“{header}”已忽略"
    return f'Unknown column "{header}" was ignored'
