"""The apply of a change plan: each decision of the real run held to the row its dry run planned.

A row is written only when the writer, deciding as always, takes the planned action with the values the
plan shows: an update's stored values still the plan's ``before`` for every planned column and the same
columns changing, a delete's stored row still the planned row. Anything else (a cell edited since, a key
added or gone, a row planned unchanged that would now change) is changed_since_plan, naming the column
and the two values, or the key: nothing the clerk did not see in the plan is written. A row that fails
keeps its own errors. The plan is looked up by row number, one query a batch (ChangePlan.between), so a
resumed apply checks its rows the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from desktop_app.domain.errors import ErrorCode
from desktop_app.domain.values import SEPARATOR
from desktop_app.imports.change_plan import (
    ChangePlan,
    PlannedCell,
    PlannedRow,
    reference_ids,
    row_cells,
    update_cells,
)
from desktop_app.imports.readers import SourceRow
from desktop_app.imports.references import ReferenceResolver
from desktop_app.imports.row_plans import Action, RowDecider, RowPlan
from desktop_app.imports.validator import RowError
from desktop_app.store.business_rows import BusinessTable, Key, StoredRow

CODE = ErrorCode.CHANGED_SINCE_PLAN
EMPTY = "—"  # an empty value in a message: "was — in the plan, is now 13.00"
# the planned actions of a key that was in the table when the plan was made
_PRESENT = frozenset({Action.UPDATE, Action.UNCHANGED, Action.DELETE, Action.SKIP})


def planned_codes(row: PlannedRow) -> set[str]:
    """The error codes of a planned failure (kept with it; an older plan's message ends with them)."""
    return set(row.codes)


def _shown(value: str | None) -> str:
    return EMPTY if value is None or value == "" else value


class PlanHold:
    """Holds an apply's decisions to its plan, batch by batch."""

    def __init__(self, plan: ChangePlan, decider: RowDecider, references: ReferenceResolver,
                 table: BusinessTable) -> None:  # fmt: skip
        self.plan = plan
        self.decider = decider
        self.references = references
        self.table = table
        self.keys = frozenset(decider.itype.keys)
        self._ids = reference_ids(decider.itype)

    def hold(self, plans: Sequence[RowPlan], found: Mapping[Key, StoredRow]) -> list[RowPlan]:
        """The batch's plans, each one not as planned turned into a changed_since_plan failure."""
        if not plans:
            return []
        numbers = [p.source.row_number for p in plans]
        planned = self.plan.between(min(numbers), max(numbers))
        out = []
        for p in plans:
            error = self.problem(p, planned.get(p.source.row_number), found)
            out.append(p if error is None else RowPlan(p.source, Action.FAIL, p.key, p.key_text, errors=(error,)))
        return out

    def problem(self, p: RowPlan, expected: PlannedRow | None, found: Mapping[Key, StoredRow]) -> RowError | None:
        """Why the decision ``p`` is not what was planned (None: it is). ``expected`` None: planned unchanged."""
        planned = expected.action if expected is not None else Action.UNCHANGED
        present = bool(p.key) and p.key in found
        if p.action is Action.FAIL:
            if planned is Action.FAIL or not p.key:
                return None  # it keeps its own errors
            # a key added or gone made it fail (already_exists, not_found): say so
            if (planned in _PRESENT) != present:
                return self._key(p, "disappeared" if not present else "appeared")
            return None
        if planned is Action.FAIL:
            assert expected is not None
            codes = planned_codes(expected)
            if present and ErrorCode.NOT_FOUND.value in codes:
                return self._key(p, "appeared")
            if not present and ErrorCode.ALREADY_EXISTS.value in codes:
                return self._key(p, "disappeared")
            return RowError(CODE, None, "", {"reason": "was_failed"})
        if (planned in _PRESENT) != present:
            return self._key(p, "appeared" if present else "disappeared")
        if planned is p.action and planned in (Action.INSERT, Action.SKIP, Action.UNCHANGED):
            return None
        if planned is Action.DELETE and p.action is Action.DELETE:
            assert expected is not None
            return self._compare(expected.cells, row_cells(self.table, found[p.key]))
        # an update, or a row planned unchanged that would now be updated (or the reverse)
        return self._update(p, expected)

    def _update(self, p: RowPlan, expected: PlannedRow | None) -> RowError | None:
        planned = expected.cells if expected is not None and expected.action is Action.UPDATE else ()
        now: tuple[PlannedCell, ...] = ()
        if p.action is Action.UPDATE:
            now = update_cells(p, self.decider, self.references.ids_for(p.changes or {}), self._ids)
        return self._changed(planned, now)

    def _changed(self, planned: Sequence[PlannedCell], now: Sequence[PlannedCell]) -> RowError | None:
        """The first column whose stored value is not the plan's: a column only one of them changes was,
        for the other, already the file's value (its ``after``)."""
        was = {c.column: c for c in planned}
        is_ = {c.column: c for c in now}
        for column in dict.fromkeys([*was, *is_]):
            before = was[column].before if column in was else is_[column].after
            stored = is_[column].before if column in is_ else was[column].after
            if before != stored:
                return self._column(column, before, stored)
            if column in was and column in is_ and was[column].after != is_[column].after:
                return self._column(column, was[column].after, is_[column].after)  # a reference's id looked up anew
        return None

    def _compare(self, planned: Sequence[PlannedCell], now: Sequence[PlannedCell]) -> RowError | None:
        """A delete: the stored row, column by column, against the planned one."""
        stored = {c.column: c.before for c in now}
        for cell in planned:
            if cell.column in stored and stored[cell.column] != cell.before:
                return self._column(cell.column, cell.before, stored[cell.column])
        return None

    def _column(self, column: str, planned: str | None, found: str | None) -> RowError:
        params: dict[str, object] = {"reason": "column", "planned": _shown(planned), "found": _shown(found)}
        if column in self.keys:
            return RowError(CODE, column, found or "", params)
        return RowError(CODE, None, found or "", {**params, "column": column})  # a reference's id column

    def _key(self, p: RowPlan, reason: str) -> RowError:
        return self.decider.key_error(CODE, p.key, reason=reason)

    # --- a sync's deletes of the table rows its file lacks --------------------------------------

    def absent_plans(
        self,
        absent: Sequence[Key],
        planned: Sequence[PlannedRow],
        stored: Mapping[Key, StoredRow],
        source_of: Callable[[Key], SourceRow],
        tried: Callable[[RowPlan], RowError | None],
    ) -> list[RowPlan]:
        """A sync's deletes as planned: each planned key still absent from the file and still the planned row
        is deleted; a planned key no longer in the table, a row changed, or a key the table gained since (not
        in the plan: it stays) is changed_since_plan. A delete the plan had failing fails again with its own
        error (``tried``: the delete tried and taken back), or, if it would go through now, was_failed."""
        table = self.table
        now = {table.key_text(k): k for k in absent}
        out: list[RowPlan] = []
        for row in planned:
            key = now.pop(row.key, None)
            if key is None:
                raw = tuple(row.key.split(SEPARATOR))
                gone = self.decider.key_error(CODE, raw, reason="disappeared")
                out.append(RowPlan(source_of(raw), Action.FAIL, table.fold(raw), row.key, errors=(gone,)))
                continue
            plan = RowPlan(source_of(key), Action.DELETE, table.fold(key), row.key)
            error: RowError | None
            if row.action is Action.FAIL:
                error = tried(plan) or RowError(CODE, None, "", {"reason": "was_failed"})
            else:
                error = self._compare(row.cells, row_cells(table, stored[plan.key]))
            out.append(plan if error is None else RowPlan(plan.source, Action.FAIL, plan.key, row.key, errors=(error,)))
        for key_text, key in now.items():
            error = self.decider.key_error(CODE, key, reason="not_planned")
            out.append(RowPlan(source_of(key), Action.FAIL, table.fold(key), key_text, errors=(error,)))
        return out
