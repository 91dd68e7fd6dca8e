"""A workbook's preview: each sheet with the import type it is imported as, or why it is skipped; Queue queues it."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QBrush, QColor
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

from desktop_app.domain.errors import BatchDeskError
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.workbook import SheetPlan
from desktop_app.ui.background import Background
from desktop_app.ui.texts import window_lang

log = logging.getLogger(__name__)

SHEET, ORDER, TYPE = range(3)
REFUSED = QColor("#b00020")
# team mode: why the login may not import into a type (its name) in a mode (its value), None when it may
# (TaskService.rights_refusal, the single-file preview's check): asks the database, never on the GUI thread
RightsCheck = Callable[[str, str], BatchDeskError | None]


class WorkbookDialog(QDialog):
    """Window-modal, opened with open(). The sheets in the book's order; a matched sheet says which type and
    where in the run it comes (the order its references need), a skipped one why. ``title_of``: an import
    type's title in the window's language; ``reason_of``: a skipped sheet's reason in words. ``rights`` (team
    mode, with ``background``): the login's rights on each matched sheet's table, asked off the GUI thread
    when the dialog opens; a sheet whose type the login may not write is said before anything is queued, and
    Queue stays off (the workbook is queued whole, so the submission would refuse it), as the single-file
    preview does.

    Signals:
        rights_checked(): the login's rights for every matched sheet are known (or could not be read).
    """

    rights_checked = Signal()

    def __init__(self, path: Path, plans: Sequence[SheetPlan], run_order: Sequence[SheetPlan], *,
                 title_of: Callable[[str], str], reason_of: Callable[[SheetPlan], str],
                 background: Background | None = None, rights: RightsCheck | None = None,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.path = path
        self.plans = list(plans)
        self._order = {p.sheet: n for n, p in enumerate(run_order, start=1)}
        self._title_of = title_of
        self._reason_of = reason_of
        # import type -> the refusal, or None: allowed (or not known: the submission checks again)
        self.refusals: dict[str, BatchDeskError | None] = {}
        self._types = sorted({str(p.import_type) for p in self.plans if p.import_type and p.sheet in self._order})
        self._checking = rights is not None and background is not None and bool(self._types)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.table = QTableWidget(len(self.plans), 3)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(TYPE, QHeaderView.ResizeMode.Stretch)
        self.dry_run_box = QCheckBox()
        self.dry_run_box.toggled.connect(lambda _checked: self._name_ok_button())
        self.problem_label = QLabel()
        self.problem_label.setObjectName("workbook_problem")
        self.problem_label.setWordWrap(True)
        self.problem_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem_label.setStyleSheet("color: #b00020;")
        self.problem_label.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table)
        layout.addWidget(self.dry_run_box)
        layout.addWidget(self.problem_label)
        layout.addWidget(self.buttons)
        self.retranslate()
        self.resize(640, 360)
        if self._checking:
            assert rights is not None and background is not None
            self._ask_rights(rights, background)

    def _ask_rights(self, rights: RightsCheck, background: Background) -> None:
        """Every matched sheet's type, in the mode the workbook is queued in, asked in one call."""
        types, mode = list(self._types), self.options().mode.value

        def ask() -> dict[str, BatchDeskError | None]:
            return {name: rights(name, mode) for name in types}

        def done(found: dict[str, BatchDeskError | None]) -> None:
            self.refusals = found
            self._checking = False
            self.retranslate()
            self.rights_checked.emit()

        def failed(exc: BaseException) -> None:
            # the rights could not be read: Queue is let through, and the submission checks them again
            log.info("the login's rights could not be read for the workbook's preview: %s", exc)
            self.refusals = dict.fromkeys(types)
            self._checking = False
            self.retranslate()
            self.rights_checked.emit()

        background.call(ask, done, failed, context=self)

    def refused_types(self) -> list[str]:
        """The matched sheets' types the login may not import into (team mode), in their order."""
        return [name for name in self._types if self.refusals.get(name) is not None]

    def options(self) -> ImportOptions:
        """The workbook's request: every sheet with the options chosen here."""
        return ImportOptions(file=self.path, import_type="", dry_run=self.dry_run_box.isChecked())

    def _name_ok_button(self) -> None:
        """The button says what it will do: validate every sheet while "Validate only" is ticked, else queue."""
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(self.tr("Validate") if self.dry_run_box.isChecked() else self.tr("Queue"))

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
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self._name_ok_button()
        lang = window_lang()
        for row, plan in enumerate(self.plans):
            order = self._order.get(plan.sheet)
            kind = self._title_of(plan.import_type) if plan.import_type else self._reason_of(plan)
            refusal = self.refusals.get(str(plan.import_type)) if order else None
            if refusal is not None:
                kind = self.tr("%1 (not allowed)").replace("%1", kind)
            for column, text in ((SHEET, plan.sheet), (ORDER, str(order) if order else ""), (TYPE, kind)):
                item = QTableWidgetItem(text)
                item.setToolTip(refusal.text(lang) if refusal is not None else text)
                if refusal is not None:
                    item.setForeground(QBrush(REFUSED))
                if column == ORDER:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(row, column, item)
        refused = [r for r in (self.refusals.get(name) for name in self.refused_types()) if r is not None]
        # one line a type: "Cannot queue: You may not change customers: ask an administrator for the right to ..."
        self.problem_label.setText("\n".join(self.tr("Cannot queue: %1").replace("%1", r.text(lang))
                                             for r in refused))  # fmt: skip
        self.problem_label.setVisible(bool(refused))
        ok.setEnabled(bool(self._order) and not self._checking and not refused)
