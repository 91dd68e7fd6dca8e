"""The Help menu's two windows: About (version and folders) and the short guide F1 opens."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop_app.ui.grow import grow_to_fit
from desktop_app.ui.reveal import open_local
from desktop_app.ui.texts import without_mnemonic


@dataclass(frozen=True)
class AboutInfo:
    """What About shows: the version and where BatchDesk keeps its files."""

    version: str
    data_dir: Path
    log_dir: Path
    results_dir: Path


class AboutDialog(QDialog):
    """The version and the data, results and log folders, each with a button that opens it."""

    def __init__(self, info: AboutInfo, *, opener: Callable[[Path], bool] = open_local,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._opener = opener
        self.setWindowTitle(self.tr("About BatchDesk"))
        self.title_label = QLabel(f"<h3>BatchDesk {html.escape(info.version)}</h3>")
        blurb = QLabel(self.tr("Imports and exports spreadsheets as background tasks: queue a file, get a task "
                               "number at once, and open the error file when rows fail."))  # fmt: skip
        blurb.setWordWrap(True)
        form = QFormLayout()
        self.fields: dict[str, QLineEdit] = {}
        for key, label, path in (("data", self.tr("Data folder:"), info.data_dir),
                                 ("results", self.tr("Results folder:"), info.results_dir),
                                 ("logs", self.tr("Log folder:"), info.log_dir)):  # fmt: skip
            field = QLineEdit(str(path))
            field.setReadOnly(True)
            field.setAccessibleName(label.rstrip(":："))
            button = QPushButton(self.tr("Open"))
            button.setAutoDefault(False)
            button.setAccessibleName(self.tr("Open %1").replace("%1", label.rstrip(":：")))
            button.clicked.connect(lambda _c=False, p=path: self._open(p))
            row = QHBoxLayout()
            row.addWidget(field, 1)
            row.addWidget(button)
            form.addRow(label, row)
            self.fields[key] = field
        self.note = QLabel()  # a folder the system could not open, said in words (it did nothing before)
        self.note.setWordWrap(True)
        self.note.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title_label)
        layout.addWidget(blurb)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(buttons)
        self.resize(560, self.sizeHint().height())

    def _open(self, path: Path) -> None:
        if self._opener(path):
            self.note.hide()
            return
        self.note.setText(self.tr("The system could not open %1. Copy its path from the field and open it "
                                  "yourself.").replace("%1", str(path)))  # fmt: skip
        self.note.show()
        grow_to_fit(self)


class HelpDialog(QDialog):
    """How a clerk's day goes in BatchDesk, and every shortcut of the window."""

    def __init__(self, actions: list[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(self.tr("BatchDesk help"))
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(False)
        steps = [
            self.tr("Choose a file (or drop it on the window), check the import type and press Queue…."),
            self.tr(
                "The preview shows the first rows as they will be read; press Queue to start. The task "
                "number appears in the list at once."
            ),
            self.tr(
                "The list shows each task's progress, speed and time left. You can close the window: "
                "tasks continue in the background or at the next start."
            ),
            self.tr(
                "When rows fail, open the error file: each row says what is wrong. Correct the rows and "
                "re-import the error file."
            ),
        ]
        rows = "".join(f"<tr><td>{html.escape(without_mnemonic(a.text()))}</td>"
                       f"<td><b>{html.escape(a.shortcut().toString(a.shortcut().SequenceFormat.NativeText))}</b></td></tr>"
                       for a in actions if not a.shortcut().isEmpty())  # fmt: skip
        how, keys = html.escape(self.tr("How it works")), html.escape(self.tr("Keyboard"))
        items = "".join(f"<li>{html.escape(step)}</li>" for step in steps)
        self.browser.setHtml(f"<h3>{how}</h3><ol>{items}</ol><h3>{keys}</h3><table cellpadding='3'>{rows}</table>")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(560, 520)
