"""The task list's filter row: status, free text, and the one-click failed list."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from desktop_app.domain.status import ACTIVE, TaskStatus
from desktop_app.ui.task_filter import FAILED_LIST
from desktop_app.ui.texts import status_text

# Entries of the status box: (key, statuses or None for all)
CHOICES: list[tuple[str, frozenset[TaskStatus] | None]] = [
    ("all", None),
    ("active", frozenset(ACTIVE)),
    ("failed_list", FAILED_LIST),
    *[(s.value, frozenset({s})) for s in TaskStatus],
]


class FilterBar(QWidget):
    """Emits what to show; the proxy model does the filtering.

    Signals:
        statuses_changed(object): a frozenset of TaskStatus, or None for every status.
        text_changed(str): the free-text filter.
    """

    statuses_changed = Signal(object)
    text_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.status_box = QComboBox()
        for key, _statuses in CHOICES:
            self.status_box.addItem("", key)
        self.text_edit = QLineEdit()
        self.text_edit.setClearButtonEnabled(True)
        self.failed_button = QPushButton()
        self.failed_button.setCheckable(True)
        self._status_label = QLabel()
        self._status_label.setBuddy(self.status_box)
        self._text_label = QLabel()
        self._text_label.setBuddy(self.text_edit)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._status_label)
        layout.addWidget(self.status_box)
        layout.addWidget(self._text_label)
        layout.addWidget(self.text_edit, 1)
        layout.addWidget(self.failed_button)
        self.status_box.currentIndexChanged.connect(self._status_chosen)
        self.text_edit.textChanged.connect(self.text_changed)
        self.text_edit.installEventFilter(self)  # Escape clears what was typed
        self.failed_button.toggled.connect(self._failed_toggled)
        self.retranslate()

    def _status_chosen(self, index: int) -> None:
        key, statuses = CHOICES[index]
        self.failed_button.blockSignals(True)
        self.failed_button.setChecked(key == "failed_list")
        self.failed_button.blockSignals(False)
        self.statuses_changed.emit(statuses)

    def _failed_toggled(self, checked: bool) -> None:
        key = "failed_list" if checked else "all"
        self.status_box.setCurrentIndex(self.status_box.findData(key))

    def show_failed_list(self) -> None:
        self.failed_button.setChecked(True)

    def show_all(self) -> None:
        self.status_box.setCurrentIndex(0)
        self.text_edit.clear()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Escape in the find field clears it (as its clear button does); an empty field lets it go on."""
        if (watched is self.text_edit and event.type() == QEvent.Type.KeyPress and self.text_edit.text()
                and isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape):  # fmt: skip
            self.text_edit.clear()
            return True
        return super().eventFilter(watched, event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        names = {"all": self.tr("All tasks"), "active": self.tr("Pending or running"),
                 "failed_list": self.tr("Failed list (failed or partly)")}  # fmt: skip
        for status in TaskStatus:
            names[status.value] = status_text(status)
        for i in range(self.status_box.count()):
            self.status_box.setItemText(i, names[str(self.status_box.itemData(i))])
        self._status_label.setText(self.tr("&Show:"))
        self.status_box.setAccessibleName(self.tr("Show tasks with status"))
        self._text_label.setText(self.tr("Fi&nd:"))
        self.text_edit.setPlaceholderText(self.tr("task number, file name, stage…"))
        self.text_edit.setAccessibleName(self.tr("Find tasks"))
        self.failed_button.setText(self.tr("Failed &list"))
        self.failed_button.setAccessibleName(self.tr("Show only failed tasks"))
