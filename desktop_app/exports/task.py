"""The `export` task type: a table streamed in keyset pages to a temp file, moved into place when done."""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import logging
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path
from typing import Any, ClassVar

import sqlalchemy as sa

from desktop_app.config import resources_dir
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.table_spec import Storage
from desktop_app.domain.task import TaskLink, TaskOutcome, TaskRecord
from desktop_app.exports.definition import (
    IMPORTED_BY,
    ExportDefinition,
    ExportDefinitionError,
    generic_definition,
    load_export_definition,
)
from desktop_app.exports.fast_csv import write_fast
from desktop_app.exports.fast_xlsx import write_fast_xlsx
from desktop_app.exports.placing import place
from desktop_app.exports.writer import cell_text, open_writer
from desktop_app.imports.resume import import_chain
from desktop_app.imports.type_catalog import TypeCatalog
from desktop_app.imports.type_schema import open_business_table
from desktop_app.imports.written_rows import log_pages, logged_actions, parse_key_text
from desktop_app.store import import_log
from desktop_app.store.business_rows import BusinessTable
from desktop_app.store.dialects import dialect_of
from desktop_app.tasks import builtin_kinds
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.kinds import TaskKind
from desktop_app.tasks.result_paths import owned

log = logging.getLogger(__name__)
PAGE = 5000


def export_key(name: str, filters: dict[str, str], fmt: str, encoding: str, output: str = "") -> str:
    """Same definition, filters, format and destination: the same export (one file, and one active task)."""
    parts: list[Any] = [name, filters, fmt, encoding if fmt == "csv" else ""] + ([output] if output else [])
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(("export\0" + text).encode()).hexdigest()


class ExportHandler:
    """Exports the table of any import type to CSV or XLSX, as the type imports it back; a definition
    file (resources/exports/*.toml) may name the columns, labels and filters of one."""

    kind: ClassVar[TaskKind] = builtin_kinds.EXPORT
    task_type: ClassVar[str] = kind.name
    lane = kind.lane

    def __init__(self, catalog: TypeCatalog, definitions: dict[str, ExportDefinition] | None = None) -> None:
        self.catalog = catalog
        self._files = definitions or {}

    @classmethod
    def from_resources(cls, catalog: TypeCatalog, directory: Path | None = None) -> ExportHandler:
        folder = directory or resources_dir() / "exports"
        definitions: dict[str, ExportDefinition] = {}
        types = catalog.types()
        for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
            try:
                definition = load_export_definition(path, types)
            except ExportDefinitionError as exc:
                log.warning("export definition left out: %s", exc)  # its type may be broken: the rest work
                continue
            definitions[definition.name] = definition
        return cls(catalog, definitions)

    @property
    def definitions(self) -> dict[str, ExportDefinition]:
        """Every export by name: one per import type (its definition file's, else the generic one)."""
        found = {name: generic_definition(itype) for name, itype in self.catalog.types().items()}
        found.update({name: d for name, d in self._files.items() if d.import_type.name in found})
        return found

    def definition(self, name: str) -> ExportDefinition:
        definition = self._files.get(name)
        if definition is not None and definition.import_type.name in self.catalog.types():
            return definition
        if name in self.catalog:
            return generic_definition(self.catalog.get(name))  # a broken type says why
        raise PermanentError(
            ErrorCode.INVALID_PARAMS, detail=f"no export named {name!r} (known: {', '.join(sorted(self.definitions))})"
        )

    def _table_of(self, import_type: str) -> str | None:
        """The table an import type writes (None: a type this desk does not know)."""
        return self.catalog.get(import_type).table if import_type in self.catalog else None

    def run(self, ctx: TaskContext) -> TaskOutcome:
        params = ctx.params
        definition = self.definition(str(params.get("export")))
        filters = definition.clean_filters(params.get("filters") or {})
        fmt, encoding = str(params.get("format", "csv")), str(params.get("encoding", "utf-8-sig"))
        table = open_business_table(ctx.store.engine, definition.import_type, prepare=True, reading=True)
        ctx.report(stage=stage_text(Stage.COUNTING, ctx.lang), progress=1, force=True)
        source = _Rows(ctx, definition, table, filters, typed=fmt == "xlsx", table_of=self._table_of)
        # Counted on a connection of its own while the export's query starts (a million rows: the
        # count 0.14 s, the server's sort before the first row 0.6 s, on PostgreSQL); the first
        # progress waits for it.
        counting = ThreadPoolExecutor(max_workers=1, thread_name_prefix="batchdesk-count")
        total_rows = counting.submit(source.count)
        counting.shutdown(wait=False)

        folder = ctx.results_dir / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        # "Save as": where the clerk chose; the file is the clerk's (never expired nor deleted by BatchDesk)
        output = str(params.get("output") or "")
        final = Path(output) if output else folder / f"{definition.name}-{stamp}-{ctx.task.task_no}.{fmt}"
        # one temp file per attempt: a worker that lost the task never writes into its successor's file
        temp = ctx.work_dir / f"{ctx.task.task_no}-a{ctx.task.attempt}.export.part"
        header = [c.header for c in definition.columns]
        writer = open_writer(temp, header, fmt, encoding, sheet=definition.import_type.title(ctx.lang))
        done = 0

        def progress(rows: int) -> None:
            nonlocal done
            ctx.check_stop()  # a cancel or shutdown stops between pages; the temp file is dropped
            total = total_rows.result()
            done += rows
            ctx.report(
                progress=2 + 96 * done / max(total, 1),
                stage=stage_text(Stage.EXPORTING, ctx.lang, row=done, total=total),
                counts=(total, done, 0),
            )

        try:
            fast = source.imported_by is None
            engine = ctx.store.engine
            if fast and fmt == "csv":
                writer.close()  # the BOM and the header; the database's own rendering appends the rows
                fast = write_fast(engine, definition, table, source.where, temp, encoding, progress)
            elif fast:
                fast = write_fast_xlsx(engine, definition, table, source.where, writer, progress)
            if not fast and source.imported_by is None:  # a value the fast path cannot carry: row by row
                done = 0
                with contextlib.suppress(OSError):
                    writer.close()
                writer = open_writer(temp, header, fmt, encoding, sheet=definition.import_type.title(ctx.lang))
            if not fast:
                for rows in source.pages():
                    progress(0)
                    writer.write_rows(rows)
                    progress(len(rows))
            writer.close()
            # Still ours? (a fenced write: raises if another worker took the task over meanwhile)
            ctx.report(stage=stage_text(Stage.SUMMARISING, ctx.lang), force=True)
        except BaseException:
            # Closing flushes what is buffered, which fails again on a full disk: the temp file goes
            # all the same, so a half-written export never outlives its task.
            with contextlib.suppress(OSError):
                writer.close()
            temp.unlink(missing_ok=True)
            with contextlib.suppress(BaseException):
                total_rows.result()  # the count's connection goes back before the task ends
            raise
        total_rows.result()  # a count that failed (the database went away) fails the export as before
        if output:
            place(temp, final, replace=bool(params.get("replace")))
        else:
            os.replace(temp, final)  # a half-written file is never visible under its final name
        replaced = self._replace_older(ctx, final)
        return TaskOutcome(
            status=TaskStatus.SUCCEEDED,
            total_count=done,
            success_count=done,
            result_path=str(final),
            summary={
                "export": definition.name,
                "import_type": definition.import_type.name,
                "filters": filters,
                "format": fmt,
                "encoding": encoding,
                "file": str(final),
                "replaces": replaced,
            },
        )

    def _replace_older(self, ctx: TaskContext, final: Path) -> list[str]:
        """One file per export: earlier files of the same export are deleted and their tasks marked.
        Only a file in this desk's exports folder is deleted: the row's result_path is not trusted."""
        replaced = []
        exports = ctx.results_dir / "exports"
        for older in ctx.store.ended_with_key(ctx.task.biz_key or "", exclude_id=ctx.task.id):
            if older.summary.get("expired"):
                continue
            target = owned(exports, older.result_path, task_no=older.task_no) if older.result_path else None
            if target is not None and target != final.resolve() and target.is_file():
                target.unlink(missing_ok=True)
            ctx.annotate(older, {TaskLink.REPLACED_BY: ctx.task.task_no}, expired=True)
            replaced.append(older.task_no)
        return replaced


class _Rows:
    """The rows an export writes, a page at a time, as text cells (CSV) or typed values with the labels
    applied (XLSX): the table in key order; with imported_by, the rows that task inserted (our tables
    know it per row) then those it updated."""

    def __init__(self, ctx: TaskContext, definition: ExportDefinition, table: BusinessTable,
                 filters: Mapping[str, str], *, table_of: Callable[[str], str | None],
                 typed: bool = False) -> None:  # fmt: skip
        self.typed = typed
        self._table_of = table_of
        self.ctx = ctx
        self.definition = definition
        self.table = table
        self.imported_by = filters.get(IMPORTED_BY) if definition.filter_spec(IMPORTED_BY).kind == "task_no" else None
        self.where = [self._condition(n, v) for n, v in filters.items() if n != IMPORTED_BY or not self.imported_by]
        self.names = [c.key for c in definition.columns]
        self.labels = [c.labels for c in definition.columns]

    def _imports(self) -> list[TaskRecord]:
        """The imports whose rows the filter takes: the task named; for a workbook, its sheets' imports into
        this export's table (the rows carry their sheet's task number: the workbook's own exported none)."""
        assert self.imported_by is not None
        source = self.ctx.store.get(self.imported_by)
        if source is None:
            return []
        if builtin_kinds.WORKBOOK.owns(source):
            return [child for child in self.ctx.store.children(source.task_no)
                    if self._table_of(str(child.params.get("import_type"))) == self.definition.table]  # fmt: skip
        return [source]

    def _condition(self, name: str, value: str) -> Any:
        spec = self.definition.filter_spec(name)
        col = self.table.table.c[spec.column]
        bound: Any = value
        if spec.kind in ("date", "column"):
            storage = Storage.DATE if spec.kind == "date" else self.table.storage_of(spec.column)[0]
            bound = _typed(storage, value)
        if spec.op == ">=":
            return col >= bound
        if spec.op == "<=":
            return col <= bound
        return col == bound

    def _text(self, row: Sequence[Any]) -> list[Any]:
        if self.typed:
            return [v if not labels or v is None else labels.get(cell_text(v), cell_text(v))
                    for labels, v in zip(self.labels, row, strict=False)]  # fmt: skip
        return [labels.get(text, text) if labels else text
                for labels, text in zip(self.labels, (cell_text(v) for v in row), strict=False)]  # fmt: skip

    def count(self) -> int:
        """The progress's total: the rows pages() goes through (with imported_by, the rows still the
        import's: an undo's taken back are not; the filters may pass fewer of its updated rows)."""
        t = self.table.table
        with self.ctx.store.reading() as conn:
            if self.imported_by is None:
                dialect_of(conn).count_quietly(conn)  # PostgreSQL: no parallel workers beside the read
                return int(conn.execute(sa.select(sa.func.count()).select_from(t).where(*self.where)).scalar_one())
            chain = self._chain()
            logged = sum(import_log.count(conn, task_no, logged_actions(self.table)) for task_no in chain)
            if not self.table.managed:
                return logged
            where = [*self.where, t.c.task_no.in_(chain)]
            return logged + int(conn.execute(sa.select(sa.func.count()).select_from(t).where(*where)).scalar_one())

    def _chain(self) -> list[str]:
        """The task numbers whose rows imported_by takes: a resumed import counts the whole file, its rows and
        those of the stopped imports it continued."""
        chain = [n for record in self._imports() for n in import_chain(self.ctx.store, record.task_no, record.params)]
        return chain or [str(self.imported_by)]  # a task no longer listed (archived): its number still marks its rows

    def pages(self) -> Iterator[list[list[Any]]]:
        if self.imported_by is None:
            for page in self.table.pages(self.ctx.store.reading, self.names, self.where, PAGE):
                yield [self._text(r) for r in page]
            return
        t = self.table.table
        chain = self._chain()
        if self.table.managed:
            where = [*self.where, t.c.task_no.in_(chain)]
            for page in self.table.pages(self.ctx.store.reading, self.names, where, PAGE):
                yield [self._text(r) for r in page]
        with self.ctx.store.reading() as conn:
            entries = [e for task_no in chain for page in log_pages(conn, task_no, logged_actions(self.table))
                       for e in page]  # fmt: skip
        for start in range(0, len(entries), PAGE):
            keys = [parse_key_text(self.table, e.key_text) for e in entries[start : start + PAGE]]
            with self.ctx.store.reading() as conn:
                found = self.table.find(conn, keys, self.names, where=self.where)
            rows = [found[k] for k in (self.table.fold(k) for k in keys) if k in found]
            yield [self._text([r.values[n] for n in self.names]) for r in rows]


def _typed(storage: Storage, text: str) -> object:
    from desktop_app.domain.values import parse_canonical

    value = parse_canonical(storage, text)
    return Decimal(text) if storage is Storage.DECIMAL else value
