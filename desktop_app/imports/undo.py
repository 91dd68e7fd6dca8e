"""The `undo` task type: takes back what one import wrote (a resumed one: the file), keeping rows changed since.

Rows the import inserted are deleted, values it updated are put back, each only while the row still
holds exactly what the import wrote (compared column by column with what it recorded, in the same
canonical text on every back-end); a row changed since (by a later task or by hand) is kept and named
in the undo's error CSV with ``changed_since``. Rows a delete took out go back whole, every column as
it was (the image it recorded); a key taken again since keeps its new row (``taken_since``). Batched,
fenced and resumable like an import: each page commits with its checkpoint.

Each bookkeeping entry whose change it took back is marked so in the same page (store/import_log.py): a
row put back is no longer one the import wrote, for an export of "the rows task T imported", a completion
of T's references or a later undo of T (after this one was cancelled) alike. Rows carry the task that
inserted them (our tables' task_no); an update never changes it, so a row put back keeps its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

from desktop_app.domain.errors import ErrorCode, PermanentError, message
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.table_spec import Storage
from desktop_app.domain.task import TaskLink, TaskOutcome, TaskRecord
from desktop_app.domain.values import canonical, parse_canonical, signature
from desktop_app.imports import error_csv
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.resume import import_chain
from desktop_app.imports.type_catalog import TypeCatalog
from desktop_app.imports.type_schema import open_business_table
from desktop_app.imports.written_rows import parse_key_text
from desktop_app.store import import_log
from desktop_app.store.business_rows import BusinessTable, Key, StoredRow
from desktop_app.store.db_errors import db_detail, is_row_refusal
from desktop_app.store.import_log import LogAction, LogEntry
from desktop_app.store.tasks import TaskStore
from desktop_app.tasks import builtin_kinds
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.kinds import TaskKind

PAGE = 500
"""Rows an undo takes a page (one transaction with its checkpoint) where settings.undo_page_rows says nothing."""


def undo_problem(task: TaskRecord) -> str | None:
    """Why a task cannot be undone, as the reason code of its NOT_UNDOABLE message (words in both
    languages in the message catalog), or None."""
    if builtin_kinds.UNDO.owns(task):
        return "undo_itself"
    if not (builtin_kinds.IMPORT.owns(task) or builtin_kinds.WORKBOOK.owns(task)):
        return "not_import"
    if not task.status.is_final:
        return "not_finished"
    if task.params.get("dry_run"):
        return "dry_run"
    return None


def undo_key(task_no: str) -> str:
    """The key of a task's undo: asking again gives the same undo while it is queued or running."""
    return f"{builtin_kinds.UNDO.name}:{task_no}"


def undo_parts(store: TaskStore, workbook: TaskRecord) -> list[TaskRecord]:
    """A workbook's sheets an undo of it takes back, last imported first: the ended imports not undone
    already nor being undone on their own."""
    parts = [c for c in store.children(workbook.task_no) if builtin_kinds.IMPORT.owns(c)]
    return [c for c in reversed(parts)
            if undo_problem(c) is None and not c.undone_by and store.active(undo_key(c.task_no)) is None]  # fmt: skip


def queue_undo_parts(store: TaskStore, undo: TaskRecord, workbook: TaskRecord) -> list[TaskRecord]:
    """The undo of each of a workbook's sheets (undo_parts), as parts of the workbook's undo, in the order
    they run; the ones queued already are kept."""
    existing = {str(c.params.get("undoes")): c for c in store.children(undo.task_no)}
    for part in undo_parts(store, workbook):
        if part.task_no not in existing:
            existing[part.task_no] = store.submit(
                task_type=builtin_kinds.UNDO.name, params={"undoes": part.task_no}, creator=undo.creator,
                lane=builtin_kinds.UNDO.lane, biz_key=undo_key(part.task_no), refuse_if_committed=False,
                parent=undo.task_no).task  # fmt: skip
    return store.children(undo.task_no)


@dataclass(frozen=True)
class _Progress:
    phase: str = "inserted"  # "inserted", then "updated", then "deleted"
    after: int = 0  # the last bookkeeping entry done in the phase
    after_key: str | None = None  # inserted rows of our tables: the last key done (its key text)
    deleted: int = 0
    restored: int = 0
    kept: int = 0
    gone: int = 0  # rows no longer there when the undo came (deleted by hand)
    error_bytes: int | None = None
    member: int = 0  # a resumed import: which task of its chain (itself, then the stopped ones) is undone


class UndoHandler:
    """Undoes one import task (params: ``undoes`` = its task number)."""

    kind: ClassVar[TaskKind] = builtin_kinds.UNDO
    task_type: ClassVar[str] = kind.name
    lane = kind.lane

    def __init__(self, catalog: TypeCatalog) -> None:
        self.catalog = catalog

    def run(self, ctx: TaskContext) -> TaskOutcome:
        task_no = str(ctx.params.get("undoes", ""))
        source = ctx.store.get(task_no)
        if source is None:
            raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=task_no)
        problem = undo_problem(source)
        if problem:
            raise PermanentError(ErrorCode.NOT_UNDOABLE, task_no=task_no, reason=problem)
        if builtin_kinds.WORKBOOK.owns(source):
            return self._undo_workbook(ctx, source)
        itype = self.catalog.get(str(source.params.get("import_type")))
        table = open_business_table(ctx.store.engine, itype, prepare=False)
        # A resumed import's counts are the whole file's, so its undo takes back the whole file: its own
        # rows and those of each stopped import it continued (each under its own task number).
        chain = tuple(import_chain(ctx.store, source.task_no, source.params))
        return _Undo(ctx, source, itype, table, chain).run()

    def _undo_workbook(self, ctx: TaskContext, workbook: TaskRecord) -> TaskOutcome:
        """A workbook's undo: the undo of each of its sheets, last imported first, each an ordinary undo task
        of its own (a part of this one, run here in turn: tasks/children.py); the workbook is undone once
        every one of them ended well."""
        from desktop_app.tasks.children import run_parts, worst
        from desktop_app.tasks.registry import HandlerRegistry

        parts = ctx.store.children(ctx.task.task_no)
        if not parts and not ctx.cancel_requested:
            parts = queue_undo_parts(ctx.store, ctx.task, workbook)
        ctx.report(stage=stage_text(Stage.UNDOING, ctx.lang, task_no=workbook.task_no), progress=1, force=True)
        ended = run_parts(ctx, HandlerRegistry([self]), [p.task_no for p in parts])
        status = worst([p.status for p in ended])
        if status in (TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED):
            ctx.annotate(workbook, {TaskLink.UNDONE_BY: ctx.task.task_no})
        names = ("deleted_count", "restored_count", "kept_count", "gone_count")
        return TaskOutcome(
            status=status,
            total_count=sum(p.total_count for p in ended),
            success_count=sum(p.success_count for p in ended),
            fail_count=sum(p.fail_count for p in ended),
            summary={"undoes": workbook.task_no, "parts": [p.task_no for p in ended],
                     **{n: sum(int(p.summary.get(n) or 0) for p in ended) for n in names}},
        )  # fmt: skip

    def on_hand_back(self, ctx: TaskContext) -> None:
        """Called before the task goes back to pending for a retry: its work files as its checkpoint has them."""
        error_csv.cut_back_to_checkpoint(ctx)


class _Undo:
    def __init__(self, ctx: TaskContext, source: TaskRecord, itype: ImportType, table: BusinessTable,
                 chain: tuple[str, ...]) -> None:  # fmt: skip
        self.ctx = ctx
        self.source = source
        self.chain = chain
        self.itype = itype
        self.table = table
        self.lang = ctx.lang
        saved = ctx.checkpoint or {}
        self.state = _Progress(**saved) if saved else _Progress()
        signed = source.summary.get("signed_columns") or [[k, *table.storage_of(k)] for k in itype.keys]
        self.signed = [(str(n), Storage(s), sc) for n, s, sc in signed]
        self.refs = {c.reference_target for c in itype.columns if c.reference_target}
        # An inserted row's signature says that it changed, not where: it may be any signed column
        # but the key (by which it was found).
        self.insert_columns = [n for n, _, _ in self.signed if n not in table.key and n not in self.refs]
        self.work_file = error_csv.error_csv_work_file(ctx)

    def run(self) -> TaskOutcome:
        self.ctx.report(stage=stage_text(Stage.UNDOING, self.lang, task_no=self.source.task_no), progress=1,
                        force=True)  # fmt: skip
        header = [c.header for c in self.itype.key_columns]
        errors = error_csv.resumed_writer(self.ctx, header, resume_at=self.state.error_bytes, lang=self.lang)
        total = max(1, self.source.success_count)
        try:
            while True:
                if self.state.phase == "inserted":
                    if self.table.managed:
                        self._pages(errors, total, self._managed_inserted_page)
                    else:
                        self._pages(errors, total, self._logged_page(LogAction.INSERTED))
                    self.state = _Progress(**{**asdict(self.state), "phase": "updated", "after": 0})
                if self.state.phase == "updated":
                    self._pages(errors, total, self._logged_page(LogAction.UPDATED))
                    self.state = _Progress(**{**asdict(self.state), "phase": "deleted", "after": 0})
                self._pages(errors, total, self._deleted_page)
                if self.state.member + 1 >= len(self.chain):
                    break
                self.state = _Progress(**{**asdict(self.state), "member": self.state.member + 1, "phase": "inserted",
                                          "after": 0, "after_key": None})  # fmt: skip
        finally:
            errors.close()
        return self._outcome()

    @property
    def _page(self) -> int:
        return self.ctx.settings.undo_page_rows or PAGE

    @property
    def _member(self) -> str:
        """The task of the chain whose rows are being undone."""
        return self.chain[min(self.state.member, len(self.chain) - 1)]

    # --- pages ---------------------------------------------------------------------------

    def _pages(self, errors: error_csv.ErrorCsvWriter, total: int, page: Any) -> None:
        while True:
            self.ctx.check_stop()
            done: list[bool] = []

            def work(conn: Connection, done: list[bool] = done) -> None:
                done.append(page(conn, errors))

            state = self.state
            try:
                self.ctx.commit_batch(
                    work,
                    checkpoint=lambda: {**asdict(self.state), "error_bytes": errors.size()},
                    counts=lambda: self._counts(),
                    progress=2 + 95 * min(1.0, (self.state.deleted + self.state.restored + self.state.kept) / total),
                    stage=stage_text(Stage.UNDOING, self.lang, task_no=self.source.task_no),
                )
            except BaseException:
                self.state = state  # nothing of the page committed
                raise
            if not done or not done[0]:
                return

    def _managed_inserted_page(self, conn: Connection, errors: error_csv.ErrorCsvWriter) -> bool:
        after = parse_key_text(self.table, self.state.after_key) if self.state.after_key is not None else None
        rows = self.table.rows_inserted_by(conn, self._member, after, self._page)
        if not rows:
            return False
        delete: list[Key] = []
        kept = 0
        for row in rows:
            key = tuple(row.values[k] for k in self.table.key)
            if self._signature(row) == row.import_sig:
                delete.append(key)
            else:
                kept += 1
                self._keep(errors, row.import_row or 0, key, self.insert_columns, exact=False)
        self.table.delete_rows(conn, delete)
        s = self.state
        last = tuple(rows[-1].values[k] for k in self.table.key)
        changes = {"after_key": self.table.key_text(last), "deleted": s.deleted + len(delete), "kept": s.kept + kept}
        self.state = _Progress(**{**asdict(s), **changes})
        return True

    def _logged_page(self, action: LogAction) -> Any:
        def page(conn: Connection, errors: error_csv.ErrorCsvWriter) -> bool:
            entries = import_log.entries(conn, self._member, actions=[action], after_id=self.state.after,
                                         limit=self._page)  # fmt: skip
            if not entries:
                return False
            keys = [parse_key_text(self.table, e.key_text) for e in entries]
            found = self.table.find(conn, keys)
            s = self.state
            counts = {"deleted": s.deleted, "restored": s.restored, "kept": s.kept, "gone": s.gone}
            delete: list[Key] = []
            restore: list[tuple[Key, dict[str, object]]] = []
            taken: list[LogEntry] = []
            for entry, key in zip(entries, keys, strict=True):
                row = found.get(self.table.fold(key))
                if row is None:
                    counts["gone"] += 1
                elif action is LogAction.INSERTED:
                    if self._signature(row) == entry.data.get("sig"):
                        delete.append(key)
                        taken.append(entry)
                    else:
                        counts["kept"] += 1
                        self._keep(errors, entry.row_number, key, self.insert_columns, exact=False)
                elif not (changed := self._changed_since(row, entry)):
                    restore.append((key, self._before(entry)))
                    taken.append(entry)
                else:
                    counts["kept"] += 1
                    self._keep(errors, entry.row_number, key, changed, exact=True)
            self.table.delete_rows(conn, delete)
            self.table.update_rows(conn, restore)
            import_log.mark_taken_back(conn, taken)  # the rows are no longer the import's
            counts["deleted"] += len(delete)
            counts["restored"] += len(restore)
            self.state = _Progress(**{**asdict(s), **counts, "after": entries[-1].id})
            return True

        return page

    def _deleted_page(self, conn: Connection, errors: error_csv.ErrorCsvWriter) -> bool:
        """Rows a delete took out, put back whole; a key in the table again keeps the row there now."""
        entries = import_log.entries(conn, self._member, actions=[LogAction.DELETED], after_id=self.state.after,
                                     limit=self._page)  # fmt: skip
        if not entries:
            return False
        keys = [parse_key_text(self.table, e.key_text) for e in entries]
        found = self.table.find(conn, keys, columns=list(self.table.key))
        s = self.state
        back: list[tuple[LogEntry, Key]] = []
        kept = 0
        for entry, key in zip(entries, keys, strict=True):
            if self.table.fold(key) in found:
                kept += 1
                self._write_kept(errors, entry.row_number, key, ErrorCode.TAKEN_SINCE, {})
            else:
                back.append((entry, key))
        put: list[LogEntry] = []
        try:
            with conn.begin_nested():
                self.table.put_back(conn, [e.data["row"] for e, _ in back])
            put = [e for e, _ in back]
        except DBAPIError as exc:
            if not is_row_refusal(exc):
                raise
            # Row by row: a row the database refuses now (a unique value taken since, a row it referred
            # to gone) stays out and is listed; the others go back.
            for entry, key in back:
                try:
                    with conn.begin_nested():
                        self.table.put_back(conn, [entry.data["row"]])
                except DBAPIError as refused:
                    if not is_row_refusal(refused):
                        raise
                    kept += 1
                    self._write_kept(errors, entry.row_number, key, ErrorCode.ROW_REJECTED,
                                     {"detail": db_detail(refused)[:200]})  # fmt: skip
                else:
                    put.append(entry)
        import_log.mark_taken_back(conn, put)
        restored = len(put)
        changes = {"restored": s.restored + restored, "kept": s.kept + kept, "after": entries[-1].id}
        self.state = _Progress(**{**asdict(s), **changes})
        return True

    # --- comparing -----------------------------------------------------------------------

    def _signature(self, row: StoredRow) -> str:
        return signature([canonical(storage, row.values.get(name), scale) for name, storage, scale in self.signed])

    def _changed_since(self, row: StoredRow, entry: LogEntry) -> list[str]:
        """The columns the update wrote that no longer hold what it wrote (reference ids aside: a
        completion fills them later)."""
        after: dict[str, str | None] = entry.data.get("after") or {}
        changed = []
        for name, text in after.items():
            if name in self.refs:
                continue
            storage, scale = self.table.storage_of(name)
            if canonical(storage, row.values.get(name), scale) != text:
                changed.append(name)
        return changed

    def _before(self, entry: LogEntry) -> dict[str, object]:
        before: dict[str, str | None] = entry.data.get("before") or {}
        return {name: parse_canonical(self.table.storage_of(name)[0], text) for name, text in before.items()}

    def _keep(self, errors: error_csv.ErrorCsvWriter, row_number: int, key: Key, columns: Sequence[str], *,
              exact: bool) -> None:  # fmt: skip
        self._write_kept(
            errors, row_number, key, ErrorCode.CHANGED_SINCE, {"changed": self._changed_words(columns, exact=exact)}
        )

    def _write_kept(self, errors: error_csv.ErrorCsvWriter, row_number: int, key: Key, code: ErrorCode,
                    params: dict[str, object]) -> None:  # fmt: skip
        errors.write(row_number, ["" if v is None else canonical(self.table.storage_of(k)[0], v) or ""
                                  for k, v in zip(self.table.key, key, strict=True)],
                     [code.value], [message(code, self.lang, **params)])  # fmt: skip

    def _changed_words(self, columns: Sequence[str], *, exact: bool) -> str:
        """The changed columns as the clerk knows them ("数量、单价"); ``exact`` False: the columns
        that may have changed ("数量、单价 中的一列或几列")."""
        zh = self.lang == "zh"
        names = list(columns) or [n for n, _, _ in self.signed]
        labels = [self.itype.column(n).label(self.lang) if n in self.itype.keys else n for n in names]
        joined = ("、" if zh else ", ").join(labels)
        if exact or len(labels) == 1:
            return joined
        return f"{joined} 中的一列或几列" if zh else f"one or more of {joined}"

    # --- the end -------------------------------------------------------------------------

    def _counts(self) -> tuple[int, int, int]:
        s = self.state
        return (s.deleted + s.restored + s.kept + s.gone, s.deleted + s.restored + s.gone, s.kept)

    def _outcome(self) -> TaskOutcome:
        s = self.state
        folder = self.ctx.results_dir / self.ctx.task.task_no
        error_path = None
        if s.kept:
            folder.mkdir(parents=True, exist_ok=True)
            error_path = folder / error_csv.handed_over_name(self.ctx.task.task_no)
            self.work_file.replace(error_path)
        else:
            self.work_file.unlink(missing_ok=True)
        for task_no in self.chain:  # each is undone now: the file may be imported again
            member = self.source if task_no == self.source.task_no else self.ctx.store.get(task_no)
            if member is not None:
                self.ctx.annotate(member, {TaskLink.UNDONE_BY: self.ctx.task.task_no})
        total, success, fail = self._counts()
        return TaskOutcome(
            status=TaskStatus.PARTIALLY_SUCCEEDED if s.kept else TaskStatus.SUCCEEDED,
            total_count=total,
            success_count=success,
            fail_count=fail,
            summary={
                "undoes": self.source.task_no,
                "import_type": self.itype.name,
                "deleted_count": s.deleted,
                "restored_count": s.restored,
                "kept_count": s.kept,
                "gone_count": s.gone,
                "error_csv": str(error_path) if error_path else None,
            },
        )
