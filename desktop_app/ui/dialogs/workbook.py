"""A workbook's preview: each sheet with the import type it is imported as, or why it is skipped; Queue queues it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_app.imports.options import ImportOptions
from desktop_app.imports.workbook import SheetPlan

SHEET, ORDER, TYPE = range(3)


class WorkbookDialog(QDialog):
    """Window-modal, opened with open(). The sheets in the book's order; a matched sheet says which type and
    where in the run it comes (the order its references need), a skipped one why. ``title_of``: an import
    type's title in the window's language; ``reason_of``: a skipped sheet's reason in words."""

    def __init__(self, path: Path, plans: Sequence[SheetPlan], run_order: Sequence[SheetPlan], *,
                 title_of: Callable[[str], str], reason_of: Callable[[SheetPlan], str],
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.path = path
        self.plans = list(plans)
        self._order = {p.sheet: n for n, p in enumerate(run_order, start=1)}
        self._title_of = title_of
        self._reason_of = reason_of
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.table = QTableWidget(len(self.plans), 3)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(TYPE, QHeaderView.ResizeMode.Stretch)
        self.dry_run_box = QCheckBox()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(self._order))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table)
        layout.addWidget(self.dry_run_box)
        layout.addWidget(self.buttons)
        self.retranslate()
        self.resize(640, 360)

    def options(self) -> ImportOptions:
        """The workbook's request: every sheet with the options chosen here."""
        return ImportOptions(file=self.path, import_type="", dry_run=self.dry_run_box.isChecked())

    def cell(self, row: int, column: int) -> str:
        item = self.table.item(row, column)
        return item.text() if item is not None else ""

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Import every sheet: %1").replace("%1", self.path.name))
        self.intro.setText(self.tr("Each sheet is imported as the import type its name or header matches, one "
                                   "after another, a sheet whose references look up another sheet's table after "
                                   "that sheet. A sheet that matches no type, or several, is skipped."))  # fmt: skip
        self.table.setHorizontalHeaderLabels([self.tr("Sheet"), self.tr("Order"), self.tr("Imported as")])
        self.dry_run_box.setText(self.tr("Validate only (commit nothing)"))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Queue"))
        for row, plan in enumerate(self.plans):
            order = self._order.get(plan.sheet)
            kind = self._title_of(plan.import_type) if plan.import_type else self._reason_of(plan)
            for column, text in ((SHEET, plan.sheet), (ORDER, str(order) if order else ""), (TYPE, kind)):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                if column == ORDER:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(row, column, item)
