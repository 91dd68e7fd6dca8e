"""The `complete_references` task type: resolves the references an import left pending (a department
created since, for example), as a short task."""

from __future__ import annotations

from typing import ClassVar

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskOutcome
from desktop_app.imports.table_spec import references_of
from desktop_app.imports.type_catalog import TypeCatalog
from desktop_app.imports.type_schema import open_business_table
from desktop_app.imports.written_rows import complete_references
from desktop_app.tasks.context import TaskContext


class CompleteReferencesHandler:
    """Resolves the references an import left pending (e.g. a department created since)."""

    task_type: ClassVar[str] = "complete_references"
    lane = Lane.SHORT

    def __init__(self, catalog: TypeCatalog) -> None:
        self.catalog = catalog

    def run(self, ctx: TaskContext) -> TaskOutcome:
        from desktop_app.imports.task import ImportHandler

        task_no = str(ctx.params.get("task_no", ""))
        source = ctx.store.get(task_no)
        if source is None or source.task_type != ImportHandler.task_type:
            raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=task_no)
        itype = self.catalog.get(str(source.params.get("import_type")))
        table = open_business_table(ctx.store.engine, itype, prepare=False)
        before = source.pending_completion_count
        with ctx.store.engine.begin() as conn:
            left = complete_references(conn, table, references_of(itype), task_no)
        ctx.store.annotate(source.id, pending_completion_count=left)
        done = max(0, before - left)
        return TaskOutcome(TaskStatus.SUCCEEDED, total_count=before, success_count=done,
                           summary={"completes": task_no, "pending_completion_count": left})  # fmt: skip
