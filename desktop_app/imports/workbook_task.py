"""The `workbook` task type: a workbook of several tables, each matched sheet an ordinary import of its own.

The parent task holds the plan (``sheets``: each sheet's type or why it was skipped; ``parts``: the
matched sheets' import params, in the order they run). Its children, import tasks with ``parent`` set,
are queued with it; its run imports them one after another in its own worker slot (tasks/children.py),
each with its own counts, error file, checkpoint and undo, and ends as its worst child.
"""

from __future__ import annotations

from typing import Any, ClassVar

from desktop_app.domain.errors import ErrorCode, Lang, message
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskOutcome, TaskRecord
from desktop_app.imports.options import FILE_FACTS
from desktop_app.imports.task import ImportHandler
from desktop_app.imports.type_catalog import TypeCatalog
from desktop_app.imports.workbook import SheetPlan
from desktop_app.store.tasks import TaskStore
from desktop_app.tasks import builtin_kinds
from desktop_app.tasks.children import run_parts, worst
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.kinds import TaskKind
from desktop_app.tasks.registry import HandlerRegistry

SHEETS = "sheets"  # the parent's param: every sheet's plan (SheetPlan.to_params), in the book's order
PARTS = "parts"  # the parent's param: the matched sheets' import params, in the order they run


def part_key(parent_no: str, index: int) -> str:
    """A child's key: one active import per sheet of a parent, whoever queues it (the submission, or the
    parent's run making up for a crash between the two)."""
    return f"{builtin_kinds.WORKBOOK.name}:{parent_no}:{index}"


def queue_parts(store: TaskStore, parent: TaskRecord) -> list[TaskRecord]:
    """The parent's children, each queued once, in the order they run (each with its sheet's params)."""
    existing = store.children(parent.task_no)
    by_sheet = {str(c.params.get("sheet")): c for c in existing if builtin_kinds.IMPORT.owns(c)}
    # the file as the parent was queued with it: each child's pre-check holds the bytes to it
    facts = {k: parent.params[k] for k in ("file", *FILE_FACTS) if k in parent.params}
    parts = []
    for index, params in enumerate(parent.params.get(PARTS) or []):
        child = by_sheet.get(str(params.get("sheet")))
        if child is None:
            child = store.submit(task_type=ImportHandler.task_type, params={**params, **facts}, creator=parent.creator,
                                 lane=ImportHandler.lane, biz_key=part_key(parent.task_no, index),
                                 refuse_if_committed=False, host=parent.host, parent=parent.task_no).task  # fmt: skip
        parts.append(child)
    return parts


def sheet_plans(record: TaskRecord) -> list[SheetPlan]:
    """A workbook task's plan of every sheet, in the book's order."""
    return [SheetPlan.from_params(p) for p in record.params.get(SHEETS) or []]


def sheets_json(store: TaskStore, record: TaskRecord, lang: Lang) -> list[dict[str, Any]] | None:
    """`status`'s ``sheets`` of a workbook task: per matched sheet (in the order they run) its name and its
    child's task JSON; then each skipped sheet with its reason. None for any other task."""
    if not builtin_kinds.WORKBOOK.owns(record):
        return None
    children = {str(c.params.get("sheet")): c for c in store.children(record.task_no)
                if builtin_kinds.IMPORT.owns(c)}  # fmt: skip
    plans = {p.sheet: p for p in sheet_plans(record)}
    out: list[dict[str, Any]] = []
    for order, params in enumerate(record.params.get(PARTS) or [], start=1):
        sheet = str(params.get("sheet"))
        plan = plans.get(sheet)
        child = children.get(sheet)
        entry: dict[str, Any] = {"sheet": sheet, "order": order, "skipped": False,
                                 "position": plan.position + 1 if plan else None,
                                 "matched_by": plan.matched_by.value if plan and plan.matched_by else None}  # fmt: skip
        entry.update(child.to_json(lang=lang) if child else {"import_type": params.get("import_type")})
        out.append(entry)
    for plan in plans.values():
        if plan.skipped is not None:
            out.append({"sheet": plan.sheet, "position": plan.position + 1, "skipped": True, "import_type": None,
                        "reason": plan.skipped.value, "reason_text": plan.reason_text(lang),
                        "candidates": list(plan.candidates)})  # fmt: skip
    return out


class WorkbookHandler:
    """Imports a workbook's matched sheets, each as its own import task, one after another."""

    kind: ClassVar[TaskKind] = builtin_kinds.WORKBOOK
    task_type: ClassVar[str] = kind.name
    lane = kind.lane

    def __init__(self, catalog: TypeCatalog) -> None:
        # what runs the parts: ordinary imports
        self.parts = HandlerRegistry([ImportHandler(catalog)])

    def run(self, ctx: TaskContext) -> TaskOutcome:
        parts = queue_parts(ctx.store, ctx.task) if not ctx.cancel_requested else ctx.store.children(ctx.task.task_no)
        count = len(parts)

        def starting(index: int, part: TaskRecord) -> None:
            sheet = str(part.params.get("sheet") or "")
            ctx.report(stage=stage_text(Stage.WORKBOOK_SHEET, ctx.lang, index=index + 1, count=count, sheet=sheet),
                       progress=100 * index / max(1, count), force=True)  # fmt: skip

        ended = run_parts(ctx, self.parts, [p.task_no for p in parts], starting=starting)
        return outcome(ended, ctx.lang, skipped=[p for p in sheet_plans(ctx.task) if p.skipped is not None])

    def on_end(self, ctx: TaskContext) -> dict[str, Any]:
        """The parent ends without an outcome of its own (a failure of its run): its parts still waiting are
        cancelled, so none is left queued that no worker would ever claim."""
        for part in ctx.store.children(ctx.task.task_no):
            if part.status is TaskStatus.PENDING:
                ctx.store.cancel(part.task_no)
        return {}


def outcome(parts: list[TaskRecord], lang: Lang, *, skipped: list[SheetPlan] | None = None) -> TaskOutcome:
    """The parent's ending: its worst part's status, the parts' counts added up, and the sheets skipped with
    their reasons (``skipped``: [{sheet, reason, candidates}], the words are the catalog's)."""
    status = worst([p.status for p in parts])
    failed = [f"{p.params.get('sheet')} ({p.task_no})" for p in parts if p.status is TaskStatus.FAILED]
    error_code = error_msg = None
    if failed:
        error_code = ErrorCode.WORKBOOK_SHEETS_FAILED.value
        error_msg = message(ErrorCode.WORKBOOK_SHEETS_FAILED, lang, count=len(failed), sheets=", ".join(failed))
    counts = ("inserted_count", "updated_count", "unchanged_count", "skipped_count", "deleted_count")
    jsons = [p.to_json() for p in parts]
    return TaskOutcome(
        status=status,
        total_count=sum(p.total_count for p in parts),
        success_count=sum(p.success_count for p in parts),
        fail_count=sum(p.fail_count for p in parts),
        error_code=error_code,
        error_msg=error_msg,
        summary={"parts": [p.task_no for p in parts], **{k: sum(int(j.get(k) or 0) for j in jsons) for k in counts},
                 "skipped": [{"sheet": p.sheet, "reason": str(p.skipped), "candidates": list(p.candidates)}
                             for p in skipped or []]},
    )  # fmt: skip
