"""Sorting and filtering the task list by status and by text, over the loaded rows."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel

from desktop_app.domain.status import TaskStatus
from desktop_app.ui.task_model import SortRole, TaskTableModel, shown_file_name, shown_stage

FAILED_LIST = frozenset({TaskStatus.FAILED, TaskStatus.PARTIALLY_SUCCEEDED})


class TaskFilterProxy(QSortFilterProxyModel):
    """Keeps rows whose status is in the chosen set and whose number, file, type or stage contains
    the text. Rows changing status move in or out as they change (dynamic filtering)."""

    def __init__(self, source: TaskTableModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._source = source
        self._statuses: frozenset[TaskStatus] | None = None
        self._text = ""
        self.setSourceModel(source)
        self.setSortRole(SortRole)
        self.setDynamicSortFilter(True)

    def set_statuses(self, statuses: Iterable[TaskStatus] | None) -> None:
        self._change_filter(lambda: setattr(self, "_statuses", frozenset(statuses) if statuses is not None else None))

    def set_text(self, text: str) -> None:
        self._change_filter(lambda: setattr(self, "_text", text.strip().casefold()))

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
        if self._statuses is not None and record.status not in self._statuses:
            return False
        if not self._text:
            return True
        haystack = " ".join(
            (record.task_no, shown_file_name(record), record.task_type, str(record.params.get("import_type", "")),
             shown_stage(record), record.error_msg or "")
        ).casefold()  # fmt: skip
        return self._text in haystack
