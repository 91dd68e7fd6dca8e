"""Sorting and filtering the task list by status and by text, over the loaded rows."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel

from desktop_app.domain.status import TaskStatus
from desktop_app.ui.outcomes import status_relabelled
from desktop_app.ui.task_model import SortRole, TaskTableModel, shown_stage
from desktop_app.ui.texts import shown_error

FAILED_LIST = frozenset({TaskStatus.FAILED, TaskStatus.PARTIALLY_SUCCEEDED})


class TaskFilterProxy(QSortFilterProxyModel):
    """Keeps rows whose status is in the chosen set and whose number, file, type or stage contains
    the text; system tasks (the clean-up, completions) only when asked for; finished tasks the clerk
    cleared from the view (ended at or before `cleared_before`) only when asked for. Rows changing
    status move in or out as they change (dynamic filtering)."""

    def __init__(self, source: TaskTableModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._source = source
        self._statuses: frozenset[TaskStatus] | None = None
        self._text = ""
        self._system_shown = False
        self._cleared_before: dt.datetime | None = None
        self.setSourceModel(source)
        self.setSortRole(SortRole)
        self.setDynamicSortFilter(True)

    def set_statuses(self, statuses: Iterable[TaskStatus] | None) -> None:
        self._change_filter(lambda: setattr(self, "_statuses", frozenset(statuses) if statuses is not None else None))

    def set_text(self, text: str) -> None:
        self._change_filter(lambda: setattr(self, "_text", text.strip().casefold()))

    def set_system_shown(self, shown: bool) -> None:
        self._change_filter(lambda: setattr(self, "_system_shown", shown))

    def set_cleared_before(self, stamp: dt.datetime | None) -> None:
        """Hide tasks that ended at or before `stamp` (None: hide none)."""
        self._change_filter(lambda: setattr(self, "_cleared_before", stamp))

    @property
    def cleared_before(self) -> dt.datetime | None:
        return self._cleared_before

    def _change_filter(self, change: Callable[[], None]) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt 6.9+; invalidateFilter() is deprecated there
            self.beginFilterChange()
            change()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            change()
            self.invalidateFilter()

    @property
    def statuses(self) -> frozenset[TaskStatus] | None:
        return self._statuses

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        record = self._source.record(source_row)
        kind = self._source.kinds.of(record)
        if not self._system_shown and kind.system:
            return False
        # by what the Status column says: a check that found bad rows ("Checked") and an undone import ("Undone")
        # are no failed imports (seen in a tryout: both in the failed list), nor is a "Fixed" one
        if self._statuses is not None and (record.status not in self._statuses or status_relabelled(record, kind)):
            return False
        cleared = self._cleared_before
        if cleared is not None and record.ended_at is not None and record.ended_at <= cleared:
            return False
        if not self._text:
            return True
        haystack = " ".join(
            (record.task_no, self._source.file_cell(record), record.task_type,
             str(record.params.get("import_type", "")), shown_stage(record, kind),
             shown_error(record))
        ).casefold()  # fmt: skip
        return self._text in haystack
