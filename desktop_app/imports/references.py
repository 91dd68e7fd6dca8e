"""References resolved while writing: a name looked up in a small table read once; the rest left for later."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager

from sqlalchemy import Connection

from desktop_app.domain.table_spec import TableReference
from desktop_app.imports.import_type import ImportType
from desktop_app.store.business_rows import BusinessTable


class ReferenceResolver:
    """Appends each reference's id to the values written (None while the name is unknown)."""

    def __init__(self, itype: ImportType, table: BusinessTable,
                 reading: Callable[[], AbstractContextManager[Connection]]) -> None:  # fmt: skip
        self.references: tuple[TableReference, ...] = table.spec.references  # the task's one spec
        self._table = table
        self._reading = reading
        self._position = {key: i for i, key in enumerate(itype.keys)}
        self._width = len(itype.keys)
        self._ids: dict[str, dict[object, int]] | None = None

    def ids(self) -> dict[str, dict[object, int]]:
        """Each reference column's names and their ids, read once."""
        if self._ids is None:
            with self._reading() as conn:
                self._ids = {ref.column: self._table.reference_ids(conn, ref) for ref in self.references}
        return self._ids

    def extend(self, rows: Sequence[tuple[object, ...]]) -> list[tuple[object, ...]]:
        """Each row (the type's values) with every reference's id appended."""
        if not self.references:
            return list(rows)
        ids = self.ids()
        out = list(rows)
        for ref in self.references:
            index, get = self._position[ref.column], ids[ref.column].get
            out = [(*r, get(r[index])) for r in out]
        return out

    def ids_for(self, changes: dict[str, object]) -> dict[str, object]:
        """An update's changes with the id of each reference column it writes."""
        if not self.references:
            return changes
        ids = self.ids()
        out = dict(changes)
        for ref in self.references:
            if ref.column in changes:
                out[ref.id_column] = ids[ref.column].get(changes[ref.column])
        return out

    def unresolved(self, rows: Sequence[tuple[object, ...]]) -> int:
        """Rows (as extended) whose reference name found no id."""
        count = 0
        for n, ref in enumerate(self.references):
            index, id_index = self._position[ref.column], self._width + n
            count += sum(1 for r in rows if r[index] is not None and r[id_index] is None)
        return count

    def unresolved_changes(self, changes: Sequence[dict[str, object]]) -> int:
        return sum(
            1
            for change in changes
            for ref in self.references
            if change.get(ref.column) is not None and ref.id_column in change and change[ref.id_column] is None
        )
