"""The details panel's frame in the window: a title, a close button, and the action that shows it."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtGui import QAction, QHideEvent, QShowEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QStyle, QToolButton, QVBoxLayout, QWidget

from desktop_app.ui.details import DetailsPanel

MIN_WIDTH = 260
MIN_HEIGHT = 120


class DetailsPane(QFrame):
    """Holds the DetailsPanel beside or below the task list (the window's splitter decides where)."""

    def __init__(self, details: DetailsPanel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.details = details
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setMinimumSize(MIN_WIDTH, MIN_HEIGHT)
        self._title = QLabel()
        font = self._title.font()
        font.setBold(True)
        self._title.setFont(font)
        self.close_button = QToolButton()
        self.close_button.setAutoRaise(True)
        self.close_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_TitleBarCloseButton))
        self.close_button.clicked.connect(self.hide)
        head = self._head = QHBoxLayout()
        head.setContentsMargins(6, 2, 2, 0)
        head.addWidget(self._title, 1)
        head.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(head)
        layout.addWidget(details, 1)
        self._action = QAction(self)
        self._action.setCheckable(True)
        self._action.toggled.connect(self.setVisible)
        self.retranslate()

    def compact_height(self) -> int:
        """No task selected: the title and the one line, the list below or above getting the rest."""
        return self._head.sizeHint().height() + self.details.empty_height() + 2 * self.frameWidth()

    def fit_empty(self, empty: bool) -> None:
        """The least height the pane may be dragged to: the one line's while no task is selected."""
        self.setMinimumHeight(self.compact_height() if empty else MIN_HEIGHT)

    def toggleViewAction(self) -> QAction:
        """Named as QDockWidget's: the checkable action that shows and hides the pane."""
        return self._action

    def showEvent(self, event: QShowEvent) -> None:
        self._action.setChecked(True)
        super().showEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:
        if self.isHidden():  # hidden itself, not with the window (the tray, minimising)
            self._action.setChecked(False)
        super().hideEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self._title.setText(self.tr("Task details"))
        self.close_button.setToolTip(self.tr("Close the details"))
        self.close_button.setAccessibleName(self.tr("Close the details"))
        self._action.setText(self.tr("&Details panel"))
        self.setAccessibleName(self.tr("Task details"))
