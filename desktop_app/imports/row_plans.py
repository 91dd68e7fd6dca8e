"""What each valid row of a batch becomes in the import's mode: inserted, updated, unchanged, skipped,
deleted or failed.

Pure decisions, shared by the real writer and its dry-run twin (a dry run is the real run minus the
commit, LESSONS #21): given the rows already in the table with the batch's keys, and which keys an
earlier row of the file already took, each row gets one plan, in file order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from desktop_app.domain.errors import ErrorCode
from desktop_app.domain.modes import BlankPolicy, ImportMode
from desktop_app.domain.values import canonical
from desktop_app.imports.import_type import ImportType, Kind
from desktop_app.imports.readers import SourceRow
from desktop_app.imports.validator import ABSENT, BLANK, RowError, empty_value
from desktop_app.store.business_rows import BusinessTable, Key, StoredRow


class Action(Enum):
    INSERT = "insert"
    UPDATE = "update"
    UNCHANGED = "unchanged"
    SKIP = "skip"
    DELETE = "delete"
    FAIL = "fail"


@dataclass(slots=True)
class RowPlan:
    """What one row does. INSERT: ``values`` (every type column); UPDATE: ``changes`` (the columns it
    writes) and ``before`` (their stored values, canonical); DELETE: the key alone (the writer reads the
    whole row it deletes); FAIL: ``errors``."""

    source: SourceRow
    action: Action
    key: Key
    key_text: str
    values: tuple[object, ...] | None = None
    changes: dict[str, object] | None = None
    before: dict[str, str | None] | None = None
    errors: tuple[RowError, ...] = field(default=())


# earlier(key_text, stored row or None) -> whether an earlier row of the file took this key
Earlier = Callable[[str, StoredRow | None], bool]


# The modes that read a failing row's key: insert_new skips one whose key is in the table, upsert names the
# required cells it lacks if it would be inserted, update and insert name it in the plan and the change file
# (seen: an update's, then an insert's failing row with an empty key, its clerk unable to tell which row to fix)
KEYED_FAILURES = frozenset({ImportMode.INSERT, ImportMode.INSERT_NEW, ImportMode.UPSERT, ImportMode.UPDATE})


@dataclass(frozen=True, slots=True)
class FailedRow:
    """A row that failed its check: its errors, its key when the key's own cells are valid, and (upsert)
    the required columns it leaves blank, which matter only if it would be inserted."""

    source: SourceRow
    errors: tuple[RowError, ...]
    key: tuple[object, ...] | None = None
    blank_required: tuple[RowError, ...] = ()


Candidate = tuple[SourceRow, tuple[object, ...]] | FailedRow


class RowDecider:
    """Decides the plans of a batch for one import type, mode and blank policy."""

    def __init__(self, itype: ImportType, mode: ImportMode, blank: BlankPolicy, table: BusinessTable,
                 key_indexes: Sequence[int]) -> None:  # fmt: skip
        self.itype = itype
        self.mode = mode
        self.blank = blank
        self.table = table
        self.key_indexes = tuple(key_indexes)
        self.columns = itype.columns
        self._empty = [empty_value(c) for c in itype.columns]
        self._refs = {c.key: c.reference_target for c in itype.columns if c.kind == Kind.REFERENCE}

    def key_of(self, values: Sequence[object]) -> Key:
        return tuple(values[i] for i in self.key_indexes)

    def key_error(self, code: ErrorCode, key: Key, **params: object) -> RowError:
        shown = " / ".join("" if v is None else str(v) for v in key)
        return RowError(code, self.itype.unique_key, shown, {"value": shown, **params})

    def keys_to_find(self, rows: Sequence[Candidate]) -> list[Key]:
        """The keys whose rows in the table the decisions need."""
        keys = []
        for row in rows:
            if isinstance(row, FailedRow):
                if row.key is not None:
                    keys.append(row.key)
            else:
                keys.append(self.key_of(row[1]))
        return keys

    def decide(self, rows: Sequence[Candidate], found: dict[Key, StoredRow], earlier: Earlier) -> list[RowPlan]:
        """One plan per row, in order; a key an earlier (not failed) row took is duplicate_in_file."""
        taken: set[Key] = set()
        plans: list[RowPlan] = []
        table = self.table
        for row in rows:
            if isinstance(row, FailedRow):
                plans.append(self._failed(row, found, earlier, taken))
                continue
            source, values = row
            raw_key = self.key_of(values)
            key = table.fold(raw_key)
            key_text = table.key_text(raw_key)
            stored = found.get(key)
            if key in taken or earlier(key_text, stored):
                plans.append(RowPlan(source, Action.FAIL, key, key_text,
                                     errors=(self.key_error(ErrorCode.DUPLICATE_IN_FILE, raw_key),)))  # fmt: skip
                continue
            plan = self._plan(source, values, raw_key, key, key_text, stored)
            if plan.action is not Action.FAIL:
                taken.add(key)
            plans.append(plan)
        return plans

    def _failed(self, row: FailedRow, found: dict[Key, StoredRow], earlier: Earlier, taken: set[Key]) -> RowPlan:
        """A row whose cells failed: insert_new skips it when its key is in the table (its other cells
        do not matter then); upsert adds the required cells it lacks when it would be inserted."""
        if row.key is None:
            return RowPlan(row.source, Action.FAIL, (), "", errors=row.errors)
        key = self.table.fold(row.key)
        key_text = self.table.key_text(row.key)
        stored = found.get(key)
        skip = self.mode is ImportMode.INSERT_NEW and stored is not None
        if skip and key not in taken and not earlier(key_text, stored):
            taken.add(key)
            return RowPlan(row.source, Action.SKIP, key, key_text)
        errors = row.errors
        if self.mode is ImportMode.UPSERT and stored is None and row.blank_required:
            order = {k: i for i, k in enumerate(self.itype.keys)}
            errors = tuple(sorted((*errors, *row.blank_required), key=lambda e: order.get(e.column or "", -1)))
        return RowPlan(row.source, Action.FAIL, key, key_text, errors=errors)

    def _plan(
        self,
        source: SourceRow,
        values: tuple[object, ...],
        raw_key: Key,
        key: Key,
        key_text: str,
        stored: StoredRow | None,
    ) -> RowPlan:
        mode = self.mode
        if mode is ImportMode.DELETE:
            if stored is None:
                return RowPlan(source, Action.FAIL, key, key_text,
                               errors=(self.key_error(ErrorCode.NOT_FOUND, raw_key, reason="delete"),))  # fmt: skip
            return RowPlan(source, Action.DELETE, key, key_text)
        if stored is None:
            if mode is ImportMode.UPDATE:
                return RowPlan(source, Action.FAIL, key, key_text,
                               errors=(self.key_error(ErrorCode.NOT_FOUND, raw_key),))  # fmt: skip
            return self._insert(source, values, key, key_text)
        if mode is ImportMode.INSERT:
            return RowPlan(source, Action.FAIL, key, key_text,
                           errors=(self.key_error(ErrorCode.ALREADY_EXISTS, raw_key),))  # fmt: skip
        if mode is ImportMode.INSERT_NEW:
            return RowPlan(source, Action.SKIP, key, key_text)
        return self._update(source, values, key, key_text, stored)

    def _insert(self, source: SourceRow, values: tuple[object, ...], key: Key, key_text: str) -> RowPlan:
        """A new row: blank or absent cells (upsert) get the column's default; a required one is missing."""
        if not self.mode.updates:
            return RowPlan(source, Action.INSERT, key, key_text, values=values)
        out = list(values)
        errors = []
        for i, (spec, value) in enumerate(zip(self.columns, values, strict=True)):
            if value is BLANK or value is ABSENT:
                if spec.required:
                    errors.append(RowError(ErrorCode.REQUIRED_MISSING, spec.key, "", {}))
                out[i] = self._empty[i]
        if errors:
            return RowPlan(source, Action.FAIL, key, key_text, errors=tuple(errors))
        return RowPlan(source, Action.INSERT, key, key_text, values=tuple(out))

    def _update(self, source: SourceRow, values: tuple[object, ...], key: Key, key_text: str,
                stored: StoredRow) -> RowPlan:  # fmt: skip
        """The cells the file has change; blank ones keep the stored value (or clear it)."""
        changes: dict[str, object] = {}
        errors = []
        clear = self.blank is BlankPolicy.CLEAR
        for i, (spec, value) in enumerate(zip(self.columns, values, strict=True)):
            if spec.key in self.itype.unique_keys or value is ABSENT:
                continue
            if value is BLANK:
                if not clear:
                    continue
                if spec.required:
                    errors.append(RowError(ErrorCode.REQUIRED_MISSING, spec.key, "", {}))
                    continue
                value = self._empty[i]
            changes[spec.key] = value
        if errors:
            return RowPlan(source, Action.FAIL, key, key_text, errors=tuple(errors))
        if all(self._same(name, value, stored.values.get(name)) for name, value in changes.items()):
            return RowPlan(source, Action.UNCHANGED, key, key_text)
        before = {name: self._text(name, stored.values.get(name)) for name in changes}
        for name in list(changes):
            target = self._refs.get(name)
            if target:
                before[target] = self._text(target, stored.values.get(target))
        return RowPlan(source, Action.UPDATE, key, key_text, changes=changes, before=before)

    def _same(self, name: str, written: object, stored: object) -> bool:
        """Whether a cell would change nothing: equal values (1.5 and 1.50 are), or, when the database
        hands back another Python type (SQLite: a float for a NUMERIC), equal canonical texts."""
        if written.__class__ is stored.__class__ and written == stored:
            return True
        return self._text(name, written) == self._text(name, stored)

    def _text(self, name: str, value: object) -> str | None:
        storage, scale = self.table.storage_of(name)
        return canonical(storage, value, scale)

    def written_text(self, name: str, value: object) -> str | None:
        """A written value as the bookkeeping keeps it."""
        return self._text(name, value)
