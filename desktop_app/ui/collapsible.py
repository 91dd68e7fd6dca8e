"""A titled section that opens and closes: "Technical details" in Details, "Advanced" in Settings."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QSizePolicy, QToolButton, QVBoxLayout, QWidget

from desktop_app.ui.texts import without_mnemonic


class Collapsible(QWidget):
    """A flat arrow button with the section's title above its content, which is hidden until opened.

    Signals:
        toggled(bool): the section was opened (True) or closed.
    """

    toggled = Signal(bool)

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.content = content
        self.button = QToolButton()
        self.button.setCheckable(True)
        self.button.setAutoRaise(True)
        self.button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.button.setArrowType(Qt.ArrowType.RightArrow)
        self.button.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(content)
        content.setVisible(False)
        self.button.toggled.connect(self._toggled)

    def set_title(self, title: str) -> None:
        self.button.setText(title)
        self.button.setAccessibleName(without_mnemonic(title))

    def expanded(self) -> bool:
        return self.button.isChecked()

    def set_expanded(self, expanded: bool) -> None:
        self.button.setChecked(expanded)

    def _toggled(self, expanded: bool) -> None:
        self.button.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self.content.setVisible(expanded)
        self.toggled.emit(expanded)
