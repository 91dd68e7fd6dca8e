"""When a task's file cannot be opened: say so, with the path, "Copy path" and "Show in folder"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from desktop_app.ui.grow import grow_to_fit
from desktop_app.ui.reveal import show_in_folder


class OpenFailedDialog(QDialog):
    """Window-modal, opened with open(); Copy path keeps it up (the clerk may still want the folder)."""

    def __init__(self, path: Path, *, reveal: Callable[[Path], bool] = show_in_folder,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.path = path
        self._reveal = reveal
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.path_edit = QLineEdit(str(path))
        self.path_edit.setReadOnly(True)
        self.path_edit.setCursorPosition(0)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton()
        self.folder_button = QPushButton()
        for button in (self.copy_button, self.folder_button):
            button.setAutoDefault(False)
            self.buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.rejected.connect(self.reject)
        self.copy_button.clicked.connect(self.copy_path)
        self.folder_button.clicked.connect(self.show_folder)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.path_edit)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self.retranslate()
        self.resize(max(460, self.sizeHint().width()), self.sizeHint().height())

    def copy_path(self) -> None:
        QGuiApplication.clipboard().setText(str(self.path))
        self._say(self.tr("The path is copied: paste it into the program you want to open it with."))

    def show_folder(self) -> None:
        if self._reveal(self.path):
            self.accept()
        else:
            self._say(self.tr("The folder could not be opened either. Copy the path and open it yourself."))

    def _say(self, text: str) -> None:
        """The note below the path, the dialog grown to show all of its lines."""
        self.note.setText(text)
        grow_to_fit(self)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Cannot open the file"))
        if self.path.suffix:
            text = self.tr("This computer has no program that opens %1 files, so BatchDesk could not open it:")
            self.message.setText(text.replace("%1", self.path.suffix.lower()))
        else:
            self.message.setText(self.tr("The system could not open this folder:"))
        self.path_edit.setAccessibleName(self.tr("Path"))
        self.copy_button.setText(self.tr("&Copy path"))
        self.folder_button.setText(self.tr("&Show in folder"))
