"""The `complete_references` task type: resolves the references an import left pending (a department
created since, for example), as a short task; asked to, it first adds the names not found to their
reference tables (where the type allows it: ``allow_add = true``), or writes the rows the import failed
for values a clerk has mapped since (``values``: a value fix, imports/value_fixes.py)."""

from __future__ import annotations

from typing import ClassVar

from sqlalchemy import Connection
from sqlalchemy.exc import DataError, IntegrityError

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.table_spec import TableReference
from desktop_app.domain.task import TaskOutcome, TaskRecord
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.missing_references import SUMMARY_KEY, MissingReference, as_summary, find_missing
from desktop_app.imports.resume import import_chain
from desktop_app.imports.table_spec import references_of
from desktop_app.imports.type_catalog import TypeCatalog
from desktop_app.imports.type_schema import open_business_table
from desktop_app.imports.value_fixes import fix_values
from desktop_app.imports.written_rows import complete_references
from desktop_app.store.business_rows import BusinessTable
from desktop_app.store.tasks import TaskStore
from desktop_app.tasks import builtin_kinds
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.kinds import TaskKind


class CompleteReferencesHandler:
    """Resolves the references an import left pending (e.g. a department created since); with
    ``add`` it adds the missing names first (params: ``task_no``, ``add``)."""

    kind: ClassVar[TaskKind] = builtin_kinds.COMPLETE_REFERENCES
    task_type: ClassVar[str] = kind.name
    lane = kind.lane

    def __init__(self, catalog: TypeCatalog) -> None:
        self.catalog = catalog

    def run(self, ctx: TaskContext) -> TaskOutcome:
        task_no = str(ctx.params.get("task_no", ""))
        source, itype, table, chain = _completed(ctx.store, self.catalog, task_no)
        refs = references_of(itype)
        fixed: dict[str, int] = {}
        if ctx.params.get("values"):
            fixed = fix_values(ctx, source, itype, table)
            source = ctx.store.get(task_no) or source
        before = source.pending_completion_count
        added = 0
        # one transaction: the names added and the rows completed with them commit together
        with ctx.store.engine.begin() as conn:
            if ctx.params.get("add"):
                names: dict[str, list[str]] = {}
                for name in find_missing(conn, table, refs, chain, limit=None):
                    names.setdefault(name.column, []).append(name.value)
                for ref in refs:
                    if ref.allow_add and names.get(ref.column):
                        added += _add(conn, table, ref, names[ref.column])
            left = sum(complete_references(conn, table, refs, number) for number in chain)
            missing = find_missing(conn, table, refs, chain) if left else []
        ctx.annotate(source, None, pending_completion_count=left, **{SUMMARY_KEY: as_summary(missing)})
        done = max(0, before - left)
        if ctx.params.get("values"):
            return TaskOutcome(TaskStatus.SUCCEEDED, total_count=fixed["candidates"], success_count=fixed["fixed"],
                               fail_count=fixed["refused"],
                               summary={"completes": task_no, "pending_completion_count": left, **fixed})  # fmt: skip
        return TaskOutcome(TaskStatus.SUCCEEDED, total_count=before, success_count=done,
                           summary={"completes": task_no, "pending_completion_count": left,
                                    "added_count": added})  # fmt: skip


def _add(conn: Connection, table: BusinessTable, ref: TableReference, names: list[str]) -> int:
    """The names added to the reference table; a table that refuses them (another required column, a name
    too long) is a plain, permanent failure: nothing is added, nothing completed."""
    try:
        with conn.begin_nested():
            return table.add_reference_names(conn, ref, names)
    except (IntegrityError, DataError) as exc:
        detail = str(getattr(exc, "orig", exc)).strip().splitlines()[0][:200]
        raise PermanentError(ErrorCode.NOT_ADDABLE, reason="refused", column=ref.column, table=ref.ref_table,
                             detail=detail) from None  # fmt: skip


def names_to_add(store: TaskStore, catalog: TypeCatalog, task_no: str) -> list[MissingReference]:
    """Every name "Add the missing names and complete" would add for this import now (its columns that allow
    it), most rows first: what the clerk is asked to confirm (the summary lists only the first names)."""
    _source, itype, table, chain = _completed(store, catalog, task_no)
    refs = [ref for ref in references_of(itype) if ref.allow_add]
    with store.reading() as conn:
        return find_missing(conn, table, refs, chain, limit=None)


def _completed(store: TaskStore, catalog: TypeCatalog, task_no: str) -> tuple[TaskRecord, ImportType, BusinessTable,
                                                                                list[str]]:  # fmt: skip
    """The import a completion completes: its record, type and table, and the task numbers whose rows are its
    (a resumed import's chain)."""
    source = store.get(task_no)
    if source is None or not builtin_kinds.IMPORT.owns(source):
        raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=task_no)
    itype = catalog.get(str(source.params.get("import_type")))
    table = open_business_table(store.engine, itype, prepare=False)
    return source, itype, table, import_chain(store, task_no, source.params)
