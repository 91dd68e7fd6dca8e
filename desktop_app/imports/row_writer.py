"""Writing a batch's valid rows in the import's mode, with the bookkeeping an undo needs; and its dry-run twin.

The real writer runs inside the batch's transaction (the checkpoint commits with it). In insert mode
it first tries the whole batch in one executemany (the fast path); a unique conflict anywhere sends
the batch through the look-up path every other mode takes: find the batch's keys in the table, decide
each row (row_plans), apply the plans, and redo row by row whatever the database still refuses (a
key another desk wrote meanwhile; a value a CHECK constraint or a company's own column refuses, which
fails that row alone as rejected_by_database, for updates as for inserts). A delete records each whole
row it deletes (its undo puts it back) and fails alone a row another table's foreign key still refers
to (still_referenced, naming that table). The dry run takes the same decisions against the table as it
is, keeping in memory the keys a real run would have written; its deletes are tried and taken back.
A sync's deletes of the rows its file lacks (imports/sync.py) go through the same delete, keys given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError

from desktop_app.domain.errors import ErrorCode
from desktop_app.domain.modes import ImportMode
from desktop_app.imports import change_plan
from desktop_app.imports.change_plan import ABSENT_ROW, PlannedRow, PlanWriter
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.plan_apply import PlanHold
from desktop_app.imports.progress_state import ImportCounts
from desktop_app.imports.readers import SourceRow
from desktop_app.imports.references import ReferenceResolver
from desktop_app.imports.row_plans import Action, Candidate, FailedRow, RowDecider, RowPlan
from desktop_app.imports.validator import RowError
from desktop_app.store import import_log
from desktop_app.store.business_rows import BusinessTable, Key, StoredRow
from desktop_app.store.db_errors import is_row_refusal
from desktop_app.store.import_log import LogAction

Failed = tuple[SourceRow, tuple[RowError, ...]]
Row = tuple[SourceRow, tuple[object, ...]]
# What a database says of a row it will not take (a key taken, a CHECK, a value too long for the
# column): the batch is redone row by row and such a row fails alone.


@dataclass
class BatchResult:
    """What a batch's valid rows became: the failed ones (with their errors) and the counts."""

    failed: list[Failed] = field(default_factory=list)
    spilled: int = 0  # failed rows already handed to the error CSV (a sliced batch's earlier slices)
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    deleted: int = 0
    pending: int = 0
    rows: int | None = None  # the rows it stands for, when the writer counted them (a planned sync's deletes)

    def add(self, other: BatchResult) -> None:
        """Another part of the same batch (written after this one, in file order)."""
        self.failed += other.failed
        self.spilled += other.spilled
        self.inserted += other.inserted
        self.updated += other.updated
        self.unchanged += other.unchanged
        self.skipped += other.skipped
        self.deleted += other.deleted
        self.pending += other.pending

    def counts(self, rows: int) -> ImportCounts:
        rows = self.rows if self.rows is not None else rows
        return ImportCounts(total=rows, inserted=self.inserted, updated=self.updated, unchanged=self.unchanged,
                            skipped=self.skipped, deleted=self.deleted, fail=len(self.failed) + self.spilled,
                            pending=self.pending)  # fmt: skip


class BatchWriter:
    """Writes batches of one import task (real run)."""

    def __init__(
        self,
        itype: ImportType,
        mode: ImportMode,
        table: BusinessTable,
        decider: RowDecider,
        references: ReferenceResolver,
        task_no: str,
        signature: Callable[[Sequence[object]], str],
    ) -> None:
        self.itype = itype
        self.mode = mode
        self.table = table
        self.decider = decider
        self.references = references
        self.task_no = task_no
        self.signature = signature
        self.hold: PlanHold | None = None  # an apply: each decision held to its dry run's plan

    def write(self, conn: Connection, rows: Sequence[Candidate]) -> BatchResult:
        """A batch's rows in file order (valid ones, and failed ones insert_new and upsert still look at)."""
        result = BatchResult()
        if not rows:
            return result
        # an apply decides every row (the plan may have a row failing that the fast path would insert)
        if self.mode is ImportMode.INSERT and self.hold is None and self._fast_insert(conn, rows, result):
            return result
        self._apply(conn, self._decide(conn, rows), result)
        return result

    def delete_absent(
        self, conn: Connection, keys: Sequence[Key], source_of: Callable[[Key], SourceRow]
    ) -> BatchResult:
        """A sync's deletes: the table's rows with these keys (the file lacks them), each whole row recorded
        as a delete's is (its undo puts it back); ``source_of``: a key's row in the error CSV."""
        result = BatchResult()
        log: list[tuple[str, int, LogAction, dict[str, object] | None]] = []
        fold, text = self.table.fold, self.table.key_text
        plans = [RowPlan(source_of(key), Action.DELETE, fold(key), text(key)) for key in keys]
        if plans:
            self._delete(conn, plans, result, log)
        import_log.record(conn, self.task_no, log)
        return result

    def delete_planned(self, conn: Connection, absent: Sequence[Key], planned: Sequence[PlannedRow],
                       source_of: Callable[[Key], SourceRow]) -> BatchResult:  # fmt: skip
        """An applied sync's deletes: the table rows its file lacks now (``absent``), held to the ones its
        plan deletes (``planned``, row 0): only those, each still as planned (plan_apply.PlanHold)."""
        assert self.hold is not None
        result = BatchResult()
        stored = self.table.find(conn, absent) if absent else {}

        def tried(plan: RowPlan) -> RowError | None:
            return cascade_error(conn, self.table, self.decider, plan) or delete_in_savepoint(
                conn, self.table, self.decider, plan, keep=True)  # fmt: skip

        plans = self.hold.absent_plans(absent, planned, stored, source_of, tried)
        log: list[tuple[str, int, LogAction, dict[str, object] | None]] = []
        result.failed += [(p.source, p.errors) for p in plans if p.action is Action.FAIL]
        deletes = [p for p in plans if p.action is Action.DELETE]
        if deletes:
            self._delete(conn, deletes, result, log)
        import_log.record(conn, self.task_no, log)
        result.rows = len(plans)
        return result

    # --- insert mode's fast path ---------------------------------------------------------

    def _fast_insert(self, conn: Connection, rows: Sequence[Candidate], result: BatchResult) -> bool:
        """The whole batch in one statement: True when every valid row went in."""
        good = [r for r in rows if not isinstance(r, FailedRow)]
        keys = [self.table.fold(self.decider.key_of(values)) for _, values in good]
        # only failed rows (the bulk path's usual slice): nothing to write, no savepoint to open
        if good and (len(set(keys)) != len(keys) or not self._insert_all(conn, good, result)):
            return False
        result.failed += [(r.source, r.errors) for r in rows if isinstance(r, FailedRow)]
        return True

    def _insert_all(self, conn: Connection, rows: Sequence[Row], result: BatchResult) -> bool:
        """The rows in one statement, in a savepoint: True when they all went in."""
        prepared = self._insert_rows(rows)
        try:
            with conn.begin_nested():
                self.table.insert_many(conn, prepared.rows, self.task_no)
                import_log.record(conn, self.task_no, prepared.log)
        except DBAPIError as exc:
            if not is_row_refusal(exc):
                raise
            return False
        result.inserted += len(rows)
        result.pending += prepared.pending
        return True

    # --- the look-up path ----------------------------------------------------------------

    def _decide(self, conn: Connection, rows: Sequence[Candidate]) -> list[RowPlan]:
        keys = self.decider.keys_to_find(rows)
        found = self.table.find(conn, keys)
        seen = import_log.seen(conn, self.task_no, [self.table.key_text(k) for k in keys])
        task_no, managed = self.task_no, self.table.managed

        def earlier(key_text: str, stored: StoredRow | None) -> bool:
            return key_text in seen or (managed and stored is not None and stored.task_no == task_no)

        plans = self.decider.decide(rows, found, earlier)
        return plans if self.hold is None else self.hold.hold(plans, found)

    def _apply(self, conn: Connection, plans: list[RowPlan], result: BatchResult, *, again: bool = True) -> None:
        inserts = [p for p in plans if p.action is Action.INSERT]
        updates = [p for p in plans if p.action is Action.UPDATE]
        deletes = [p for p in plans if p.action is Action.DELETE]
        log: list[tuple[str, int, LogAction, dict[str, object] | None]] = []
        for plan in plans:
            if plan.action is Action.FAIL:
                result.failed.append((plan.source, plan.errors))
            elif plan.action is Action.UNCHANGED:
                result.unchanged += 1
                log.append((plan.key_text, plan.source.row_number, LogAction.UNCHANGED, None))
            elif plan.action is Action.SKIP:
                result.skipped += 1
                log.append((plan.key_text, plan.source.row_number, LogAction.SKIPPED, None))
        if updates:
            self._update(conn, updates, result, log)
        if deletes:
            self._delete(conn, deletes, result, log)
        import_log.record(conn, self.task_no, log)
        if inserts:
            self._insert(conn, inserts, result, again=again)

    def _update(self, conn: Connection, plans: list[RowPlan], result: BatchResult,
                log: list[tuple[str, int, LogAction, dict[str, object] | None]]) -> None:  # fmt: skip
        changes = []
        for plan in plans:
            assert plan.changes is not None
            changes.append((plan.key, self.references.ids_for(plan.changes)))
        try:
            with conn.begin_nested():
                self.table.update_rows(conn, changes)
            done = list(zip(plans, changes, strict=True))
        except DBAPIError as exc:
            if not is_row_refusal(exc):
                raise
            # Row by row: a row the database refuses fails alone, the others are updated.
            done = []
            for plan, change in zip(plans, changes, strict=True):
                try:
                    with conn.begin_nested():
                        self.table.update_rows(conn, [change])
                except DBAPIError as exc:
                    if not is_row_refusal(exc):
                        raise
                    result.failed.append((plan.source, (_rejected(plan, exc),)))
                else:
                    done.append((plan, change))
        for plan, (_key, written) in done:
            assert plan.before is not None
            after = {name: self.decider.written_text(name, value) for name, value in written.items()}
            log.append((plan.key_text, plan.source.row_number, LogAction.UPDATED,
                        {"before": plan.before, "after": after}))  # fmt: skip
        result.updated += len(done)
        result.pending += self.references.unresolved_changes([c for _, (_k, c) in done])

    def _delete(self, conn: Connection, plans: list[RowPlan], result: BatchResult,
                log: list[tuple[str, int, LogAction, dict[str, object] | None]]) -> None:  # fmt: skip
        """Each row read whole (its undo's before-image, recorded in this transaction), then deleted; a row
        gone since the look-up is not_found, one the database refuses (a foreign key) fails alone."""
        images = self.table.images(conn, [p.key for p in plans])
        present = []
        for plan in plans:
            error = cascade_error(conn, self.table, self.decider, plan) if plan.key in images else (
                self.decider.key_error(ErrorCode.NOT_FOUND, plan.key, reason="delete"))  # fmt: skip
            if error is None:
                present.append(plan)
            else:
                result.failed.append((plan.source, (error,)))
        try:
            with conn.begin_nested():
                self.table.delete_rows(conn, [p.key for p in present])
            done = present
        except DBAPIError as exc:
            if not is_row_refusal(exc):
                raise
            done = []
            for plan in present:
                refused = delete_in_savepoint(conn, self.table, self.decider, plan, keep=False)
                if refused is None:
                    done.append(plan)
                else:
                    result.failed.append((plan.source, (refused,)))
        for plan in done:
            log.append((plan.key_text, plan.source.row_number, LogAction.DELETED, {"row": images[plan.key]}))
        result.deleted += len(done)

    def _insert(self, conn: Connection, plans: list[RowPlan], result: BatchResult, *, again: bool) -> None:
        rows = [(p.source, p.values or ()) for p in plans]
        if self._insert_all(conn, rows, result):
            return
        prepared = self._insert_rows(rows)
        # Row by row: a row that conflicts only now (another desk wrote the key meanwhile) is decided
        # again against the table as it is now; one the database refuses for another reason fails alone.
        conflicted: list[RowPlan] = []
        for plan, row, entry in zip(plans, prepared.rows, prepared.entries, strict=True):
            try:
                with conn.begin_nested():
                    self.table.insert_many(conn, [row], self.task_no)
                    import_log.record(conn, self.task_no, [entry] if entry else [])
            except DBAPIError as exc:
                if not is_row_refusal(exc):
                    raise
                if again and isinstance(exc, IntegrityError):
                    conflicted.append(plan)
                else:
                    result.failed.append((plan.source, (_rejected(plan, exc),)))
            else:
                result.inserted += 1
                result.pending += self.references.unresolved([row])
        if conflicted:
            rows = [(p.source, p.values or ()) for p in conflicted]
            self._apply(conn, self._decide(conn, rows), result, again=False)

    # --- rows as the table takes them ----------------------------------------------------

    @dataclass
    class _Prepared:
        rows: list[tuple[object, ...]]
        entries: list[tuple[str, int, LogAction, dict[str, object] | None] | None]
        pending: int

        @property
        def log(self) -> list[tuple[str, int, LogAction, dict[str, object] | None]]:
            return [e for e in self.entries if e is not None]

    def _insert_rows(self, rows: Sequence[Row]) -> BatchWriter._Prepared:
        """Values with their reference ids, and (our tables) the row number and signature; a company's
        own table gets its bookkeeping in import_rows instead."""
        sig = self.signature
        values = [v for _, v in rows]
        extended = self.references.extend(values)
        pending = self.references.unresolved(extended)
        if self.table.managed:
            out = [(*row, source.row_number, sig(v)) for (source, v), row in zip(rows, extended, strict=True)]
            return self._Prepared(out, [None] * len(out), pending)
        entries: list[tuple[str, int, LogAction, dict[str, object] | None] | None] = [
            (self.table.key_text(self.decider.key_of(v)), source.row_number, LogAction.INSERTED, {"sig": sig(v)})
            for source, v in rows
        ]
        return self._Prepared(extended, entries, pending)


def cascade_error(conn: Connection, table: BusinessTable, decider: RowDecider, plan: RowPlan) -> RowError | None:
    """still_referenced for a row whose delete would delete or change another table's rows (a foreign key
    ON DELETE CASCADE or SET NULL): the undo could not put those back, so the row stays."""
    if not table.cascades(conn):
        return None
    found = table.referrer(conn, plan.key, cascading=True)
    if found is None:
        return None
    return decider.key_error(ErrorCode.STILL_REFERENCED, plan.key, table=found[0], columns=", ".join(found[1]))


def delete_in_savepoint(conn: Connection, table: BusinessTable, decider: RowDecider, plan: RowPlan, *,
                        keep: bool) -> RowError | None:  # fmt: skip
    """Delete one row in a savepoint (a refused statement aborts a PostgreSQL transaction otherwise;
    ``keep``: then take it back, a dry run's try): None when the database
    takes the delete, else the row's error: still_referenced naming the table whose rows refer to it."""
    try:
        with conn.begin_nested() as savepoint:
            table.delete_rows(conn, [plan.key])
            if keep:
                savepoint.rollback()
    except DBAPIError as exc:
        if not is_row_refusal(exc):
            raise
        found = table.referrer(conn, plan.key) if isinstance(exc, IntegrityError) else None
        if found is None:
            return _rejected(plan, exc)
        referring, columns = found
        return decider.key_error(ErrorCode.STILL_REFERENCED, plan.key, table=referring, columns=", ".join(columns))
    return None


def _rejected(plan: RowPlan, exc: Exception) -> RowError:
    """rejected_by_database for a row, with what the database said (never the statement)."""
    lines = str(getattr(exc, "orig", exc)).strip().splitlines()
    shown = " / ".join(str(v) for v in plan.key)
    return RowError(ErrorCode.ROW_REJECTED, None, shown, {"detail": (lines[0] if lines else "")[:200]})


class DryRunWriter:
    """The dry-run twin: the same decisions, nothing written; the keys a real run would have taken are
    remembered, so a later repeat is duplicate_in_file as it would be. With a ``plan`` (imports/change_plan),
    each batch's rows that are not unchanged are recorded there as they were decided."""

    def __init__(self, decider: RowDecider, table: BusinessTable, references: ReferenceResolver,
                 plan: PlanWriter | None = None) -> None:  # fmt: skip
        self.decider = decider
        self.table = table
        self.references = references
        self.plan = plan
        self._ids = change_plan.reference_ids(decider.itype)
        self._taken: set[str] = set()

    def write(self, conn: Connection, rows: Sequence[Candidate]) -> BatchResult:
        result = BatchResult()
        if not rows:
            return result
        found: dict[Key, StoredRow] = self.table.find(conn, self.decider.keys_to_find(rows))
        taken = self._taken
        plans = self.decider.decide(rows, found, lambda key_text, _stored: key_text in taken)
        planned: list[PlannedRow] | None = [] if self.plan is not None else None
        for plan in plans:
            row = plan.source.row_number
            if plan.action is Action.FAIL:
                result.failed.append((plan.source, plan.errors))
                if planned is not None:
                    planned.append(change_plan.planned_failure(row, plan.key_text, plan.errors))
                continue
            taken.add(plan.key_text)
            if plan.action is Action.INSERT:
                result.inserted += 1
                result.pending += self.references.unresolved(self.references.extend([plan.values or ()]))
                if planned is not None:
                    values = dict(zip(self.decider.itype.keys, plan.values or (), strict=False))
                    ids = self.references.ids_for(values) if self._ids else None
                    planned.append(change_plan.planned_insert(plan, self.decider, ids))
            elif plan.action is Action.UPDATE:
                result.updated += 1
                written = self.references.ids_for(plan.changes or {})
                result.pending += self.references.unresolved_changes([written])
                if planned is not None:
                    planned.append(change_plan.planned_update(plan, self.decider, written, self._ids))
            elif plan.action is Action.UNCHANGED:
                result.unchanged += 1  # counted, never stored: a row the plan lacks was planned unchanged
            elif plan.action is Action.DELETE:
                # tried and taken back: a row another table refers to fails as the real run fails it
                error = cascade_error(conn, self.table, self.decider, plan) or delete_in_savepoint(
                    conn, self.table, self.decider, plan, keep=True)  # fmt: skip
                if error is None:
                    result.deleted += 1
                    if planned is not None:
                        planned.append(change_plan.planned_delete(row, plan.key_text, self.table, found.get(plan.key)))
                else:
                    taken.discard(plan.key_text)
                    result.failed.append((plan.source, (error,)))
                    if planned is not None:
                        planned.append(change_plan.planned_failure(row, plan.key_text, (error,)))
            else:
                result.skipped += 1
                if planned is not None:
                    planned.append(change_plan.planned_skip(plan))
        if self.plan is not None and planned:
            self.plan.add(planned)
        return result

    def delete_absent(
        self, conn: Connection, keys: Sequence[Key], source_of: Callable[[Key], SourceRow]
    ) -> BatchResult:
        """A sync's deletes tried and taken back, each failing as the real run would fail it."""
        result = BatchResult()
        stored = self.table.find(conn, keys) if self.plan is not None and keys else {}
        planned: list[PlannedRow] = []
        for key in keys:
            plan = RowPlan(source_of(key), Action.DELETE, self.table.fold(key), self.table.key_text(key))
            error = cascade_error(conn, self.table, self.decider, plan) or delete_in_savepoint(
                conn, self.table, self.decider, plan, keep=True)  # fmt: skip
            if error is None:
                result.deleted += 1
                planned.append(change_plan.planned_delete(ABSENT_ROW, plan.key_text, self.table, stored.get(plan.key)))
            else:
                result.failed.append((plan.source, (error,)))
                planned.append(change_plan.planned_failure(ABSENT_ROW, plan.key_text, (error,)))
        if self.plan is not None and planned:
            self.plan.add(planned)
        return result
