"""The task list's view: row selection, the status and progress painters, and columns fitted to its width."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from desktop_app.ui.column_fit import ColumnFitter
from desktop_app.ui.delegates import ProgressDelegate, StatusDelegate
from desktop_app.ui.outcomes import least_stage_heads, stage_heads, status_words
from desktop_app.ui.task_filter import TaskFilterProxy
from desktop_app.ui.task_model import (
    CREATED,
    ELAPSED,
    FAIL,
    FILE,
    PROCESSED,
    PROGRESS,
    SPEED,
    STAGE,
    STATUS,
    SUCCESS,
    TASK_NO,
    TYPE,
    WidestRole,
)

FIXED_COLUMNS = {TASK_NO: "task_no", PROGRESS: "progress", PROCESSED: "processed", SUCCESS: "succeeded",
                 FAIL: "failed", SPEED: "speed", ELAPSED: "elapsed", CREATED: "created"}  # fmt: skip
# column -> (share of the room left, minimum width, floor width when even the minimums do not fit)
ELASTIC_COLUMNS = {FILE: (3, 110, 52), TYPE: (2, 80, 32), STAGE: (5, 140, 60)}


class TaskTable(QTableView):
    """Rows are selected whole (several, for copying); newest first until the clerk sorts."""

    def __init__(self, proxy: TaskFilterProxy, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(proxy)
        self.setSortingEnabled(True)
        self.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the model's order: newest first
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setTabKeyNavigation(False)  # Tab leaves the list (the arrows move in it): else it never did
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setDefaultSectionSize(26)
        # Python references: PySide drops a delegate's paint() override with its wrapper.
        self._status_delegate, self._progress_delegate = StatusDelegate(self), ProgressDelegate(self)
        self.setItemDelegateForColumn(STATUS, self._status_delegate)
        self.setItemDelegateForColumn(PROGRESS, self._progress_delegate)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.fitter = ColumnFitter(self, fixed=FIXED_COLUMNS, elastic=ELASTIC_COLUMNS, pills=(STATUS, status_words),
                                   widest_role=WidestRole, keep={STAGE: stage_heads},
                                   keep_least={STAGE: least_stage_heads}, fit_content=(TYPE,), spare=(SPEED,),
                                   parent=self)  # fmt: skip
