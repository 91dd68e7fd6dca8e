"""The `export` task type: a table streamed in keyset pages to a temp file, moved into place when done."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import column, func, select, table

from desktop_app.config import resources_dir
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, SubmitResult, TaskOutcome
from desktop_app.exports.definition import ExportDefinition, load_export_definitions
from desktop_app.exports.writer import ENCODINGS, FORMATS, cell_text, open_writer
from desktop_app.imports.import_type import ImportType
from desktop_app.store.tasks import TaskStore
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.identity import host_name
from desktop_app.tasks.result_paths import owned

PAGE = 5000


def export_key(name: str, filters: dict[str, str], fmt: str, encoding: str) -> str:
    """Same definition, filters and format: the same export (one file, and one active task)."""
    text = json.dumps([name, filters, fmt, encoding if fmt == "csv" else ""], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(("export\0" + text).encode()).hexdigest()


class ExportHandler:
    """Exports a table by a declarative definition (resources/exports/*.toml) to CSV or XLSX."""

    task_type = "export"
    lane = Lane.LONG

    def __init__(self, definitions: dict[str, ExportDefinition]) -> None:
        self.definitions = definitions

    @classmethod
    def from_resources(cls, import_types: dict[str, ImportType], directory: Path | None = None) -> ExportHandler:
        return cls(load_export_definitions(directory or resources_dir() / "exports", import_types))

    def definition(self, name: str) -> ExportDefinition:
        try:
            return self.definitions[name]
        except KeyError:
            raise PermanentError(
                ErrorCode.INVALID_PARAMS, detail=f"no export named {name!r} (known: {', '.join(self.definitions)})"
            ) from None

    def submit(
        self,
        store: TaskStore,
        *,
        name: str,
        filters: dict[str, Any],
        fmt: str = "csv",
        encoding: str = "utf-8-sig",
        user: str,
    ) -> SubmitResult:
        """Accept an export: returns the task at once (or the same export still pending/running)."""
        definition = self.definition(name)
        if fmt not in FORMATS:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail=f"format must be one of {', '.join(FORMATS)}")
        if encoding not in ENCODINGS:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail=f"encoding must be one of {', '.join(ENCODINGS)}")
        clean = definition.clean_filters(filters)
        params = {"export": name, "filters": clean, "format": fmt, "encoding": encoding}
        key = export_key(name, clean, fmt, encoding)
        # the file is written into the data dir of the desk that runs it: the asking desk
        return store.submit(task_type=self.task_type, params=params, creator=user, lane=self.lane,
                            biz_key=key, refuse_if_committed=False, host=host_name())  # fmt: skip

    def run(self, ctx: TaskContext) -> TaskOutcome:
        params = ctx.params
        definition = self.definition(str(params.get("export")))
        filters = definition.clean_filters(params.get("filters") or {})
        fmt, encoding = str(params.get("format", "csv")), str(params.get("encoding", "utf-8-sig"))
        needed = {c.key for c in definition.columns} | {f.column for f in definition.filters} | {definition.order_key}
        t = table(definition.table, *(column(name) for name in sorted(needed)))
        where = [_condition(t, definition, name, value) for name, value in filters.items()]
        ctx.report(stage=stage_text(Stage.COUNTING, ctx.lang), progress=1, force=True)
        with ctx.store.reading() as conn:
            total = int(conn.execute(select(func.count()).select_from(t).where(*where)).scalar_one())

        folder = ctx.results_dir / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        final = folder / f"{definition.name}-{stamp}-{ctx.task.task_no}.{fmt}"
        # one temp file per attempt: a worker that lost the task never writes into its successor's file
        temp = ctx.work_dir / f"{ctx.task.task_no}-a{ctx.task.attempt}.export.part"
        writer = open_writer(temp, [c.header for c in definition.columns], fmt, encoding)
        order = t.c[definition.order_key]
        query = select(*(t.c[c.key] for c in definition.columns), order).where(*where).order_by(order).limit(PAGE)
        labels = [c.labels for c in definition.columns]
        done, last = 0, None
        try:
            while True:
                ctx.check_stop()  # a cancel or shutdown stops between pages; the temp file is dropped
                page = query if last is None else query.where(order > last)
                with ctx.store.reading() as conn:
                    rows = conn.execute(page).all()
                if not rows:
                    break
                writer.write_rows(
                    [_label(label, cell_text(value)) for label, value in zip(labels, row, strict=False)] for row in rows
                )
                last = rows[-1][-1]
                done += len(rows)
                ctx.report(
                    progress=2 + 96 * done / max(total, 1),
                    stage=stage_text(Stage.EXPORTING, ctx.lang, row=done, total=total),
                    counts=(total, done, 0),
                )
            writer.close()
            # Still ours? (a fenced write: raises if another worker took the task over meanwhile)
            ctx.report(stage=stage_text(Stage.SUMMARISING, ctx.lang), force=True)
        except BaseException:
            writer.close()
            temp.unlink(missing_ok=True)
            raise
        os.replace(temp, final)  # a half-written file is never visible under its final name
        replaced = self._replace_older(ctx, final)
        return TaskOutcome(
            status=TaskStatus.SUCCEEDED,
            total_count=done,
            success_count=done,
            result_path=str(final),
            summary={
                "export": definition.name,
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
            ctx.store.annotate(older.id, expired=True, replaced_by=ctx.task.task_no)
            replaced.append(older.task_no)
        return replaced


def _label(labels: Mapping[str, str], text: str) -> str:
    return labels.get(text, text) if labels else text


def _condition(t: Any, definition: ExportDefinition, name: str, value: str) -> Any:
    spec = definition.filter(name)
    col = t.c[spec.column]
    bound: Any = dt.date.fromisoformat(value) if spec.kind == "date" else value
    if spec.op == ">=":
        return col >= bound
    if spec.op == "<=":
        return col <= bound
    return col == bound
