"""Ctrl+C in the task list: the selected rows as tab-separated text with a header, as Excel pastes it."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableView

from desktop_app.ui.task_model import PROGRESS


def _cell(value: Any, column: int) -> str:
    if value is None:
        return ""
    text = f"{value}%" if column == PROGRESS else str(value)
    return " ".join(text.split())  # a tab or line break inside a cell would split it


def rows_as_text(view: QTableView) -> str:
    """The selected rows (else the current one) in the order shown, the columns as the view shows them;
    "" when there is nothing to copy."""
    model, header = view.model(), view.horizontalHeader()
    columns = [header.logicalIndex(v) for v in range(header.count())]
    columns = [c for c in columns if not header.isSectionHidden(c)]
    selection = view.selectionModel()
    rows = sorted({index.row() for index in selection.selectedRows()})
    if not rows and selection.currentIndex().isValid():
        rows = [selection.currentIndex().row()]
    if not rows:
        return ""
    lines = ["\t".join(_cell(model.headerData(c, Qt.Orientation.Horizontal), -1) for c in columns)]
    lines += ["\t".join(_cell(model.index(row, c).data(), c) for c in columns) for row in rows]
    return "\n".join(lines) + "\n"
